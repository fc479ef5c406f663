/**
 * What the three report screens (PDT, Filing Plans, Sales) share around their rows: who may see
 * which partner's report, the quarter asked for, the header (status line, quarter dropdown,
 * permissions and why a button is disabled), messages, and the administrator's decisions.
 * A report's own model adds its rows and lists; the workflow itself is workflow.server.ts.
 */
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partners, quarters, reports, reportThreads } from "~/db/schema";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { parseQuarterName, quarterIndex } from "~/utils/quarters";
import { WORKFLOW_REFUSALS, workflowPermissions, type ReportStatus, type WorkflowPermissions } from "~/reports/frame/workflow";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { mailAfterRowsAction, mailReportDecision, type SubmittedRowsLine } from "./mails.server";
import { getOpenQuarter, isHistoric, listQuartersUpTo, openQuarterRef, type Quarter } from "~/models/quarter.server";
import {
  listReportMessages,
  markMessagesRead,
  performReportAction,
  unreadMessageCount,
  WorkflowError,
  type MessageSide,
  type ReportActionResult,
  type ReportActionInput,
} from "./workflow.server";
import type { AuthUser } from "~/models/user.server";

export type Actor = Pick<AuthUser, "id" | "role" | "partnerId">;

const PARTNER_NOT_FOUND = "Partner not found";
const QUARTER_NOT_FOUND = "Quarter not found";
/** A save named rows that are not rows of this report (another partner's, another report's, or already deleted). */
export const ROWS_NOT_IN_REPORT = "Some rows are not part of this report. Reload the report and try again.";
export const REPORT_HAS_ROWS = "This report has rows. Delete them, or submit them, before reporting nothing for this quarter.";

export function sideOf(role: AuthUser["role"]): MessageSide {
  return role === "PARTNER" ? "partner" : "admin";
}

/** A partner sees and changes only its own reports; ADMIN and STAFF see every partner's. */
export function assertMayAccess(viewer: Actor, partnerId: number) {
  if (viewer.role === "PARTNER" && viewer.partnerId !== partnerId) throw new WorkflowError(NOT_AUTHORIZED, 403);
}

/**
 * Whose report a save may write, checked before anything else is read: a partner only its own,
 * STAFF none. The partner must exist (404); a partner saving its own report is not read again:
 * its signed-in account names it. Returns the quarter the save names.
 */
export async function saveTarget(actor: Actor, partnerId: number, quarterId: number): Promise<Quarter> {
  assertMayAccess(actor, partnerId);
  if (actor.role === "STAFF") throw new WorkflowError(WORKFLOW_REFUSALS.staff, 403);
  if (actor.role !== "PARTNER" || actor.partnerId !== partnerId) await getPartner(partnerId);
  return getQuarterById(quarterId);
}

async function getPartner(partnerId: number) {
  if (!Number.isSafeInteger(partnerId) || partnerId <= 0) throw new WorkflowError(PARTNER_NOT_FOUND, 404);
  const [partner] = await db.select({ id: partners.id, companyName: partners.companyName }).from(partners).where(eq(partners.id, partnerId));
  if (!partner) throw new WorkflowError(PARTNER_NOT_FOUND, 404);
  return partner;
}

const isOpenOrEarlier = (quarter: Pick<Quarter, "year" | "quarter">) => quarterIndex(quarter) <= quarterIndex(openQuarterRef());

/** The open quarter, or the named one up to the open quarter (a later or unknown one is not found). */
export async function resolveQuarter(quarterName: string | null | undefined): Promise<Quarter> {
  if (!quarterName) return getOpenQuarter();
  const ref = parseQuarterName(quarterName);
  if (!ref || !isOpenOrEarlier(ref)) throw new WorkflowError(QUARTER_NOT_FOUND, 404);
  const [quarter] = await db
    .select()
    .from(quarters)
    .where(and(eq(quarters.year, ref.year), eq(quarters.quarter, ref.quarter)));
  if (!quarter) throw new WorkflowError(QUARTER_NOT_FOUND, 404);
  return quarter;
}

/** The quarter `quarterName` names (the open quarter when none) among `listed`, if it is there; resolveQuarter says why not. */
function quarterIn(listed: readonly Quarter[], quarterName: string | null | undefined): Quarter | undefined {
  const ref = quarterName ? parseQuarterName(quarterName) : openQuarterRef();
  return ref ? listed.find((quarter) => quarter.year === ref.year && quarter.quarter === ref.quarter) : undefined;
}

export async function getQuarterById(quarterId: number): Promise<Quarter> {
  if (!Number.isSafeInteger(quarterId) || quarterId <= 0) throw new WorkflowError(QUARTER_NOT_FOUND, 404);
  const [quarter] = await db.select().from(quarters).where(eq(quarters.id, quarterId));
  if (!quarter || !isOpenOrEarlier(quarter)) throw new WorkflowError(QUARTER_NOT_FOUND, 404);
  return quarter;
}

export async function findReport(partnerId: number, quarterId: number, type: ReportTypeKey) {
  const [report] = await db
    // With its comments on rows and cells counted: a screen reads them only when there are some.
    .select({ ...getTableColumns(reports), threadCount: sql<number>`(select count(*) from ${reportThreads} t where t.report_id = ${reports}.id)::int` })
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, type)));
  return report;
}

/**
 * The report time the status line shows: the submission time when Submitted or Resubmitted,
 * the decision time when Approved or Rejected, the last save when Saved (a draft has no
 * decision; a reopened report's decision no longer stands).
 */
function statusTime(report: Pick<typeof reports.$inferSelect, "status" | "submittedAt" | "decidedAt" | "savedAt">): Date | null {
  if (report.status === "Submitted" || report.status === "Resubmitted") return report.submittedAt;
  if (report.status === "Saved") return report.savedAt;
  return report.decidedAt;
}

export interface QuarterOption {
  id: number;
  name: string;
  historic: boolean;
}

/** The screen's header: everything but the report's own rows and lists. */
export interface ReportFrameView {
  type: ReportTypeKey;
  partner: { id: number; companyName: string };
  quarter: QuarterOption;
  /** The open quarter first, then earlier quarters, newest first. */
  quarterDropdown: QuarterOption[];
  report: {
    id: number | null;
    /** null: not started. */
    status: ReportStatus | null;
    /** 0 when there is no report yet; a save carries it back. */
    version: number;
    submittedAt: Date | null;
    decidedAt: Date | null;
    isLate: boolean;
    isEmpty: boolean;
    /** Its comments on rows and cells, open or resolved. */
    threadCount: number;
  };
  /** 'Report Status: {status} on {at}' ('Do MMM YYYY, hh:mm A'); null status: not started. */
  statusLine: { status: ReportStatus | null; at: Date | null };
  /** What the viewer may do, and why not (a translation key) where it may not. */
  permissions: WorkflowPermissions;
  canEditRows: boolean;
  unreadMessageCount: number;
  messages: Awaited<ReturnType<typeof listReportMessages>>["messages"];
  pendingProductCount: number;
}

/** Which report a screen shows: the partner's, in the quarter named (the open quarter when none), for the viewer. */
export interface ReportViewInput {
  viewer: Actor;
  partnerId: number;
  quarterName?: string | null;
}

/** The header of a report screen, for the viewer (a partner only for its own reports). */
export async function loadReportFrame({
  viewer,
  partnerId,
  quarterName,
  type,
  pendingVerifications,
}: ReportViewInput & {
  type: ReportTypeKey;
  /** Sales: product verifications that hold up a decision. */
  pendingVerifications?: (reportId: number) => Promise<number>;
}): Promise<ReportFrameView> {
  assertMayAccess(viewer, partnerId);
  const [partner, dropdown] = await Promise.all([getPartner(partnerId), listQuartersUpTo(openQuarterRef())]);
  const quarter = quarterIn(dropdown, quarterName) ?? (await resolveQuarter(quarterName));
  const historic = isHistoric(quarter);
  const report = await findReport(partnerId, quarter.id, type);

  const [{ messages, unread }, pending] = await Promise.all([
    report ? listReportMessages(report.id, sideOf(viewer.role)) : { messages: [], unread: 0 },
    report && pendingVerifications ? pendingVerifications(report.id) : 0,
  ]);

  const permissions = workflowPermissions({
    role: viewer.role,
    status: report?.status ?? null,
    historic,
    pendingVerifications: pending,
    submittedBefore: Boolean(report?.firstSubmittedAt),
  });

  return {
    type,
    partner,
    quarter: { id: quarter.id, name: quarter.name, historic },
    quarterDropdown: dropdown.reverse().map((q) => ({ id: q.id, name: q.name, historic: isHistoric(q) })),
    report: {
      id: report?.id ?? null,
      status: report?.status ?? null,
      version: report?.version ?? 0,
      submittedAt: report?.submittedAt ?? null,
      decidedAt: report?.decidedAt ?? null,
      isLate: report?.isLate ?? false,
      isEmpty: report?.isEmpty ?? false,
      threadCount: report?.threadCount ?? 0,
    },
    statusLine: { status: report?.status ?? null, at: report ? statusTime(report) : null },
    permissions,
    canEditRows: permissions.save,
    unreadMessageCount: unread,
    messages,
    pendingProductCount: pending,
  };
}

// ---------------------------------------------------------------- decisions and messages

export type DecisionAction = "approve" | "reject" | "reopen";

/** The admin approves, rejects or reopens a partner's report (comment required). */
export async function decideReport({
  actor,
  partnerId,
  quarterId,
  type,
  action,
  comment,
  requestId,
}: {
  actor: Actor;
  partnerId: number;
  quarterId: number;
  type: ReportTypeKey;
  action: DecisionAction;
  comment?: string | null;
  requestId?: string | null;
}): Promise<ReportActionResult & { message: string }> {
  assertMayAccess(actor, partnerId);
  await getPartner(partnerId);
  const quarter = await getQuarterById(quarterId);
  const result = await performReportAction({
    actor,
    key: { partnerId, quarterId, type },
    quarter,
    action,
    comment,
    requestId,
    queueMails: (tx, decided) => mailReportDecision(tx, decided, { decision: action, comment: comment?.trim() ?? "" }),
  });
  return { ...result, message: decisionMessage(action) };
}

export function decisionMessage(action: DecisionAction) {
  return action === "approve" ? "Report Approved!" : action === "reject" ? "Report Rejected!" : "Report reopened!";
}

/**
 * Opening the messages: marks them read for the viewer's side (partner or admin) and returns
 * the new unread count, 0. STAFF read without marking (they change nothing), so the count stays
 * what the administrators have not read.
 */
export async function markReportMessagesRead(
  viewer: Actor,
  partnerId: number,
  quarterId: number,
  type: ReportTypeKey,
): Promise<{ unreadMessageCount: number }> {
  assertMayAccess(viewer, partnerId);
  const report = await findReport(partnerId, quarterId, type);
  if (!report) return { unreadMessageCount: 0 };
  if (viewer.role === "STAFF") return { unreadMessageCount: await unreadMessageCount(report.id, "admin") };
  await markMessagesRead(report.id, sideOf(viewer.role));
  return { unreadMessageCount: 0 };
}

/** What a report's save asks of the frame: who, which report, what, and since which version. */
interface RowsActionInput {
  actor: Actor;
  partnerId: number;
  quarterId: number;
  /** The quarter as the save already read it. */
  quarter?: Quarter;
  action: "save" | "submit" | DecisionAction;
  comment?: string | null;
  expectedVersion?: number | null;
  requestId?: string | null;
}

/**
 * A report's rows written with its action and its mails in one transaction (the workflow decides):
 * `mail` says, once the rows are written, what a submission's receipt lists.
 */
export async function performRowsAction(
  type: ReportTypeKey,
  input: RowsActionInput,
  writeRows: NonNullable<ReportActionInput["writeRows"]>,
  mail: () => { rows: SubmittedRowsLine; nothingToReport: boolean },
): Promise<ReportActionResult> {
  const { actor, partnerId, quarterId, quarter, action, comment, expectedVersion, requestId } = input;
  return performReportAction({
    actor,
    key: { partnerId, quarterId, type },
    quarter,
    action,
    comment,
    expectedVersion,
    writeRows,
    requestId,
    queueMails: (tx, result) => mailAfterRowsAction(tx, result, { action, comment: comment?.trim() ?? "", ...mail() }),
  });
}
