/**
 * The consolidated Sales Report of the administrators (spec section 2 "Admin consolidated reports",
 * section 3 "Report filter options", section 7 `/report/sales/{x}`): the API or FDF rows of every
 * partner's Sales Report of a quarter, in every report state, filtered, sorted and paged on the
 * server; downloaded as a stream by consolidated-download.server.ts.
 *
 * Every query starts from the quarter's reports (consolidated-scope.server.ts) and reads each
 * report's rows through sales_rows_report_kind_idx as a lateral subquery.
 * - The default order (company, then the report, then the row) needs no sort: the per-report row
 *   counts say which reports a page covers, and each is read in index order with LIMIT/OFFSET.
 * - The counts and the filter options cost a pass over the quarter's rows. Each report's share is
 *   kept under the version of that report's rows (consolidated-kept.server.ts), and the quarter's
 *   sums for a minute under the fingerprint of its reports (quarter-cache.server.ts).
 * - The cells' texts are written by the database (consolidated-cells.server.ts), as the downloads write them.
 */
import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { db } from "~/db/client.server";
import { countries, products, reports, salesRows } from "~/db/schema";
import { idIn, OFFSET_ZERO, sqlCount } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter, textFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page } from "~/reports/consolidated/paging";
import { cachedLarge } from "~/reports/consolidated/quarter-cache.server";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { ReportStatus } from "~/reports/frame/workflow";
import { columnsFor, type SalesColumnKey, type SalesKind } from "~/reports/sales/columns";
import { pageCells, storedColumns, withListNames, type RowSource } from "./consolidated-cells.server";
import { countsPerReport, filterKey } from "./consolidated-kept.server";
import { filterOptions, type SalesFilterOptions } from "./consolidated-options.server";
import { loadScope, reportRowConditions, type QuarterReport, type Scope } from "./consolidated-scope.server";

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

export interface SalesConsolidatedView {
  page: Page<SalesConsolidatedRow>;
  quarter: { id: number; name: string };
  tab: SalesKind;
  /** The query as applied (sort resolved, FDF filters dropped on the API tab). */
  query: SalesConsolidatedQuery;
  sort: SalesSort;
  options: SalesFilterOptions;
}

// ---------------------------------------------------------------- a page

/** The page's fields of a row (sales_rows, or a subquery of its stored columns): its ids and the tab's cells. */
const pageFields = (kind: SalesKind, row: RowSource) => ({
  id: sql<number>`${row.id}`,
  reportId: sql<number>`${row.reportId}`,
  countryId: sql<number | null>`${row.countryId}`,
  productId: sql<number | null>`${row.productId}`,
  ...pageCells(kind, row),
});

/** A row of the page: who reported it, the report's state and the tab's cells (an empty cell as ""). */
function pageRow(
  kind: SalesKind,
  row: { id: number; countryId: number | null; productId: number | null; [cell: string]: unknown },
  report: QuarterReport,
): SalesConsolidatedRow {
  const result: SalesConsolidatedRow = {
    id: row.id,
    reportId: report.id,
    companyName: report.companyName,
    reportStatus: report.status,
    countryId: row.countryId,
    productId: row.productId,
  };
  for (const column of columnsFor(kind)) result[column.key] = (row[column.key] as string | null) ?? "";
  return result;
}

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
    .select(storedColumns)
    .from(salesRows)
    .where(reportRowConditions(scope, sql`slices.report_id`))
    .orderBy(order(salesRows.id))
    .limit(sqlCount(sql`slices.take`))
    .offset(sqlCount(sql`slices.skip`))
    .as("s");
  const rows = await withListNames(
    db
      .select({ slice: sql<number>`slices.n`.mapWith(Number), ...pageFields(scope.kind, s) })
      .from(slices)
      .crossJoinLateral(s)
      .$dynamic(),
    s,
  ).orderBy(sql`slices.n`, order(s.id));
  return rows.map((row) => pageRow(scope.kind, row, segments[row.slice].report));
}

/** Memory for sorting a quarter's (key, id) pairs at once (PostgreSQL's default of 4 MB spilled a large quarter to disk). */
const SORT_WORK_MEM = "64MB";

/** The ids of the scope's filtered rows in the order of `sort`, nulls last, ties by id. */
async function sortedRowIds(scope: Scope, sort: Exclude<SalesSort, "company">, dir: "asc" | "desc"): Promise<Int32Array> {
  // The rows of each report through its index: OFFSET 0 keeps the lateral a per-report index scan.
  const s = db.select(storedColumns).from(salesRows).where(reportRowConditions(scope, reports.id)).offset(OFFSET_ZERO).as("s");
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
  const rows = await withListNames(db.select(pageFields(scope.kind, storedColumns)).from(salesRows).$dynamic(), storedColumns).where(
    idIn(salesRows.id, pageIds),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const reportsById = new Map(scope.selected.map((report) => [report.id, report]));
  return pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [pageRow(scope.kind, row, reportsById.get(row.reportId)!)] : [];
  });
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
