import crypto from "node:crypto";
import { and, asc, count, desc, eq, isNull, like, ne, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import type { AnyPgColumn, PgColumn, PgTable } from "drizzle-orm/pg-core";
import { auditLog, quarters, reportMessages, reports, reportSnapshots, users } from "~/db/schema";
import { formatDateTime } from "~/utils/dates";
import { checkTransition, isSubmitted, WORKFLOW_REFUSALS, type ReportStatus, type WorkflowAction } from "~/reports/frame/workflow";
import type { ReportTypeKey } from "~/reports/frame/registry";
import type { Finding } from "~/reports/frame/checks";
import type { RowChangesDeclaration } from "~/reports/frame/changes.server";
import { EXPLANATION_MESSAGES, type ExplainedChange } from "~/reports/frame/explanations";
import type { SubmissionTable, SubmissionTablesInput } from "~/reports/frame/submission-document";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import { portalNow } from "~/utils/today.server";
import { writeAudit } from "~/models/audit.server";
import { isHistoric } from "~/models/quarter.server";
import { getCutOffDate } from "~/models/settings.server";
import { enqueueJob } from "~/jobs/queue.server";
import type { AuthUser } from "~/models/user.server";
import { NOT_AUTHORIZED } from "~/utils/messages";

/** What a report declares to the workflow (gathered in app/reports/registry.server.ts). */
export interface ReportDeclaration {
  /** The table of its rows: a submission or a decision snapshots them. */
  rowTable: PgTable & { id: PgColumn; reportId: PgColumn };
  /** How many checks still hold up an approval or a rejection (Sales: product verifications pending); none when left out. */
  decisionBlockers?(executor: Pick<typeof db, "select">, reportId: number): Promise<number>;
  /** What the report's checks find in its saved rows (app/reports/frame/checks.ts); none when left out. */
  checks?(input: ReportChecksInput): Promise<Finding[]>;
  /** The changes its saved rows must explain before a submission, with the reasons stored (app/reports/frame/explanations.ts); none when left out. */
  changesToExplain?(executor: Pick<typeof db, "execute">, report: ReportChecksInput): Promise<ExplainedChange[]>;
  /** The tables of a submission's proof (its PDF), drawn from the snapshot's rows as the screen shows them (./submission-document.ts). */
  submissionTables(input: SubmissionTablesInput): Promise<SubmissionTable[]>;
  /** How its rows are compared with a snapshot ("Show changes since": app/reports/frame/changes.server.ts). */
  changes: RowChangesDeclaration;
  /** Where the rows of the ids given are in the report now (threads name rows by id; app/reports/frame/threads.ts); no threads when left out. */
  threadRows?(executor: Pick<typeof db, "execute" | "select">, reportId: number, rowIds: readonly number[]): Promise<ThreadRow[]>;
  /** A column's label (a translation key) by table and key, as mails name a thread's cell; the key itself when left out. */
  columnLabel?(table: string, column: string): string;
}

/** A saved row as a thread names it: its table, its 1-based number there as the grid numbers it, and how it reads. */
export interface ThreadRow {
  id: number;
  table: string;
  row: number;
  label: string;
}

/** A saved report to check, and whether the findings may use other partners' figures (administrators and staff only). */
export interface ReportChecksInput {
  reportId: number;
  partnerId: number;
  quarterId: number;
  withPeers: boolean;
}

export interface ReportKey {
  partnerId: number;
  quarterId: number;
  type: ReportTypeKey;
}

/** A refused action: nothing was changed. `status` is the HTTP status an API answers with; `values` fill the message. */
export class WorkflowError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409 = 409,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = "WorkflowError";
  }
}

/** Someone else saved the report after this editor loaded it. */
export class StaleReportError extends WorkflowError {
  constructor(
    readonly savedByName: string,
    readonly savedAt: Date | null,
  ) {
    super("This report was saved by {{name}} on {{time}} after you opened it. Reload it to see their changes.", 409, {
      name: savedByName,
      time: formatDateTime(savedAt),
    });
    this.name = "StaleReportError";
  }
}

export interface ReportActionInput {
  actor: Pick<AuthUser, "id" | "role" | "partnerId">;
  key: ReportKey;
  /** The key's quarter as the caller already read it (read again when left out). */
  quarter?: typeof quarters.$inferSelect;
  action: WorkflowAction;
  comment?: string | null;
  /** The version the editor loaded; omitted only by callers that do not edit rows. */
  expectedVersion?: number | null;
  /**
   * Writes the report's rows inside the same transaction: a save, a submission (which saves
   * first), or an administrator's decision taken with unsaved edits. A refused action writes nothing.
   */
  writeRows?: (tx: Transaction, reportId: number, report: typeof reports.$inferSelect) => Promise<{ changed: boolean }>;
  /** What the action sends (its mails), queued in the same transaction once the action is written. */
  queueMails?: (tx: Transaction, result: ReportActionResult) => Promise<void>;
  requestId?: string | null;
}

export interface ReportActionResult {
  reportId: number;
  status: ReportStatus;
  version: number;
  isLate: boolean;
  snapshotSha256: string | null;
  /** The snapshot the action took (a submission or a decision), or null. */
  snapshotId: number | null;
}

const ROLE_REFUSALS = new Set<string>([WORKFLOW_REFUSALS.staff, WORKFLOW_REFUSALS.partnerOnly, WORKFLOW_REFUSALS.adminOnly]);
/** A missing comment is bad input (400), not a state that forbids the action (409). */
const INPUT_REFUSALS = new Set<string>([WORKFLOW_REFUSALS.partnerComment, WORKFLOW_REFUSALS.adminComment]);
const refusalStatus = (reason: string) => (ROLE_REFUSALS.has(reason) ? 403 : INPUT_REFUSALS.has(reason) ? 400 : 409);

/** Rows one statement writes at most: well below the statement's parameter limit. */
const SLICE_ROWS = 1000;

/** A report's rows written in slices of SLICE_ROWS. */
export async function inSlices<T>(rows: readonly T[], write: (slice: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += SLICE_ROWS) await write(rows.slice(start, start + SLICE_ROWS));
}

/**
 * JSON with every object's keys in sorted order (dates as ISO text): the same text from the rows as
 * read and from the snapshot as stored (jsonb keeps keys in an order of its own), so a snapshot's
 * hash can be checked against the snapshot itself.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * The report's rows as stored, in a stable order, and the SHA-256 of their canonical JSON: the rows
 * alone, or with the changes explained and their reasons (`{"explanations":…,"rows":…}`) when there are some.
 */
async function snapshotRows(tx: Transaction, { rowTable: table }: ReportDeclaration, reportId: number, explanations: readonly unknown[]) {
  const rows = JSON.parse(canonicalJson(await tx.select().from(table).where(eq(table.reportId, reportId)).orderBy(asc(table.id)))) as unknown[];
  const canonical = canonicalJson(explanations.length ? { rows, explanations } : rows);
  return { rows, sha256: crypto.createHash("sha256").update(canonical).digest("hex") };
}

async function lockReport(tx: Transaction, key: ReportKey) {
  const [row] = await tx
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, key.partnerId), eq(reports.quarterId, key.quarterId), eq(reports.type, key.type)))
    .for("update");
  return row;
}

/** Someone saved since the editor loaded `expectedVersion` (0 for a report not started): refused with who and when. */
async function refuseStaleVersion(tx: Transaction, report: typeof reports.$inferSelect, expectedVersion: number | null | undefined) {
  if (expectedVersion == null || report.version === expectedVersion) return;
  const [saver] = report.savedBy ? await tx.select({ name: users.name }).from(users).where(eq(users.id, report.savedBy)) : [];
  throw new StaleReportError(saver?.name ?? "", report.savedAt);
}

/** Creates the report row on its first save or submission (a concurrent creator is waited for). */
const blockersOf = (tx: Transaction, declaration: ReportDeclaration, reportId: number) => declaration.decisionBlockers?.(tx, reportId) ?? 0;

async function createReport(tx: Transaction, key: ReportKey, actorId: number) {
  await tx
    .insert(reports)
    .values({ ...key, status: "Saved", version: 0, savedBy: actorId })
    .onConflictDoNothing();
  return lockReport(tx, key);
}

/**
 * Every change of a report goes through here: the transition table decides, whatever the
 * client sent; the rows, the status, the message, the snapshot and the audit entry are written
 * in one transaction, or nothing is.
 */
export async function performReportAction(input: ReportActionInput): Promise<ReportActionResult> {
  const { actor, key, action } = input;
  const declaration = REPORT_DECLARATIONS[key.type];
  if (actor.role === "PARTNER" && actor.partnerId !== key.partnerId) {
    throw new WorkflowError(NOT_AUTHORIZED, 403);
  }
  const comment = input.comment?.trim() || null;
  const now = portalNow();
  // Read before the transaction: the embedded database has one connection, held by the transaction.
  const cutOff = action === "submit" ? await getCutOffDate() : undefined;

  return db.transaction(async (tx) => {
    const [quarter] = input.quarter?.id === key.quarterId ? [input.quarter] : await tx.select().from(quarters).where(eq(quarters.id, key.quarterId));
    if (!quarter) throw new WorkflowError("Quarter not found", 404);
    // What the report declares holds up a decision only (the other actions do not read it).
    const decides = action === "approve" || action === "reject";

    let report = await lockReport(tx, key);
    if (report) await refuseStaleVersion(tx, report, input.expectedVersion);

    const decision = checkTransition({
      action,
      role: actor.role,
      status: report?.status ?? null,
      historic: isHistoric(quarter),
      pendingVerifications: report && decides ? await blockersOf(tx, declaration, report.id) : 0,
      submittedBefore: Boolean(report?.firstSubmittedAt),
      comment,
      savesRows: Boolean(input.writeRows),
    });
    if (!decision.ok) throw new WorkflowError(decision.reason, refusalStatus(decision.reason));

    if (!report) {
      report = await createReport(tx, key, actor.id);
      // Another first save may have created it while this one waited: it conflicts like any other.
      await refuseStaleVersion(tx, report, input.expectedVersion);
    }
    const before = { status: report.status, version: report.version };

    let rowsChanged = false;
    if (input.writeRows) {
      const { changed } = await input.writeRows(tx, report.id, report);
      rowsChanged = changed;
      if (action === "submit" && isSubmitted(report.status) && !changed) throw new WorkflowError(WORKFLOW_REFUSALS.alreadySubmitted, 409);
      // The rows just written may name a product that now waits for verification: no decision then.
      if (decides && (await blockersOf(tx, declaration, report.id)) > 0) {
        throw new WorkflowError(WORKFLOW_REFUSALS.pendingVerification, 409);
      }
    }

    // The changes the rows must explain, with the partner's reasons: none missing, or no submission.
    let explanations: ExplainedChange[] = [];
    if (action === "submit" && declaration.changesToExplain) {
      explanations = await declaration.changesToExplain(tx, { reportId: report.id, partnerId: key.partnerId, quarterId: key.quarterId, withPeers: false });
      const missing = explanations.filter((line) => !line.reason).length;
      if (missing > 0) throw new WorkflowError(EXPLANATION_MESSAGES.submitRefused, 409, { count: missing });
    }

    const changes: Partial<typeof reports.$inferInsert> = {
      status: decision.to,
      version: report.version + 1,
      updatedAt: now,
    };
    if (rowsChanged) changes.rowsVersion = report.rowsVersion + 1;
    if (input.writeRows || action === "save" || action === "submit") Object.assign(changes, { savedAt: now, savedBy: actor.id });
    if (action === "submit") {
      changes.submittedAt = now;
      if (!report.firstSubmittedAt) {
        changes.firstSubmittedAt = now;
        // Late: first submitted after the end of the cut-off day.
        changes.isLate = Boolean(cutOff && now.toISOString().slice(0, 10) > cutOff);
      }
    }
    if (action === "approve" || action === "reject") changes.decidedAt = now;
    if (action === "reopen") changes.decidedAt = null;
    const [updated] = await tx.update(reports).set(changes).where(eq(reports.id, report.id)).returning();

    if (comment && action !== "save") {
      const fromPartner = actor.role === "PARTNER";
      await tx.insert(reportMessages).values({
        reportId: report.id,
        authorId: actor.id,
        isPartnerMessage: fromPartner,
        isApproved: action === "approve" ? true : action === "reject" ? false : null,
        message: comment,
        createdAt: now,
        // The author has read their own message.
        readByPartnerAt: fromPartner ? now : null,
        readByAdminAt: fromPartner ? null : now,
      });
    }

    let snapshotSha256: string | null = null;
    let snapshotId: number | null = null;
    if (action === "submit" || action === "approve" || action === "reject") {
      const snapshot = await snapshotRows(tx, declaration, report.id, explanations);
      snapshotSha256 = snapshot.sha256;
      const [taken] = await tx
        .insert(reportSnapshots)
        .values({
          reportId: report.id,
          event: action,
          version: updated.version,
          rows: snapshot.rows,
          explanations: explanations.length ? explanations : null,
          rowCount: snapshot.rows.length,
          sha256: snapshot.sha256,
          comment,
          createdBy: actor.id,
          createdAt: now,
        })
        .returning({ id: reportSnapshots.id });
      snapshotId = taken.id;
      // Its proof is drawn ahead of the first download and the receipt's attachment.
      if (action === "submit") await enqueueJob(tx, "submission-pdf", { snapshotId });
    }

    await writeAudit(
      {
        actorId: actor.id,
        action: `report.${action}`,
        entity: `report:${key.type}`,
        entityId: report.id,
        before,
        after: { status: updated.status, version: updated.version, comment, snapshotSha256 },
        requestId: input.requestId,
      },
      tx,
    );

    const result = { reportId: report.id, status: updated.status, version: updated.version, isLate: updated.isLate, snapshotSha256, snapshotId };
    await input.queueMails?.(tx, result);
    return result;
  });
}

// ---------------------------------------------------------------- messages

export type MessageSide = "partner" | "admin";

const readColumn = (side: MessageSide) => (side === "partner" ? reportMessages.readByPartnerAt : reportMessages.readByAdminAt);

/** A message the other side wrote that `side` has not opened yet (a condition on report_messages). */
export const unreadBy = (side: MessageSide) => and(isNull(readColumn(side)), ne(reportMessages.isPartnerMessage, side === "partner"));

/** The report's messages, oldest first, and how many of them `side` has not opened yet (one statement). */
export async function listReportMessages(reportId: number, side: MessageSide) {
  const rows = await db
    .select({
      id: reportMessages.id,
      message: reportMessages.message,
      isApproved: reportMessages.isApproved,
      isPartnerMessage: reportMessages.isPartnerMessage,
      createdAt: reportMessages.createdAt,
      author: users.name,
      readAt: readColumn(side),
    })
    .from(reportMessages)
    .leftJoin(users, eq(users.id, reportMessages.authorId))
    .where(eq(reportMessages.reportId, reportId))
    .orderBy(asc(reportMessages.createdAt), asc(reportMessages.id));
  const unread = rows.filter((row) => row.readAt === null && row.isPartnerMessage !== (side === "partner")).length;
  return { messages: rows.map(({ readAt: _readAt, ...message }) => message), unread };
}

/** Messages the other side wrote that this side has not opened yet. */
export async function unreadMessageCount(reportId: number, side: MessageSide) {
  const [{ value }] = await db
    .select({ value: count() })
    .from(reportMessages)
    .where(and(eq(reportMessages.reportId, reportId), unreadBy(side)));
  return Number(value);
}

/** Opening the messages marks them read for the viewer's side; the count becomes 0. */
export async function markMessagesRead(reportId: number, side: MessageSide) {
  const column = side === "partner" ? "readByPartnerAt" : "readByAdminAt";
  await db
    .update(reportMessages)
    .set({ [column]: sql`now()` })
    .where(and(eq(reportMessages.reportId, reportId), isNull(readColumn(side))));
}

// ---------------------------------------------------------------- history

export type HistoryAction = "save" | "submit" | "approve" | "reject" | "reopen";

export interface ReportHistoryEntry {
  id: number;
  action: HistoryAction;
  at: Date;
  who: string | null;
  comment: string | null;
  version: number | null;
  /** The snapshot taken by this entry (submissions and decisions) and its rows; null for saves. */
  snapshotId: number | null;
  rowCount: number | null;
  snapshotSha256: string | null;
}

const HISTORY_ACTIONS = new Set<string>(["save", "submit", "approve", "reject", "reopen"]);

/**
 * Every save, submission and decision of one report (any type), newest first: from the audit
 * log, with the author's name and, where the entry took one, its snapshot's row count and hash.
 */
export async function listReportHistory(reportId: number): Promise<ReportHistoryEntry[]> {
  // The snapshot an entry took has the version its audit record names.
  const snapshotVersion = sql`case when jsonb_typeof(${auditLog.after} -> 'version') = 'number' then (${auditLog.after} ->> 'version')::integer end`;
  const snapshotOf = <T>(column: AnyPgColumn) =>
    sql<T | null>`(select ${column} from ${reportSnapshots} where ${reportSnapshots.reportId} = ${reportId} and ${reportSnapshots.version} = ${snapshotVersion} order by ${reportSnapshots.id} desc limit 1)`;
  const entries = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
      who: users.name,
      snapshotId: snapshotOf<number>(reportSnapshots.id),
      snapshotRowCount: snapshotOf<number>(reportSnapshots.rowCount),
      snapshotSha256: snapshotOf<string>(reportSnapshots.sha256),
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(and(like(auditLog.entity, "report:%"), eq(auditLog.entityId, String(reportId)), like(auditLog.action, "report.%")))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));
  const history: ReportHistoryEntry[] = [];
  for (const entry of entries) {
    const action = entry.action.slice("report.".length);
    if (!HISTORY_ACTIONS.has(action)) continue;
    const after = (entry.after ?? {}) as { version?: unknown; comment?: unknown; snapshotSha256?: unknown };
    const version = typeof after.version === "number" ? after.version : null;
    const sha256 = typeof after.snapshotSha256 === "string" ? after.snapshotSha256 : null;
    const matching = entry.snapshotSha256 !== null && (!sha256 || entry.snapshotSha256 === sha256);
    history.push({
      id: entry.id,
      action: action as HistoryAction,
      at: entry.createdAt,
      who: entry.who,
      comment: typeof after.comment === "string" ? after.comment : null,
      version,
      snapshotId: matching ? entry.snapshotId : null,
      rowCount: matching ? entry.snapshotRowCount : null,
      snapshotSha256: sha256 ?? (matching ? entry.snapshotSha256 : null),
    });
  }
  return history;
}

/** The report's latest submission (or approval) in its history (newest first) that took a snapshot; undefined when there is none. */
export function latestSnapshot(history: readonly ReportHistoryEntry[], action: "submit" | "approve") {
  return history.find((entry): entry is ReportHistoryEntry & { snapshotId: number } => entry.action === action && entry.snapshotId !== null);
}
