import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partners, reportMessages, reports, reportThreads } from "~/db/schema";
import { daysBetween } from "~/utils/dates";
import { cutOffAppliesTo } from "~/utils/quarters";
import type { ReportStatus } from "~/reports/frame/workflow";
import { owedReportTypes, REPORT_TYPES, type ReportState, type ReportTypeKey as ReportType } from "~/reports/frame/registry";
import { portalNow } from "~/utils/today.server";
import { getOpenQuarter } from "./quarter.server";
import { getCutOffDate } from "./settings.server";

/** The partner's reports of a quarter, each with its last message and the administrator's last message. */
async function partnerReports(partnerId: number, quarterId: number) {
  const rows = await db
    .select({ id: reports.id, type: reports.type, status: reports.status, submittedAt: reports.submittedAt })
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId)));

  const reportIds = rows.map((row) => row.id);
  // Each report's latest partner message and latest administrator message.
  const lastMessages = reportIds.length
    ? await db
        .selectDistinctOn([reportMessages.reportId, reportMessages.isPartnerMessage], {
          reportId: reportMessages.reportId,
          isPartnerMessage: reportMessages.isPartnerMessage,
          isApproved: reportMessages.isApproved,
          message: reportMessages.message,
          createdAt: reportMessages.createdAt,
          id: reportMessages.id,
        })
        .from(reportMessages)
        .where(inArray(reportMessages.reportId, reportIds))
        .orderBy(reportMessages.reportId, reportMessages.isPartnerMessage, desc(reportMessages.createdAt), desc(reportMessages.id))
    : [];

  // Each report's comments on rows and cells still open.
  const openThreads = reportIds.length
    ? await db
        .select({ reportId: reportThreads.reportId, open: count() })
        .from(reportThreads)
        .where(and(inArray(reportThreads.reportId, reportIds), isNull(reportThreads.resolvedAt)))
        .groupBy(reportThreads.reportId)
    : [];

  return rows.map((row) => {
    const messages = lastMessages.filter((m) => m.reportId === row.id).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    return { ...row, lastMessage: messages[0] ?? null, openThreads: Number(openThreads.find((thread) => thread.reportId === row.id)?.open ?? 0) };
  });
}

type PartnerReport = Awaited<ReturnType<typeof partnerReports>>[number];

/**
 * Why the administrator sent a report back to the partner (a rejection, or an approval reopened),
 * with their comment: shown until the partner submits it again.
 */
function sentBack(report: PartnerReport | undefined): PartnerGuidanceTile["sentBack"] {
  const last = report?.lastMessage;
  if (!report || !last || last.isPartnerMessage || (report.status !== "Rejected" && report.status !== "Saved")) return null;
  if (report.status === "Saved" && last.isApproved === true) return null;
  return { by: last.isApproved === false ? "rejected" : "reopened", comment: last.message, openComments: report.openThreads };
}

/** What the partner dashboard offers for a report of the open quarter; null: nothing to do (submitted or approved). */
export type PartnerNextStep = "start" | "continue" | "fix" | null;

const NEXT_STEPS: Record<ReportState, PartnerNextStep> = {
  "not started": "start",
  Saved: "continue",
  Rejected: "fix",
  Submitted: null,
  Resubmitted: null,
  Approved: null,
};

export interface PartnerGuidanceTile {
  type: ReportType;
  state: ReportState;
  nextStep: PartnerNextStep;
  submittedAt: Date | null;
  lastMessage: string | null;
  /** A report the administrator sent back (rejected, or reopened after approval) and not submitted since: what they asked for. */
  sentBack: { by: "rejected" | "reopened"; comment: string; openComments: number } | null;
}

export interface PartnerGuidance {
  quarterName: string;
  /** The open quarter's cut-off date (YYYY-MM-DD) and the days left to it, negative when overdue; null when none is set for it. */
  cutOff: { date: string; daysLeft: number } | null;
  tiles: PartnerGuidanceTile[];
  /** How many of the open quarter's reports the partner has still to submit (started or not). */
  owed: number;
}

/** The partner dashboard: the open quarter, its deadline and, per report, its state and what to do next. */
export async function partnerGuidance(partnerId: number): Promise<PartnerGuidance> {
  const today = portalNow();
  const quarter = await getOpenQuarter();
  const [reportRows, cutOffDate] = await Promise.all([partnerReports(partnerId, quarter.id), getCutOffDate()]);
  const cutOff =
    cutOffDate && cutOffAppliesTo(cutOffDate, quarter) ? { date: cutOffDate, daysLeft: daysBetween(today.toISOString().slice(0, 10), cutOffDate) } : null;
  const tiles = REPORT_TYPES.map((type): PartnerGuidanceTile => {
    const report = reportRows.find((row) => row.type === type);
    const state: ReportState = report?.status ?? "not started";
    return {
      type,
      state,
      nextStep: NEXT_STEPS[state],
      submittedAt: report?.submittedAt ?? null,
      lastMessage: report?.lastMessage?.message ?? null,
      sentBack: sentBack(report),
    };
  });
  const states = Object.fromEntries(tiles.map((tile) => [tile.type, tile.state])) as Record<ReportType, ReportState>;
  return { quarterName: quarter.name, cutOff, tiles, owed: owedReportTypes(states).length };
}

export interface ReportStatusCount {
  type: ReportType;
  byStatus: Partial<Record<ReportStatus, number>>;
  notStarted: number;
}

/** How many active partners' reports of the quarter are in each state, per type (admin dashboard). */
export async function reportStatusCounts(quarterId: number): Promise<ReportStatusCount[]> {
  const [activePartners] = await db.select({ value: count() }).from(partners).where(eq(partners.isActive, true));
  const rows = await db
    .select({ type: reports.type, status: reports.status, value: count() })
    .from(reports)
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .where(and(eq(reports.quarterId, quarterId), eq(partners.isActive, true)))
    .groupBy(reports.type, reports.status);
  return REPORT_TYPES.map((type) => {
    const byStatus = Object.fromEntries(rows.filter((r) => r.type === type).map((r) => [r.status, Number(r.value)]));
    const started = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
    return { type, byStatus, notStarted: Number(activePartners.value) - started };
  });
}
