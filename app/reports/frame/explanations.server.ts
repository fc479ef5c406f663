/**
 * Changes to explain, on the server: a report's declared lines with the partner's stored reasons
 * (read by the report's own statement), and the reasons' save (one audited transaction). The submission refuses a report with a line
 * left unexplained (performReportAction in ./workflow.server.ts).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { quarters, reportExplanations, reports } from "~/db/schema";
import { writeAudit } from "~/models/audit.server";
import { isHistoric } from "~/models/quarter.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import { mayExplainChanges } from "~/reports/frame/workflow";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";
import { EXPLANATION_MESSAGES, type ChangesToExplainView } from "./explanations";
import type { Viewer } from "./page.server";
import type { ReportFrameView } from "./screen.server";
import { WorkflowError, type ReportKey } from "./workflow.server";

/** A report's lines to explain as its screen shows them; null when the report type declares none, or there are none. */
export async function loadChangesToExplain(view: ReportFrameView, viewer: Pick<Viewer, "role">): Promise<ChangesToExplainView | null> {
  const declaration = REPORT_DECLARATIONS[view.type];
  if (!declaration.changesToExplain || view.report.id === null) return null;
  const lines = await declaration.changesToExplain(db, { reportId: view.report.id, partnerId: view.partner.id, quarterId: view.quarter.id, withPeers: false });
  if (lines.length === 0) return null;
  return {
    lines,
    missing: lines.filter((line) => !line.reason).length,
    canExplain: mayExplainChanges(viewer.role, view.report.status, view.quarter.historic),
  };
}

/** Refused reasons: the problem (a translation key) by subject. */
type SaveExplanationsResult = { ok: true } | { ok: false; errors: Record<string, string> };

/**
 * The partner's reasons for its report's lines to explain, by subject: a reason posted empty is
 * removed, a subject the report does not list is ignored, a line not posted keeps its reason.
 * Refused whole when a reason is too long (nothing saved), or when the report cannot take reasons now.
 */
export async function saveExplanations(input: {
  actor: Viewer;
  key: ReportKey;
  reasons: ReadonlyMap<string, string>;
  requestId?: string | null;
}): Promise<SaveExplanationsResult> {
  const { actor, key } = input;
  if (actor.role === "PARTNER" && actor.partnerId !== key.partnerId) throw new WorkflowError(NOT_AUTHORIZED, 403);
  const declaration = REPORT_DECLARATIONS[key.type];
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ report: reports, quarter: quarters })
      .from(reports)
      .innerJoin(quarters, eq(quarters.id, reports.quarterId))
      .where(and(eq(reports.partnerId, key.partnerId), eq(reports.quarterId, key.quarterId), eq(reports.type, key.type)))
      .for("update", { of: reports });
    if (!found || !mayExplainChanges(actor.role, found.report.status, isHistoric(found.quarter))) {
      throw new WorkflowError(EXPLANATION_MESSAGES.notAllowed, actor.role === "PARTNER" ? 409 : 403);
    }
    const reportId = found.report.id;
    const lines = (await declaration.changesToExplain?.(tx, { ...key, reportId, withPeers: false })) ?? [];
    const errors: Extract<SaveExplanationsResult, { ok: false }>["errors"] = {};
    const changed: { subject: string; before: string | null; after: string | null }[] = [];
    for (const line of lines) {
      const posted = input.reasons.get(line.subject);
      if (posted === undefined) continue;
      const reason = posted.trim();
      const problem = textProblem(reason, TEXT_MAX.note);
      if (problem) errors[line.subject] = problem;
      else if (reason !== (line.reason ?? "")) changed.push({ subject: line.subject, before: line.reason, after: reason || null });
    }
    if (Object.keys(errors).length > 0) return { ok: false, errors };
    if (changed.length === 0) return { ok: true };
    const kept = changed.filter((change) => change.after !== null);
    const removed = changed.filter((change) => change.after === null).map((change) => change.subject);
    if (kept.length) {
      await tx
        .insert(reportExplanations)
        .values(kept.map((change) => ({ reportId, subject: change.subject, reason: change.after!, updatedBy: actor.id })))
        .onConflictDoUpdate({
          target: [reportExplanations.reportId, reportExplanations.subject],
          set: { reason: sql`excluded.reason`, updatedBy: actor.id, updatedAt: new Date() },
        });
    }
    if (removed.length) await tx.delete(reportExplanations).where(and(eq(reportExplanations.reportId, reportId), inArray(reportExplanations.subject, removed)));
    await writeAudit(
      {
        actorId: actor.id,
        action: "report.explain",
        entity: `report:${key.type}`,
        entityId: reportId,
        before: Object.fromEntries(changed.map((change) => [change.subject, change.before])),
        after: Object.fromEntries(changed.map((change) => [change.subject, change.after])),
        requestId: input.requestId,
      },
      tx,
    );
    return { ok: true };
  });
}
