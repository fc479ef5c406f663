/**
 * A report's threads as they are read: each with its messages and where its row is now (placed by
 * the report's declaration, `threadRows`). Read by the threads' screens and posts (./threads.server.ts)
 * and by the mails that list them (./mails.server.ts).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { reportThreadMessages, reportThreads, users } from "~/db/schema";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import type { ReportTypeKey } from "./registry";
import type { ThreadView } from "./threads";

/** Where a report's rows are now, by id: their table, number and label (rows no longer in the report are left out). */
export async function placedRows(executor: Pick<typeof db, "execute" | "select">, type: ReportTypeKey, reportId: number, rowIds: readonly number[]) {
  const declaration = REPORT_DECLARATIONS[type];
  if (!declaration.threadRows || rowIds.length === 0) return new Map<number, Awaited<ReturnType<NonNullable<typeof declaration.threadRows>>>[number]>();
  const rows = await declaration.threadRows(executor, reportId, [...new Set(rowIds)]);
  return new Map(rows.map((row) => [row.id, row]));
}

/** The threads of a saved report (or the one of id `threadId` alone), oldest first, with their messages and where their rows are now. */
export async function listThreads(
  type: ReportTypeKey,
  reportId: number,
  executor: typeof db | Transaction = db,
  threadId: number | null = null,
): Promise<ThreadView[]> {
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
    .where(and(eq(reportThreads.reportId, reportId), threadId === null ? undefined : eq(reportThreads.id, threadId)))
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

/** The open threads of a report, as a rejection lists them. */
export async function openThreadsOf(type: ReportTypeKey, reportId: number, executor: Transaction): Promise<ThreadView[]> {
  return (await listThreads(type, reportId, executor)).filter((thread) => thread.open);
}
