/**
 * The Filing Plans consolidated report (spec section 2 "Admin consolidated reports"): for one
 * quarter, a row per partner's Filing Plans report and country that has at least one filing in
 * it, a column per product that has a filing anywhere in that quarter, each cell the status the
 * partner gave (or empty). Reports of every state are listed, with their state in a column.
 *
 * Filters (all in the query string, see app/reports/consolidated/query.ts): partner, country,
 * reportStatus, and one product-status condition at a time:
 * - `product` and `productStatus`: rows whose cell for that product is that status;
 * - `product` alone: rows with a filing for that product (any status);
 * - `productStatus` alone: rows with that status for any product.
 * Sorting: company (default), country, reportStatus (in workflow order: Saved, Submitted,
 * Resubmitted, Approved, Rejected); ties fall back to company, then country, so pages are stable.
 *
 * The page is one LIMIT/OFFSET query (in company or report-state order, over the quarter's reports
 * in that order with each report's countries grouped apart; in country order, over every group)
 * beside a count of the groups, then the cells of the page's rows only; the filters' lists come
 * from a probe per report and one pass over the quarter's cells (consolidated-options.server.ts).
 * The count and the lists are kept under the quarter's reports fingerprint (quarter-cache.server.ts).
 * The download (consolidated-download.server.ts) walks the groups in (report id, country id) order.
 */
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import * as z from "zod";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, reports } from "~/db/schema";
import { idIn, OFFSET_ZERO } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter, textFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page, type FilterOption, type ReportFilterLists } from "~/reports/consolidated/paging";
import { cachedUnder, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";
import type { ReportStatus } from "~/reports/frame/workflow";
import { REPORT_STATES } from "~/reports/frame/registry";
import { openQuarterRef } from "~/models/quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import {
  cellConditions,
  companyOrder,
  countryOrder,
  groupKeysOf,
  HAS_FILING,
  havingOf,
  namedRow,
  reportConditions,
  type RowKey,
} from "./consolidated-groups.server";
import { filingFilters } from "./consolidated-options.server";

export const FILING_SORTS = ["company", "country", "reportStatus"] as const;
export type FilingSort = (typeof FILING_SORTS)[number];

/** The report's query string: `?quarter=Q1 2026&partner=3&country=7&reportStatus=Saved&product=2&productStatus=Filed&sort=country&dir=desc&page=2`. */
export const filingQuerySchema = z.object({
  ...baseQuery,
  sort: choiceFilter(FILING_SORTS),
  partner: idFilter,
  country: idFilter,
  reportStatus: choiceFilter(REPORT_STATES),
  product: idFilter,
  productStatus: textFilter,
});
export type FilingQuery = z.infer<typeof filingQuerySchema>;

export interface FilingConsolidatedRow {
  reportId: number;
  partnerId: number;
  companyName: string;
  countryId: number;
  country: string;
  reportStatus: ReportStatus;
  /** By product id: the cell's status; a product without a filing in this row is absent. */
  cells: Record<string, string>;
}

export interface FilingConsolidatedView {
  page: Page<FilingConsolidatedRow>;
  quarter: { id: number; name: string; isOpen: boolean };
  /** The table's product columns: every product with a filing in the quarter, by name. */
  products: FilterOption[];
  options: ReportFilterLists & {
    country_filter: FilterOption[];
    status_filter: FilterOption<string>[];
  };
}

/** The cells of the given rows (a page), by row key `reportId:countryId`. */
async function cellsOf(keys: readonly RowKey[]): Promise<Map<string, Record<string, string>>> {
  const cells = new Map<string, Record<string, string>>(keys.map((key) => [`${key.reportId}:${key.countryId}`, {}]));
  if (!keys.length) return cells;
  const rows = await db
    .select({ reportId: filingValues.reportId, countryId: filingValues.countryId, productId: filingValues.productId, status: filingValues.status })
    .from(filingValues)
    .where(
      and(
        idIn(filingValues.reportId, [...new Set(keys.map((key) => key.reportId))]),
        idIn(filingValues.countryId, [...new Set(keys.map((key) => key.countryId))]),
        HAS_FILING,
      ),
    );
  for (const row of rows) {
    // Both id lists also match other pairs of the page's reports and countries: only the page's rows are kept.
    const record = cells.get(`${row.reportId}:${row.countryId}`);
    if (record) record[String(row.productId)] = row.status;
  }
  return cells;
}

/** The page's rows without their cells, read from `offset`. */
type PageReader = (offset: number) => Promise<Omit<FilingConsolidatedRow, "cells">[]>;

/**
 * The page in company or report-state order: the quarter's reports in that order (a few hundred),
 * each with its countries grouped by a lateral subquery. The rows come out in the reports' order,
 * so PostgreSQL sorts only each report's countries and stops at the page's end, where grouping
 * every cell of the quarter first and sorting the groups took 15-25 ms at L.
 */
function pageByReport(query: FilingQuery, quarterId: number, sort: "company" | "reportStatus", pageSize: number): PageReader {
  // The reports' order, by the list's own column names: the list is sorted by it, then the page by it and the country.
  const direction = query.dir === "desc" ? desc : asc;
  const company = ["company_key", "company_name", "partner_id"].map((name) => sql.identifier(name));
  const reportOrder =
    sort === "company" ? company.map((column) => direction(column)) : [direction(sql.identifier("report_status")), ...company.map((column) => asc(column))];
  const reportList = db
    .select({
      reportId: sql<number>`${reports.id}`.as("report_id"),
      partnerId: sql<number>`${reports.partnerId}`.as("partner_id"),
      reportStatus: sql<ReportStatus>`${reports.status}`.as("report_status"),
      companyName: sql<string>`${partners.companyName}`.as("company_name"),
      companyKey: sql<string>`lower(${partners.companyName})`.as("company_key"),
    })
    .from(reports)
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .where(reportConditions(query, quarterId))
    .orderBy(...reportOrder)
    .offset(OFFSET_ZERO)
    .as("report_list");
  const rowCountries = db
    .select({ countryId: sql<number>`${filingValues.countryId}`.as("country_id"), country: sql<string>`${countries.name}`.as("country") })
    .from(filingValues)
    .innerJoin(countries, eq(countries.id, filingValues.countryId))
    // The report named in full: the builder writes an alias of a subquery bare, which here would be filing_values' own column.
    .where(and(eq(filingValues.reportId, sql`report_list.report_id`), cellConditions(query)))
    .groupBy(filingValues.countryId, countries.name)
    .having(havingOf(query))
    .as("row_countries");
  return (offset) =>
    db
      .select({
        reportId: reportList.reportId,
        partnerId: reportList.partnerId,
        companyName: reportList.companyName,
        countryId: rowCountries.countryId,
        country: rowCountries.country,
        reportStatus: reportList.reportStatus,
      })
      .from(reportList)
      .crossJoinLateral(rowCountries)
      .orderBy(...reportOrder, asc(rowCountries.country), asc(rowCountries.countryId))
      .limit(pageSize)
      .offset(offset);
}

/** The page in country order: every (report, country) group of the quarter, sorted. */
function pageByCountry(query: FilingQuery, quarterId: number, pageSize: number): PageReader {
  const groups = groupKeysOf(query, quarterId).as("groups");
  return (offset) =>
    db
      .select(namedRow(groups))
      .from(groups)
      .innerJoin(partners, eq(partners.id, groups.partnerId))
      .innerJoin(countries, eq(countries.id, groups.countryId))
      .orderBy(...countryOrder(query.dir), ...companyOrder("asc"))
      .limit(pageSize)
      .offset(offset);
}

/**
 * The page of (report, country) rows in the asked order, with their cells. The rows are counted
 * while the page asked for is read; a page past the end is read again as the last page.
 */
async function filingPage(query: FilingQuery, quarterId: number, fingerprint: Promise<string>, pageSize: number) {
  const sort: FilingSort = query.sort ?? "company";
  const readPage = sort === "country" ? pageByCountry(query, quarterId, pageSize) : pageByReport(query, quarterId, sort, pageSize);
  const { partner, reportStatus, country, product, productStatus } = query;
  const countKey = JSON.stringify({ partner, reportStatus, country, product, productStatus });
  const [total, requested] = await Promise.all([
    cachedUnder(fingerprint, `filing-count|${countKey}`, async () => {
      const [row] = await db.select({ total: count() }).from(groupKeysOf(query, quarterId).as("groups"));
      return row.total;
    }),
    readPage(pageWindow(query.page, Infinity, pageSize).offset),
  ]);
  const window = pageWindow(query.page, total, pageSize);
  const keys = requested.length || !total ? requested : await readPage(window.offset);
  const cells = await cellsOf(keys);
  return {
    rows: keys.map((key) => ({ ...key, cells: cells.get(`${key.reportId}:${key.countryId}`) ?? {} })),
    total,
    page: window.page,
    pageSize,
    pages: window.pages,
  };
}

/** One page of the report for the query, with the filters' options. */
export async function listFilingConsolidated(
  query: FilingQuery,
  { pageSize = CONSOLIDATED_PAGE_SIZES.filing }: { pageSize?: number } = {},
): Promise<FilingConsolidatedView> {
  const quarter = await resolveQuarter(query.quarter);
  const open = openQuarterRef();
  const fingerprint = reportsFingerprint(quarter.id, "filing");
  // The page does not wait for the option lists (the product columns take the longest pass).
  const [page, { products, options }] = await Promise.all([filingPage(query, quarter.id, fingerprint, pageSize), filingFilters(query, quarter, fingerprint)]);
  return {
    page,
    quarter: { id: quarter.id, name: quarter.name, isOpen: quarter.year === open.year && quarter.quarter === open.quarter },
    products,
    options,
  };
}
