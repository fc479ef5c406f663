/**
 * Partner performance (`/admin/partner-performance`, ADMIN and STAFF): how well each active
 * partner reports, a row per partner and quarter. The quarters are those with at least one report
 * of any partner, up to and including the open quarter (decisions.md section 3); every active
 * partner gets a row in each of them, with zeros when it reported nothing.
 *
 * Per row, over the partner's three reports of the quarter (pdt, filing, sales; decisions.md §4):
 * - submitted: reports ever submitted (first_submitted_at set), of 3;
 * - on time / late: submitted reports not marked late / marked late;
 * - average days to approval: over the Approved ones, decided_at − first_submitted_at in days,
 *   rounded to one decimal (null when none is Approved);
 * - rejections: rejection messages (report_messages.is_approved = false) on those reports;
 * - reminders: rows of `reminders` for the partner and the quarter (every report type).
 *
 * Everything is counted by PostgreSQL: one GROUP BY per source (reports, rejection messages,
 * reminders) joined to the partner × quarter grid, then sorted and paged there. A page request
 * is a fixed handful of queries whatever the data size (the quarter, the count, the page, the
 * chart, the partner list); a download is the quarter and one query of the same rows, unpaged:
 * they are aggregates, at most one per partner and quarter.
 */
import { and, asc, desc, eq, exists, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import * as z from "zod";
import { db } from "~/db/client.server";
import { partners, quarters, reminders, reportMessages, reports } from "~/db/schema";
import { baseQuery, choiceFilter, idFilter } from "~/reports/consolidated/query";
import { pageWindow, type Page, type FilterOption } from "~/reports/consolidated/paging";
import { quarterIndex } from "~/utils/quarters";
import { openQuarterRef } from "./quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import type { WorkbookCell, WorkbookColumn } from "~/reports/frame/workbook.server";

// ---------------------------------------------------------------- query

/** Rows per page. */
const PARTNER_PERFORMANCE_PAGE_SIZE = 50;
/** The reports a partner owes each quarter: pdt, filing and sales. */
const REPORTS_PER_QUARTER = 3;

/** Columns the table sorts by (`?sort=`); the company is the default (then the quarter, newest first). */
export const PERFORMANCE_SORTS = ["company", "quarter", "submitted", "onTime", "late", "avgDays", "rejections", "reminders"] as const;
export type PerformanceSort = (typeof PERFORMANCE_SORTS)[number];

/**
 * `?quarter=Q1 2026&partner=3&sort=late&dir=desc&page=2`. No quarter: every quarter (an unknown
 * or future one: not found, as in the consolidated reports). No partner: every active partner.
 */
export const performanceQuerySchema = z.object({
  ...baseQuery,
  sort: choiceFilter(PERFORMANCE_SORTS),
  partner: idFilter,
});
export type PerformanceQuery = z.infer<typeof performanceQuerySchema>;

export const performanceSortOf = (query: Pick<PerformanceQuery, "sort">): PerformanceSort => query.sort ?? "company";

// ---------------------------------------------------------------- rows

export interface PartnerPerformanceRow {
  partnerId: number;
  companyName: string;
  quarterId: number;
  quarterName: string;
  /** Reports ever submitted, of REPORTS_PER_QUARTER. */
  submitted: number;
  onTime: number;
  late: number;
  /** Days from first submission to approval, averaged over the Approved reports, one decimal; null: none Approved. */
  avgDaysToApproval: number | null;
  rejections: number;
  reminders: number;
}

/** The stacked bars: one category per quarter, oldest first. */
export interface PerformanceChart {
  quarters: string[];
  onTime: number[];
  late: number[];
  /** Owed (partners × 3) less submitted: never submitted, or never started. */
  notSubmitted: number[];
  /** Active partners counted (the partner filter applies). */
  partners: number;
}

export interface PartnerPerformanceView {
  page: Page<PartnerPerformanceRow>;
  chart: PerformanceChart;
  options: {
    /** The quarters listed, newest first. */
    quarter_filter: FilterOption[];
    /** Active partners by name (and the chosen one, should it be inactive). */
    partner_filter: FilterOption[];
  };
}

/** A quarter's place in calendar order, as SQL (quarterIndex of app/utils/quarters.ts). */
const quarterIndexSql = sql`(${quarters.year} * 4 + ${quarters.quarter} - 1)`;

/** The quarters listed: at least one report of any partner, the open quarter or earlier (the chosen one only, with a quarter filter). */
function listedQuarters(quarterId?: number) {
  return and(
    lte(quarterIndexSql, quarterIndex(openQuarterRef())),
    exists(
      db
        .select({ one: sql`1` })
        .from(reports)
        .where(eq(reports.quarterId, quarters.id)),
    ),
    quarterId ? eq(quarters.id, quarterId) : undefined,
  )!;
}

/** The partners listed: active ones (the chosen one only, with a partner filter). */
function listedPartners(partnerId?: number) {
  return and(eq(partners.isActive, true), partnerId ? eq(partners.id, partnerId) : undefined)!;
}

/** The partner × quarter grid and every figure beside it, as one query (without order, limit or offset). */
function grid(query: PerformanceQuery, quarterId?: number) {
  const q = db
    .select({ id: quarters.id, name: quarters.name, year: quarters.year, quarter: quarters.quarter })
    .from(quarters)
    .where(listedQuarters(quarterId))
    .as("q");
  const p = db.select({ id: partners.id, companyName: partners.companyName }).from(partners).where(listedPartners(query.partner)).as("p");
  // The same filters inside each GROUP BY, so a filtered page does not count every report.
  const scope = (partnerColumn: AnyPgColumn, quarterColumn: AnyPgColumn) =>
    and(query.partner ? eq(partnerColumn, query.partner) : undefined, quarterId ? eq(quarterColumn, quarterId) : undefined);
  const submittedAt = reports.firstSubmittedAt;
  const figures = db
    .select({
      partnerId: reports.partnerId,
      quarterId: reports.quarterId,
      submitted: sql<number>`count(*) filter (where ${submittedAt} is not null)`.as("submitted"),
      onTime: sql<number>`count(*) filter (where ${submittedAt} is not null and not ${reports.isLate})`.as("on_time"),
      late: sql<number>`count(*) filter (where ${submittedAt} is not null and ${reports.isLate})`.as("late"),
      avgDays: sql<
        string | null
      >`round(avg(extract(epoch from ${reports.decidedAt} - ${submittedAt})) filter (where ${reports.status} = 'Approved' and ${reports.decidedAt} is not null and ${submittedAt} is not null) / 86400, 1)`.as(
        "avg_days",
      ),
    })
    .from(reports)
    .where(scope(reports.partnerId, reports.quarterId))
    .groupBy(reports.partnerId, reports.quarterId)
    .as("f");
  const rejected = db
    .select({ partnerId: reports.partnerId, quarterId: reports.quarterId, count: sql<number>`count(*)`.as("rejections") })
    .from(reportMessages)
    .innerJoin(reports, eq(reports.id, reportMessages.reportId))
    .where(and(eq(reportMessages.isApproved, false), scope(reports.partnerId, reports.quarterId)))
    .groupBy(reports.partnerId, reports.quarterId)
    .as("x");
  const reminded = db
    .select({ partnerId: reminders.partnerId, quarterId: reminders.quarterId, count: sql<number>`count(*)`.as("reminders") })
    .from(reminders)
    .where(scope(reminders.partnerId, reminders.quarterId))
    .groupBy(reminders.partnerId, reminders.quarterId)
    .as("m");

  const columns = {
    partnerId: p.id,
    companyName: p.companyName,
    quarterId: q.id,
    quarterName: q.name,
    year: q.year,
    quarter: q.quarter,
    submitted: sql<number>`coalesce(${figures.submitted}, 0)`.mapWith(Number),
    onTime: sql<number>`coalesce(${figures.onTime}, 0)`.mapWith(Number),
    late: sql<number>`coalesce(${figures.late}, 0)`.mapWith(Number),
    avgDays: sql<number | null>`${figures.avgDays}`.mapWith(Number),
    rejections: sql<number>`coalesce(${rejected.count}, 0)`.mapWith(Number),
    reminders: sql<number>`coalesce(${reminded.count}, 0)`.mapWith(Number),
  };
  const select = db
    .select(columns)
    .from(p)
    .crossJoin(q)
    .leftJoin(figures, and(eq(figures.partnerId, p.id), eq(figures.quarterId, q.id)))
    .leftJoin(rejected, and(eq(rejected.partnerId, p.id), eq(rejected.quarterId, q.id)))
    .leftJoin(reminded, and(eq(reminded.partnerId, p.id), eq(reminded.quarterId, q.id)))
    .$dynamic();
  return { select, columns, p, q };
}

/**
 * The order of a sort: its column in the asked direction (empty averages last either way), then
 * company, partner and quarter newest first, so every row has one place and pages are stable.
 */
function orderOf(columns: ReturnType<typeof grid>["columns"], sort: PerformanceSort, dir: "asc" | "desc"): SQL[] {
  const by = dir === "desc" ? desc : asc;
  const company = [asc(columns.companyName), asc(columns.partnerId)];
  const newestFirst = [desc(columns.year), desc(columns.quarter)];
  switch (sort) {
    case "company":
      return [by(columns.companyName), by(columns.partnerId), ...newestFirst];
    case "quarter":
      return [by(columns.year), by(columns.quarter), ...company];
    default:
      return [sql`${columns[sort]} ${sql.raw(dir)} nulls last`, ...company, ...newestFirst];
  }
}

type GridRow = Awaited<ReturnType<ReturnType<typeof grid>["select"]["execute"]>>[number];

function toRow(row: GridRow): PartnerPerformanceRow {
  return {
    partnerId: row.partnerId,
    companyName: row.companyName,
    quarterId: row.quarterId,
    quarterName: row.quarterName,
    submitted: row.submitted,
    onTime: row.onTime,
    late: row.late,
    avgDaysToApproval: row.avgDays,
    rejections: row.rejections,
    reminders: row.reminders,
  };
}

/** The quarter filter's quarter (an unknown or future one: WorkflowError 404), or none. */
async function chosenQuarterId(query: PerformanceQuery): Promise<number | undefined> {
  return query.quarter ? (await resolveQuarter(query.quarter)).id : undefined;
}

// ---------------------------------------------------------------- chart and options

/**
 * Per listed quarter (whatever the quarter filter: the chart spans the quarters), the reports of
 * the active partners (the partner filter applies) submitted on time, late, and not submitted
 * (partners × 3 less those submitted; a report never started counts as not submitted).
 */
async function chartOf(query: PerformanceQuery): Promise<{ chart: PerformanceChart; quarters: FilterOption[] }> {
  const active = db.select({ id: partners.id }).from(partners).where(listedPartners(query.partner));
  const owed = sql<number>`(select count(*) from ${partners} where ${listedPartners(query.partner)}) * ${REPORTS_PER_QUARTER}`;
  const submitted = sql`${reports.firstSubmittedAt} is not null`;
  const rows = await db
    .select({
      id: quarters.id,
      name: quarters.name,
      onTime: sql<number>`count(${reports.id}) filter (where ${submitted} and not ${reports.isLate})`.mapWith(Number),
      late: sql<number>`count(${reports.id}) filter (where ${submitted} and ${reports.isLate})`.mapWith(Number),
      notSubmitted: sql<number>`${owed} - count(${reports.id}) filter (where ${submitted})`.mapWith(Number),
      partners: sql<number>`(select count(*) from ${partners} where ${listedPartners(query.partner)})`.mapWith(Number),
    })
    .from(quarters)
    .leftJoin(reports, and(eq(reports.quarterId, quarters.id), inArray(reports.partnerId, active)))
    .where(listedQuarters())
    .groupBy(quarters.id, quarters.name, quarters.year, quarters.quarter)
    .orderBy(asc(quarters.year), asc(quarters.quarter));
  return {
    chart: {
      quarters: rows.map((row) => row.name),
      onTime: rows.map((row) => row.onTime),
      late: rows.map((row) => row.late),
      notSubmitted: rows.map((row) => row.notSubmitted),
      partners: rows[0]?.partners ?? 0,
    },
    quarters: rows.map((row) => ({ id: row.id, name: row.name })).reverse(),
  };
}

/** Active partners by name, and the chosen partner should it be inactive (the form still shows it). */
function partnerOptions(query: PerformanceQuery): Promise<FilterOption[]> {
  return db
    .select({ id: partners.id, name: partners.companyName })
    .from(partners)
    .where(query.partner ? or(eq(partners.isActive, true), eq(partners.id, query.partner)) : eq(partners.isActive, true))
    .orderBy(asc(partners.companyName), asc(partners.id));
}

// ---------------------------------------------------------------- the page

/** One page of rows, the chart and the filters' choices (an unknown or future quarter: WorkflowError 404). */
export async function listPartnerPerformance(query: PerformanceQuery): Promise<PartnerPerformanceView> {
  const quarterId = await chosenQuarterId(query);
  const { select, columns, p, q } = grid(query, quarterId);
  const [[{ total }], { chart, quarters: quarterFilter }, partnerFilter] = await Promise.all([
    db
      .select({ total: sql<number>`count(*)`.mapWith(Number) })
      .from(p)
      .crossJoin(q),
    chartOf(query),
    partnerOptions(query),
  ]);
  const window = pageWindow(query.page, total, PARTNER_PERFORMANCE_PAGE_SIZE);
  const rows = total
    ? await select
        .orderBy(...orderOf(columns, performanceSortOf(query), query.dir))
        .limit(window.limit)
        .offset(window.offset)
    : [];
  return {
    page: { rows: rows.map(toRow), total, page: window.page, pageSize: PARTNER_PERFORMANCE_PAGE_SIZE, pages: window.pages },
    chart,
    options: {
      quarter_filter: quarterFilter,
      partner_filter: partnerFilter,
    },
  };
}

// ---------------------------------------------------------------- downloads

/** Every row the filters match, in the page's sort, all pages (one query: one aggregate row per partner and quarter). */
async function* partnerPerformanceRows(query: PerformanceQuery, quarterId?: number): AsyncGenerator<PartnerPerformanceRow> {
  const { select, columns } = grid(query, quarterId);
  const rows = await select.orderBy(...orderOf(columns, performanceSortOf(query), query.dir));
  for (const row of rows) yield toRow(row);
}

/** The downloads' header (English, as the consolidated reports' downloads). */
const PERFORMANCE_DOWNLOAD_COLUMNS: readonly WorkbookColumn[] = [
  { key: "companyName", label: "Company Name" },
  { key: "quarter", label: "Quarter" },
  { key: "submitted", label: "Submitted" },
  { key: "onTime", label: "On time" },
  { key: "late", label: "Late" },
  { key: "avgDaysToApproval", label: "Average days to approval" },
  { key: "rejections", label: "Rejections" },
  { key: "reminders", label: "Reminders" },
];

/** "2 / 3", as the page shows it. */
const submittedText = (submitted: number) => `${submitted} / ${REPORTS_PER_QUARTER}`;

/** A row's cells in the order of PERFORMANCE_DOWNLOAD_COLUMNS: the average as "2.5" text in CSV, a number in xlsx; empty when none. */
function performanceDownloadCells(row: PartnerPerformanceRow, format: DownloadFormat): WorkbookCell[] {
  const average = row.avgDaysToApproval === null ? null : format === "csv" ? row.avgDaysToApproval.toFixed(1) : row.avgDaysToApproval;
  return [row.companyName, row.quarterName, submittedText(row.submitted), row.onTime, row.late, average, row.rejections, row.reminders];
}

/** A download of the rows the filters match: the quarter is resolved first (unknown or future: WorkflowError 404 before anything is sent). */
export async function partnerPerformanceDownload(query: PerformanceQuery, format: DownloadFormat): Promise<Response> {
  const quarterId = await chosenQuarterId(query);
  async function* cells() {
    for await (const row of partnerPerformanceRows(query, quarterId)) yield performanceDownloadCells(row, format);
  }
  return tableDownload(format, { basename: "partner-performance", sheet: "Partner Performance" }, PERFORMANCE_DOWNLOAD_COLUMNS, cells());
}
