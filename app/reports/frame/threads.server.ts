/**
 * Comments on rows and cells, on the server: a report's threads as its screen shows them (read in
 * ./thread-list.server.ts), and the posts that open, answer, resolve and reopen them, each one
 * audited transaction that also mails a new message to the other side. A partner reaches only its
 * own report's threads (the routes pass the partner's own id); STAFF reads them.
 */
import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { reports, reportThreadMessages, reportThreads } from "~/db/schema";
import { writeAudit } from "~/models/audit.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";
import type { ReportTypeKey } from "./registry";
import type { Viewer } from "./page.server";
import { mayDiscuss, parseCommentParam, THREAD_MESSAGES, type ReportThreadsView, type ThreadIntent, type ThreadPlace } from "./threads";
import { WorkflowError, type ReportKey } from "./workflow.server";
import { mailThreadPost } from "./mails.server";
import { listThreads, placedRows } from "./thread-list.server";

/**
 * A report's threads as its screen shows them, with the new thread's form the page's link asks for
 * (`?comment=FDF:123`, only on a row in the report); null for a report type without threads.
 */
export async function loadReportThreads(
  view: { type: ReportTypeKey; report: { id: number | null; threadCount: number } },
  viewer: Pick<Viewer, "role">,
  /** The page's `?comment=`, or null. */
  comment: string | null,
): Promise<ReportThreadsView | null> {
  if (!REPORT_DECLARATIONS[view.type].threadRows) return null;
  const reportId = view.report.id;
  const threads = reportId === null || view.report.threadCount === 0 ? [] : await listThreads(view.type, reportId);
  const canWrite = mayDiscuss(viewer.role);
  const asked = parseCommentParam(comment);
  let draft: ThreadPlace | null = null;
  if (asked && canWrite && reportId !== null) {
    const place = (await placedRows(db, view.type, reportId, [asked.rowId])).get(asked.rowId);
    if (place && place.table === asked.table) draft = { table: place.table, rowId: asked.rowId, row: place.row, column: asked.column, rowLabel: place.label };
  }
  return { threads, open: threads.filter((thread) => thread.open).length, canWrite, draft };
}

/** A thread post, read from its form. */
export type ThreadPost =
  | { intent: "thread-open"; table: string; rowId: number; column: string | null; body: string }
  | { intent: "thread-reply"; threadId: number; body: string }
  | { intent: "thread-resolve" | "thread-reopen"; threadId: number };

/** A refusal of what was written (an empty or too long text): answered beside the form. */
export class ThreadRefusal extends Error {}

/**
 * A thread post on the report of `key`, in one audited transaction: the thread opened with its first
 * message, an answer, or the thread resolved or reopened. Answers the thread's id.
 */
export async function postToThread(input: { actor: Viewer; key: ReportKey; post: ThreadPost; requestId?: string | null }): Promise<number> {
  const { actor, key, post } = input;
  if (!mayDiscuss(actor.role)) throw new WorkflowError(THREAD_MESSAGES.readOnly, 403);
  if (actor.role === "PARTNER" && actor.partnerId !== key.partnerId) throw new WorkflowError(NOT_AUTHORIZED, 403);
  const body = "body" in post ? post.body.trim() : null;
  if (body !== null) {
    const problem = body ? textProblem(body, TEXT_MAX.note) : THREAD_MESSAGES.empty;
    if (problem) throw new ThreadRefusal(problem);
  }
  return db.transaction(async (tx) => {
    const [report] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.partnerId, key.partnerId), eq(reports.quarterId, key.quarterId), eq(reports.type, key.type)));
    if (!report) throw new WorkflowError(THREAD_MESSAGES.rowGone, 409);
    const audit = (action: string, threadId: number, after: Record<string, unknown>) =>
      writeAudit(
        { actorId: actor.id, action, entity: `report:${key.type}`, entityId: report.id, after: { threadId, ...after }, requestId: input.requestId },
        tx,
      );
    // A new message goes to the other side by mail (./mails.server.ts), in this transaction.
    const mailPost = async (threadId: number) => {
      const [thread] = await listThreads(key.type, report.id, tx, threadId);
      await mailThreadPost(tx, { reportId: report.id, thread, fromPartner: actor.role === "PARTNER" });
    };

    if (post.intent === "thread-open") {
      // A report whose stored rows are its cells (Filing Plans) names no columns.
      if (post.column !== null && !REPORT_DECLARATIONS[key.type].columnLabel) throw new WorkflowError(THREAD_MESSAGES.noColumn, 400);
      const place = (await placedRows(tx, key.type, report.id, [post.rowId])).get(post.rowId);
      if (!place || place.table !== post.table) throw new WorkflowError(THREAD_MESSAGES.rowGone, 409);
      const [thread] = await tx
        .insert(reportThreads)
        .values({ reportId: report.id, tableName: place.table, rowId: post.rowId, column: post.column, rowLabel: place.label, openedBy: actor.id })
        .returning({ id: reportThreads.id });
      await tx.insert(reportThreadMessages).values({ threadId: thread.id, authorId: actor.id, body: body! });
      await audit("report.thread.open", thread.id, { table: place.table, rowId: post.rowId, column: post.column, body });
      await mailPost(thread.id);
      return thread.id;
    }

    const [thread] = await tx
      .select({ id: reportThreads.id, resolvedAt: reportThreads.resolvedAt })
      .from(reportThreads)
      .where(and(eq(reportThreads.id, post.threadId), eq(reportThreads.reportId, report.id)))
      .for("update");
    if (!thread) throw new WorkflowError(THREAD_MESSAGES.notFound, 404);
    const actions: Record<Exclude<ThreadIntent, "thread-open">, () => Promise<void>> = {
      "thread-reply": async () => {
        await tx.insert(reportThreadMessages).values({ threadId: thread.id, authorId: actor.id, body: body! });
        await audit("report.thread.reply", thread.id, { body });
        await mailPost(thread.id);
      },
      "thread-resolve": async () => {
        if (thread.resolvedAt) return;
        await tx.update(reportThreads).set({ resolvedAt: new Date(), resolvedBy: actor.id }).where(eq(reportThreads.id, thread.id));
        await audit("report.thread.resolve", thread.id, {});
      },
      "thread-reopen": async () => {
        if (!thread.resolvedAt) return;
        await tx.update(reportThreads).set({ resolvedAt: null, resolvedBy: null }).where(eq(reportThreads.id, thread.id));
        await audit("report.thread.reopen", thread.id, {});
      },
    };
    await actions[post.intent]();
    return thread.id;
  });
}
