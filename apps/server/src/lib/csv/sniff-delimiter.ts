/** The delimiters a CSV or TSV may use, in the order a tie is settled (a comma is the most common). */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** Lines looked at. */
const SAMPLE_LINES = 20;

/**
 * Which delimiter a file uses, from its first lines, counting outside quotes only (a quoted
 * "Pune, MH" holds no separator). Each delimiter's usual count per line (the one most lines have)
 * is found; the delimiter that the most lines hold exactly that often wins, then the one with more
 * columns, then the order above. So a title row above the header, or rows whose trailing cells were
 * left out, do not decide: most lines do. A file with none of them is one column; `fallback` says
 * which to assume then (a tab for a .tsv).
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
  let best: { delimiter: Delimiter; lines: number; columns: number } | undefined;
  for (const delimiter of [fallback, ...DELIMITERS.filter((d) => d !== fallback)]) {
    const usual = usualCount(lines.map((line) => line[delimiter]));
    if (usual === 0) continue;
    const agreeing = lines.filter((line) => line[delimiter] === usual).length;
    if (!best || agreeing > best.lines || (agreeing === best.lines && usual > best.columns))
      best = { delimiter, lines: agreeing, columns: usual };
  }
  return best?.delimiter ?? fallback;
}

/** The count most lines have, above 0 (the larger on a tie); 0 when no line has any. */
function usualCount(counts: number[]): number {
  const lines = new Map<number, number>();
  for (const count of counts) if (count > 0) lines.set(count, (lines.get(count) ?? 0) + 1);
  let usual = 0;
  for (const [count, times] of lines)
    if (times > (lines.get(usual) ?? 0) || (times === lines.get(usual) && count > usual)) usual = count;
  return usual;
}

function zero(): Record<Delimiter, number> {
  return { ',': 0, ';': 0, '\t': 0, '|': 0 };
}
