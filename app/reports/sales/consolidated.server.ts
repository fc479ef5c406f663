/**
 * The consolidated Sales Report of the administrators (spec section 2 "Admin consolidated reports",
 * section 3 "Report filter options", section 7 `/report/sales/{x}`): the API or FDF rows of every
 * partner's Sales Report of a quarter, in every report state, filtered, sorted and paged on the
 * server, and downloaded as a stream.
 *
 * Every query starts from the quarter's reports (reports_quarter_type_idx, a few hundred rows) and
 * reads each report's rows through sales_rows_report_kind_idx (report_id, kind, id): the rows of a
 * report are a lateral subquery, so the planner never trades the index for a scan of the whole
 * table. Partner and report-status filters narrow the reports before any row is read.
 *
 * - The default order (company, then the report, then the row) needs no sort: the per-report row
 *   counts say which reports a page covers, and each is read in index order with LIMIT/OFFSET.
 * - The counts and the filter options cost a pass over the quarter's rows. Each report's share is
 *   kept under the version of that report's rows (reportKeys), and the quarter's sums for a minute under
 *   the fingerprint of its reports (quarter-cache.server.ts): after a save or a decision only the
 *   reports that changed are read again.
 * - Downloads read keyset batches per report in the same order, never the whole result at once.
 *
 * Numbers stay decimal-exact: numeric columns arrive as strings and are shown as plain decimals.
 */
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gt, ilike, max, sql, type AnyColumn, type SQL } from "drizzle-orm";
import * as z from "zod";
import { db, streamedReads } from "~/db/client.server";
import { MONTHS } from "~/db/reference-data";
import { countries, formulationTypes, partners, products, reports, salesRows } from "~/db/schema";
import { idIn, OFFSET_ZERO, sqlCount } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter, textFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page, type FilterOption } from "~/reports/consolidated/paging";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { ReportStatus } from "~/reports/frame/workflow";
import { columnsFor, storedNumberText, type SalesColumnKey, type SalesKind } from "~/reports/sales/rows";
import {
  batched,
  csvBodyResponse,
  DOWNLOAD_BATCH_ROWS,
  tableDownload,
  withCsvHeader,
  xlsxResponse,
  type DownloadFormat,
} from "~/reports/consolidated/download.server";
import { salesWorkbookColumns } from "./workbook.server";
import { FORMULA_START_CHARACTERS, neutraliseCell, type WorkbookCell, type WorkbookColumn } from "~/reports/frame/workbook.server";
import { listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { cached, cachedLarge, keptMany, LAST_VERIFICATION_DECISION, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";

// ---------------------------------------------------------------- the query string

export const SALES_SORTS = ["company", "year", "month", "country", "purchaser", "product", "quantity", "totalValue"] as const;
export type SalesSort = (typeof SALES_SORTS)[number];

/** `?tab=FDF&quarter=Q3 2026&partner=4&year=2026&month=7&purchaser=health&page=2&sort=quantity&dir=desc` */
export const salesConsolidatedQuery = z.object({
  ...baseQuery,
  sort: choiceFilter(SALES_SORTS),
  tab: z.enum(["API", "FDF"]).catch("API"),
  partner: idFilter,
  year: z.coerce.number().int().min(1).max(9999).optional().catch(undefined),
  month: z.coerce.number().int().min(1).max(12).optional().catch(undefined),
  country: idFilter,
  purchaser: textFilter,
  product: idFilter,
  reportStatus: choiceFilter(REPORT_STATES),
  // FDF only
  strength: textFilter,
  formulationType: idFilter,
  currency: textFilter,
  procurementEndCountry: textFilter,
  comments: textFilter,
});
export type SalesConsolidatedQuery = z.infer<typeof salesConsolidatedQuery>;

/** The filters of the FDF tab that the API tab does not have. */
const FDF_ONLY_FILTERS = ["strength", "formulationType", "currency", "procurementEndCountry", "comments"] as const;

/** The query as the report applies it: the FDF filters dropped on the API tab, the currency upper-cased. */
function normaliseSalesQuery(query: SalesConsolidatedQuery): SalesConsolidatedQuery {
  const normalised = { ...query, currency: query.currency?.toUpperCase() };
  if (normalised.tab === "API") for (const key of FDF_ONLY_FILTERS) normalised[key] = undefined;
  return normalised;
}

// ---------------------------------------------------------------- rows

/** One row of the report: who reported it, the report's state, and the grid's cells of its tab as the grid shows them. */
export type SalesConsolidatedRow = {
  id: number;
  reportId: number;
  companyName: string;
  reportStatus: ReportStatus;
  countryId: number | null;
  productId: number | null;
} & Partial<Record<SalesColumnKey, string>>;

/** The filter lists (spec section 3): from the quarter's rows of the tab, except the fixed lists. */
export interface SalesFilterOptions {
  /** quarter_filter: the open quarter first, then earlier ones. */
  quarters: string[];
  /** partner_filter: partners with rows of the tab in the quarter. */
  partners: FilterOption[];
  /** product_filter */
  products: FilterOption[];
  /** country_filter */
  countries: FilterOption[];
  /** year_filter */
  years: FilterOption[];
  /** month_filter */
  months: FilterOption[];
  /** purchaser_filter: the first PURCHASER_OPTIONS_MAX distinct purchasers in alphabetical order. */
  purchasers: string[];
  statuses: readonly ReportStatus[];
  /** FDF: formulation types and currency codes used. */
  formulationTypes: FilterOption[];
  currencies: string[];
}

const PURCHASER_OPTIONS_MAX = 200;

export interface SalesConsolidatedView {
  page: Page<SalesConsolidatedRow>;
  quarter: { id: number; name: string };
  tab: SalesKind;
  /** The query as applied (sort resolved, FDF filters dropped on the API tab). */
  query: SalesConsolidatedQuery;
  sort: SalesSort;
  options: SalesFilterOptions;
}

// ---------------------------------------------------------------- the quarter's reports

interface QuarterReport {
  id: number;
  partnerId: number;
  companyName: string;
  status: ReportStatus;
}

interface Scope {
  quarter: { id: number; name: string };
  kind: SalesKind;
  query: SalesConsolidatedQuery;
  /** Every sales report of the quarter, by company name then id. */
  reports: QuarterReport[];
  /** The reports the partner and report-status filters keep, in the same order. */
  selected: QuarterReport[];
  /** Changes whenever a report, its rows or a product verification changes. */
  fingerprint: string;
}

async function loadScope(rawQuery: SalesConsolidatedQuery): Promise<Scope> {
  const query = normaliseSalesQuery(rawQuery);
  const kind = query.tab;
  const quarter = await resolveQuarter(query.quarter);
  const [reportRows, reportsKey] = await Promise.all([
    db
      .select({ id: reports.id, partnerId: reports.partnerId, companyName: partners.companyName, status: reports.status })
      .from(reports)
      .innerJoin(partners, eq(partners.id, reports.partnerId))
      .where(and(eq(reports.quarterId, quarter.id), eq(reports.type, "sales")))
      .orderBy(asc(partners.companyName), asc(reports.id)),
    reportsFingerprint(quarter.id, "sales"),
  ]);
  const fingerprint = `${reportsKey}|${kind}`;
  const selected = reportRows.filter(
    (report) =>
      (query.partner === undefined || report.partnerId === query.partner) && (query.reportStatus === undefined || report.status === query.reportStatus),
  );
  return { quarter: { id: quarter.id, name: quarter.name }, kind, query, reports: reportRows, selected, fingerprint };
}

// ---------------------------------------------------------------- row filters

/** `%`, `_` and `\` typed by a user are searched for literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The conditions on sales_rows besides its report and kind. */
function rowConditions(query: SalesConsolidatedQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.year !== undefined) conditions.push(eq(salesRows.year, query.year));
  if (query.month !== undefined) conditions.push(eq(salesRows.month, query.month));
  if (query.country !== undefined) conditions.push(eq(salesRows.countryId, query.country));
  if (query.product !== undefined) conditions.push(eq(salesRows.productId, query.product));
  if (query.purchaser) conditions.push(ilike(salesRows.purchaser, containsPattern(query.purchaser)));
  if (query.strength) conditions.push(ilike(salesRows.strength, containsPattern(query.strength)));
  if (query.formulationType !== undefined) conditions.push(eq(salesRows.formulationTypeId, query.formulationType));
  if (query.currency) conditions.push(eq(salesRows.currencyCode, query.currency));
  if (query.procurementEndCountry) conditions.push(ilike(salesRows.procurementEndCountry, containsPattern(query.procurementEndCountry)));
  if (query.comments) conditions.push(ilike(salesRows.comments, containsPattern(query.comments)));
  return conditions;
}

/**
 * The rows of the kind of one report (the outer query's `reports` row) that meet `conditions`, read
 * through sales_rows_report_kind_idx. OFFSET 0 keeps the subquery a per-report index scan: the
 * planner cannot flatten it into a hash join over the whole table.
 */
function lateralRows(scope: Scope, conditions: SQL[]) {
  return db
    .select(rowColumns)
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind), ...conditions))
    .offset(OFFSET_ZERO)
    .as("s");
}

/** The same, for counting only (the index alone answers when no row filter is set). */
function lateralCount(scope: Scope) {
  return db
    .select({ one: sql<number>`1`.as("one") })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind), ...rowConditions(scope.query)))
    .offset(OFFSET_ZERO)
    .as("s");
}

const rowColumns = {
  id: salesRows.id,
  reportId: salesRows.reportId,
  year: salesRows.year,
  month: salesRows.month,
  countryId: salesRows.countryId,
  purchaser: salesRows.purchaser,
  productId: salesRows.productId,
  productName: salesRows.productName,
  quantity: salesRows.quantity,
  totalValue: salesRows.totalValue,
  strength: salesRows.strength,
  formulationTypeId: salesRows.formulationTypeId,
  packSize: salesRows.packSize,
  currencyCode: salesRows.currencyCode,
  grossSalePriceCurrency: salesRows.grossSalePriceCurrency,
  usdExchangeRate: salesRows.usdExchangeRate,
  grossSalePriceUsd: salesRows.grossSalePriceUsd,
  totalGrossValue: salesRows.totalGrossValue,
  deductableExpenses: salesRows.deductableExpenses,
  royaltyPercent: salesRows.royaltyPercent,
  royaltyDue: salesRows.royaltyDue,
  procurementEndCountry: salesRows.procurementEndCountry,
  comments: salesRows.comments,
};

// ---------------------------------------------------------------- formatting

const NUMBER_KEYS = [
  "quantity",
  "totalValue",
  "packSize",
  "grossSalePriceCurrency",
  "usdExchangeRate",
  "grossSalePriceUsd",
  "totalGrossValue",
  "deductableExpenses",
  "royaltyPercent",
  "royaltyDue",
] as const satisfies readonly SalesColumnKey[];
const NUMBER_KEY_SET = new Set<string>(NUMBER_KEYS);

interface FetchedRow {
  id: number;
  reportId: number;
  year: number | null;
  month: number | null;
  country: string | null;
  countryId: number | null;
  productId: number | null;
  purchaser: string | null;
  product: string | null;
  quantity: string | null;
  totalValue: string | null;
  strength: string | null;
  formulation: string | null;
  packSize: string | null;
  currencyCode: string | null;
  grossSalePriceCurrency: string | null;
  usdExchangeRate: string | null;
  grossSalePriceUsd: string | null;
  totalGrossValue: string | null;
  deductableExpenses: string | null;
  royaltyPercent: string | null;
  royaltyDue: string | null;
  procurementEndCountry: string | null;
  comments: string | null;
}

/** The fetched field that holds each grid column's stored value (the page's and the download's). */
const STORED_FIELD: Record<SalesColumnKey, Exclude<keyof FetchedRow, "id" | "reportId">> = {
  year: "year",
  month: "month",
  country: "country",
  purchaser: "purchaser",
  productName: "product",
  strength: "strength",
  formulationType: "formulation",
  currency: "currencyCode",
  procurementEndCountry: "procurementEndCountry",
  comments: "comments",
  quantity: "quantity",
  totalValue: "totalValue",
  packSize: "packSize",
  grossSalePriceCurrency: "grossSalePriceCurrency",
  usdExchangeRate: "usdExchangeRate",
  grossSalePriceUsd: "grossSalePriceUsd",
  totalGrossValue: "totalGrossValue",
  deductableExpenses: "deductableExpenses",
  royaltyPercent: "royaltyPercent",
  royaltyDue: "royaltyDue",
};

/** A grid column's cell, as the grid shows it. */
function cellText(key: SalesColumnKey, row: FetchedRow): string {
  const value = row[STORED_FIELD[key]];
  if (value == null) return "";
  if (key === "month") return MONTHS[Number(value) - 1] ?? "";
  if (NUMBER_KEY_SET.has(key)) return storedNumberText(String(value));
  return String(value);
}

function formatRow(kind: SalesKind, row: FetchedRow, report: QuarterReport): SalesConsolidatedRow {
  const result: SalesConsolidatedRow = {
    id: row.id,
    reportId: report.id,
    companyName: report.companyName,
    reportStatus: report.status,
    countryId: row.countryId,
    productId: row.productId,
  };
  for (const column of columnsFor(kind)) result[column.key] = cellText(column.key, row);
  return result;
}

/** The row's fields with the names of its country, product and formulation type, from sales_rows or the lateral `s`. */
function fetchedFields(s: typeof rowColumns | ReturnType<typeof lateralRows>) {
  return {
    id: s.id,
    reportId: s.reportId,
    year: s.year,
    month: s.month,
    country: countries.name,
    countryId: s.countryId,
    productId: s.productId,
    purchaser: s.purchaser,
    product: sql<string | null>`coalesce(${products.name}, ${s.productName})`,
    quantity: s.quantity,
    totalValue: s.totalValue,
    strength: s.strength,
    formulation: formulationTypes.name,
    packSize: s.packSize,
    currencyCode: s.currencyCode,
    grossSalePriceCurrency: s.grossSalePriceCurrency,
    usdExchangeRate: s.usdExchangeRate,
    grossSalePriceUsd: s.grossSalePriceUsd,
    totalGrossValue: s.totalGrossValue,
    deductableExpenses: s.deductableExpenses,
    royaltyPercent: s.royaltyPercent,
    royaltyDue: s.royaltyDue,
    procurementEndCountry: s.procurementEndCountry,
    comments: s.comments,
  };
}

// ---------------------------------------------------------------- what each report holds, kept by its row version

/**
 * Each report's key for what its rows of the kind hold: the version of its rows (rows_version: every
 * change that writes them moves it, a decision does not), its last row of the kind (a row added by
 * any path) and the last product verification decision (it rewrites the product of rows without
 * touching their report). Read when the quarter's fingerprint changes, by a probe per report (about 5 ms at L), so
 * that only the reports that changed are read again.
 */
function reportKeys(scope: Scope): Promise<Map<number, string>> {
  return cached(`sales-report-keys|${scope.fingerprint}`, async () => {
    const lastRow = db
      .select({ id: max(salesRows.id) })
      .from(salesRows)
      .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind)));
    const rows = await db
      .select({
        id: reports.id,
        version: sql<string>`${reports.rowsVersion}::text || ':' || coalesce((${lastRow})::text, '') || ':' || coalesce(${LAST_VERIFICATION_DECISION}, '')`,
      })
      .from(reports)
      .where(
        idIn(
          reports.id,
          scope.reports.map((report) => report.id),
        ),
      );
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    // A report deleted since the scope was read has no rows left: its key says so.
    return new Map(scope.reports.map((report) => [report.id, `sales|${scope.kind}|${report.id}|${versions.get(report.id) ?? "deleted"}`]));
  });
}

/** What `read` gives for each report, kept under the report's key and `what`; only the reports without a kept value are read (together). */
async function perReport<V>(scope: Scope, reportIds: readonly number[], what: string, read: (reportIds: number[]) => Promise<Map<number, V>>, absent: V) {
  const keys = await reportKeys(scope);
  const keyOf = (reportId: number) => `${keys.get(reportId)}|${what}`;
  const reportOf = new Map(reportIds.map((reportId) => [keyOf(reportId), reportId]));
  const values = await keptMany(
    [...reportOf.keys()],
    async (missing) => {
      const found = await read(missing.map((key) => reportOf.get(key)!));
      return new Map([...found].map(([reportId, value]) => [keyOf(reportId), value]));
    },
    absent,
  );
  return new Map([...values].map(([key, value]) => [reportOf.get(key)!, value]));
}

// ---------------------------------------------------------------- counts

/** The query's filters (partner and report status too), without its paging, order, quarter and tab: what a count or an order is kept under. */
const filterKey = (query: SalesConsolidatedQuery) =>
  JSON.stringify({ ...query, page: undefined, sort: undefined, dir: undefined, quarter: undefined, tab: undefined });

/** Filtered rows per report (selected reports only); the sum is the total. */
function countsPerReport(scope: Scope): Promise<Map<number, number>> {
  if (!scope.selected.length) return Promise.resolve(new Map());
  const { query } = scope;
  const filters = filterKey(query);
  const ids = scope.selected.map((report) => report.id);
  return cached(`sales-count|${scope.fingerprint}|${filters}`, () =>
    perReport(
      scope,
      ids,
      `count|${filters}`,
      async (reportIds) => {
        const s = lateralCount(scope);
        const rows = await db
          .select({ reportId: reports.id, count: sql<number>`count(*)`.mapWith(Number) })
          .from(reports)
          .crossJoinLateral(s)
          .where(idIn(reports.id, reportIds))
          .groupBy(reports.id);
        return new Map(rows.map((row) => [row.reportId, row.count]));
      },
      0,
    ),
  );
}

// ---------------------------------------------------------------- a page

/**
 * The default order (company, report, row id, all in `dir`): the counts say which reports the page
 * covers and from which row; each is read in index order.
 */
async function pageInReportOrder(scope: Scope, counts: Map<number, number>, offset: number, limit: number, dir: "asc" | "desc") {
  const ordered = dir === "asc" ? scope.selected : [...scope.selected].reverse();
  const segments: { report: QuarterReport; offset: number; limit: number }[] = [];
  let skip = offset;
  let wanted = limit;
  for (const report of ordered) {
    if (wanted <= 0) break;
    const count = counts.get(report.id) ?? 0;
    if (skip >= count) {
      skip -= count;
      continue;
    }
    const take = Math.min(wanted, count - skip);
    segments.push({ report, offset: skip, limit: take });
    wanted -= take;
    skip = 0;
  }
  if (!segments.length) return [];
  // One statement for every report the page spans (a sparse filter spans a hundred): each report's
  // slice is read in index order with its own LIMIT/OFFSET, taken from the list of slices.
  const order = dir === "asc" ? asc : desc;
  const slices = sql`(values ${sql.join(
    segments.map((segment, index) => sql`(${index}::int, ${segment.report.id}::int, ${segment.offset}::int, ${segment.limit}::int)`),
    sql`, `,
  )}) as slices(n, report_id, skip, take)`;
  const s = db
    .select(rowColumns)
    .from(salesRows)
    .where(and(eq(salesRows.reportId, sql`slices.report_id`), eq(salesRows.kind, scope.kind), ...rowConditions(scope.query)))
    .orderBy(order(salesRows.id))
    .limit(sqlCount(sql`slices.take`))
    .offset(sqlCount(sql`slices.skip`))
    .as("s");
  const rows = await db
    .select({ slice: sql<number>`slices.n`.mapWith(Number), ...fetchedFields(s) })
    .from(slices)
    .crossJoinLateral(s)
    .leftJoin(countries, eq(countries.id, s.countryId))
    .leftJoin(products, eq(products.id, s.productId))
    .leftJoin(formulationTypes, eq(formulationTypes.id, s.formulationTypeId))
    .orderBy(sql`slices.n`, order(s.id));
  return rows.map((row) => formatRow(scope.kind, row, segments[row.slice].report));
}

/** Memory for sorting a quarter's (key, id) pairs at once (PostgreSQL's default of 4 MB spilled a large quarter to disk). */
const SORT_WORK_MEM = "64MB";

/** The ids of the scope's filtered rows in the order of `sort`, nulls last, ties by id. */
async function sortedRowIds(scope: Scope, sort: Exclude<SalesSort, "company">, dir: "asc" | "desc"): Promise<Int32Array> {
  const s = lateralRows(scope, rowConditions(scope.query));
  const sortKey: Record<typeof sort, SQL> = {
    year: sql`${s.year}`,
    month: sql`${s.month}`,
    country: sql`${countries.name}`,
    purchaser: sql`${s.purchaser}`,
    product: sql`coalesce(${products.name}, ${s.productName})`,
    quantity: sql`${s.quantity}`,
    totalValue: sql`${s.totalValue}`,
  };
  const direction = sql.raw(dir === "asc" ? "asc" : "desc");
  const selectedIds = scope.selected.map((report) => report.id);
  if (!selectedIds.length) return new Int32Array(0);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local work_mem = '${SORT_WORK_MEM}'`));
    let ids = tx
      .select({ ids: sql<number[] | null>`array_agg(${s.id} order by ${sortKey[sort]} ${direction} nulls last, ${s.id} ${direction})` })
      .from(reports)
      .crossJoinLateral(s)
      .where(idIn(reports.id, selectedIds))
      .$dynamic();
    if (sort === "country") ids = ids.leftJoin(countries, eq(countries.id, s.countryId));
    if (sort === "product") ids = ids.leftJoin(products, eq(products.id, s.productId));
    const [row] = await ids;
    return Int32Array.from(row?.ids ?? []);
  });
}

/**
 * Any other order: the ids of every filtered row of the selected reports in that order (sort key,
 * then id, both in `dir`), read in one pass and kept for the quarter's fingerprint, the filters and
 * the order, so that paging on, back or to any depth is a slice of them; then the page's rows in
 * full by id. The pass sorts only (key, id) pairs, with the memory to do it without spilling to
 * disk: a 5,000,000-row data set's largest quarter sorted page after page cost its sort each time.
 */
async function pageInColumnOrder(scope: Scope, sort: Exclude<SalesSort, "company">, offset: number, limit: number, dir: "asc" | "desc") {
  const ids = await cachedLarge<Int32Array>(`sales-sorted|${scope.fingerprint}|${filterKey(scope.query)}|${sort}|${dir}`, () => sortedRowIds(scope, sort, dir));
  const pageIds = Array.from(ids.subarray(offset, offset + limit));
  if (!pageIds.length) return [];
  const rows = await db
    .select(fetchedFields(rowColumns))
    .from(salesRows)
    .leftJoin(countries, eq(countries.id, salesRows.countryId))
    .leftJoin(products, eq(products.id, salesRows.productId))
    .leftJoin(formulationTypes, eq(formulationTypes.id, salesRows.formulationTypeId))
    .where(idIn(salesRows.id, pageIds));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const reportsById = new Map(scope.selected.map((report) => [report.id, report]));
  return pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [formatRow(scope.kind, row, reportsById.get(row.reportId)!)] : [];
  });
}

// ---------------------------------------------------------------- options

/** The distinct values of each filter column in a report's rows of the kind (purchasers: the first PURCHASER_OPTIONS_MAX in alphabetical order). */
interface OptionValues {
  products: number[];
  countries: number[];
  years: number[];
  months: number[];
  formulationTypes: number[];
  currencies: string[];
  purchasers: string[];
}

interface OptionIds extends OptionValues {
  /** The reports with rows of the kind. */
  reports: number[];
}

const noOptionValues = (): OptionValues => ({ products: [], countries: [], years: [], months: [], formulationTypes: [], currencies: [], purchasers: [] });

/**
 * One pass over the reports' rows of the kind: each report's distinct values of each filter column,
 * as arrays made by a subquery per report (sorting a few hundred rows of one report at a time,
 * where grouping sets over (report, column) sorted the whole quarter's rows twice).
 */
async function readOptionValues(scope: Scope, reportIds: number[]): Promise<Map<number, OptionValues>> {
  const distinct = <T>(column: AnyColumn, present: SQL = sql`${column} is not null`) =>
    sql<T[] | null>`array_agg(distinct ${column}) filter (where ${present})`;
  const reportValues = db
    .select({
      rows: sql<number>`count(*)`.as("rows"),
      products: distinct<number>(salesRows.productId).as("products"),
      countries: distinct<number>(salesRows.countryId).as("countries"),
      years: distinct<number>(salesRows.year).as("years"),
      months: distinct<number>(salesRows.month).as("months"),
      formulationTypes: distinct<number>(salesRows.formulationTypeId).as("formulation_types"),
      currencies: distinct<string>(salesRows.currencyCode).as("currencies"),
    })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind)))
    .as("values");
  const rows = await db
    .select({
      reportId: reports.id,
      products: reportValues.products,
      countries: reportValues.countries,
      years: reportValues.years,
      months: reportValues.months,
      formulationTypes: reportValues.formulationTypes,
      currencies: reportValues.currencies,
      // The quarter's first names are among each report's first names: a report of 100,000 rows
      // gives its first PURCHASER_OPTIONS_MAX, not all of its names. An empty purchaser is none.
      purchasers: sql<string[] | null>`(
        select array_agg(name order by name) from (
          select distinct ${salesRows.purchaser} as name from ${salesRows}
          where ${salesRows.reportId} = ${reports.id} and ${salesRows.kind} = ${scope.kind} and ${salesRows.purchaser} <> ''
          order by 1 limit ${PURCHASER_OPTIONS_MAX}
        ) first_purchasers
      )`,
    })
    .from(reports)
    .crossJoinLateral(reportValues)
    .where(and(idIn(reports.id, reportIds), sql`${reportValues.rows} > 0`));
  return new Map(
    rows.map((row) => [
      row.reportId,
      {
        products: row.products ?? [],
        countries: row.countries ?? [],
        years: row.years ?? [],
        months: row.months ?? [],
        formulationTypes: row.formulationTypes ?? [],
        currencies: row.currencies ?? [],
        purchasers: row.purchasers ?? [],
      },
    ]),
  );
}

/**
 * The quarter's filter values: each report's (kept by its key), together; the purchasers in the
 * database's alphabetical order, the first PURCHASER_OPTIONS_MAX. Kept under the reports' keys
 * rather than the quarter's fingerprint: a decision, or a save that leaves the rows as they were,
 * does not send the quarter's names to the database to be ordered again.
 */
async function optionIds(scope: Scope): Promise<OptionIds> {
  if (!scope.reports.length) return { reports: [], ...noOptionValues() };
  const ids = scope.reports.map((report) => report.id);
  const keys = await reportKeys(scope);
  const reportsDigest = createHash("sha1")
    .update(ids.map((id) => keys.get(id)).join(","))
    .digest("base64url");
  return cached(`sales-options|${reportsDigest}`, async () => {
    const byReport = await perReport(scope, ids, "options", (reportIds) => readOptionValues(scope, reportIds), null);
    const reported = [...byReport].flatMap(([reportId, values]) => (values ? [{ reportId, values }] : []));
    const union = <T>(pick: (values: OptionValues) => T[]) => [...new Set(reported.flatMap(({ values }) => pick(values)))];
    const purchasers = union((values) => values.purchasers);
    const firstPurchasers = purchasers.length
      ? await db
          .select({ name: sql<string>`name` })
          .from(sql`json_array_elements_text(${JSON.stringify(purchasers)}::json) as purchasers(name)`)
          .orderBy(sql`name`)
          .limit(PURCHASER_OPTIONS_MAX)
      : [];
    return {
      reports: reported.map(({ reportId }) => reportId),
      products: union((values) => values.products),
      countries: union((values) => values.countries),
      years: union((values) => values.years),
      months: union((values) => values.months),
      formulationTypes: union((values) => values.formulationTypes),
      currencies: union((values) => values.currencies),
      purchasers: firstPurchasers.map((row) => row.name),
    };
  });
}

const byName = (a: FilterOption, b: FilterOption) => a.name.localeCompare(b.name);

async function filterOptions(scope: Scope): Promise<SalesFilterOptions> {
  const [ids, quarterRows] = await Promise.all([optionIds(scope), listQuartersUpTo(openQuarterRef())]);
  // Names are read fresh (small tables): a renamed product shows its new name at once.
  const [productRows, countryRows, formulationRows] = await Promise.all([
    ids.products.length ? db.select({ id: products.id, name: products.name }).from(products).where(idIn(products.id, ids.products)) : [],
    ids.countries.length ? db.select({ id: countries.id, name: countries.name }).from(countries).where(idIn(countries.id, ids.countries)) : [],
    ids.formulationTypes.length
      ? db
          .select({ id: formulationTypes.id, name: formulationTypes.name })
          .from(formulationTypes)
          .where(idIn(formulationTypes.id, ids.formulationTypes))
          .orderBy(asc(formulationTypes.sortOrder))
      : [],
  ]);
  const partnerOptions = new Map<number, string>();
  const withRows = new Set(ids.reports);
  for (const report of scope.reports) if (withRows.has(report.id)) partnerOptions.set(report.partnerId, report.companyName);
  return {
    quarters: quarterRows.map((quarter) => quarter.name).reverse(),
    partners: [...partnerOptions].map(([id, name]) => ({ id, name })),
    products: productRows.sort(byName),
    countries: countryRows.sort(byName),
    years: [...ids.years].sort((a, b) => b - a).map((year) => ({ id: year, name: String(year) })),
    months: [...ids.months].sort((a, b) => a - b).map((month) => ({ id: month, name: MONTHS[month - 1] ?? String(month) })),
    purchasers: ids.purchasers,
    statuses: REPORT_STATES,
    formulationTypes: scope.kind === "FDF" ? formulationRows : [],
    currencies: scope.kind === "FDF" ? [...ids.currencies].sort() : [],
  };
}

// ---------------------------------------------------------------- the page

/** A page of the report with its total, the quarter, the tab and the filter lists. */
export async function listSalesConsolidated(
  rawQuery: SalesConsolidatedQuery,
  { pageSize = CONSOLIDATED_PAGE_SIZES.sales }: { pageSize?: number } = {},
): Promise<SalesConsolidatedView> {
  const scope = await loadScope(rawQuery);
  const sort: SalesSort = scope.query.sort ?? "company";
  const dir = scope.query.dir;
  const [counts, options] = await Promise.all([countsPerReport(scope), filterOptions(scope)]);
  let total = 0;
  for (const count of counts.values()) total += count;
  const window = pageWindow(scope.query.page, total, pageSize);
  const rows =
    total === 0
      ? []
      : sort === "company"
        ? await pageInReportOrder(scope, counts, window.offset, window.limit, dir)
        : await pageInColumnOrder(scope, sort, window.offset, window.limit, dir);
  return {
    page: { rows, total, page: window.page, pageSize, pages: window.pages },
    quarter: scope.quarter,
    tab: scope.kind,
    query: { ...scope.query, page: window.page },
    sort,
    options,
  };
}

// ---------------------------------------------------------------- downloads

/**
 * Every filtered row, in the default order (company, report, row), read in keyset batches of
 * DOWNLOAD_BATCH_ROWS: each batch continues from the last row seen, report by report.
 */
async function* rowsOf(scope: Scope): AsyncGenerator<SalesConsolidatedRow> {
  const conditions = rowConditions(scope.query);
  type Key = { index: number; id: number };
  type Entry = { row: SalesConsolidatedRow; key: Key };
  const read = async (after: Key | null): Promise<Entry[]> => {
    const batch: Entry[] = [];
    let index = after?.index ?? 0;
    let afterId = after?.id ?? 0;
    while (batch.length < DOWNLOAD_BATCH_ROWS && index < scope.selected.length) {
      const report = scope.selected[index];
      const wanted = DOWNLOAD_BATCH_ROWS - batch.length;
      const rows = await db
        .select(fetchedFields(rowColumns))
        .from(salesRows)
        .leftJoin(countries, eq(countries.id, salesRows.countryId))
        .leftJoin(products, eq(products.id, salesRows.productId))
        .leftJoin(formulationTypes, eq(formulationTypes.id, salesRows.formulationTypeId))
        .where(and(eq(salesRows.reportId, report.id), eq(salesRows.kind, scope.kind), gt(salesRows.id, afterId), ...conditions))
        .orderBy(asc(salesRows.id))
        .limit(wanted);
      for (const row of rows) batch.push({ row: formatRow(scope.kind, row, report), key: { index, id: row.id } });
      if (rows.length === wanted) break;
      index += 1;
      afterId = 0;
    }
    return batch;
  };
  // While a batch is written out, the next one is read: at most two batches in memory.
  let ahead: { after: Key; batch: Promise<Entry[]> } | null = null;
  const fetch = async (after: Key | null): Promise<Entry[]> => {
    const batch = ahead && after && ahead.after.index === after.index && ahead.after.id === after.id ? ahead.batch : read(after);
    ahead = null;
    const entries = await batch;
    if (entries.length === DOWNLOAD_BATCH_ROWS) {
      const next = entries[entries.length - 1].key;
      ahead = { after: next, batch: read(next) };
      // A download given up before it is awaited must not be an unhandled rejection.
      ahead.batch.catch(() => undefined);
    }
    return entries;
  };
  for await (const { row } of batched(fetch, (entry) => entry.key)) yield row;
}

/** The download's columns: Company Name, Report Status, then the grid's columns of the tab. */
function salesDownloadColumns(kind: SalesKind): WorkbookColumn[] {
  return [{ key: "companyName", label: "Company Name" }, { key: "reportStatus", label: "Report Status" }, ...salesWorkbookColumns(kind)];
}

/** A plain decimal as an Excel number only when the number reads back as the same text. */
function spreadsheetNumber(text: string): WorkbookCell {
  if (text === "") return null;
  const trimmed = text.trim();
  const value = Number(trimmed);
  return Number.isFinite(value) && String(value) === trimmed ? value : text;
}

/** A cell of a grid column as the xlsx writes it: the year and the numbers typed where that is exact. */
function xlsxCell(key: SalesColumnKey, text: string): WorkbookCell {
  return NUMBER_KEY_SET.has(key) || key === "year" ? spreadsheetNumber(text) : text;
}

/** One row's cells in the order of `salesDownloadColumns`: CSV keeps numbers as plain decimal text, xlsx types the safe ones. */
function salesDownloadCells(kind: SalesKind, row: SalesConsolidatedRow, format: DownloadFormat): WorkbookCell[] {
  const cells: WorkbookCell[] = [row.companyName, row.reportStatus];
  for (const column of columnsFor(kind)) {
    const value = row[column.key] ?? "";
    cells.push(format === "xlsx" ? xlsxCell(column.key, value) : value);
  }
  return cells;
}

/**
 * A text cell as the CSV writes it, in SQL: empty as nothing, a formula-like text neutralised
 * (neutraliseCell; the workbook writer leaves a neutralised text as it is).
 */
function textSql(value: SQL | AnyColumn): SQL {
  // Compared as code points (comparing one-letter texts took a sixth of the L FDF download's
  // COPY), and a text that starts past the last formula character (most start with a letter) is
  // written at once, after one comparison (another 30 ms off it).
  const codes = FORMULA_START_CHARACTERS.map((character) => character.codePointAt(0)!);
  const starts = sql.raw(codes.join(", "));
  const last = sql.raw(String(Math.max(...codes)));
  return sql`case when ascii(${value}) > ${last} then ${value} when ascii(${value}) in (${starts}) then '''' || ${value} else nullif(${value}, '') end`;
}

const STORED_VALUES = fetchedFields(rowColumns);

/** A grid column's cell in SQL, from the sales row and the lists it names: the text cellText then csvCell give (the consolidated-sales tests compare them). */
function downloadCellSql(key: SalesColumnKey): SQL {
  const value = STORED_VALUES[STORED_FIELD[key]];
  if (key === "year") return sql`${value}::text`;
  if (key === "month")
    return sql`(array[${sql.join(
      MONTHS.map((month) => sql`${month}`),
      sql`, `,
    )}])[${value}]`;
  // As storedNumberText writes it: no trailing zeros.
  if (NUMBER_KEY_SET.has(key)) return sql`trim_scale(${value})`;
  return textSql(value);
}

/** `array[…]::type` of the values, each its own parameter. */
const sqlArray = (values: readonly (string | number)[], type: "int[]" | "text[]") =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::${sql.raw(type)}`;

/**
 * The whole download as one SELECT whose rows are the file's (company, report status, the tab's
 * cells, all as text) in the download's order. The selected reports come as a list in their order
 * (company, report), with the company's cell and the status the scope read; each report's rows are
 * read through its index and written in id order by a subquery of their own. The list's ordinal is
 * the only sort key: the planner keeps the list's order, and a nested loop over the list writes
 * each report's rows as its subquery orders them. Sorting every row instead (company, report, row)
 * took a fifth of the L API download's COPY.
 */
function downloadSelect(scope: Scope) {
  const { selected } = scope;
  const ids = sqlArray(
    selected.map((report) => report.id),
    "int[]",
  );
  const companyCells = sqlArray(
    selected.map((report) => neutraliseCell(report.companyName)),
    "text[]",
  );
  const statuses = sqlArray(
    selected.map((report) => report.status),
    "text[]",
  );
  const reportList = sql`unnest(${ids}, ${companyCells}, ${statuses}) with ordinality as selected(report_id, company_cell, report_status, n)`;
  const keys = columnsFor(scope.kind).map((column) => column.key);
  const cells = db
    .select(Object.fromEntries(keys.map((key, index) => [`c${index}`, downloadCellSql(key).as(`c${index}`)])))
    .from(salesRows)
    .leftJoin(countries, eq(countries.id, salesRows.countryId))
    .leftJoin(products, eq(products.id, salesRows.productId))
    .leftJoin(formulationTypes, eq(formulationTypes.id, salesRows.formulationTypeId))
    .where(and(eq(salesRows.reportId, sql`selected.report_id`), eq(salesRows.kind, scope.kind), ...rowConditions(scope.query)))
    .orderBy(asc(salesRows.id))
    .offset(OFFSET_ZERO)
    .as("cells");
  const cellColumns = cells as unknown as Record<string, SQL.Aliased>;
  return db
    .select({
      company: sql`selected.company_cell`,
      status: sql`selected.report_status`,
      ...Object.fromEntries(keys.map((_, index) => [`c${index}`, cellColumns[`c${index}`]])),
    })
    .from(reportList)
    .crossJoinLateral(cells)
    .orderBy(sql`selected.n`)
    .toSQL();
}

/** The streamed select's rows as the xlsx's cells. */
async function* xlsxCells(kind: SalesKind, batches: AsyncIterable<unknown[][]>): AsyncGenerator<WorkbookCell[]> {
  const keys = columnsFor(kind).map((column) => column.key);
  for await (const batch of batches) {
    for (const [company, status, ...values] of batch as (string | null)[][]) {
      yield [company, status, ...values.map((value, index) => xlsxCell(keys[index], value ?? ""))];
    }
  }
}

interface SalesDownload {
  columns: WorkbookColumn[];
  /** The rows' cells read in keyset batches, as the embedded database's downloads write them. */
  cells: (format: DownloadFormat) => AsyncGenerator<WorkbookCell[]>;
  /**
   * The file, streamed. On PostgreSQL the rows come from one statement on a connection of its own:
   * the CSV is the database's COPY after the byte-order mark and the header, the xlsx reads a cursor.
   */
  response: (format: DownloadFormat) => Promise<Response>;
}

/**
 * A download of the filtered report: the quarter and the reports are resolved before the response
 * starts (an unknown quarter is a 404, not a broken file), then the rows stream.
 */
export async function openSalesDownload(query: SalesConsolidatedQuery): Promise<SalesDownload> {
  const scope = await loadScope(query);
  const kind = scope.kind;
  /** `sales-report-api` or `sales-report-fdf`. */
  const basename = `sales-report-${kind.toLowerCase()}`;
  const columns = salesDownloadColumns(kind);
  const cells = async function* (format: DownloadFormat) {
    for await (const row of rowsOf(scope)) yield salesDownloadCells(kind, row, format);
  };
  const streamed = scope.selected.length ? streamedReads() : null;
  return {
    columns,
    cells,
    async response(format) {
      if (!streamed) return tableDownload(format, { basename, sheet: kind }, columns, cells(format));
      if (format === "xlsx") return xlsxResponse(`${basename}.xlsx`, kind, columns, xlsxCells(kind, streamed.rows(downloadSelect(scope), DOWNLOAD_BATCH_ROWS)));
      return csvBodyResponse(`${basename}.csv`, withCsvHeader(columns, await streamed.copyCsv(downloadSelect(scope))));
    },
  };
}
