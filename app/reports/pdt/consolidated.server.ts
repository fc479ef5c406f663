/**
 * The Development Timeline consolidated report (spec section 2 "Admin consolidated reports",
 * section 7 `/report/pdt/`): every stored row of the quarter's PDT reports, whatever the report's
 * state (drafts too), one per partner, product and stage, with the product's project status, the
 * report's state and the planned start and end dates of the quarter and of the three quarters
 * before it (as the PDT screen shows them: each quarter's own report, empty when it has none).
 *
 * The page is one COUNT(*) and one LIMIT/OFFSET query with the same filters (on the narrow join);
 * the page's rows are then read whole, and their earlier quarters' plans by a query of their own
 * (the unique indexes). The count and the filters' lists are kept under the quarter's reports
 * fingerprint (quarter-cache.server.ts). A download counts the
 * matching rows per report, then reads groups of whole reports in company order, each group in
 * keyset batches of DOWNLOAD_BATCH_ROWS, so memory stays flat whatever the row count.
 */
import { and, asc, count, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import * as z from "zod";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, quarters, reports, stages } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page, type FilterOption } from "~/reports/consolidated/paging";
import { formatPdtDate } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES, type ProjectStatus } from "~/utils/project-status";
import { addQuarters, quarterName, type QuarterRef } from "~/utils/quarters";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { WorkbookCell, WorkbookColumn } from "~/reports/frame/workbook.server";
import { listQuartersUpTo, openQuarterRef, type Quarter } from "~/models/quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { batched, DOWNLOAD_BATCH_ROWS, tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import { cachedUnder, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";

// ---------------------------------------------------------------- query

/** Columns the table sorts by (`?sort=`); the company is the default. */
export const PDT_SORTS = ["company", "product", "stage", "status", "reportStatus"] as const;
export type PdtSort = (typeof PDT_SORTS)[number];

/**
 * `?quarter=Q1 2026&partner=3&product=7&stage=12&status=FILED&reportStatus=Saved&sort=product&dir=desc&page=2`:
 * `status` is the product's project status, `reportStatus` the report's workflow state.
 */
export const pdtQuerySchema = z.object({
  ...baseQuery,
  partner: idFilter,
  product: idFilter,
  stage: idFilter,
  status: choiceFilter(PROJECT_STATUSES),
  reportStatus: choiceFilter(REPORT_STATES),
});
export type PdtQuery = z.infer<typeof pdtQuerySchema>;

export const pdtSortOf = (query: Pick<PdtQuery, "sort">): PdtSort =>
  (PDT_SORTS as readonly string[]).includes(query.sort ?? "") ? (query.sort as PdtSort) : "company";

// ---------------------------------------------------------------- rows

type ReportStatus = (typeof REPORT_STATES)[number];

export interface PdtPlanDates {
  /** ISO dates (YYYY-MM-DD), null when the quarter's report has none. */
  startDate: string | null;
  endDate: string | null;
}

export interface PdtConsolidatedRow {
  reportId: number;
  partnerId: number;
  companyName: string;
  productId: number;
  productName: string;
  stageId: number;
  stageName: string;
  /** The product's project status for the partner (null: the product is no longer the partner's). */
  status: ProjectStatus | null;
  reportStatus: ReportStatus;
  /** One pair per quarter of `quarterOrder` (oldest first, the selected quarter last). */
  dates: PdtPlanDates[];
}

export interface PdtConsolidatedView {
  page: Page<PdtConsolidatedRow>;
  quarter: { id: number; name: string };
  /** The three quarters before the selected one, oldest first, then the selected quarter. */
  quarterOrder: string[];
  options: {
    /** Newest first; the first is the open quarter. */
    quarter_filter: FilterOption[];
    partner_filter: FilterOption[];
    product_filter: FilterOption[];
    stage_filter: FilterOption[];
    status_filter: FilterOption<ProjectStatus>[];
    report_status_filter: FilterOption<ReportStatus>[];
  };
}

/** Earlier quarters shown beside the selected one (the PDT screen's three). */
const HISTORY_QUARTERS = 3;

interface HistoryQuarter {
  name: string;
  /** null: the quarter has no row yet, so no report either. */
  id: number | null;
}

/** The three quarters before `quarter`, oldest first, with their ids when they exist. */
async function historyQuarters(quarter: QuarterRef): Promise<HistoryQuarter[]> {
  const refs = Array.from({ length: HISTORY_QUARTERS }, (_, index) => addQuarters(quarter, index - HISTORY_QUARTERS));
  const found = await db
    .select({ id: quarters.id, year: quarters.year, quarter: quarters.quarter })
    .from(quarters)
    .where(or(...refs.map((ref) => and(eq(quarters.year, ref.year), eq(quarters.quarter, ref.quarter)))));
  return refs.map((ref) => ({ name: quarterName(ref), id: found.find((row) => row.year === ref.year && row.quarter === ref.quarter)?.id ?? null }));
}

interface ResolvedQuarter {
  quarter: Quarter;
  earlier: HistoryQuarter[];
}

/** The query's quarter (the open one when none; an unknown or future one: WorkflowError 404) and the three before it. */
async function resolveReportQuarter(query: Pick<PdtQuery, "quarter">): Promise<ResolvedQuarter> {
  const quarter = await resolveQuarter(query.quarter);
  return { quarter, earlier: await historyQuarters(quarter) };
}

/** The row query without its filter, order and limit: the selected quarter's rows (their earlier quarters' plans come from withEarlierPlans). */
function selectRows() {
  return db
    .select({
      valueId: pdtValues.id,
      reportId: reports.id,
      partnerId: partners.id,
      companyName: partners.companyName,
      productId: products.id,
      productName: products.name,
      stageId: stages.id,
      stageName: stages.name,
      stageOrder: stages.sortOrder,
      status: partnerProducts.projectStatus,
      reportStatus: reports.status,
      startDate: pdtValues.startDate,
      endDate: pdtValues.endDate,
    })
    .from(pdtValues)
    .innerJoin(reports, eq(reports.id, pdtValues.reportId))
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(products, eq(products.id, pdtValues.productId))
    .innerJoin(stages, eq(stages.id, pdtValues.stageId))
    .leftJoin(partnerProducts, and(eq(partnerProducts.partnerId, reports.partnerId), eq(partnerProducts.productId, pdtValues.productId)))
    .$dynamic();
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectRows>["execute"]>>[number];

const earlierReports = alias(reports, "earlier_report");
const earlierValues = alias(pdtValues, "earlier_value");

/**
 * The rows with the plans of the earlier quarters beside them: for each row, its partner's report
 * of each earlier quarter and that report's row for the same product and stage (both by unique
 * indexes). A query of its own: joined into the row query, its four more tables cost the planner
 * more than the rows cost to read.
 */
async function withEarlierPlans(selected: readonly SelectedRow[], earlier: readonly HistoryQuarter[]): Promise<PdtConsolidatedRow[]> {
  const quarterIds = earlier.flatMap((quarter) => (quarter.id === null ? [] : [quarter.id]));
  const plans =
    selected.length && quarterIds.length
      ? await db
          .select({ valueId: pdtValues.id, quarterId: earlierReports.quarterId, startDate: earlierValues.startDate, endDate: earlierValues.endDate })
          .from(pdtValues)
          .innerJoin(reports, eq(reports.id, pdtValues.reportId))
          .innerJoin(
            earlierReports,
            and(eq(earlierReports.partnerId, reports.partnerId), eq(earlierReports.type, "pdt"), idIn(earlierReports.quarterId, quarterIds)),
          )
          .innerJoin(
            earlierValues,
            and(eq(earlierValues.reportId, earlierReports.id), eq(earlierValues.productId, pdtValues.productId), eq(earlierValues.stageId, pdtValues.stageId)),
          )
          .where(
            idIn(
              pdtValues.id,
              selected.map((row) => row.valueId),
            ),
          )
      : [];
  const planOf = new Map(plans.map((plan) => [`${plan.valueId}:${plan.quarterId}`, plan]));
  return selected.map((row) => {
    const earlierDates = earlier.map((quarter): PdtPlanDates => {
      const plan = quarter.id === null ? undefined : planOf.get(`${row.valueId}:${quarter.id}`);
      return { startDate: plan?.startDate ?? null, endDate: plan?.endDate ?? null };
    });
    return {
      reportId: row.reportId,
      partnerId: row.partnerId,
      companyName: row.companyName,
      productId: row.productId,
      productName: row.productName,
      stageId: row.stageId,
      stageName: row.stageName,
      status: row.status,
      reportStatus: row.reportStatus,
      dates: [...earlierDates, { startDate: row.startDate, endDate: row.endDate }],
    };
  });
}

/** The filters that concern a report (its quarter, partner and state). */
function reportFilters(query: PdtQuery, quarterId: number): SQL[] {
  return [
    eq(reports.quarterId, quarterId),
    eq(reports.type, "pdt"),
    ...(query.partner ? [eq(reports.partnerId, query.partner)] : []),
    ...(query.reportStatus ? [eq(reports.status, query.reportStatus)] : []),
  ];
}

/** The filters that concern a row (product, stage, the product's project status). */
function rowFilters(query: PdtQuery): SQL[] {
  return [
    ...(query.product ? [eq(pdtValues.productId, query.product)] : []),
    ...(query.stage ? [eq(pdtValues.stageId, query.stage)] : []),
    ...(query.status ? [eq(partnerProducts.projectStatus, query.status)] : []),
  ];
}

/** The rest of every order: company, product, the stage's place in its category; unique per row of a quarter. */
const TIE_BREAK: (AnyPgColumn | SQL)[] = [partners.companyName, partners.id, products.name, products.id, stages.sortOrder, stages.id];

/** What a sort orders by first (in the asked direction); the tie-break follows, ascending. */
const SORT_KEYS: Record<PdtSort, (AnyPgColumn | SQL)[]> = {
  company: [partners.companyName, partners.id],
  product: [products.name, products.id],
  stage: [stages.name, stages.id],
  status: [sql`coalesce(${partnerProducts.projectStatus}::text, '')`],
  reportStatus: [sql`${reports.status}::text`],
};

function orderOf(sort: PdtSort, dir: "asc" | "desc"): SQL[] {
  const first = SORT_KEYS[sort];
  const rest = TIE_BREAK.filter((key) => !first.includes(key));
  return [...first.map((key) => (dir === "desc" ? desc(key) : asc(key))), ...rest.map((key) => asc(key))];
}

// ---------------------------------------------------------------- filter options

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** The partners, products and stages with rows in the quarter's PDT reports. */
async function quarterFacets(quarterId: number) {
  const quarterReports = and(eq(reports.quarterId, quarterId), eq(reports.type, "pdt"));
  const hasRows = sql`exists (select 1 from ${pdtValues} where ${pdtValues.reportId} = ${reports.id})`;
  // A probe per product or stage (a sub-plan that stops at the first row found), rather than a
  // DISTINCT over every row of the quarter: the reference tables are small, the rows are many.
  const usedBy = (column: AnyPgColumn, id: AnyPgColumn) =>
    sql`(select 1 from ${reports} inner join ${pdtValues} on ${pdtValues.reportId} = ${reports.id} where ${quarterReports} and ${column} = ${id} limit 1) is not null`;
  const [partnerRows, productRows, stageRows] = await Promise.all([
    db.select({ id: reports.partnerId }).from(reports).where(and(quarterReports, hasRows)),
    db.select({ id: products.id }).from(products).where(usedBy(pdtValues.productId, products.id)),
    db.select({ id: stages.id }).from(stages).where(usedBy(pdtValues.stageId, stages.id)),
  ]);
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  return { partnerIds: ids(partnerRows), productIds: ids(productRows), stageIds: ids(stageRows) };
}

/**
 * The filters' choices, from the quarter's PDT rows (partners, products and stages that have
 * rows, kept under the reports' fingerprint; their names read fresh); a chosen id that has none
 * in this quarter stays listed, so the form still shows it.
 */
async function filterOptions(
  query: PdtQuery,
  quarterId: number,
  fingerprint: Promise<string>,
): Promise<Omit<PdtConsolidatedView["options"], "quarter_filter">> {
  const facets = await cachedUnder(fingerprint, "pdt-facets", () => quarterFacets(quarterId));
  const withChosen = (ids: number[], chosen: number | undefined) => (chosen && !ids.includes(chosen) ? [...ids, chosen] : ids);
  const partnerIds = withChosen(facets.partnerIds, query.partner);
  const productIds = withChosen(facets.productIds, query.product);
  const stageIds = withChosen(facets.stageIds, query.stage);
  const [partnerRows, productRows, stageRows] = await Promise.all([
    partnerIds.length
      ? db
          .select({ id: partners.id, name: partners.companyName })
          .from(partners)
          .where(idIn(partners.id, partnerIds))
          .orderBy(asc(partners.companyName), asc(partners.id))
      : [],
    productIds.length ? db.select({ id: products.id, name: products.name }).from(products).where(idIn(products.id, productIds)) : [],
    stageIds.length
      ? db.select({ id: stages.id, name: stages.name, category: stages.category, sortOrder: stages.sortOrder }).from(stages).where(idIn(stages.id, stageIds))
      : [],
  ]);
  return {
    partner_filter: partnerRows,
    product_filter: productRows.sort(byName),
    // Stages in their lifecycle order, FDF then API.
    stage_filter: stageRows
      .sort((a, b) => b.category.localeCompare(a.category) || a.sortOrder - b.sortOrder || a.id - b.id)
      .map(({ id, name }) => ({ id, name })),
    status_filter: PROJECT_STATUSES.map((id) => ({ id, name: PROJECT_STATUS_LABELS[id] })),
    report_status_filter: REPORT_STATES.map((id) => ({ id, name: id })),
  };
}

// ---------------------------------------------------------------- the page

/** One page of the report with its filters' choices (an unknown or future quarter: WorkflowError 404). */
export async function listPdtConsolidated(
  query: PdtQuery,
  { pageSize = CONSOLIDATED_PAGE_SIZES.pdt }: { pageSize?: number } = {},
): Promise<PdtConsolidatedView> {
  const quarter = await resolveQuarter(query.quarter);
  const where = and(...reportFilters(query, quarter.id), ...rowFilters(query));
  const fingerprint = reportsFingerprint(quarter.id, "pdt");
  const countRows = async () => {
    const [{ total }] = await db
      .select({ total: count() })
      .from(pdtValues)
      .innerJoin(reports, eq(reports.id, pdtValues.reportId))
      .leftJoin(partnerProducts, and(eq(partnerProducts.partnerId, reports.partnerId), eq(partnerProducts.productId, pdtValues.productId)))
      .where(where);
    return total;
  };
  const { partner, reportStatus, product, stage, status } = query;
  // The project status is the partner's product's, changed on the partner's page and not by a
  // report: a count filtered by it is not kept under the reports' fingerprint.
  const counted = status ? countRows() : cachedUnder(fingerprint, `pdt-count|${JSON.stringify({ partner, reportStatus, product, stage })}`, countRows);
  const [earlier, total, options, dropdown] = await Promise.all([
    historyQuarters(quarter),
    counted,
    filterOptions(query, quarter.id, fingerprint),
    listQuartersUpTo(openQuarterRef()),
  ]);
  const window = pageWindow(query.page, total, pageSize);
  // The page's rows are found on the narrow join (order, offset, limit), then read with the earlier quarters' plans.
  const ids = total
    ? (
        await db
          .select({ id: pdtValues.id })
          .from(pdtValues)
          .innerJoin(reports, eq(reports.id, pdtValues.reportId))
          .innerJoin(partners, eq(partners.id, reports.partnerId))
          .innerJoin(products, eq(products.id, pdtValues.productId))
          .innerJoin(stages, eq(stages.id, pdtValues.stageId))
          .leftJoin(partnerProducts, and(eq(partnerProducts.partnerId, reports.partnerId), eq(partnerProducts.productId, pdtValues.productId)))
          .where(where)
          .orderBy(...orderOf(pdtSortOf(query), query.dir))
          .limit(window.limit)
          .offset(window.offset)
      ).map((row) => row.id)
    : [];
  const position = new Map(ids.map((id, index) => [id, index]));
  const selected = ids.length ? (await selectRows().where(idIn(pdtValues.id, ids))).sort((a, b) => position.get(a.valueId)! - position.get(b.valueId)!) : [];
  const rows = await withEarlierPlans(selected, earlier);
  return {
    page: { rows, total, page: window.page, pageSize, pages: window.pages },
    quarter: { id: quarter.id, name: quarter.name },
    quarterOrder: [...earlier.map((q) => q.name), quarter.name],
    options: { quarter_filter: dropdown.reverse().map((q) => ({ id: q.id, name: q.name })), ...options },
  };
}

// ---------------------------------------------------------------- downloads

/** Where a download's keyset batch resumes: the last row's company and partner, product (by name) and stage (by its place). */
interface RowKey {
  companyName: string;
  partnerId: number;
  productName: string;
  productId: number;
  stageOrder: number;
  stageId: number;
}

/** Consecutive reports whose matching rows add up to one batch at most (a larger report alone). */
function reportGroups(list: readonly { id: number; rows: number }[]): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let size = 0;
  for (const report of list) {
    if (current.length && size + report.rows > DOWNLOAD_BATCH_ROWS) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(report.id);
    size += report.rows;
  }
  if (current.length) groups.push(current);
  return groups;
}

/**
 * Every row the filters match, for a download, by company (the direction of `?dir` when sorted
 * by company), product and stage; the page's other sorts apply to the page only. The quarter's
 * matching reports are counted first (one pass over the pdt_values index), then read a group of
 * whole reports per query, keyset batches of DOWNLOAD_BATCH_ROWS within a larger report.
 */
async function* pdtConsolidatedRows(query: PdtQuery, resolved?: ResolvedQuarter): AsyncGenerator<PdtConsolidatedRow> {
  const { quarter, earlier } = resolved ?? (await resolveReportQuarter(query));
  const descending = pdtSortOf(query) === "company" && query.dir === "desc";
  const company = descending ? [desc(partners.companyName), desc(partners.id)] : [asc(partners.companyName), asc(partners.id)];
  const reportList = await db
    .select({ id: reports.id, rows: count() })
    .from(reports)
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(pdtValues, eq(pdtValues.reportId, reports.id))
    .leftJoin(partnerProducts, and(eq(partnerProducts.partnerId, reports.partnerId), eq(partnerProducts.productId, pdtValues.productId)))
    .where(and(...reportFilters(query, quarter.id), ...rowFilters(query)))
    .groupBy(reports.id, partners.companyName, partners.id)
    .orderBy(...company);
  const head = sql`(${partners.companyName}, ${partners.id})`;
  const tail = sql`(${products.name}, ${products.id}, ${stages.sortOrder}, ${stages.id})`;
  const after = (key: RowKey) =>
    or(
      sql`${head} ${descending ? sql`<` : sql`>`} (${key.companyName}, ${key.partnerId})`,
      and(sql`${head} = (${key.companyName}, ${key.partnerId})`, sql`${tail} > (${key.productName}, ${key.productId}, ${key.stageOrder}, ${key.stageId})`),
    );
  for (const group of reportGroups(reportList)) {
    const rows = batched(
      (key: RowKey | null) =>
        selectRows()
          .where(and(idIn(pdtValues.reportId, group), ...rowFilters(query), key ? after(key) : undefined))
          .orderBy(...company, asc(products.name), asc(products.id), asc(stages.sortOrder), asc(stages.id))
          .limit(DOWNLOAD_BATCH_ROWS),
      (row): RowKey => ({
        companyName: row.companyName,
        partnerId: row.partnerId,
        productName: row.productName,
        productId: row.productId,
        stageOrder: row.stageOrder,
        stageId: row.stageId,
      }),
    );
    // The earlier quarters' plans are read a batch at a time.
    let batch: SelectedRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length === DOWNLOAD_BATCH_ROWS) {
        yield* await withEarlierPlans(batch, earlier);
        batch = [];
      }
    }
    if (batch.length) yield* await withEarlierPlans(batch, earlier);
  }
}

/** A download's header: the fixed columns, then a start and an end date per quarter of `quarterOrder`. */
function pdtDownloadColumns(quarterOrder: readonly string[]): WorkbookColumn[] {
  return [
    { key: "companyName", label: "Company Name" },
    { key: "productName", label: "Product" },
    { key: "stageName", label: "Stage" },
    { key: "status", label: "Status" },
    { key: "reportStatus", label: "Report Status" },
    ...quarterOrder.flatMap((name, index) => [
      { key: `startDate${index}`, label: `Start Date (${name})` },
      { key: `endDate${index}`, label: `End Date (${name})` },
    ]),
  ];
}

const excelDate = (iso: string | null): WorkbookCell => (iso ? new Date(`${iso}T00:00:00Z`) : null);

/** A row's cells in the order of `pdtDownloadColumns`: dates as MM/DD/YYYY text (CSV) or Excel dates (xlsx). */
function pdtDownloadCells(row: PdtConsolidatedRow, format: DownloadFormat): WorkbookCell[] {
  const date = format === "csv" ? (iso: string | null) => formatPdtDate(iso) : excelDate;
  return [
    row.companyName,
    row.productName,
    row.stageName,
    row.status ? PROJECT_STATUS_LABELS[row.status] : "",
    row.reportStatus,
    ...row.dates.flatMap((pair) => [date(pair.startDate), date(pair.endDate)]),
  ];
}

/**
 * A download of the rows the filters match: the quarter is resolved first (an unknown or future
 * one is a WorkflowError 404 before anything is sent), then the rows stream as cells.
 */
export async function pdtConsolidatedDownload(query: PdtQuery, format: DownloadFormat): Promise<Response> {
  const resolved = await resolveReportQuarter(query);
  const quarterOrder = [...resolved.earlier.map((q) => q.name), resolved.quarter.name];
  async function* cells() {
    for await (const row of pdtConsolidatedRows(query, resolved)) yield pdtDownloadCells(row, format);
  }
  return tableDownload(format, { basename: "pdt-report", sheet: "PDT" }, pdtDownloadColumns(quarterOrder), cells());
}
