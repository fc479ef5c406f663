/**
 * Pasting a block copied from a spreadsheet: tab-separated cells, one line per row (Excel and
 * LibreOffice quote a cell that holds a tab, a line break or a quote).
 */

/** The cells of a clipboard text, row by row. A final line break does not make an empty row. */
export function parseClipboardBlock(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  let atCellStart = true;
  while (i < text.length) {
    const char = text[i];
    if (atCellStart && char === '"') {
      // A quoted cell: up to the closing quote; "" is a quote.
      let j = i + 1;
      let value = "";
      let closed = false;
      while (j < text.length) {
        if (text[j] === '"') {
          if (text[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          j += 1;
          break;
        }
        value += text[j];
        j += 1;
      }
      const next = text[j];
      if (closed && (next === undefined || next === "\t" || next === "\n" || next === "\r")) {
        cell = value;
        i = j;
        atCellStart = false;
        continue;
      }
      // Not a quoted cell after all (a quote inside the text): read it as it is.
    }
    if (char === "\t") {
      row.push(cell);
      cell = "";
      atCellStart = true;
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atCellStart = true;
    } else {
      cell += char;
      atCellStart = false;
    }
    i += 1;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** True when the text is more than one cell (a tab or a line break inside it). */
export function isBlock(text: string): boolean {
  return /[\t\n\r]/.test(text.replace(/(\r?\n)+$/, ""));
}

/**
 * Writes `block` into `rows` from (startRow, startColumn) rightwards and downwards, adding rows
 * made by `emptyRow` when the block goes past the end; cells past the last column are dropped.
 * `editable(key)` false leaves a column as it is. Returns a new array; changed rows are new objects.
 */
export function applyBlock<Row extends Record<string, unknown>>(
  rows: readonly Row[],
  block: readonly (readonly string[])[],
  {
    startRow,
    startColumn,
    columnKeys,
    editable,
    emptyRow,
  }: {
    startRow: number;
    startColumn: number;
    columnKeys: readonly string[];
    editable: (key: string) => boolean;
    emptyRow: () => Row;
  },
): Row[] {
  const next = [...rows];
  block.forEach((cells, offset) => {
    const rowIndex = startRow + offset;
    while (next.length <= rowIndex) next.push(emptyRow());
    const row: Record<string, unknown> = { ...next[rowIndex] };
    cells.forEach((value, columnOffset) => {
      const key = columnKeys[startColumn + columnOffset];
      if (key !== undefined && editable(key)) row[key] = value;
    });
    next[rowIndex] = row as Row;
  });
  return next;
}
