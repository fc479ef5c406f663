/**
 * Comments on rows and cells, on the server: a report's threads as its screen shows them (each row
 * placed by the report's declaration, `threadRows`), and the posts that open, answer, resolve and
 * reopen them, each one audited transaction. A partner reaches only its own report's threads (the
 * routes pass the partner's own id); STAFF reads them.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { reports, reportThreadMessages, reportThreads, users } from "~/db/schema";
import { writeAudit } from "~/models/audit.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";
import type { ReportTypeKey } from "./registry";
import type { Viewer } from "./page.server";
import { mayDiscuss, parseCommentParam, THREAD_MESSAGES, type ReportThreadsView, type ThreadIntent, type ThreadPlace, type ThreadView } from "./threads";
import { WorkflowError, type ReportKey } from "./workflow.server";

/** Where a report's rows are now, by id: their table, number and label (rows no longer in the report are left out). */
async function placedRows(executor: Pick<typeof db, "execute">, type: ReportTypeKey, reportId: number, rowIds: readonly number[]) {
  const declaration = REPORT_DECLARATIONS[type];
  if (!declaration.threadRows || rowIds.length === 0) return new Map<number, Awaited<ReturnType<NonNullable<typeof declaration.threadRows>>>[number]>();
  const rows = await declaration.threadRows(executor, reportId, [...new Set(rowIds)]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The threads of a saved report, oldest first, with their messages and where their rows are now. */
async function listThreads(type: ReportTypeKey, reportId: number, executor: typeof db | Transaction = db): Promise<ThreadView[]> {
  const threads = await executor
    .select({
      id: reportThreads.id,
      table: reportThreads.tableName,
      rowId: reportThreads.rowId,
      column: reportThreads.column,
      rowLabel: reportThreads.rowLabel,
      resolvedAt: reportThreads.resolvedAt,
      resolvedBy: users.name,
    })
    .from(reportThreads)
    .leftJoin(users, eq(users.id, reportThreads.resolvedBy))
    .where(eq(reportThreads.reportId, reportId))
    .orderBy(asc(reportThreads.id));
  if (threads.length === 0) return [];
  const [messages, places] = await Promise.all([
    executor
      .select({
        id: reportThreadMessages.id,
        threadId: reportThreadMessages.threadId,
        author: users.name,
        fromPartner: sql<boolean>`${users.role} = 'PARTNER'`,
        body: reportThreadMessages.body,
        at: reportThreadMessages.createdAt,
      })
      .from(reportThreadMessages)
      .leftJoin(users, eq(users.id, reportThreadMessages.authorId))
      .where(
        inArray(
          reportThreadMessages.threadId,
          threads.map((thread) => thread.id),
        ),
      )
      .orderBy(asc(reportThreadMessages.id)),
    placedRows(executor, type, reportId, [...new Set(threads.map((thread) => thread.rowId))]),
  ]);
  return threads.map((thread) => {
    const place = places.get(thread.rowId);
    return {
      id: thread.id,
      table: place?.table ?? thread.table,
      rowId: thread.rowId,
      row: place?.row ?? null,
      column: thread.column,
      rowLabel: place?.label ?? thread.rowLabel,
      open: thread.resolvedAt === null,
      resolvedBy: thread.resolvedAt ? (thread.resolvedBy ?? "") : null,
      resolvedAt: thread.resolvedAt?.toISOString() ?? null,
      messages: messages
        .filter((message) => message.threadId === thread.id)
        .map((message) => ({
          id: message.id,
          author: message.author ?? "",
          fromPartner: message.fromPartner === true,
          body: message.body,
          at: message.at.toISOString(),
        })),
    };
  });
}

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

/** The open threads of a report, as a rejection lists them. */
export async function openThreadsOf(type: ReportTypeKey, reportId: number, executor: Transaction): Promise<ThreadView[]> {
  return (await listThreads(type, reportId, executor)).filter((thread) => thread.open);
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

    if (post.intent === "thread-open") {
      const place = (await placedRows(tx, key.type, report.id, [post.rowId])).get(post.rowId);
      if (!place || place.table !== post.table) throw new WorkflowError(THREAD_MESSAGES.rowGone, 409);
      const [thread] = await tx
        .insert(reportThreads)
        .values({ reportId: report.id, tableName: place.table, rowId: post.rowId, column: post.column, rowLabel: place.label, openedBy: actor.id })
        .returning({ id: reportThreads.id });
      await tx.insert(reportThreadMessages).values({ threadId: thread.id, authorId: actor.id, body: body! });
      await audit("report.thread.open", thread.id, { table: place.table, rowId: post.rowId, column: post.column, body });
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
