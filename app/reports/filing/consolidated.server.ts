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
 * from a probe per report and one pass over the quarter's cells. The count and the lists are kept
 * under the quarter's reports fingerprint (quarter-cache.server.ts). The download walks the groups
 * in (report id, country id) order, in keyset batches of one query each (groups, names and cells).
 */
import { and, asc, count, desc, eq, notInArray, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, products, reports } from "~/db/schema";
import { idIn, OFFSET_ZERO } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter, textFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page, type FilterOption } from "~/reports/consolidated/paging";
import type { ReportStatus } from "~/reports/frame/workflow";
import { REPORT_STATES } from "~/reports/frame/registry";
import { listFilingStatuses } from "./statuses.server";
import { listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { batched, DOWNLOAD_BATCH_ROWS, tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import { cachedUnder, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";
import type { WorkbookColumn } from "~/reports/frame/workbook.server";

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
  options: {
    /** Newest first; the open quarter first. */
    quarter_filter: FilterOption[];
    partner_filter: FilterOption[];
    country_filter: FilterOption[];
    product_filter: FilterOption[];
    status_filter: FilterOption<string>[];
    report_status_filter: FilterOption<ReportStatus>[];
  };
}

/** A stored cell with a filing: "" and "0" are never written by the screens ("0" deletes a cell), but not counted if they were. */
const HAS_FILING = notInArray(filingValues.status, ["", "0"]);

/** The quarter's Filing Plans reports that the partner and report-status filters keep. */
function reportConditions(query: Pick<FilingQuery, "partner" | "reportStatus">, quarterId: number): SQL {
  return and(
    eq(reports.quarterId, quarterId),
    eq(reports.type, "filing"),
    query.partner ? eq(reports.partnerId, query.partner) : undefined,
    query.reportStatus ? eq(reports.status, query.reportStatus) : undefined,
  )!;
}

/** A report's cells with a filing that the country filter keeps. */
function cellConditions(query: Pick<FilingQuery, "country">): SQL {
  return and(HAS_FILING, query.country ? eq(filingValues.countryId, query.country) : undefined)!;
}

/** The filters every query of the report shares: the quarter's Filing Plans reports and their cells with a filing. */
function whereOf(query: FilingQuery, quarterId: number): SQL {
  return and(reportConditions(query, quarterId), cellConditions(query))!;
}

/** The product-status condition on a (report, country) group, or none. */
function havingOf(query: FilingQuery): SQL | undefined {
  const { product, productStatus } = query;
  if (product && productStatus) return sql`bool_or(${filingValues.productId} = ${product} and ${filingValues.status} = ${productStatus})`;
  if (product) return sql`bool_or(${filingValues.productId} = ${product})`;
  if (productStatus) return sql`bool_or(${filingValues.status} = ${productStatus})`;
  return undefined;
}

type RowKey = { reportId: number; countryId: number };

/**
 * The rows of the report, as (report, country) groups with the report's partner and state; with
 * `after`, only the groups after that key (the download's keyset: both conditions are written
 * on the indexed columns, so each batch starts where the last one ended).
 */
function groupsOf(query: FilingQuery, quarterId: number, after?: RowKey | null) {
  const where = whereOf(query, quarterId);
  const keyset = after
    ? and(sql`${reports.id} >= ${after.reportId}`, sql`(${filingValues.reportId}, ${filingValues.countryId}) > (${after.reportId}, ${after.countryId})`)
    : undefined;
  return db
    .select({
      reportId: sql<number>`${reports.id}`.as("report_id"),
      partnerId: sql<number>`${reports.partnerId}`.as("partner_id"),
      reportStatus: sql<ReportStatus>`${reports.status}`.as("report_status"),
      countryId: sql<number>`${filingValues.countryId}`.as("country_id"),
      cells: sql<Record<string, string>>`jsonb_object_agg(${filingValues.productId}::text, ${filingValues.status})`.as("cells"),
    })
    .from(reports)
    .innerJoin(filingValues, eq(filingValues.reportId, reports.id))
    .where(keyset ? and(where, keyset) : where)
    .groupBy(reports.id, filingValues.countryId)
    .having(havingOf(query));
}

/** The (report, country) groups without their cells: what the count and the page's sort read. */
function groupKeysOf(query: FilingQuery, quarterId: number) {
  return db
    .select({
      reportId: sql<number>`${reports.id}`.as("report_id"),
      partnerId: sql<number>`${reports.partnerId}`.as("partner_id"),
      reportStatus: sql<ReportStatus>`${reports.status}`.as("report_status"),
      countryId: sql<number>`${filingValues.countryId}`.as("country_id"),
    })
    .from(reports)
    .innerJoin(filingValues, eq(filingValues.reportId, reports.id))
    .where(whereOf(query, quarterId))
    .groupBy(reports.id, filingValues.countryId)
    .having(havingOf(query));
}

/** A row's key, partner and state from a subquery of groups, with its company's and country's names (joined by the caller). */
const namedRow = (groups: {
  reportId: SQL.Aliased<number>;
  partnerId: SQL.Aliased<number>;
  countryId: SQL.Aliased<number>;
  reportStatus: SQL.Aliased<ReportStatus>;
}) => ({
  reportId: groups.reportId,
  partnerId: groups.partnerId,
  companyName: partners.companyName,
  countryId: groups.countryId,
  country: countries.name,
  reportStatus: groups.reportStatus,
});

const companyOrder = (dir: "asc" | "desc") => {
  const order = dir === "desc" ? desc : asc;
  return [order(sql`lower(${partners.companyName})`), order(partners.companyName), order(partners.id)];
};
const countryOrder = (dir: "asc" | "desc") => {
  const order = dir === "desc" ? desc : asc;
  return [order(countries.name), order(countries.id)];
};

/**
 * What the quarter's cells hold: the partners with a filing (a probe per report, which stops at its
 * first filing), and in one pass over the cells the countries with a filing and the (product,
 * status) pairs stored. The partners were a third grouping set of that pass, its costliest.
 */
async function quarterCellFacets(quarterId: number) {
  const quarterReports = reportConditions({}, quarterId);
  const [partnerRows, rows] = await Promise.all([
    db
      .select({ partnerId: reports.partnerId })
      .from(reports)
      .where(and(quarterReports, sql`exists (select 1 from ${filingValues} where ${filingValues.reportId} = ${reports.id} and ${HAS_FILING})`)),
    db
      .select({ countryId: filingValues.countryId, productId: filingValues.productId, status: filingValues.status })
      .from(reports)
      .innerJoin(filingValues, eq(filingValues.reportId, reports.id))
      .where(and(quarterReports, HAS_FILING))
      .groupBy(sql`grouping sets ((${filingValues.countryId}), (${filingValues.productId}, ${filingValues.status}))`),
  ]);
  const pairs = rows.filter((row) => row.productId != null);
  return {
    partnerIds: partnerRows.map((row) => row.partnerId),
    countryIds: rows.flatMap((row) => (row.countryId == null ? [] : [row.countryId])),
    productIds: [...new Set(pairs.map((pair) => pair.productId))],
    statuses: [...new Set(pairs.map((pair) => pair.status))],
  };
}

/** The quarter's facets, kept under its reports' fingerprint. */
function keptCellFacets(quarterId: number, fingerprint: Promise<string> = reportsFingerprint(quarterId, "filing")) {
  return cachedUnder(fingerprint, "filing-facets", () => quarterCellFacets(quarterId));
}

/** The product columns: the products with a filing in the quarter, by name. */
async function productColumns(productIds: number[]): Promise<FilterOption[]> {
  if (!productIds.length) return [];
  return db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(idIn(products.id, productIds))
    .orderBy(asc(sql`lower(${products.name})`), asc(products.name), asc(products.id));
}

/**
 * The option lists come from the quarter's data; the value a link selects is listed too (a
 * partner without filings in a newly chosen quarter, say), so that the form shows every filter
 * in force.
 */
async function quarterPartners(partnerIds: number[], selected: number | undefined): Promise<FilterOption[]> {
  const ids = selected ? [...partnerIds, selected] : partnerIds;
  if (!ids.length) return [];
  return db
    .select({ id: partners.id, name: partners.companyName })
    .from(partners)
    .where(idIn(partners.id, ids))
    .orderBy(...companyOrder("asc"));
}

async function quarterCountries(countryIds: number[], selected: number | undefined): Promise<FilterOption[]> {
  const ids = selected ? [...countryIds, selected] : countryIds;
  if (!ids.length) return [];
  return db
    .select({ id: countries.id, name: countries.name })
    .from(countries)
    .where(idIn(countries.id, ids))
    .orderBy(...countryOrder("asc"));
}

/** The product filter: the quarter's products (the columns), and the selected one if it is not among them. */
async function productOptions(columns: FilterOption[], selected: number | undefined): Promise<FilterOption[]> {
  if (!selected || columns.some((product) => product.id === selected)) return columns;
  const [product] = await db.select({ id: products.id, name: products.name }).from(products).where(eq(products.id, selected));
  if (!product) return columns;
  const compare = (a: FilterOption, b: FilterOption) => a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return [...columns, product].sort(compare);
}

/** The statuses a cell of the quarter may hold (both categories' lists, in order), then any other status stored in it (or selected). */
async function quarterStatuses(
  quarter: { year: number; quarter: number },
  stored: readonly string[],
  selected: string | undefined,
): Promise<FilterOption<string>[]> {
  const lists = await listFilingStatuses({ year: quarter.year, quarter: quarter.quarter });
  const names = [...new Set([...lists.API, ...lists.FDF])];
  const known = new Set(names);
  const others = [...new Set([...stored, ...(selected ? [selected] : [])])].filter((status) => !known.has(status)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...names, ...others].map((name) => ({ id: name, name }));
}

/** The quarter dropdown: the open quarter first, then earlier quarters, newest first. */
async function quarterDropdown(): Promise<FilterOption[]> {
  const list = await listQuartersUpTo(openQuarterRef());
  return list.reverse().map((quarter) => ({ id: quarter.id, name: quarter.name }));
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

/** The product columns and the filters' option lists. */
async function filingFilters(query: FilingQuery, quarter: { id: number; year: number; quarter: number }, fingerprint: Promise<string>) {
  const [facets, quarterOptions] = await Promise.all([keptCellFacets(quarter.id, fingerprint), quarterDropdown()]);
  const [columns, partnerOptions, countryOptions, statusOptions] = await Promise.all([
    productColumns(facets.productIds),
    quarterPartners(facets.partnerIds, query.partner),
    quarterCountries(facets.countryIds, query.country),
    quarterStatuses(quarter, facets.statuses, query.productStatus),
  ]);
  const productFilter = await productOptions(columns, query.product);
  return {
    products: columns,
    options: {
      quarter_filter: quarterOptions,
      partner_filter: partnerOptions,
      country_filter: countryOptions,
      product_filter: productFilter,
      status_filter: statusOptions,
      report_status_filter: REPORT_STATES.map((state) => ({ id: state, name: state })),
    },
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

/** The download's columns (the page's) and every row of the query, all pages, as cells in the columns' order. */
export async function filingConsolidatedDownload(query: FilingQuery, format: DownloadFormat): Promise<Response> {
  const quarter = await resolveQuarter(query.quarter);
  const productList = await productColumns((await keptCellFacets(quarter.id)).productIds);
  const columns: WorkbookColumn[] = [
    { key: "company", label: "Company Name" },
    { key: "country", label: "Country" },
    { key: "reportStatus", label: "Report Status" },
    ...productList.map((product) => ({ key: `product-${product.id}`, label: product.name })),
  ];
  async function* rows() {
    for await (const row of filingConsolidatedRows(query, quarter.id)) {
      yield [row.companyName, row.country, row.reportStatus, ...productList.map((product) => row.cells[String(product.id)] ?? null)];
    }
  }
  return tableDownload(format, { basename: "filing-plans", sheet: "Filing Plans" }, columns, rows());
}

/**
 * Every row of the query, all pages, in (report id, country id) order: keyset batches of
 * DOWNLOAD_BATCH_ROWS groups, each one query with its names and cells, so memory stays flat.
 */
export async function* filingConsolidatedRows(query: FilingQuery, quarterId?: number): AsyncGenerator<FilingConsolidatedRow> {
  const id = quarterId ?? (await resolveQuarter(query.quarter)).id;
  const fetch = async (after: RowKey | null): Promise<FilingConsolidatedRow[]> => {
    const groups = groupsOf(query, id, after).orderBy(reports.id, filingValues.countryId).limit(DOWNLOAD_BATCH_ROWS).as("groups");
    return db
      .select({
        ...namedRow(groups),
        cells: groups.cells,
      })
      .from(groups)
      .innerJoin(partners, eq(partners.id, groups.partnerId))
      .innerJoin(countries, eq(countries.id, groups.countryId))
      .orderBy(asc(groups.reportId), asc(groups.countryId));
  };
  yield* batched(fetch, (row): RowKey => ({ reportId: row.reportId, countryId: row.countryId }));
}
