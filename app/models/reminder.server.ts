import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { outbox, partners, reminders, reports, users } from "~/db/schema";
import { translatorFor } from "~/i18n/i18next.server";
import { formatDate } from "~/utils/dates";
import type { Toast } from "~/utils/toast.server";
import { appUrl } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { owedReportTypes, REPORT_REGISTRY, REPORT_TYPES, type ReportState, type ReportTypeKey } from "~/reports/frame/registry";
import { writeAudit } from "./audit.server";
import { enqueueMail } from "./mail.server";
import { getOpenQuarter, type Quarter } from "./quarter.server";
import { getCutOffDate } from "./settings.server";

type Executor = Pick<typeof db, "select" | "insert" | "execute">;

type ReminderKind = "manual" | "scheduled";

/** Why a partner got no reminder (returned to the caller, never dropped silently). */
const SKIP_THROTTLED = "already reminded in the last hour";
export const SKIP_INACTIVE = "partner is inactive";
export const SKIP_UNKNOWN = "partner not found";
export const SKIP_NOT_OWED = "report already submitted or approved";
const SKIP_ALREADY_SCHEDULED = "scheduled reminder already sent";

export interface SkippedReminder {
  partnerId: number;
  reason: string;
}

export interface ReminderResult {
  sent: number[];
  skipped: SkippedReminder[];
}

interface SendRemindersOptions {
  partnerIds: number[];
  /** The report to remind of; without it each partner is reminded, in one mail, of every report it owes. */
  reportType?: ReportTypeKey;
  actorId: number | null;
  requestId?: string | null;
  kind: ReminderKind;
  /** Scheduled reminders only: "before-7", "after-1"…; each is sent once per partner, report type and quarter. */
  scheduleKey?: string;
  /** The quarter the reminder is about; default the open quarter. */
  quarter?: Quarter;
}

/**
 * What each active partner still owes for the quarter (the rule is `owedReportTypes`): partner id →
 * report types, in partner id order; partners that owe nothing are left out. `partnerIds` narrows it.
 */
export async function owedReports(
  quarter: Pick<Quarter, "id">,
  { partnerIds, executor = db }: { partnerIds?: number[]; executor?: Pick<typeof db, "select"> } = {},
): Promise<Map<number, ReportTypeKey[]>> {
  const rows = await executor
    .select({ partnerId: partners.id, type: reports.type, status: reports.status })
    .from(partners)
    .leftJoin(reports, and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarter.id)))
    .where(and(eq(partners.isActive, true), partnerIds ? inArray(partners.id, partnerIds) : undefined))
    .orderBy(asc(partners.id));
  const statuses = new Map<number, Record<ReportTypeKey, ReportState>>();
  for (const row of rows) {
    const partner = statuses.get(row.partnerId) ?? { pdt: "not started", filing: "not started", sales: "not started" };
    if (row.type && row.status) partner[row.type] = row.status;
    statuses.set(row.partnerId, partner);
  }
  const owed = new Map<number, ReportTypeKey[]>();
  for (const [partnerId, partner] of statuses) {
    const types = owedReportTypes(partner);
    if (types.length) owed.set(partnerId, types);
  }
  return owed;
}

// ---------------------------------------------------------------- claiming

interface Claim {
  partnerId: number;
  reportTypes: ReportTypeKey[];
  reminderIds: number[];
}

/** Advisory lock namespace: (namespace, partner id) serialises the reminders of one partner. */
const LOCK_NAMESPACE = 72015100;

/**
 * Records the reminders about to be sent, inside the caller's transaction: for each partner, the
 * reports asked for that it still owes, less those reminded in the last hour (or, for a scheduled
 * key, already sent). The checks and the inserts happen under a per-partner advisory lock, so two
 * administrators clicking at once (or the scheduler at the same moment) send one mail.
 */
async function claimReminders(
  tx: Executor,
  { partnerIds, reportType, actorId, kind, scheduleKey, quarter }: Omit<SendRemindersOptions, "requestId"> & { quarter: Quarter },
): Promise<{ claims: Claim[]; skipped: SkippedReminder[] }> {
  const ids = [...new Set(partnerIds.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647))];
  const invalid = partnerIds.filter((id) => !ids.includes(id));
  const skipped: SkippedReminder[] = invalid.map((partnerId) => ({ partnerId, reason: SKIP_UNKNOWN }));
  const claims: Claim[] = [];
  if (!ids.length) return { claims, skipped };

  const found = await tx.select({ id: partners.id, isActive: partners.isActive }).from(partners).where(inArray(partners.id, ids));
  const asked = reportType ? [reportType] : REPORT_TYPES;

  // Ascending ids: every transaction takes its locks in the same order.
  for (const partnerId of [...ids].sort((a, b) => a - b)) {
    const partner = found.find((row) => row.id === partnerId);
    if (!partner) {
      skipped.push({ partnerId, reason: SKIP_UNKNOWN });
      continue;
    }
    if (!partner.isActive) {
      skipped.push({ partnerId, reason: SKIP_INACTIVE });
      continue;
    }
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}::int, ${partnerId}::int)`);
    const owed = (await owedReports(quarter, { partnerIds: [partnerId], executor: tx })).get(partnerId) ?? [];
    const due = asked.filter((type) => owed.includes(type));
    if (!due.length) {
      skipped.push({ partnerId, reason: SKIP_NOT_OWED });
      continue;
    }
    const claim: Claim = { partnerId, reportTypes: [], reminderIds: [] };
    let reason = SKIP_ALREADY_SCHEDULED;
    for (const type of due) {
      if (scheduleKey && (await scheduledAlready(tx, { partnerId, reportType: type, quarter, scheduleKey }))) continue;
      if (await remindedLastHour(tx, partnerId, type)) {
        reason = SKIP_THROTTLED;
        continue;
      }
      const [inserted] = await tx
        .insert(reminders)
        .values({ partnerId, reportType: type, quarterId: quarter.id, kind, scheduleKey: scheduleKey ?? null, createdBy: actorId })
        .onConflictDoNothing()
        .returning({ id: reminders.id });
      if (!inserted) continue;
      claim.reportTypes.push(type);
      claim.reminderIds.push(inserted.id);
    }
    if (claim.reportTypes.length) claims.push(claim);
    else skipped.push({ partnerId, reason });
  }
  return { claims, skipped };
}

async function scheduledAlready(
  tx: Executor,
  { partnerId, reportType, quarter, scheduleKey }: { partnerId: number; reportType: ReportTypeKey; quarter: Quarter; scheduleKey: string },
) {
  const [done] = await tx
    .select({ id: reminders.id })
    .from(reminders)
    .where(
      and(
        eq(reminders.partnerId, partnerId),
        eq(reminders.reportType, reportType),
        eq(reminders.quarterId, quarter.id),
        eq(reminders.scheduleKey, scheduleKey),
      ),
    )
    .limit(1);
  return Boolean(done);
}

/**
 * At most one reminder per partner and report type an hour: the reminders that hold back another
 * (read with their outbox row). A failed delivery does not count: the administrator may try again at once.
 */
const remindedWithinTheHour = () => and(gt(reminders.createdAt, sql`now() - interval '1 hour'`), or(isNull(outbox.status), ne(outbox.status, "failed")));

async function remindedLastHour(tx: Executor, partnerId: number, reportType: ReportTypeKey) {
  const [recent] = await tx
    .select({ id: reminders.id })
    .from(reminders)
    .leftJoin(outbox, eq(outbox.id, reminders.outboxId))
    .where(and(eq(reminders.partnerId, partnerId), eq(reminders.reportType, reportType), remindedWithinTheHour()))
    .limit(1);
  return Boolean(recent);
}

// ---------------------------------------------------------------- mails

interface Recipient {
  partnerId: number;
  companyName: string;
  email: string;
  language: string;
  statuses: Partial<Record<ReportTypeKey, string>>;
}

/** Company, address, language (of the partner's login; the login with the partner's e-mail first) and report states. */
async function recipients(tx: Transaction, partnerIds: number[], quarterId: number): Promise<Map<number, Recipient>> {
  if (!partnerIds.length) return new Map();
  const rows = await tx
    .select({
      partnerId: partners.id,
      companyName: partners.companyName,
      email: partners.email,
      language: users.language,
    })
    .from(partners)
    .leftJoin(users, and(eq(users.partnerId, partners.id), eq(users.role, "PARTNER")))
    .where(inArray(partners.id, partnerIds))
    .orderBy(asc(partners.id), sql`case when lower(${users.email}) = lower(${partners.email}) then 0 else 1 end`, asc(users.id));
  const states = await tx
    .select({ partnerId: reports.partnerId, type: reports.type, status: reports.status })
    .from(reports)
    .where(and(inArray(reports.partnerId, partnerIds), eq(reports.quarterId, quarterId)));
  const byPartner = new Map<number, Recipient>();
  for (const row of rows) {
    if (byPartner.has(row.partnerId)) continue;
    const statuses = Object.fromEntries(states.filter((state) => state.partnerId === row.partnerId).map((state) => [state.type, state.status]));
    byPartner.set(row.partnerId, { ...row, language: row.language ?? "en", statuses });
  }
  return byPartner;
}

interface ReminderMailContent {
  subject: string;
  text: string;
}

/**
 * The reminder in the partner's language: for one report its name, status and link; for several a
 * list of them. Then the quarter and the cut-off date.
 */
async function reminderMail(
  { language, companyName, statuses }: Pick<Recipient, "language" | "companyName" | "statuses">,
  { reportTypes, quarterName, cutOffDate }: { reportTypes: ReportTypeKey[]; quarterName: string; cutOffDate?: string | null },
): Promise<ReminderMailContent> {
  const t = await translatorFor(language);
  const reportName = (type: ReportTypeKey) => t(REPORT_REGISTRY[type].labels.status);
  const statusOf = (type: ReportTypeKey) => t(statuses[type] ?? "Not started");
  const linkOf = (type: ReportTypeKey) => `${appUrl()}${REPORT_REGISTRY[type].partnerPath}`;
  const quarter = quarterName;
  const date = cutOffDate ? formatDate(cutOffDate, language) : null;

  if (reportTypes.length === 1) {
    const [type] = reportTypes;
    const report = reportName(type);
    return {
      subject: t("Reminder: your {{report}} for {{quarter}} is due", { report, quarter }),
      text: [
        t("Dear {{company}},", { company: companyName }),
        "",
        t("This is a reminder about your {{report}} for {{quarter}}.", { report, quarter }),
        t("Current status: {{status}}", { status: statusOf(type) }),
        date ? t("Please submit it by the report submission date: {{date}}.", { date }) : t("Please submit it as soon as possible."),
        "",
        t("Open the report:"),
        linkOf(type),
        "",
        t("If you have submitted it in the meantime, please ignore this mail."),
      ].join("\n"),
    };
  }
  return {
    subject: t("Reminder: your reports for {{quarter}} are due", { quarter }),
    text: [
      t("Dear {{company}},", { company: companyName }),
      "",
      t("This is a reminder about your reports for {{quarter}} that are still to be submitted:", { quarter }),
      ...reportTypes.flatMap((type) => ["", `- ${reportName(type)}: ${statusOf(type)}`, `  ${linkOf(type)}`]),
      "",
      date ? t("Please submit them by the report submission date: {{date}}.", { date }) : t("Please submit them as soon as possible."),
      "",
      t("If you have submitted them in the meantime, please ignore this mail."),
    ].join("\n"),
  };
}

/**
 * Queues the mail of each claim in the claiming transaction, each linked to its reminder rows and
 * audited: a claim is never left without its mail, nor a mail without its claim.
 */
async function queueReminderMails(
  tx: Transaction,
  claims: Claim[],
  { actorId, requestId, kind, scheduleKey, quarter, cutOffDate }: SendRemindersOptions & { quarter: Quarter; cutOffDate: string | null },
): Promise<number[]> {
  if (!claims.length) return [];
  const people = await recipients(
    tx,
    claims.map((claim) => claim.partnerId),
    quarter.id,
  );
  for (const { partnerId, reportTypes, reminderIds } of claims) {
    const recipient = people.get(partnerId)!;
    const content = await reminderMail(recipient, { reportTypes, quarterName: quarter.name, cutOffDate });
    const mailId = await enqueueMail(tx, {
      kind: "reminder",
      to: recipient.email,
      subject: content.subject,
      text: content.text,
      partnerId,
      reportType: reportTypes.length === 1 ? reportTypes[0] : null,
    });
    await tx.update(reminders).set({ outboxId: mailId }).where(inArray(reminders.id, reminderIds));
    await writeAudit(
      {
        actorId,
        action: "reminder.send",
        entity: "partner",
        entityId: partnerId,
        after: { reportTypes, kind, scheduleKey: scheduleKey ?? null, quarter: quarter.name, outboxId: mailId },
        requestId,
      },
      tx,
    );
  }
  return claims.map((claim) => claim.partnerId);
}

/**
 * Claims and queues, in one transaction, the reminders of each of the given partners
 * (decisions.md section 6): of `reportType`, or without it of every report the partner owes, in
 * one mail. Reports already submitted or approved are not reminded; inactive and unknown
 * partners, and reports reminded of in the last hour, are returned as skipped with the reason.
 */
export async function sendReminders(options: SendRemindersOptions): Promise<ReminderResult> {
  const quarter = options.quarter ?? (await getOpenQuarter());
  // Read before the transaction: the embedded database has one connection, held by the transaction.
  const cutOffDate = await getCutOffDate();
  const result = await db.transaction((tx) => remindInTransaction(tx, { ...options, quarter, cutOffDate: cutOffDate ?? null }));
  logReminders(options, result);
  return result;
}

/** Claims the reminders and queues their mails in the caller's transaction (the scheduler's, under its lock). */
export async function remindInTransaction(
  tx: Transaction,
  options: SendRemindersOptions & { quarter: Quarter; cutOffDate: string | null },
): Promise<ReminderResult> {
  const { claims, skipped } = await claimReminders(tx, options);
  return { sent: await queueReminderMails(tx, claims, options), skipped };
}

export function logReminders(options: Pick<SendRemindersOptions, "reportType" | "kind" | "scheduleKey">, result: ReminderResult) {
  // A scheduled pass that finds its reminders already sent is routine: not worth an info line every 15 minutes.
  const level = result.sent.length || options.kind === "manual" ? "info" : "debug";
  logger[level](
    { reportType: options.reportType ?? "owed", kind: options.kind, scheduleKey: options.scheduleKey, sent: result.sent, skipped: result.skipped },
    "reminders",
  );
}

/** What "Remind everyone" would mail now: how many partners, about how many reports. */
export interface EveryoneOwing {
  partners: number;
  reports: number;
}

/**
 * The numbers the administrator confirms before reminding everyone, by the sending's own rules
 * (nothing is sent): the reports each active partner owes, less those reminded of in the last hour.
 */
export async function countEveryoneOwing(): Promise<EveryoneOwing> {
  const owed = await owedReports(await getOpenQuarter());
  if (!owed.size) return { partners: 0, reports: 0 };
  const recent = await db
    .selectDistinct({ partnerId: reminders.partnerId, reportType: reminders.reportType })
    .from(reminders)
    .leftJoin(outbox, eq(outbox.id, reminders.outboxId))
    .where(and(inArray(reminders.partnerId, [...owed.keys()]), remindedWithinTheHour()));
  const heldBack = new Set(recent.map((reminder) => `${reminder.partnerId} ${reminder.reportType}`));
  const due = [...owed].map(([partnerId, types]) => types.filter((type) => !heldBack.has(`${partnerId} ${type}`)).length).filter(Boolean);
  return { partners: due.length, reports: due.reduce((sum, count) => sum + count, 0) };
}

/** Reminds every active partner that owes a report of the open quarter of what it owes: one mail each. */
export async function remindEveryoneOwing({ actorId, requestId }: { actorId: number; requestId?: string | null }): Promise<ReminderResult> {
  const quarter = await getOpenQuarter();
  const owing = [...(await owedReports(quarter)).keys()];
  if (!owing.length) return { sent: [], skipped: [] };
  return sendReminders({ partnerIds: owing, actorId, requestId, kind: "manual", quarter });
}

// ---------------------------------------------------------------- the administrator's message

/** The toast after a manual send: what was sent and, with a reason, what was not. */
export function reminderToast({ sent, skipped }: ReminderResult): Toast {
  const count = skipped.length;
  const reasons = new Set(skipped.map((skip) => skip.reason));
  const only = (reason: string) => reasons.size === 1 && reasons.has(reason);
  if (sent.length) {
    if (!count) return { type: "success", message: "Reminder sent!" };
    if (only(SKIP_THROTTLED)) return { type: "success", message: "Reminder sent! {{count}} skipped: already reminded in the last hour.", values: { count } };
    if (only(SKIP_NOT_OWED)) return { type: "success", message: "Reminder sent! {{count}} skipped: report already submitted or approved.", values: { count } };
    if ([...reasons].every((reason) => reason === SKIP_INACTIVE || reason === SKIP_UNKNOWN))
      return { type: "success", message: "Reminder sent! {{count}} skipped: partner inactive or not found.", values: { count } };
    return { type: "success", message: "Reminder sent! {{count}} skipped.", values: { count } };
  }
  if (!count) return { type: "info", message: "No reminder sent: no partner owes a report of the open quarter." };
  if (only(SKIP_THROTTLED)) return { type: "info", message: "No reminder sent: {{count}} skipped (already reminded in the last hour).", values: { count } };
  if (only(SKIP_NOT_OWED)) return { type: "error", message: "No reminder sent: the report has already been submitted or approved." };
  if ([...reasons].every((reason) => reason === SKIP_INACTIVE || reason === SKIP_UNKNOWN))
    return { type: "error", message: "No reminder sent: partner inactive or not found." };
  return { type: "info", message: "No reminder sent: {{count}} skipped.", values: { count } };
}
