/**
 * Summary (dashboard tab 2): the active partners of the open quarter in one of four views, with
 * their three reports' states and their Sales Report's open findings (stored by the "report-checks"
 * job), by company or by findings. One query for the page, one for the ids a bulk reminder names.
 */
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partners, reportCheckCounts, reports } from "~/db/schema";
import type { DashboardQuery } from "~/reports/dashboard/query";
import type { SummaryView } from "~/reports/dashboard/view";
import { tableWindow, type DashboardTable } from "~/reports/dashboard/tables";
import { REPORT_REGISTRY, REPORT_TYPES, type ReportState, type ReportTypeKey } from "~/reports/frame/registry";
import type { Quarter } from "../quarter.server";

interface SummaryRow {
  partnerId: number;
  companyName: string;
  email: string;
  statuses: Record<ReportTypeKey, ReportState>;
}

const statusOf = (type: ReportTypeKey) => sql<string | null>`max(${reports.status}::text) filter (where ${reports.type} = ${type})`;
const countWhere = (statuses: string[]) =>
  sql`count(${reports.id}) filter (where ${reports.status}::text in (${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )}))`;

/** Which partners each view lists, from their reports of the quarter. */
const VIEW_CONDITION: Record<SummaryView, SQL> = {
  submitted: sql`${countWhere(["Submitted", "Resubmitted", "Approved"])} = ${REPORT_TYPES.length}`,
  "not-submitted": sql`count(${reports.id}) < ${REPORT_TYPES.length}`,
  saved: sql`${countWhere(["Saved", "Rejected"])} > 0`,
  "awaiting-approval": sql`${countWhere(["Submitted", "Resubmitted"])} > 0`,
};

/** The page's order: the sorted column, then the company (partners without a count of findings last either way). */
function orderOf({ sort, dir }: Pick<DashboardQuery, "sort" | "dir">): SQL[] {
  const company = (by: typeof asc) => [by(sql`lower(${partners.companyName})`), by(partners.id)];
  return sort === "findings" ? [sql`findings ${sql.raw(dir)} nulls last`, ...company(asc)] : company(dir === "desc" ? desc : asc);
}

function partnersInView(quarter: Quarter, query: DashboardQuery) {
  return db
    .select({
      partnerId: partners.id,
      companyName: partners.companyName,
      email: partners.email,
      pdt: statusOf("pdt"),
      filing: statusOf("filing"),
      sales: statusOf("sales"),
      // Only Sales Reports are counted.
      findings: sql<number | null>`max(${reportCheckCounts.total})`.as("findings"),
    })
    .from(partners)
    .leftJoin(reports, and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarter.id)))
    .leftJoin(reportCheckCounts, eq(reportCheckCounts.reportId, reports.id))
    .where(eq(partners.isActive, true))
    .groupBy(partners.id)
    .having(VIEW_CONDITION[query.view])
    .orderBy(...orderOf(query));
}

interface SummaryPage {
  rows: SummaryRow[];
  page: DashboardTable["page"];
  /** Every partner of the view (all pages): whom a bulk reminder names. */
  partnerIds: number[];
  /** The open findings of the listed partners' Sales Reports (as administrators see them), by partner id; none: no report, or not counted yet. */
  findings: Record<number, number>;
}

export async function summaryPage(quarter: Quarter, query: DashboardQuery, all = false): Promise<SummaryPage> {
  const ids = await db
    .select({ id: partners.id })
    .from(partners)
    .leftJoin(reports, and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarter.id)))
    .where(eq(partners.isActive, true))
    .groupBy(partners.id)
    .having(VIEW_CONDITION[query.view]);
  const window = tableWindow(query, "summary", ids.length, all);
  const rows = await partnersInView(quarter, query).limit(window.limit).offset(window.offset);
  return {
    rows: rows.map((row) => ({
      partnerId: row.partnerId,
      companyName: row.companyName,
      email: row.email,
      statuses: {
        pdt: (row.pdt ?? "not started") as ReportState,
        filing: (row.filing ?? "not started") as ReportState,
        sales: (row.sales ?? "not started") as ReportState,
      },
    })),
    page: window.page,
    partnerIds: ids.map((row) => row.id),
    findings: Object.fromEntries(rows.flatMap((row) => (row.findings === null ? [] : [[row.partnerId, Number(row.findings)]]))),
  };
}

/** The summary as a table of cells, for its downloads. */
export function summaryTable(summary: SummaryPage, title: string): DashboardTable {
  return {
    id: "summary",
    title,
    columns: [
      { key: "company", label: "Company Name" },
      { key: "email", label: "E-mail" },
      ...REPORT_TYPES.map((type) => ({ key: type, label: REPORT_REGISTRY[type].labels.name })),
      { key: "findings", label: "Findings", numeric: true },
    ],
    // As the page: a partner without a counted Sales Report has an empty Findings cell.
    rows: summary.rows.map((row) => [row.companyName, row.email, ...REPORT_TYPES.map((type) => row.statuses[type]), summary.findings[row.partnerId] ?? null]),
    page: summary.page,
  };
}
