/**
 * Reports as Excel workbooks, for every export: the download (one sheet per table, the grid's
 * columns, typed numbers and dates, formula-like texts neutralised) written with exceljs'
 * streaming WorkbookWriter, and the upload of a filled workbook of that layout, read as a stream
 * into the same string cells as the grid so that the same rules check it.
 *
 * Every sheet is built here the same way, so that a download also works as an offline template:
 * number formats per column, widths fitted to the content, an autofilter on the header row,
 * drop-down lists (short ones inline, long ones from a hidden sheet), landscape print at 8 pt or
 * more with the header row repeated (see printSetup), and an Info sheet saying what the file holds.
 */
import { PassThrough, type Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import Decimal from "decimal.js";
import type ExcelJS from "exceljs";
import type { UploadProblem } from "~/reports/frame/contract";
import { attachmentDisposition, type DownloadName } from "~/utils/download-names";
import { REPORT_REGISTRY, templateFile } from "~/reports/frame/registry";
import { logger } from "~/utils/logger.server";
import type { ReportFrameView } from "./screen.server";
import { openXlsx, XlsxReadError, type XlsxCellValue, type XlsxRefusal, type XlsxWorkbook } from "~/reports/frame/xlsx-reader.server";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * How a column's numbers show: whole numbers, quantities (whole, or with their decimals), money
 * (two decimals), plain decimals (rates, percentages), years, dates, or text (Excel keeps what
 * is typed, e.g. a strength "10/20" is not turned into a date).
 */
export type WorkbookFormat = "text" | "year" | "integer" | "quantity" | "money" | "decimal" | "date";

/** A column of a sheet: its header label, the key of the row's cell, how it shows and what it may hold. */
export interface WorkbookColumn {
  key: string;
  label: string;
  format?: WorkbookFormat;
  /** The values a cell may take: a drop-down list (Excel warns about anything else but lets it be). */
  list?: readonly string[];
}

export type WorkbookCell = string | number | Date | null;

export interface WorkbookSheet {
  name: string;
  columns: readonly WorkbookColumn[];
  rows: Iterable<readonly WorkbookCell[]> | AsyncIterable<readonly WorkbookCell[]>;
  /** The leading columns that name a row, printed again on each page when the columns take more than one page's width (default 1). */
  keyColumns?: number;
}

/** What the Info sheet says about the file; the export time is added when it is written. */
interface WorkbookInfo {
  report: string;
  partner?: string | null;
  quarter?: string | null;
  /** The report's status; null: not started. Left out for exports that are not one report. */
  status?: string | null;
  /** More lines (a blank template says how to use it). */
  notes?: readonly (readonly [string, string])[];
}

interface WorkbookDocument {
  info: WorkbookInfo;
  sheets: readonly WorkbookSheet[];
}

const INFO_SHEET = "Info";
const LISTS_SHEET = "Lists";
const NOT_STARTED = "Not started";

const DATE_FORMAT = "mm/dd/yyyy";
const NUMBER_FORMATS: Record<WorkbookFormat, string | undefined> = {
  text: "@",
  year: "0",
  integer: "#,##0",
  quantity: "#,##0",
  money: "#,##0.00",
  decimal: undefined,
  date: DATE_FORMAT,
};
/** A quantity with decimals shows them (the column's whole-number format would round them away). */
const FRACTIONAL_QUANTITY = "#,##0.######";
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm";
/** Rows measured to fit the column widths (the rest stream by without being held). */
const MEASURED_ROWS = 500;
const WIDTH = { min: 6, max: 60 } as const;
/** Excel's limit for a list written in the validation itself. */
const INLINE_LIST_MAX_CHARS = 255;
/** What Excel says about a value outside a drop-down's list (it keeps the value: the upload checks it). */
const LIST_WARNING = "This value is not in the list.";
/** Empty rows under the last one that keep the drop-downs, for rows added offline. */
const BLANK_ROWS_VALIDATED = 1000;

/** decisions.md section 7: a text cell starting with one of these, which a spreadsheet would run as a formula, gets a leading apostrophe. */
export const FORMULA_START_CHARACTERS = ["=", "+", "-", "@", "\t", "\r"] as const;
const FORMULA_START = new RegExp(`^[${FORMULA_START_CHARACTERS.join("").replace(/[-\\\]^]/g, "\\$&")}]`);
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A text cell that looks like a formula is neutralised; numbers and dates stay typed. */
const written = (value: WorkbookCell): WorkbookCell => (typeof value === "string" ? (value === "" ? null : neutraliseCell(value)) : value);

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes of a workbook written but not yet taken by its reader that a writer lets build up before it waits. */
const WORKBOOK_BACKLOG_BYTES = 1024 * 1024;

/**
 * The streams between exceljs and the reader. Some are readable-stream 2's, which have no
 * `writableLength` or `readableLength`: what they hold is in their states.
 */
interface QueuedStream {
  writableLength?: number;
  readableLength?: number;
  _writableState?: { length: number };
  _readableState?: { length: number };
}

/**
 * Lets the event loop run, then waits while the workbook's bytes are not taken yet: the sheet's
 * XML not compressed (exceljs's sheet stream never asks its writer to wait, its write() returns
 * true whatever is queued), and the compressed zip the reader has not read (archiver keeps
 * compressing into its own buffer). Rows were turned into XML faster than they left and piled up in
 * memory. A download whose client has gone (`output` destroyed) ends here.
 */
async function workbookWritten(workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExcelJS.Worksheet, output: Writable) {
  await yieldToEventLoop();
  const sheetPipes = (sheet as unknown as { stream?: { pipes?: QueuedStream[] } }).stream?.pipes ?? [];
  const zip = (workbook as unknown as { zip?: QueuedStream }).zip;
  const backlog = () =>
    sheetPipes.reduce((bytes, pipe) => bytes + (pipe.writableLength ?? pipe._writableState?.length ?? 0), 0) +
    (zip ? (zip.readableLength ?? zip._readableState?.length ?? 0) : 0);
  for (;;) {
    if (output.destroyed) throw new Error("The workbook's reader has gone.");
    if (backlog() <= WORKBOOK_BACKLOG_BYTES) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Column letters of a 1-based column number (1 → A, 27 → AA). */
function columnLetter(column: number): string {
  let letters = "";
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** The characters a cell shows, near enough to size its column. */
function shownLength(value: WorkbookCell, format: WorkbookFormat | undefined): number {
  if (value === null) return 0;
  if (value instanceof Date) return 10;
  if (typeof value === "number") {
    const digits = String(Math.trunc(Math.abs(value))).length;
    const grouped = format === "year" || format === undefined ? digits : digits + Math.floor((digits - 1) / 3);
    const decimals = format === "money" ? 3 : Number.isInteger(value) ? 0 : (String(value).split(".")[1]?.length ?? 0);
    return grouped + decimals + (value < 0 ? 1 : 0);
  }
  return Math.max(...value.split(/\r?\n/).map((line) => line.length));
}

/** The lists of a workbook: one column of the hidden Lists sheet per list too long to write inline. */
class ListSheet {
  private readonly lists: { label: string; values: readonly string[] }[] = [];
  private readonly byContent = new Map<string, string>();

  /** The validation formula of a list: inline when it fits, else a range of the Lists sheet. */
  formula(label: string, values: readonly string[]): string {
    const inline = values.join(",");
    if (inline.length + 2 <= INLINE_LIST_MAX_CHARS && !values.some((value) => /[,"]/.test(value))) return `"${inline}"`;
    const known = this.byContent.get(inline);
    if (known) return known;
    this.lists.push({ label, values });
    const letter = columnLetter(this.lists.length);
    const range = `${LISTS_SHEET}!$${letter}$2:$${letter}$${values.length + 1}`;
    this.byContent.set(inline, range);
    return range;
  }

  write(workbook: ExcelJS.stream.xlsx.WorkbookWriter): void {
    if (!this.lists.length) return;
    const sheet = workbook.addWorksheet(LISTS_SHEET, { state: "hidden" });
    sheet.columns = this.lists.map((list) => ({ width: Math.min(Math.max(...list.values.map((value) => value.length), list.label.length) + 2, WIDTH.max) }));
    const longest = Math.max(...this.lists.map((list) => list.values.length));
    sheet.addRow(this.lists.map((list) => list.label)).commit();
    for (let index = 0; index < longest; index++) sheet.addRow(this.lists.map((list) => written(list.values[index] ?? null))).commit();
    sheet.commit();
  }
}

/** The first rows of a sheet (to measure) and an iterator over the rest. */
async function firstRows(rows: WorkbookSheet["rows"]) {
  const iterator: AsyncIterator<readonly WorkbookCell[]> | Iterator<readonly WorkbookCell[]> =
    Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  const head: (readonly WorkbookCell[])[] = [];
  let done = false;
  while (head.length < MEASURED_ROWS) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
  }
  const rest = async function* () {
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  return { head, rest: rest() };
}

/** exceljs' sheets keep their data validations here; its types do not declare it. */
interface SheetWithValidations {
  dataValidations: { add(range: string, validation: ExcelJS.DataValidation): void };
}

/**
 * How a sheet prints: landscape, the header row on every page, fitted to the page's width unless
 * that would print the 11 pt text below 8 pt; then at 8 pt (73%), the columns split across pages
 * with the row's key columns repeated on each. The width is Letter's, the narrower of Letter and
 * A4 landscape (11 in less exceljs' default 0.7 in margins); a column of width w characters is
 * w × 7 + 5 pixels of Calibri 11, at 0.75 pt a pixel.
 */
const PRINTABLE_WIDTH_PT = (11 - 2 * 0.7) * 72;
const MIN_PRINT_SCALE_PERCENT = 73;
function printSetup(widths: readonly number[], keyColumns: number): Partial<ExcelJS.PageSetup> {
  const widthPt = widths.reduce((sum, width) => sum + (width * 7 + 5) * 0.75, 0);
  const common = { orientation: "landscape", printTitlesRow: "1:1" } as const;
  if ((widthPt * MIN_PRINT_SCALE_PERCENT) / 100 <= PRINTABLE_WIDTH_PT) return { ...common, fitToPage: true, fitToWidth: 1, fitToHeight: 0 };
  return { ...common, fitToPage: false, scale: MIN_PRINT_SCALE_PERCENT, pageOrder: "overThenDown", printTitlesColumn: `A:${columnLetter(keyColumns)}` };
}

/** A header longer than this wraps onto more lines rather than widening its column. */
const HEADER_WRAP_CHARS = 16;

async function writeSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  { name, columns, rows, keyColumns = 1 }: WorkbookSheet,
  lists: ListSheet,
  output: Writable,
) {
  const lastColumn = columnLetter(Math.max(columns.length, 1));
  const { head, rest } = await firstRows(rows);
  const widths = columns.map((column, index) => {
    const widest = Math.max(Math.min(column.label.length, HEADER_WRAP_CHARS), ...head.map((cells) => shownLength(cells[index] ?? null, column.format)));
    return Math.min(Math.max(widest + 2, WIDTH.min), WIDTH.max);
  });
  const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1, xSplit: 0 }], pageSetup: printSetup(widths, keyColumns) });
  sheet.columns = columns.map((column, index) => {
    const numFmt = column.format ? NUMBER_FORMATS[column.format] : undefined;
    return { key: column.key, width: widths[index], ...(numFmt ? { style: { numFmt } } : {}) };
  });
  const header = sheet.addRow(columns.map((column) => column.label));
  header.font = { bold: true };
  header.alignment = { wrapText: true, vertical: "top" };
  header.commit();
  // exceljs finds a cell's style id by the style object itself (a WeakMap) before rendering it to
  // XML: cells given the same few objects skip that rendering, which took most of a row's time.
  const styles = columns.map((column) => {
    const numFmt = column.format ? NUMBER_FORMATS[column.format] : undefined;
    return { plain: numFmt ? { numFmt } : {}, date: { numFmt: DATE_FORMAT }, fractional: { numFmt: FRACTIONAL_QUANTITY } };
  });
  let count = 0;
  const writeRow = async (cells: readonly WorkbookCell[]) => {
    const row = sheet.addRow(cells.map(written));
    cells.forEach((cell, index) => {
      const style = styles[index];
      if (!style) return;
      const format = columns[index].format;
      row.getCell(index + 1).style =
        cell instanceof Date && format !== "date"
          ? style.date
          : typeof cell === "number" && format === "quantity" && !Number.isInteger(cell)
            ? style.fractional
            : style.plain;
    });
    row.commit();
    if (++count % 64 === 0) await workbookWritten(workbook, sheet, output);
  };
  for (const cells of head) await writeRow(cells);
  for await (const cells of rest) await writeRow(cells);
  columns.forEach((column, index) => {
    if (!column.list?.length) return;
    const letter = columnLetter(index + 1);
    (sheet as unknown as SheetWithValidations).dataValidations.add(`${letter}2:${letter}${count + 1 + BLANK_ROWS_VALIDATED}`, {
      type: "list",
      allowBlank: true,
      formulae: [lists.formula(column.label, column.list)],
      showErrorMessage: true,
      errorStyle: "warning",
      errorTitle: column.label,
      error: LIST_WARNING,
    });
  });
  sheet.autoFilter = `A1:${lastColumn}${count + 1}`;
  sheet.commit();
}

function writeInfo(workbook: ExcelJS.stream.xlsx.WorkbookWriter, info: WorkbookInfo, exportedAt: Date) {
  const lines: [string, WorkbookCell][] = [["Report", info.report]];
  if (info.partner !== undefined) lines.push(["Partner", info.partner]);
  if (info.quarter !== undefined) lines.push(["Quarter", info.quarter]);
  if (info.status !== undefined) lines.push(["Status", info.status ?? NOT_STARTED]);
  lines.push(["Exported at (UTC)", exportedAt]);
  for (const [label, value] of info.notes ?? []) lines.push([label, value]);
  const sheet = workbook.addWorksheet(INFO_SHEET, { pageSetup: { orientation: "landscape", fitToPage: true, fitToWidth: 1, fitToHeight: 0 } });
  const valueWidth = Math.max(...lines.map(([, value]) => shownLength(value, undefined)));
  sheet.columns = [{ width: Math.max(...lines.map(([label]) => label.length)) + 2 }, { width: Math.min(Math.max(valueWidth + 2, 18), WIDTH.max * 2) }];
  for (const [label, value] of lines) {
    const row = sheet.addRow([label, written(value)]);
    row.getCell(1).font = { bold: true };
    if (value instanceof Date) row.getCell(2).numFmt = DATE_TIME_FORMAT;
    row.commit();
  }
  sheet.commit();
}

/**
 * Writes the workbook into `stream` row by row (exceljs' streaming writer: memory stays flat
 * for large reports), yielding to the event loop every 64 rows: the report's sheets, the Info
 * sheet, then the hidden Lists sheet when a list is too long to write inline.
 */
export async function writeWorkbook(stream: Writable, { info, sheets }: WorkbookDocument): Promise<void> {
  const { default: excel } = await import("exceljs");
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const lists = new ListSheet();
  for (const sheet of sheets) await writeSheet(workbook, sheet, lists, stream);
  writeInfo(workbook, info, new Date());
  lists.write(workbook);
  await workbook.commit();
}

/** The download response: the workbook is streamed into the body while it is written. */
export function workbookResponse(name: Omit<DownloadName, "extension">, document: WorkbookDocument): Response {
  const body = new PassThrough();
  writeWorkbook(body, document).catch((error: unknown) => {
    logger.error({ err: error, report: name.report }, "workbook failed");
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": attachmentDisposition({ ...name, extension: "xlsx" }),
      "Cache-Control": "private, no-store",
    },
  });
}

const TEMPLATE_NOTE: readonly [string, string] = ["How to use", "Fill in the rows under the header, then upload this file on the report's page."];

/**
 * A partner's report as a workbook named by the report, partner and quarter, its Info sheet
 * saying which; a blank template (`template`) is named and described as one (its sheets come
 * from the report: the same columns, with no values to report).
 */
export function reportWorkbookResponse(
  frame: Pick<ReportFrameView, "type" | "partner" | "quarter" | "report">,
  sheets: readonly WorkbookSheet[],
  template: boolean,
): Response {
  const { file, title } = REPORT_REGISTRY[frame.type].workbook;
  const partner = frame.partner.companyName;
  const quarter = frame.quarter.name;
  return workbookResponse(
    { report: template ? templateFile(file) : file, partner, quarter },
    {
      info: {
        report: template ? `${title} (blank template)` : title,
        partner,
        quarter,
        status: frame.report.status,
        notes: template ? [TEMPLATE_NOTE] : undefined,
      },
      sheets,
    },
  );
}

// ---------------------------------------------------------------- upload

/** Header labels and names as an upload compares them: without case, extra spaces or Unicode form. */
export const comparableText = (label: string) => label.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

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
interface WorkbookTable {
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
    byLabel.set(comparableText(column.label), column);
    byLabel.set(comparableText(column.key), column);
  }
  const positions = new Map<string, number>();
  for await (const row of workbook.rows(sheetName)) {
    if (row.number === 1) {
      for (const [columnNumber, value] of row.cells) {
        const column = byLabel.get(comparableText(cellText(value)));
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

/** Reads an uploaded workbook of a download's layout, as a stream (app/reports/frame/xlsx-reader.server.ts). */
export async function readWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer, tables: readonly WorkbookTable[]): Promise<ReadWorkbookResult> {
  const opened = await openXlsx(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer));
  if (!opened.ok) return refused(opened.reason);
  const { workbook } = opened;
  try {
    const problems: UploadProblem[] = [];
    const rows: Record<string, Record<string, string>[]> = {};
    const budget = { chars: MAX_UPLOAD_CHARS };
    for (const table of tables) {
      const sheetName = workbook.sheetNames.find((name) => comparableText(name) === comparableText(table.sheet));
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
