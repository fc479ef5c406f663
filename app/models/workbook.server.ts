/**
 * Reports as Excel workbooks, for every report: the download (one sheet per table, the grid's
 * columns, typed numbers and dates, frozen header, formula-like texts neutralised) written with
 * exceljs' streaming WorkbookWriter, and the upload of a filled workbook of that layout, read as a
 * stream into the same string cells as the grid so that the same rules check it.
 */
import { PassThrough, type Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import Decimal from "decimal.js";
import ExcelJS from "exceljs";
import type { UploadProblem } from "~/reports/frame/contract";
import { logger } from "~/utils/logger.server";
import { openXlsx, XlsxReadError, type XlsxCellValue, type XlsxRefusal, type XlsxWorkbook } from "~/utils/xlsx-reader.server";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A column of a sheet: its header label and the key of the row's cell. */
export interface WorkbookColumn {
  key: string;
  label: string;
}

export type WorkbookCell = string | number | Date | null;

export interface WorkbookSheet {
  name: string;
  columns: readonly WorkbookColumn[];
  rows: Iterable<readonly WorkbookCell[]> | AsyncIterable<readonly WorkbookCell[]>;
  /** Number format of the date columns (Excel dates). */
  dateFormat?: string;
}

/** decisions.md section 7: a text cell that a spreadsheet would run as a formula gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A text cell that looks like a formula is neutralised; numbers and dates stay typed. */
const written = (value: WorkbookCell): WorkbookCell => (typeof value === "string" ? (value === "" ? null : neutraliseCell(value)) : value);

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the workbook into `stream` row by row (exceljs' streaming writer: memory stays flat
 * for large reports), yielding to the event loop every 64 rows.
 */
export async function writeWorkbook(stream: Writable, sheets: readonly WorkbookSheet[]): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  for (const { name, columns, rows, dateFormat } of sheets) {
    const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1, xSplit: 0 }] });
    sheet.columns = columns.map((column) => ({ key: column.key, width: Math.min(Math.max(column.label.length + 2, 10), 40) }));
    const header = sheet.addRow(columns.map((column) => column.label));
    header.font = { bold: true };
    header.commit();
    let count = 0;
    for await (const cells of rows) {
      const row = sheet.addRow(cells.map(written));
      if (dateFormat) cells.forEach((cell, index) => cell instanceof Date && (row.getCell(index + 1).numFmt = dateFormat));
      row.commit();
      if (++count % 64 === 0) await yieldToEventLoop();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/** The download response: the workbook is streamed into the body while it is written. */
export function workbookResponse(filename: string, sheets: readonly WorkbookSheet[]): Response {
  const body = new PassThrough();
  writeWorkbook(body, sheets).catch((error: unknown) => {
    logger.error({ err: error, filename }, "workbook failed");
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

// ---------------------------------------------------------------- upload

/** Header labels compared without case and extra spaces. */
const comparableLabel = (label: string) => label.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  return /e/i.test(text) ? new Decimal(value).toFixed() : text;
}

/** Our own download writes a leading apostrophe before a formula-like text: it is taken off again. */
function textValue(text: string): string {
  return text.length > 1 && text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** One cell as the grid's string cell; a date is read as `toText` says (ISO by default). */
export function cellText(value: XlsxCellValue | undefined, dateText: (date: Date) => string = (date) => date.toISOString().slice(0, 10)): string {
  if (value === undefined) return "";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return textValue(value);
  if (value instanceof Date) return dateText(value);
  return value.error;
}

/** A table of the workbook to read: its sheet, its columns, and how a date reads in each column. */
export interface WorkbookTable {
  sheet: string;
  columns: readonly WorkbookColumn[];
  dateText?: (column: WorkbookColumn, date: Date) => string;
}

export type ReadWorkbookResult =
  | {
      ok: true;
      /** Per sheet, every row under the header, empty ones included: row n of the list is row n + 1 of its sheet. */
      rows: Record<string, Record<string, string>[]>;
    }
  | { ok: false; problems: UploadProblem[] };

export const UPLOAD_MESSAGES = {
  unreadable: "The file could not be read as an Excel workbook (.xlsx).",
  tooLarge: "The workbook is too large once unpacked.",
  missingSheet: "The workbook has no sheet {{sheet}}.",
  missingColumns: "Sheet {{sheet}}: these columns are missing from the first row: {{columns}}",
  tooManyRows: "Sheet {{sheet}} has more than {{max}} rows.",
} as const;

const MAX_UPLOAD_ROWS = 100_000;
/**
 * Characters of cell text kept from one upload: more than twice a full 100,000-row FDF sheet,
 * and a bound on the rows a small but well-compressed file can make the server hold.
 */
const MAX_UPLOAD_CHARS = 32 * 1024 * 1024;

type SheetResult = { rows: Record<string, string>[] } | { problem: UploadProblem };

/** The header's column number of each column it names (by label or key, first one wins). */
async function headerPositions(workbook: XlsxWorkbook, sheetName: string, columns: readonly WorkbookColumn[]): Promise<Map<string, number>> {
  const byLabel = new Map<string, WorkbookColumn>();
  for (const column of columns) {
    byLabel.set(comparableLabel(column.label), column);
    byLabel.set(comparableLabel(column.key), column);
  }
  const positions = new Map<string, number>();
  for await (const row of workbook.rows(sheetName)) {
    if (row.number === 1) {
      for (const [columnNumber, value] of row.cells) {
        const column = byLabel.get(comparableLabel(cellText(value)));
        if (column && !positions.has(column.key)) positions.set(column.key, columnNumber);
      }
    }
    break; // the header is the first row or none
  }
  return positions;
}

const emptyRow = (columns: readonly WorkbookColumn[]) => Object.fromEntries(columns.map((column) => [column.key, ""]));

/** The rows under the header, read only as far as the row limit and while `budget` lasts. */
async function readSheet(workbook: XlsxWorkbook, sheetName: string, table: WorkbookTable, budget: { chars: number }): Promise<SheetResult> {
  const { columns, sheet } = table;
  const positions = await headerPositions(workbook, sheetName, columns);
  const missing = columns.filter((column) => !positions.has(column.key));
  if (missing.length) {
    const labels = missing.map((column) => column.label);
    return { problem: { message: UPLOAD_MESSAGES.missingColumns, values: { sheet, columns: labels.join(", ") }, sheet, row: 1, columns: labels } };
  }
  const rows: Record<string, string>[] = [];
  for await (const row of workbook.rows(sheetName, { columns: new Set(positions.values()) })) {
    if (row.number === 1) continue;
    if (row.number - 1 > MAX_UPLOAD_ROWS) return { problem: { message: UPLOAD_MESSAGES.tooManyRows, values: { sheet, max: MAX_UPLOAD_ROWS }, sheet } };
    while (rows.length < row.number - 2) rows.push(emptyRow(columns));
    const cells: Record<string, string> = {};
    for (const column of columns) {
      const dateText = table.dateText ? (date: Date) => table.dateText!(column, date) : undefined;
      cells[column.key] = cellText(row.cells.get(positions.get(column.key)!), dateText);
      budget.chars -= cells[column.key].length;
    }
    if (budget.chars < 0) return { problem: { message: UPLOAD_MESSAGES.tooLarge, sheet } };
    rows.push(cells);
  }
  // Trailing empty rows (formatted but blank) say nothing.
  while (rows.length && columns.every((column) => !(rows[rows.length - 1][column.key] ?? "").trim())) rows.pop();
  return { rows };
}

const refused = (reason: XlsxRefusal): ReadWorkbookResult => ({ ok: false, problems: [{ message: UPLOAD_MESSAGES[reason] }] });

/** Reads an uploaded workbook of a download's layout, as a stream (app/utils/xlsx-reader.server.ts). */
export async function readWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer, tables: readonly WorkbookTable[]): Promise<ReadWorkbookResult> {
  const opened = await openXlsx(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer));
  if (!opened.ok) return refused(opened.reason);
  const { workbook } = opened;
  try {
    const problems: UploadProblem[] = [];
    const rows: Record<string, Record<string, string>[]> = {};
    const budget = { chars: MAX_UPLOAD_CHARS };
    for (const table of tables) {
      const sheetName = workbook.sheetNames.find((name) => comparableLabel(name) === comparableLabel(table.sheet));
      if (!sheetName) {
        problems.push({ message: UPLOAD_MESSAGES.missingSheet, values: { sheet: table.sheet }, sheet: table.sheet });
        continue;
      }
      const result = await readSheet(workbook, sheetName, table, budget);
      if ("problem" in result) problems.push(result.problem);
      else rows[table.sheet] = result.rows;
    }
    return problems.length ? { ok: false, problems } : { ok: true, rows };
  } catch (error) {
    if (error instanceof XlsxReadError) return refused(error.reason);
    throw error;
  } finally {
    workbook.close();
  }
}
