/**
 * The Sales Report's tables and columns, as the screens, the downloads and the rules name them.
 * Client-safe and light: the page's first load takes these without the row rules' arithmetic
 * (./rows.ts, decimal.js), which the grid editor loads after the page.
 */

export type SalesKind = "API" | "FDF";
export const SALES_KINDS: readonly SalesKind[] = ["API", "FDF"];

export type SalesColumnType = "year" | "month" | "country" | "text" | "product" | "formulation" | "currency" | "number";

export interface SalesColumn<Key extends string = string> {
  readonly key: Key;
  readonly label: string;
  readonly type: SalesColumnType;
}

/** The columns both tables start with: when, where and to whom the sale was made. */
const SALE_COLUMNS = [
  { key: "year", label: "Year", type: "year" },
  { key: "month", label: "Month", type: "month" },
  { key: "country", label: "Country", type: "country" },
  { key: "purchaser", label: "Purchaser", type: "text" },
] as const satisfies readonly SalesColumn[];

/** API grid columns in the spec's order (Sr.No and the row checkbox are grid chrome). */
export const API_COLUMNS = [
  ...SALE_COLUMNS,
  { key: "productName", label: "Api Name", type: "product" },
  { key: "quantity", label: "Quantity (Kg)", type: "number" },
  { key: "totalValue", label: "Total Value (USD)", type: "number" },
] as const satisfies readonly SalesColumn[];

/** FDF grid columns in the spec's order (Sr.No and the row checkbox are grid chrome). */
export const FDF_COLUMNS = [
  ...SALE_COLUMNS,
  { key: "productName", label: "Product", type: "product" },
  { key: "strength", label: "Strength", type: "text" },
  { key: "formulationType", label: "Formulation Type", type: "formulation" },
  { key: "packSize", label: "Pack Size", type: "number" },
  { key: "quantity", label: "Quantity", type: "number" },
  { key: "currency", label: "Currency", type: "currency" },
  { key: "grossSalePriceCurrency", label: "Gross Sale Price (per pack) (Local Currency)", type: "number" },
  { key: "usdExchangeRate", label: "Applicable Currency Exchange Rate to USD", type: "number" },
  { key: "grossSalePriceUsd", label: "Gross Sale Price (per pack) (USD)", type: "number" },
  { key: "totalGrossValue", label: "Total Gross Sales Value (USD)", type: "number" },
  { key: "deductableExpenses", label: "Deductable Expenses (USD)", type: "number" },
  { key: "totalValue", label: "Total Net Sales Value", type: "number" },
  { key: "royaltyPercent", label: "Royalty %", type: "number" },
  { key: "royaltyDue", label: "Royalty Due", type: "number" },
  { key: "procurementEndCountry", label: "Procurement Agency End-Country", type: "text" },
  { key: "comments", label: "Comments", type: "text" },
] as const satisfies readonly SalesColumn[];

export type ApiColumnKey = (typeof API_COLUMNS)[number]["key"];
export type FdfColumnKey = (typeof FDF_COLUMNS)[number]["key"];
/** Every API column is also an FDF column. */
export type SalesColumnKey = ApiColumnKey | FdfColumnKey;
export type SalesColumnKeyOf<K extends SalesKind> = K extends "API" ? ApiColumnKey : FdfColumnKey;

/** One grid row: every cell a string as typed or pasted; `id` is the saved row's id. */
export type SalesGridRow<K extends SalesKind = SalesKind> = { id?: number } & Record<SalesColumnKeyOf<K>, string>;
export type ApiGridRow = SalesGridRow<"API">;
export type FdfGridRow = SalesGridRow<"FDF">;
/** A row after `normaliseRow`: exactly the kind's columns, each trimmed and normalised. */
export type NormalisedRow<K extends SalesKind = SalesKind> = SalesGridRow<K>;

/** What the functions accept: a row from the grid, a form or a JSON body (missing cells count as empty). */
export type SalesRowInput = { id?: number | null } & { readonly [Key in SalesColumnKey]?: string | null };

export function columnsFor<K extends SalesKind>(kind: K): readonly SalesColumn<SalesColumnKeyOf<K>>[] {
  return (kind === "API" ? API_COLUMNS : FDF_COLUMNS) as readonly SalesColumn<SalesColumnKeyOf<K>>[];
}

/** The column's label for a kind (the key itself when the kind has no such column). */
export function columnLabel(kind: SalesKind, key: string): string {
  return columnsFor(kind).find((column) => column.key === key)?.label ?? key;
}

/** A column's label by table name ("API" or "FDF"), as findings and comments name cells. */
export const tableColumnLabel = (table: string, key: string) => columnLabel(table === "FDF" ? "FDF" : "API", key);

/** The heading of the 'Invalid data!' dialog's list for a table. */
export const VALIDATION_HEADINGS: Record<SalesKind, string> = {
  API: "Please Check API Table",
  FDF: "Please Check FDF Table:",
};
