/** The delimiters a CSV or TSV may use, in the order a tie is settled (a comma is the most common). */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** Lines looked at. */
const SAMPLE_LINES = 20;

/**
 * Which delimiter a file uses, from its first lines, counting outside quotes only (a quoted
 * "Pune, MH" holds no separator). The one that appears the same number of times on every line wins,
 * the most columns first; when none is that regular (rows with trailing cells left out), the one the
 * first line (the header) holds most. A file with none of them is one column; `fallback` says which
 * to assume then (a tab for a .tsv).
 * `complete`: `text` is the whole file, so its last line is whole (otherwise it is left out).
 */
export function sniffDelimiter(text: string, complete: boolean, fallback: Delimiter = ','): Delimiter {
  const lines: Record<Delimiter, number>[] = [];
  let counts = zero();
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length && lines.length < SAMPLE_LINES; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      quoted = !quoted;
      content = true;
    } else if (!quoted && (ch === '\n' || ch === '\r')) {
      if (content) lines.push(counts);
      counts = zero();
      content = false;
    } else if (!quoted && ch in counts) {
      counts[ch as Delimiter] += 1;
      content = true;
    } else if (ch.trim() !== '') {
      content = true;
    }
  }
  if (complete && content && lines.length < SAMPLE_LINES) lines.push(counts);
  if (lines.length === 0) return fallback;
  const order = [fallback, ...DELIMITERS.filter((d) => d !== fallback)];
  const regular = order
    .filter((d) => lines.every((line) => line[d] > 0 && line[d] === lines[0]![d]))
    .sort((a, b) => lines[0]![b] - lines[0]![a]);
  if (regular.length > 0) return regular[0]!;
  const header = order.filter((d) => lines[0]![d] > 0).sort((a, b) => lines[0]![b] - lines[0]![a]);
  return header[0] ?? fallback;
}

function zero(): Record<Delimiter, number> {
  return { ',': 0, ';': 0, '\t': 0, '|': 0 };
}
