/**
 * Client-safe shapes of the Sales Report beyond the frame's (app/reports/frame/contract.ts):
 * the grid's save body, the FDF warnings carried across a save, the form without JavaScript.
 */
import { columnsFor, type ApiGridRow, type FdfGridRow, type SalesColumnKey, type SalesKind } from "~/reports/sales/columns";

/** Blank rows the form without JavaScript offers to add. */
export const FORM_BLANK_ROWS = 10;
/** The grid shows the saved rows followed by this many empty rows (spec section 9). */
export const GRID_PADDING_ROWS = 500;
/** Add Row: 0 to 10000, default 0 (spec section 9). */
export const ADD_ROWS_MAX = 10_000;
/** Rows one save may carry per table (the grid allows adding 10000 at a time). */
export const SAVE_MAX_ROWS = 100_000;

/** Spec §3's field of each grid column: the API's rows and the consolidated report's name them so. */
export const SALES_SPEC_FIELD: Record<SalesColumnKey, string> = {
  year: "year",
  month: "month",
  country: "country_name",
  purchaser: "purchaser",
  productName: "product_name",
  strength: "strength",
  formulationType: "formulation_md",
  packSize: "pack_size",
  quantity: "quantity",
  currency: "currency",
  grossSalePriceCurrency: "gross_sale_price_currency",
  usdExchangeRate: "usd_exchange_rate",
  grossSalePriceUsd: "gross_sale_price_usd",
  totalGrossValue: "total_gross_value",
  deductableExpenses: "deductable_expenses",
  totalValue: "total_value",
  royaltyPercent: "royalty_percent",
  royaltyDue: "royalty_due",
  procurementEndCountry: "procurement_end_country",
  comments: "comments",
};

/** "Nothing to report this quarter": what it does. */
export const NOTHING_TO_REPORT_DESCRIPTION = "Submits this quarter's Sales Report without rows: you had no API or FDF sales to report.";

/**
 * After a save: the entered FDF values more than 1 % away from the derived ones (non-blocking),
 * carried across the save's redirect and shown once by the report's page.
 */
export interface SavedWarnings {
  reportId: number;
  /** Row numbers are grid positions ("grid") or rows of the uploaded workbook's FDF sheet ("workbook"). */
  source: "grid" | "workbook";
  /** `column` is the column's English label (a translation key). */
  items: { row: number; column: string; expected: string }[];
  /** Warnings beyond those listed. */
  more: number;
}

/**
 * The save body the grid posts as JSON in the field `payload`: only the new and changed rows of
 * each table with their grid positions (0-based, for the row numbers of problems), and the saved
 * rows deleted in the grid. Rows not sent stay as they are.
 */
export interface SalesPayload {
  API: Record<string, unknown>[];
  FDF: Record<string, unknown>[];
  positions?: { API: number[]; FDF: number[] };
  deletedIds: number[];
}

/** The name of a cell input in the form without JavaScript: `api[3][country]`. */
export function formFieldName(kind: SalesKind, index: number, key: string): string {
  return `${kind.toLowerCase()}[${index}][${key}]`;
}

export const FORM_FIELD_PATTERN = /^(api|fdf)\[(\d{1,7})\]\[([A-Za-z]+)\]$/;

/** A report's saved rows, by tab, as the grid and the plain form read them. */
export interface SalesGridRows {
  API: ApiGridRow[];
  FDF: FdfGridRow[];
}

/** A saved row as the page's data carries it: its id, then its cells in the tab's column order. */
export type PackedSalesRow = [id: number, ...cells: string[]];
export type PackedSalesRows = Record<SalesKind, PackedSalesRow[]>;

/**
 * The rows as the page sends them. The page's data names every field of every object it holds:
 * rows written as lists of cells take half the bytes (a 12,000-row report: 2.0 MB of page data
 * instead of 3.9 MB) and less work to write on the server and to read in the browser.
 */
export function packSalesRows(rows: SalesGridRows): PackedSalesRows {
  const pack = (kind: SalesKind, list: readonly (ApiGridRow | FdfGridRow)[]) => {
    const keys = columnsFor(kind).map((column) => column.key);
    return list.map((row) => [row.id ?? 0, ...keys.map((key) => (row as Record<string, string>)[key] ?? "")] as PackedSalesRow);
  };
  return { API: pack("API", rows.API), FDF: pack("FDF", rows.FDF) };
}

export function unpackSalesRows(packed: PackedSalesRows): SalesGridRows {
  const unpack = (kind: SalesKind, list: readonly PackedSalesRow[]) => {
    const keys = columnsFor(kind).map((column) => column.key);
    return list.map(([id, ...cells]) => {
      const row: Record<string, string | number> = { id };
      keys.forEach((key, index) => (row[key] = cells[index] ?? ""));
      return row;
    });
  };
  return { API: unpack("API", packed.API) as ApiGridRow[], FDF: unpack("FDF", packed.FDF) as FdfGridRow[] };
}
