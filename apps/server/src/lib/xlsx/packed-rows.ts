import type { CellProblem, SheetRow } from './read-sheet.ts';

/**
 * A batch of rows as two objects instead of one per cell: every cell's text joined into one string, and
 * each row's number, cell count and cell lengths in one typed array. A worker's message is copied into
 * the importer's heap object by object, so 500 rows of 37 cells came over as 19,000 strings, made on the
 * importer's thread when the message arrived and kept alive by the batches queued behind it: a 100,000-row
 * import grew that heap by about 120 MB before a full collection. Rows are rebuilt as they are read.
 */
export interface PackedRows {
  text: string;
  /** Per row: its number, its cell count, then each cell's length. */
  layout: Uint32Array;
  /** The few rows with cell problems: their index in the batch, and the problems. */
  problems: [number, CellProblem[]][];
}

export function packRows(rows: readonly SheetRow[]): PackedRows {
  let size = 0;
  for (const row of rows) size += 2 + row.cells.length;
  const layout = new Uint32Array(size);
  const texts: string[] = [];
  const problems: [number, CellProblem[]][] = [];
  let at = 0;
  rows.forEach((row, index) => {
    layout[at++] = row.rowNumber;
    layout[at++] = row.cells.length;
    for (const cell of row.cells) {
      layout[at++] = cell.length;
      texts.push(cell);
    }
    if (row.problems) problems.push([index, row.problems]);
  });
  return { text: texts.join(''), layout, problems };
}

export function* unpackRows({ text, layout, problems }: PackedRows): Generator<SheetRow> {
  const problemsOf = new Map(problems);
  let at = 0;
  let offset = 0;
  for (let index = 0; at < layout.length; index++) {
    const rowNumber = layout[at++]!;
    const cells = new Array<string>(layout[at++]!);
    for (let c = 0; c < cells.length; c++) {
      const end = offset + layout[at++]!;
      cells[c] = text.slice(offset, end);
      offset = end;
    }
    const rowProblems = problemsOf.get(index);
    yield rowProblems ? { rowNumber, cells, problems: rowProblems } : { rowNumber, cells };
  }
}
