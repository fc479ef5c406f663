/**
 * The Sales Report as an Excel workbook: `sales-report.xlsx`, sheets API and FDF with the grid's
 * columns (numbers and years typed), and the upload of a filled workbook of that layout, read
 * into the grid's string cells so that the same rules (app/utils/sales-rows.ts) check it.
 */
import { MONTHS } from "~/db/reference-data";
import { columnsFor, SALES_KINDS, type SalesColumnType, type SalesKind, type SalesRowInput } from "~/utils/sales-rows";
import { readWorkbook, workbookResponse, type ReadWorkbookResult, type WorkbookCell, type WorkbookSheet } from "./workbook.server";

export const SALES_WORKBOOK_FILENAME = "sales-report.xlsx";

export type SalesWorkbookRows = Record<SalesKind, readonly SalesRowInput[]>;

/** Numbers and years as numbers, everything else as text; an empty cell stays empty. */
function cellValue(type: SalesColumnType, value: string | null | undefined): WorkbookCell {
  const text = value ?? "";
  if (text === "") return null;
  if ((type === "number" || type === "year") && /^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  return text;
}

function* sheetRows(kind: SalesKind, rows: readonly SalesRowInput[]) {
  const columns = columnsFor(kind);
  for (const row of rows) yield columns.map((column) => cellValue(column.type, row[column.key]));
}

export function salesWorkbookSheets(rows: SalesWorkbookRows): WorkbookSheet[] {
  return SALES_KINDS.map((kind) => ({ name: kind, columns: columnsFor(kind), rows: sheetRows(kind, rows[kind]) }));
}

export function salesWorkbookResponse(rows: SalesWorkbookRows): Response {
  return workbookResponse(SALES_WORKBOOK_FILENAME, salesWorkbookSheets(rows));
}

const TABLES = SALES_KINDS.map((kind) => ({
  sheet: kind,
  columns: columnsFor(kind),
  // A year or month typed as a date in Excel reads as its year or month name.
  dateText: (column: { key: string }, date: Date) =>
    column.key === "year" ? String(date.getUTCFullYear()) : column.key === "month" ? MONTHS[date.getUTCMonth()] : date.toISOString().slice(0, 10),
}));

export type ReadSalesWorkbookResult = { ok: true; rows: Record<SalesKind, SalesRowInput[]> } | Extract<ReadWorkbookResult, { ok: false }>;

/** Reads an uploaded Sales workbook: both sheets, every row under the header (row n of a list is row n + 1 of its sheet). */
export async function readSalesWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer): Promise<ReadSalesWorkbookResult> {
  const result = await readWorkbook(buffer, TABLES);
  if (!result.ok) return result;
  return { ok: true, rows: { API: result.rows.API ?? [], FDF: result.rows.FDF ?? [] } };
}
