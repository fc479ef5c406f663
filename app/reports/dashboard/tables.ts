/**
 * What a dashboard table is, for the page and for its downloads: columns and rows of cells. The
 * page shows one page of rows; a download carries every row of the same table. Client-safe.
 */
import { pageWindow, type Page } from "~/reports/consolidated/paging";
import type { DashboardQuery } from "./query";
import { DASHBOARD_PAGE_SIZE } from "./view";

export interface DashboardColumn {
  key: string;
  /** An English label (a translation key), or `raw` text: a quarter name, a status or a sales period. */
  label: string;
  raw?: boolean;
  /** Figures: shown the way the page's language writes numbers (downloads keep them plain). */
  numeric?: boolean;
  /** Country names (stored in English): shown in the page's language. */
  country?: boolean;
  /** Sales periods (a year, a quarter or a month as YYYY-MM): a month is named in the page's language. */
  period?: boolean;
}

/** Figures are decimal strings (exact) or counts; names are text; null is an empty cell. */
export type DashboardCell = string | number | null;

export interface DashboardTable {
  id: string;
  title: string;
  columns: DashboardColumn[];
  rows: DashboardCell[][];
  /** Where each row's heading (its first cell) links to, if anywhere: a report's screen. Downloads leave it out. */
  links?: string[];
  page: Omit<Page<unknown>, "rows">;
}

/** Every table id the dashboard can show and download. */
export const DASHBOARD_TABLE_IDS = [
  "project-status",
  "product-status-count",
  "company-status-count",
  "summary",
  "product-country-count",
  "country-product-count",
  "product-company-sales",
  "product-country-sales",
  "product-time-sales",
  "company-product-sales",
  "company-country-sales",
  "company-time-sales",
  "country-product-sales",
  "country-company-sales",
  "country-time-sales",
  "sales-over-time",
  "price-over-time",
  "royalties",
] as const;
export type DashboardTableId = (typeof DASHBOARD_TABLE_IDS)[number];

export function isDashboardTableId(value: string | undefined): value is DashboardTableId {
  return (DASHBOARD_TABLE_IDS as readonly string[]).includes(value ?? "");
}

/** The page of a table: the one the link names, else the first. */
function requestedPage(query: Pick<DashboardQuery, "table" | "page">, tableId: string): number {
  return query.table === tableId ? query.page : 1;
}

/**
 * Which rows of a table to read: the page the query names (a page past the end is the last), or
 * every row (`all`, downloads).
 */
export function tableWindow(query: Pick<DashboardQuery, "table" | "page">, tableId: string, total: number, all: boolean) {
  if (all) return { limit: total, offset: 0, page: { total, page: 1, pages: 1, pageSize: total } };
  const window = pageWindow(requestedPage(query, tableId), total, DASHBOARD_PAGE_SIZE);
  return { limit: window.limit, offset: window.offset, page: { total, page: window.page, pages: window.pages, pageSize: DASHBOARD_PAGE_SIZE } };
}

/** A table of rows already in hand: the page the query names, or every row (`all`, downloads). */
export function pagedTable(
  id: string,
  title: string,
  columns: DashboardColumn[],
  rows: DashboardCell[][],
  query: Pick<DashboardQuery, "table" | "page">,
  all = false,
): DashboardTable {
  const window = tableWindow(query, id, rows.length, all);
  return { id, title, columns, rows: rows.slice(window.offset, window.offset + window.limit), page: window.page };
}
