import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { outbox, partners, reminders, reports, users } from "~/db/schema";
import { translatorFor } from "~/i18n/i18next.server";
import { formatDate } from "~/utils/dates";
import type { Toast } from "~/utils/toast.server";
import { appUrl } from "~/utils/env.server";
import { logger } from "~/utils/logger.server";
import { PARTNER_REPORT_PATHS, REPORT_TYPES, type ReportTypeKey } from "~/utils/reports";
import { writeAudit } from "./audit.server";
import { sendMail } from "./mail.server";
import { getOpenQuarter, type Quarter } from "./quarter.server";
import { getCutOffDate } from "./settings.server";

type Executor = Pick<typeof db, "select" | "insert" | "execute">;

export type ReminderKind = "manual" | "scheduled";

/** Why a partner got no reminder (returned to the caller, never dropped silently). */
export const SKIP_THROTTLED = "already reminded in the last hour";
export const SKIP_INACTIVE = "partner is inactive";
export const SKIP_UNKNOWN = "partner not found";
export const SKIP_ALREADY_SCHEDULED = "scheduled reminder already sent";
export const SKIP_DELIVERY_FAILED = "mail delivery failed";

export interface SkippedReminder {
  partnerId: number;
  reason: string;
}

export interface ReminderResult {
  sent: number[];
  skipped: SkippedReminder[];
}

export interface SendRemindersOptions {
  partnerIds: number[];
  reportType: ReportTypeKey;
  actorId: number | null;
  requestId?: string | null;
  kind: ReminderKind;
  /** Scheduled reminders only: "before-7", "after-1"…; each is sent once per partner, report type and quarter. */
  scheduleKey?: string;
  /** The quarter the reminder is about; default the open quarter. */
  quarter?: Quarter;
}

/** The report names as the mails and screens call them (i18n keys). */
export const REMINDER_REPORT_NAMES: Record<ReportTypeKey, string> = {
  pdt: "PDT",
  filing: "Filing Plans",
  sales: "Sales Report",
};

/** A report is done once submitted; missing, Saved and Rejected reports are still owed. */
export const OWED_STATUSES = ["Saved", "Rejected"] as const;

/** Active partners that still owe a report of this type for the quarter (default: the open quarter). */
export async function partnersOwing(
  reportType: ReportTypeKey,
  quarter?: Pick<Quarter, "id">,
  executor: Pick<typeof db, "select"> = db,
): Promise<number[]> {
  const quarterId = (quarter ?? (await getOpenQuarter())).id;
  const rows = await executor
    .select({ id: partners.id })
    .from(partners)
    .leftJoin(
      reports,
      and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarterId), eq(reports.type, reportType)),
    )
    .where(and(eq(partners.isActive, true), or(isNull(reports.id), inArray(reports.status, [...OWED_STATUSES]))))
    .orderBy(asc(partners.id));
  return rows.map((row) => row.id);
}

// ---------------------------------------------------------------- claiming

interface Claim {
  reminderId: number;
  partnerId: number;
}

/** Advisory lock namespace per report type: (namespace, partner id) serialises reminders of one partner and type. */
const LOCK_NAMESPACE = 72015100;

/**
 * Records the reminders about to be sent, inside the caller's transaction: the throttle check and
 * the insert happen under a per-partner advisory lock, so two administrators clicking at once (or
 * the scheduler at the same moment) send one mail, and a scheduled key is claimed only once.
 */
export async function claimReminders(
  tx: Executor,
  { partnerIds, reportType, actorId, kind, scheduleKey, quarter }: Omit<SendRemindersOptions, "requestId"> & { quarter: Quarter },
): Promise<{ claims: Claim[]; skipped: SkippedReminder[] }> {
  const ids = [...new Set(partnerIds.filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647))];
  const invalid = partnerIds.filter((id) => !ids.includes(id));
  const skipped: SkippedReminder[] = invalid.map((partnerId) => ({ partnerId, reason: SKIP_UNKNOWN }));
  const claims: Claim[] = [];
  if (!ids.length) return { claims, skipped };

  const found = await tx
    .select({ id: partners.id, isActive: partners.isActive })
    .from(partners)
    .where(inArray(partners.id, ids));
  const lockKey = LOCK_NAMESPACE + REPORT_TYPES.indexOf(reportType);

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
    await tx.execute(sql`select pg_advisory_xact_lock(${lockKey}::int, ${partnerId}::int)`);
    if (scheduleKey) {
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
      if (done) {
        skipped.push({ partnerId, reason: SKIP_ALREADY_SCHEDULED });
        continue;
      }
    }
    // At most one reminder per partner and report type an hour. A failed delivery does not count:
    // the administrator may try again at once.
    const [recent] = await tx
      .select({ id: reminders.id })
      .from(reminders)
      .leftJoin(outbox, eq(outbox.id, reminders.outboxId))
      .where(
        and(
          eq(reminders.partnerId, partnerId),
          eq(reminders.reportType, reportType),
          gt(reminders.createdAt, sql`now() - interval '1 hour'`),
          or(isNull(outbox.status), ne(outbox.status, "failed")),
        ),
      )
      .limit(1);
    if (recent) {
      skipped.push({ partnerId, reason: SKIP_THROTTLED });
      continue;
    }
    const [inserted] = await tx
      .insert(reminders)
      .values({ partnerId, reportType, quarterId: quarter.id, kind, scheduleKey: scheduleKey ?? null, createdBy: actorId })
      .onConflictDoNothing()
      .returning({ id: reminders.id });
    if (!inserted) {
      skipped.push({ partnerId, reason: SKIP_ALREADY_SCHEDULED });
      continue;
    }
    claims.push({ reminderId: inserted.id, partnerId });
  }
  return { claims, skipped };
}

// ---------------------------------------------------------------- mails

interface Recipient {
  partnerId: number;
  companyName: string;
  email: string;
  language: string;
  status: string | null;
}

/** Company, address and language (of the partner's login; the login with the partner's e-mail first). */
async function recipients(partnerIds: number[], reportType: ReportTypeKey, quarterId: number): Promise<Map<number, Recipient>> {
  if (!partnerIds.length) return new Map();
  const rows = await db
    .select({
      partnerId: partners.id,
      companyName: partners.companyName,
      email: partners.email,
      language: users.language,
      status: reports.status,
    })
    .from(partners)
    .leftJoin(users, and(eq(users.partnerId, partners.id), eq(users.role, "PARTNER")))
    .leftJoin(reports, and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarterId), eq(reports.type, reportType)))
    .where(inArray(partners.id, partnerIds))
    .orderBy(
      asc(partners.id),
      sql`case when lower(${users.email}) = lower(${partners.email}) then 0 else 1 end`,
      asc(users.id),
    );
  const byPartner = new Map<number, Recipient>();
  for (const row of rows) {
    if (byPartner.has(row.partnerId)) continue;
    byPartner.set(row.partnerId, { ...row, language: row.language ?? "en" });
  }
  return byPartner;
}

export interface ReminderMailContent {
  subject: string;
  text: string;
}

/** The reminder in the partner's language: report, quarter, status, cut-off date and a link to the report. */
export async function reminderMail(
  { language, companyName, status }: Pick<Recipient, "language" | "companyName" | "status">,
  { reportType, quarterName, cutOffDate }: { reportType: ReportTypeKey; quarterName: string; cutOffDate?: string | null },
): Promise<ReminderMailContent> {
  const t = await translatorFor(language);
  const report = t(REMINDER_REPORT_NAMES[reportType]);
  const link = `${appUrl()}${PARTNER_REPORT_PATHS[reportType]}`;
  const subject = t("Reminder: your {{report}} for {{quarter}} is due", { report, quarter: quarterName });
  const text = [
    t("Dear {{company}},", { company: companyName }),
    "",
    t("This is a reminder about your {{report}} for {{quarter}}.", { report, quarter: quarterName }),
    t("Current status: {{status}}", { status: t(status ?? "Not started") }),
    cutOffDate
      ? t("Please submit it by the report submission date: {{date}}.", { date: formatDate(cutOffDate, language) })
      : t("Please submit it as soon as possible."),
    "",
    t("Open the report:"),
    link,
    "",
    t("If you have submitted it in the meantime, please ignore this mail."),
  ].join("\n");
  return { subject, text };
}

async function deliver(
  claims: Claim[],
  { reportType, actorId, requestId, kind, scheduleKey, quarter }: SendRemindersOptions & { quarter: Quarter },
): Promise<ReminderResult> {
  const result: ReminderResult = { sent: [], skipped: [] };
  if (!claims.length) return result;
  const [people, cutOffDate] = await Promise.all([
    recipients(
      claims.map((claim) => claim.partnerId),
      reportType,
      quarter.id,
    ),
    getCutOffDate(),
  ]);
  for (const claim of claims) {
    const recipient = people.get(claim.partnerId)!;
    try {
      const content = await reminderMail(recipient, { reportType, quarterName: quarter.name, cutOffDate });
      const mail = await sendMail({
        kind: "reminder",
        to: recipient.email,
        subject: content.subject,
        text: content.text,
        partnerId: claim.partnerId,
        reportType,
      });
      await db.update(reminders).set({ outboxId: mail.id }).where(eq(reminders.id, claim.reminderId));
      await writeAudit({
        actorId,
        action: "reminder.send",
        entity: "partner",
        entityId: claim.partnerId,
        after: { reportType, kind, scheduleKey: scheduleKey ?? null, quarter: quarter.name, outboxId: mail.id, delivery: mail.status },
        requestId,
      });
      if (mail.status === "failed") result.skipped.push({ partnerId: claim.partnerId, reason: SKIP_DELIVERY_FAILED });
      else result.sent.push(claim.partnerId);
    } catch (error) {
      logger.error({ err: error, partnerId: claim.partnerId, reportType, kind }, "reminder could not be sent");
      result.skipped.push({ partnerId: claim.partnerId, reason: SKIP_DELIVERY_FAILED });
    }
  }
  return result;
}

/**
 * Mails a reminder about one report type to each of the given partners (decisions.md section 6).
 * Inactive and unknown partners, and partners reminded of this report in the last hour, are
 * returned as skipped with the reason. Every mail is recorded in the outbox.
 */
export async function sendReminders(options: SendRemindersOptions): Promise<ReminderResult> {
  const quarter = options.quarter ?? (await getOpenQuarter());
  const { claims, skipped } = await db.transaction((tx) => claimReminders(tx, { ...options, quarter }));
  return sendClaimed(claims, skipped, { ...options, quarter });
}

/** Sends what `claimReminders` recorded (after its transaction has committed). */
export async function sendClaimed(
  claims: Claim[],
  skipped: SkippedReminder[],
  options: SendRemindersOptions & { quarter: Quarter },
): Promise<ReminderResult> {
  const delivered = await deliver(claims, options);
  const result = { sent: delivered.sent, skipped: [...skipped, ...delivered.skipped] };
  // A scheduled pass that finds its reminders already sent is routine: not worth an info line every 15 minutes.
  const level = result.sent.length || options.kind === "manual" ? "info" : "debug";
  logger[level](
    { reportType: options.reportType, kind: options.kind, scheduleKey: options.scheduleKey, sent: result.sent, skipped: result.skipped },
    "reminders",
  );
  return result;
}

// ---------------------------------------------------------------- the administrator's message

/** The toast after a manual send: what was sent and, with a reason, what was not. */
export function reminderToast({ sent, skipped }: ReminderResult): Toast {
  const count = skipped.length;
  const reasons = new Set(skipped.map((skip) => skip.reason));
  const only = (reason: string) => reasons.size === 1 && reasons.has(reason);
  if (sent.length) {
    if (!count) return { type: "success", message: "Reminder sent!" };
    if (only(SKIP_THROTTLED))
      return { type: "success", message: "Reminder sent! {{count}} skipped: already reminded in the last hour.", values: { count } };
    if (only(SKIP_DELIVERY_FAILED))
      return { type: "error", message: "Reminder sent! {{count}} could not be delivered.", values: { count } };
    if ([...reasons].every((reason) => reason === SKIP_INACTIVE || reason === SKIP_UNKNOWN))
      return { type: "success", message: "Reminder sent! {{count}} skipped: partner inactive or not found.", values: { count } };
    return { type: "success", message: "Reminder sent! {{count}} skipped.", values: { count } };
  }
  if (only(SKIP_THROTTLED))
    return { type: "info", message: "No reminder sent: {{count}} skipped (already reminded in the last hour).", values: { count } };
  if (only(SKIP_DELIVERY_FAILED)) return { type: "error", message: "No reminder sent: the mail could not be delivered." };
  if ([...reasons].every((reason) => reason === SKIP_INACTIVE || reason === SKIP_UNKNOWN))
    return { type: "error", message: "No reminder sent: partner inactive or not found." };
  return { type: "info", message: "No reminder sent: {{count}} skipped.", values: { count } };
}
