/**
 * The Sales Report as an Excel workbook (issue 4 "Excel"): download (`sales-report.xlsx`,
 * sheets API and FDF, the grid's columns, typed numbers, frozen header) written with exceljs'
 * streaming WorkbookWriter, and the upload of a filled workbook of that layout, read back into
 * the same string cells as the grid so that the same rules (app/utils/sales-rows.ts) check it.
 */
import { PassThrough, type Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import Decimal from "decimal.js";
import ExcelJS from "exceljs";
import { MONTHS } from "~/db/reference-data";
import type { UploadProblem } from "~/components/grids/sales-report-types";
import { logger } from "~/utils/logger.server";
import { columnsFor, emptySalesRow, SALES_KINDS, type SalesColumn, type SalesColumnType, type SalesKind, type SalesRowInput } from "~/utils/sales-rows";
import { openXlsx, XlsxReadError, type XlsxCellValue, type XlsxRefusal, type XlsxWorkbook } from "~/utils/xlsx-reader.server";

export const SALES_WORKBOOK_FILENAME = "sales-report.xlsx";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export type SalesWorkbookRows = Record<SalesKind, readonly SalesRowInput[]>;

/** decisions.md section 7: a text cell that a spreadsheet would run as a formula gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Numbers and years as numbers, everything else as (neutralised) text; an empty cell stays empty. */
function cellValue(type: SalesColumnType, value: string | null | undefined): string | number | null {
  const text = value ?? "";
  if (text === "") return null;
  if ((type === "number" || type === "year") && /^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  return neutraliseCell(text);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the workbook into `stream` row by row (exceljs' streaming writer: memory stays flat
 * for large reports), yielding to the event loop every 64 rows.
 */
export async function writeSalesWorkbook(stream: Writable, rows: SalesWorkbookRows): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  for (const kind of SALES_KINDS) {
    const columns = columnsFor(kind);
    const sheet = workbook.addWorksheet(kind, { views: [{ state: "frozen", ySplit: 1, xSplit: 0 }] });
    sheet.columns = columns.map((column) => ({ key: column.key, width: Math.min(Math.max(column.label.length + 2, 10), 40) }));
    const header = sheet.addRow(columns.map((column) => column.label));
    header.font = { bold: true };
    header.commit();
    let written = 0;
    for (const row of rows[kind]) {
      sheet.addRow(columns.map((column) => cellValue(column.type, row[column.key]))).commit();
      if (++written % 64 === 0) await yieldToEventLoop();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/** The download response: the workbook is streamed into the body while it is written. */
export function salesWorkbookResponse(rows: SalesWorkbookRows): Response {
  const body = new PassThrough();
  writeSalesWorkbook(body, rows).catch((error: unknown) => {
    logger.error({ err: error }, "sales workbook failed");
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${SALES_WORKBOOK_FILENAME}"`,
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

/** One cell as the grid's string cell. */
export function cellText(value: XlsxCellValue | undefined, type: SalesColumnType): string {
  if (value === undefined) return "";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return textValue(value);
  if (value instanceof Date) {
    if (type === "year") return String(value.getUTCFullYear());
    if (type === "month") return MONTHS[value.getUTCMonth()];
    return value.toISOString().slice(0, 10);
  }
  return value.error;
}

export type ReadSalesWorkbookResult =
  | {
      ok: true;
      /** Every row under the header, empty ones included: row n of the list is row n + 1 of its sheet. */
      rows: Record<SalesKind, SalesRowInput[]>;
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

type SheetResult = { rows: SalesRowInput[] } | { problem: UploadProblem };

/** The header's column number of each of the kind's columns it names (by label or key, first one wins). */
async function headerPositions(workbook: XlsxWorkbook, sheetName: string, columns: readonly SalesColumn[]): Promise<Map<string, number>> {
  const byLabel = new Map<string, SalesColumn>();
  for (const column of columns) {
    byLabel.set(comparableLabel(column.label), column);
    byLabel.set(comparableLabel(column.key), column);
  }
  const positions = new Map<string, number>();
  for await (const row of workbook.rows(sheetName)) {
    if (row.number === 1) {
      for (const [columnNumber, value] of row.cells) {
        const column = byLabel.get(comparableLabel(cellText(value, "text")));
        if (column && !positions.has(column.key)) positions.set(column.key, columnNumber);
      }
    }
    break; // the header is the first row or none
  }
  return positions;
}

/** The rows under the header, read only as far as the row limit and while `budget` lasts. */
async function readSalesSheet(workbook: XlsxWorkbook, sheetName: string, kind: SalesKind, budget: { chars: number }): Promise<SheetResult> {
  const columns = columnsFor(kind);
  const positions = await headerPositions(workbook, sheetName, columns);
  const missing = columns.filter((column) => !positions.has(column.key));
  if (missing.length) {
    const labels = missing.map((column) => column.label);
    return { problem: { message: UPLOAD_MESSAGES.missingColumns, values: { sheet: kind, columns: labels.join(", ") }, sheet: kind, row: 1, columns: labels } };
  }
  const rows: SalesRowInput[] = [];
  for await (const row of workbook.rows(sheetName, { columns: new Set(positions.values()) })) {
    if (row.number === 1) continue;
    if (row.number - 1 > MAX_UPLOAD_ROWS) return { problem: { message: UPLOAD_MESSAGES.tooManyRows, values: { sheet: kind, max: MAX_UPLOAD_ROWS }, sheet: kind } };
    while (rows.length < row.number - 2) rows.push(emptySalesRow(kind));
    const cells: Record<string, string> = {};
    for (const column of columns) {
      cells[column.key] = cellText(row.cells.get(positions.get(column.key)!), column.type);
      budget.chars -= cells[column.key].length;
    }
    if (budget.chars < 0) return { problem: { message: UPLOAD_MESSAGES.tooLarge, sheet: kind } };
    rows.push(cells);
  }
  // Trailing empty rows (formatted but blank) say nothing.
  while (rows.length && columns.every((column) => !(rows[rows.length - 1][column.key] ?? "").trim())) rows.pop();
  return { rows };
}

const refused = (reason: XlsxRefusal): ReadSalesWorkbookResult => ({ ok: false, problems: [{ message: UPLOAD_MESSAGES[reason] }] });

/** Reads an uploaded workbook of the download's layout, as a stream (app/utils/xlsx-reader.server.ts). */
export async function readSalesWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer): Promise<ReadSalesWorkbookResult> {
  const opened = await openXlsx(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer));
  if (!opened.ok) return refused(opened.reason);
  const { workbook } = opened;
  try {
    const problems: UploadProblem[] = [];
    const rows: Record<SalesKind, SalesRowInput[]> = { API: [], FDF: [] };
    const budget = { chars: MAX_UPLOAD_CHARS };
    for (const kind of SALES_KINDS) {
      const sheetName = workbook.sheetNames.find((name) => comparableLabel(name) === kind.toLowerCase());
      if (!sheetName) {
        problems.push({ message: UPLOAD_MESSAGES.missingSheet, values: { sheet: kind }, sheet: kind });
        continue;
      }
      const result = await readSalesSheet(workbook, sheetName, kind, budget);
      if ("problem" in result) problems.push(result.problem);
      else rows[kind] = result.rows;
    }
    return problems.length ? { ok: false, problems } : { ok: true, rows };
  } catch (error) {
    if (error instanceof XlsxReadError) return refused(error.reason);
    throw error;
  } finally {
    workbook.close();
  }
}
