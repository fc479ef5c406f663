import { and, count, desc, eq, inArray } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partners, quarters, reportMessages, reports } from "~/db/schema";
import { REPORT_TYPES, type ReportTypeKey as ReportType } from "~/utils/reports";

export interface ReportTile {
  type: ReportType;
  quarterName: string;
  status: string;
  submittedAt: Date | null;
  lastMessage: string | null;
}

/** For each report type, the partner's most recent report with its last message (partner dashboard). */
export async function partnerReportTiles(partnerId: number): Promise<Record<ReportType, ReportTile | null>> {
  const rows = await db
    .selectDistinctOn([reports.type], {
      id: reports.id,
      type: reports.type,
      status: reports.status,
      submittedAt: reports.submittedAt,
      quarterName: quarters.name,
    })
    .from(reports)
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(eq(reports.partnerId, partnerId))
    .orderBy(reports.type, desc(quarters.year), desc(quarters.quarter));

  const reportIds = rows.map((row) => row.id);
  const lastMessages = reportIds.length
    ? await db
        .selectDistinctOn([reportMessages.reportId], { reportId: reportMessages.reportId, message: reportMessages.message })
        .from(reportMessages)
        .where(inArray(reportMessages.reportId, reportIds))
        .orderBy(reportMessages.reportId, desc(reportMessages.createdAt), desc(reportMessages.id))
    : [];

  const tiles: Record<ReportType, ReportTile | null> = { pdt: null, filing: null, sales: null };
  for (const row of rows) {
    tiles[row.type] = {
      type: row.type,
      quarterName: row.quarterName,
      status: row.status,
      submittedAt: row.submittedAt,
      lastMessage: lastMessages.find((m) => m.reportId === row.id)?.message ?? null,
    };
  }
  return tiles;
}

/** How many active partners' reports of the quarter are in each state, per type (admin dashboard). */
export async function reportStatusCounts(quarterId: number) {
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
