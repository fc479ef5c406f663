/**
 * Comments on a report's rows and cells (issue "Review conversation and proof"): threads between
 * the partner and the administrators, each on a saved row (or one of its cells), written, answered
 * and resolved on the report's screen. STAFF reads them. Client-safe: the shapes the page and the
 * server share, the posts' fields and the messages.
 */
import type { Role } from "~/models/user.server";

/** The intents of the threads' forms (posted to the report's page like the frame's other intents). */
export const THREAD_INTENTS = ["thread-open", "thread-reply", "thread-resolve", "thread-reopen"] as const;
export type ThreadIntent = (typeof THREAD_INTENTS)[number];

/** The query parameter that opens a new thread's form on a row (`FDF:123`) or a cell (`FDF:123:royaltyDue`). */
export const COMMENT_PARAM = "comment";

/** The form's fields besides the envelope's. */
export const THREAD_FIELDS = { thread: "threadId", table: "threadTable", row: "threadRow", column: "threadColumn", body: "threadBody" } as const;

export const THREAD_MESSAGES = {
  opened: "Comment added.",
  replied: "Reply added.",
  resolved: "Comment resolved.",
  reopened: "Comment reopened.",
  empty: "Write a comment first.",
  rowGone: "This row is not in the report any more. Comment on a saved row.",
  notFound: "This comment is not in the report any more.",
  readOnly: "You have read-only access to the comments.",
  noColumn: "A comment on this report is on a whole cell: leave the column out.",
} as const;

/** Where a thread is: its table, the row's id and, while the row is in the report, its number there (as the grid numbers it). */
export interface ThreadPlace {
  table: string;
  rowId: number;
  /** null once the row was removed from the report. */
  row: number | null;
  /** null for the whole row. */
  column: string | null;
  /** How the row read (product, country, purchaser). */
  rowLabel: string;
}

export interface ThreadMessageView {
  id: number;
  author: string;
  fromPartner: boolean;
  body: string;
  at: string;
}

export interface ThreadView extends ThreadPlace {
  id: number;
  open: boolean;
  resolvedBy: string | null;
  resolvedAt: string | null;
  messages: ThreadMessageView[];
}

export interface ReportThreadsView {
  threads: ThreadView[];
  open: number;
  /** The viewer may write, answer and resolve (the partner on its own report, the administrators). */
  canWrite: boolean;
  /** The new thread's form the page's link asked for (`?comment=`), when its row is in the report. */
  draft: ThreadPlace | null;
}

/** A refused thread post, shown beside its form with what was written. */
export interface ThreadProblem {
  kind: "thread-problem";
  intent: ThreadIntent;
  message: string;
  /** The thread answered, or null for a new thread. */
  threadId: number | null;
  body: string;
}

/** Writing in threads: the partner (its own report, checked by the route) and the administrators; STAFF reads. */
export const mayDiscuss = (role: Role) => role !== "STAFF";

/** The id of a thread's place on the page (links and redirects land there). */
export const threadAnchor = (id: number) => `thread-${id}`;

/** A new thread on a cell asked for with JavaScript (the grid's menu or shortcut): the panel opens its form. */
export const COMMENT_ON_CELL_EVENT = "report:comment-on-cell";
export type CommentOnCell = Omit<ThreadPlace, "rowLabel"> & { rowLabel?: string };

/**
 * Where a thread is, in words (`say` translates): "FDF row 3, Royalty Due", "FDF row 3", or
 * "FDF row removed" once the row is gone; `columnLabel` names a column (a translation key).
 */
export function placeText(
  place: Pick<ThreadPlace, "table" | "row" | "column">,
  say: (key: string, values?: Record<string, string | number>) => string,
  columnLabel: (table: string, column: string) => string,
): string {
  if (place.row === null) return say("{{table}} row removed", { table: place.table });
  return place.column
    ? say("{{table}} row {{n}}, {{column}}", { table: place.table, n: place.row, column: say(columnLabel(place.table, place.column)) })
    : say("{{table}} row {{n}}", { table: place.table, n: place.row });
}

/** `?comment=` read: the table, the row's id and the column (null for the row), or null when malformed. */
export function parseCommentParam(value: string | null): { table: string; rowId: number; column: string | null } | null {
  const match = /^([A-Za-z]{1,16}):(\d{1,9})(?::([A-Za-z]{1,40}))?$/.exec(value ?? "");
  return match ? { table: match[1], rowId: Number(match[2]), column: match[3] ?? null } : null;
}

/** `?comment=` written for a row or a cell. */
export const commentParam = (table: string, rowId: number, column: string | null = null) => `${table}:${rowId}${column ? `:${column}` : ""}`;

/** The open threads by place: `table:rowId` for the row, `table:rowId:column` for a cell (a cell's also count for its row). */
export function openThreadPlaces(threads: ReportThreadsView | null): Map<string, number> {
  const places = new Map<string, number>();
  const add = (key: string) => places.set(key, (places.get(key) ?? 0) + 1);
  for (const thread of threads?.threads ?? []) {
    if (!thread.open || thread.row === null) continue;
    add(`${thread.table}:${thread.rowId}`);
    if (thread.column) add(`${thread.table}:${thread.rowId}:${thread.column}`);
  }
  return places;
}
