/**
 * The Sales Report as an Excel workbook: sheets API and FDF with the grid's columns (numbers,
 * money and years typed and formatted, drop-downs for Month, Country, Formulation Type and
 * Currency), and the upload of a filled workbook of that layout, read into the grid's string
 * cells so that the same rules (app/reports/sales/rows.ts) check it.
 */
import { MONTHS } from "~/db/reference-data";
import { type SalesReferenceLists } from "~/reports/sales/rows";
import {
  columnsFor,
  SALES_KINDS,
  type SalesColumn,
  type SalesColumnKey,
  type SalesColumnType,
  type SalesKind,
  type SalesRowInput,
} from "~/reports/sales/columns";
import type { SalesReportView } from "./model.server";
import {
  readWorkbook,
  reportWorkbookResponse,
  type ReadWorkbookResult,
  type WorkbookCell,
  type WorkbookColumn,
  type WorkbookFormat,
  type WorkbookSheet,
} from "~/reports/frame/workbook.server";

export type SalesWorkbookRows = Record<SalesKind, readonly SalesRowInput[]>;

/** Number columns that are not money. */
const NUMBER_FORMATS: Partial<Record<SalesColumnKey, WorkbookFormat>> = {
  quantity: "quantity",
  packSize: "integer",
  usdExchangeRate: "decimal",
  royaltyPercent: "decimal",
};

function formatOf(column: SalesColumn<SalesColumnKey>): WorkbookFormat {
  if (column.type === "year") return "year";
  if (column.type === "number") return NUMBER_FORMATS[column.key] ?? "money";
  return "text";
}

function listOf(type: SalesColumnType, lists: SalesReferenceLists): readonly string[] | undefined {
  if (type === "month") return lists.months;
  if (type === "country") return lists.countries;
  if (type === "formulation") return lists.formulationTypes;
  if (type === "currency") return lists.currencies;
  return undefined;
}

/** A table's columns as a workbook's: formats by column, and the reference lists as drop-downs when given. */
export function salesWorkbookColumns(kind: SalesKind, lists?: SalesReferenceLists): WorkbookColumn[] {
  return columnsFor(kind).map((column) => ({ key: column.key, label: column.label, format: formatOf(column), list: lists && listOf(column.type, lists) }));
}

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

/** Year, Month and Country name a sale on every printed page. */
const KEY_COLUMNS = 3;

export function salesWorkbookSheets(rows: SalesWorkbookRows, lists?: SalesReferenceLists): WorkbookSheet[] {
  return SALES_KINDS.map((kind) => ({ name: kind, columns: salesWorkbookColumns(kind, lists), rows: sheetRows(kind, rows[kind]), keyColumns: KEY_COLUMNS }));
}

/** The report's workbook, or its blank template (the same sheets without rows). */
export function salesWorkbookResponse(view: SalesReportView, template: boolean): Response {
  return reportWorkbookResponse(view, salesWorkbookSheets(template ? { API: [], FDF: [] } : view.rows, view.lists), template);
}

const TABLES = SALES_KINDS.map((kind) => ({
  sheet: kind,
  columns: columnsFor(kind),
  // A year or month typed as a date in Excel reads as its year or month name.
  dateText: (column: { key: string }, date: Date) =>
    column.key === "year" ? String(date.getUTCFullYear()) : column.key === "month" ? MONTHS[date.getUTCMonth()] : date.toISOString().slice(0, 10),
}));

type ReadSalesWorkbookResult = { ok: true; rows: Record<SalesKind, SalesRowInput[]> } | Extract<ReadWorkbookResult, { ok: false }>;

/** Reads an uploaded Sales workbook: both sheets, every row under the header (row n of a list is row n + 1 of its sheet). */
export async function readSalesWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer): Promise<ReadSalesWorkbookResult> {
  const result = await readWorkbook(buffer, TABLES);
  if (!result.ok) return result;
  return { ok: true, rows: { API: result.rows.API ?? [], FDF: result.rows.FDF ?? [] } };
}
