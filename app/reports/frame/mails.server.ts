/**
 * The mails of the report workflow, each in its reader's language: the partner's receipt and
 * the administrators' notice of a submission, the partner's notice of a decision (approve,
 * reject, reopen), and a new comment on a row to the other side. They are queued in the transaction of the action: an action that rolls back
 * mails nothing, and a mail that cannot be written rolls the action back.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Transaction } from "~/db/client.server";
import { partners, quarters, reports, users } from "~/db/schema";
import { translatorFor } from "~/i18n/i18next.server";
import { formatDateTime } from "~/utils/dates";
import { appUrl } from "~/utils/env.server";
import { REPORT_REGISTRY } from "~/reports/frame/registry";
import { enqueueMail } from "~/models/mail.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import type { ReportActionResult } from "./workflow.server";
import { placeText, threadAnchor, type ThreadView } from "./threads";
import type { ReportTypeKey } from "./registry";
import { openThreadsOf } from "./thread-list.server";

/** The report with its partner and quarter, as the mails name them. */
async function reportContext(tx: Transaction, reportId: number) {
  const [context] = await tx
    .select({
      type: reports.type,
      partnerId: reports.partnerId,
      companyName: partners.companyName,
      partnerEmail: partners.email,
      quarterName: quarters.name,
      status: reports.status,
      submittedAt: reports.submittedAt,
      decidedAt: reports.decidedAt,
      updatedAt: reports.updatedAt,
      isLate: reports.isLate,
    })
    .from(reports)
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(eq(reports.id, reportId));
  return context;
}

/** The language of the partner's login, the login with the partner's e-mail first. */
async function partnerLanguage(tx: Transaction, partnerId: number, partnerEmail: string): Promise<string> {
  const [login] = await tx
    .select({ language: users.language })
    .from(users)
    .where(and(eq(users.partnerId, partnerId), eq(users.role, "PARTNER")))
    .orderBy(sql`case when lower(${users.email}) = lower(${partnerEmail}) then 0 else 1 end`, asc(users.id))
    .limit(1);
  return login?.language ?? "en";
}

/** Blank lines kept only between paragraphs (the lines a mail leaves out are empty strings). */
function mailText(lines: string[]): string {
  return lines.filter((line, index, all) => line !== "" || (index > 0 && all[index - 1] !== "")).join("\n");
}

/** What a submission mail says of the rows: a translation key with its values. */
export interface SubmittedRowsLine {
  message: string;
  values: Record<string, string | number>;
}

/** How a report's mails name a thread's column: the report's label, else the column's key. */
const columnLabelOf = (type: ReportTypeKey) => REPORT_DECLARATIONS[type].columnLabel ?? ((_table: string, column: string) => column);

/** The active administrators, each with the language mails to them are written in. */
const activeAdmins = (tx: Transaction) =>
  tx
    .select({ email: users.email, language: users.language })
    .from(users)
    .where(and(eq(users.role, "ADMIN"), eq(users.isActive, true)))
    .orderBy(asc(users.id));

/** After a submission: the receipt to the partner, a notice to every active administrator. */
async function mailReportSubmission(
  tx: Transaction,
  result: ReportActionResult,
  { comment, rows, nothingToReport }: { comment: string; rows: SubmittedRowsLine; nothingToReport: boolean },
) {
  const context = await reportContext(tx, result.reportId);
  const admins = await activeAdmins(tx);

  const facts = {
    company: context.companyName,
    quarter: context.quarterName,
    sha256: result.snapshotSha256 ?? "",
    comment,
  };
  const describe = async (language: string, link: string, audience: "partner" | "admin") => {
    const t = await translatorFor(language);
    const report = t(REPORT_REGISTRY[context.type].labels.name);
    const text = mailText([
      audience === "partner"
        ? t("Dear {{company}},", { company: facts.company })
        : t("{{company}} submitted its {{report}} for {{quarter}}", { ...facts, report }),
      "",
      audience === "partner" ? t("We have received your {{report}} for {{quarter}}.", { ...facts, report }) : "",
      t("Status: {{status}}", { status: t(context.status) }),
      t("Submitted on: {{time}} (UTC)", { time: formatDateTime(context.submittedAt, language) }),
      t(rows.message, rows.values),
      nothingToReport ? t("Nothing to report this quarter") : "",
      audience === "admin" && context.isLate ? t("Submitted after the report submission date.") : "",
      t("Comment: {{comment}}", facts),
      t("Snapshot SHA-256: {{sha256}}", facts),
      audience === "partner" ? t("The SHA-256 identifies exactly the rows you submitted; please keep this receipt.") : "",
      audience === "partner" && result.snapshotId ? t("The attached PDF shows the rows you submitted.") : "",
      "",
      t("Open the report:"),
      link,
    ]);
    const subject =
      audience === "partner"
        ? t("Receipt: {{report}} for {{quarter}}", { ...facts, report })
        : t("{{company}} submitted its {{report}} for {{quarter}}", { ...facts, report });
    return { subject, text };
  };

  const language = await partnerLanguage(tx, context.partnerId, context.partnerEmail);
  const receipt = await describe(language, `${appUrl()}${REPORT_REGISTRY[context.type].partnerPath}`, "partner");
  // The receipt carries the proof of the submission (a PDF drawn from its snapshot when the mail is sent).
  await enqueueMail(tx, {
    kind: "report-receipt",
    to: context.partnerEmail,
    ...receipt,
    partnerId: context.partnerId,
    reportType: context.type,
    attachmentSnapshotId: result.snapshotId,
  });
  for (const admin of admins) {
    const notice = await describe(admin.language, `${appUrl()}${REPORT_REGISTRY[context.type].adminPath}/${context.partnerId}`, "admin");
    await enqueueMail(tx, { kind: "report-submitted", to: admin.email, ...notice, partnerId: context.partnerId, reportType: context.type });
  }
}

type ReportDecision = "approve" | "reject" | "reopen";

const DECISION_TEXTS: Record<ReportDecision, { subject: string; sentence: string }> = {
  approve: {
    subject: "Your {{report}} for {{quarter}} was approved",
    sentence: "Your {{report}} for {{quarter}} was approved.",
  },
  reject: {
    subject: "Your {{report}} for {{quarter}} was rejected",
    sentence: "Your {{report}} for {{quarter}} was rejected. Please correct it and submit it again.",
  },
  reopen: {
    subject: "Your {{report}} for {{quarter}} was reopened",
    sentence: "Your {{report}} for {{quarter}} was reopened: you can correct it and submit it again.",
  },
};

/**
 * The administrator's decision, mailed to the partner in its language: what was decided and when,
 * the comment, the SHA-256 of the rows judged (approve and reject), and a link to the report.
 */
export async function mailReportDecision(tx: Transaction, result: ReportActionResult, { decision, comment }: { decision: ReportDecision; comment: string }) {
  const context = await reportContext(tx, result.reportId);
  const language = await partnerLanguage(tx, context.partnerId, context.partnerEmail);
  const t = await translatorFor(language);
  const facts = {
    company: context.companyName,
    quarter: context.quarterName,
    report: t(REPORT_REGISTRY[context.type].labels.name),
    // A reopened report has no decision time any more: it was reopened when it was last updated.
    time: formatDateTime(decision === "reopen" ? context.updatedAt : context.decidedAt, language),
    comment,
    sha256: result.snapshotSha256 ?? "",
  };
  const texts = DECISION_TEXTS[decision];
  const threads = decision === "reject" ? await openThreadsOf(context.type, result.reportId, tx) : [];
  const columnLabel = columnLabelOf(context.type);
  const say = (key: string, values?: Record<string, string | number>) => t(key, values);
  const text = mailText([
    t("Dear {{company}},", facts),
    "",
    t(texts.sentence, facts),
    t("Status: {{status}}", { status: t(context.status) }),
    t("Decided on: {{time}} (UTC)", facts),
    t("Comment: {{comment}}", facts),
    result.snapshotSha256 ? t("Snapshot SHA-256: {{sha256}}", facts) : "",
    ...(threads.length
      ? [
          "",
          t("Open comments on rows ({{count}}):", { count: threads.length }),
          ...threads.map(
            (thread) =>
              `- ${placeText(thread, say, columnLabel)} (${thread.rowLabel}): ${thread.messages.map((message) => `${message.author}: ${message.body}`).join(" / ")}`,
          ),
        ]
      : []),
    "",
    t("Open the report:"),
    `${appUrl()}${REPORT_REGISTRY[context.type].partnerPath}`,
  ]);
  await enqueueMail(tx, {
    kind: `report-${decision}`,
    to: context.partnerEmail,
    subject: t(texts.subject, facts),
    text,
    partnerId: context.partnerId,
    reportType: context.type,
  });
}

/**
 * A new comment (a thread opened or answered), mailed to the other side in its reader's language:
 * the partner's to every active administrator, an administrator's to the partner. An
 * administrator's comment on a report awaiting their decision is not mailed: the decision's mail
 * lists the comments left open.
 */
export async function mailThreadPost(tx: Transaction, { reportId, thread, fromPartner }: { reportId: number; thread: ThreadView; fromPartner: boolean }) {
  const context = await reportContext(tx, reportId);
  if (!fromPartner && (context.status === "Submitted" || context.status === "Resubmitted")) return;
  const message = thread.messages[thread.messages.length - 1];
  const columnLabel = columnLabelOf(context.type);
  const describe = async (language: string, audience: "partner" | "admin", link: string) => {
    const t = await translatorFor(language);
    const facts = { company: context.companyName, quarter: context.quarterName, report: t(REPORT_REGISTRY[context.type].labels.name) };
    const say = (key: string, values?: Record<string, string | number>) => t(key, values);
    const subject =
      audience === "partner" ? t("New comment on your {{report}} for {{quarter}}", facts) : t("{{company}} commented on its {{report}} for {{quarter}}", facts);
    const text = mailText([
      audience === "partner" ? t("Dear {{company}},", facts) : subject,
      "",
      t("{{author}} wrote on {{place}} ({{row}}):", { author: message.author, place: placeText(thread, say, columnLabel), row: thread.rowLabel }),
      message.body,
      "",
      t("Open the report:"),
      `${link}#${threadAnchor(thread.id)}`,
    ]);
    return { subject, text, partnerId: context.partnerId, reportType: context.type };
  };
  if (fromPartner) {
    for (const admin of await activeAdmins(tx)) {
      const mail = await describe(admin.language, "admin", `${appUrl()}${REPORT_REGISTRY[context.type].adminPath}/${context.partnerId}`);
      await enqueueMail(tx, { kind: "report-comment", to: admin.email, ...mail });
    }
    return;
  }
  const language = await partnerLanguage(tx, context.partnerId, context.partnerEmail);
  await enqueueMail(tx, {
    kind: "report-comment",
    to: context.partnerEmail,
    ...(await describe(language, "partner", `${appUrl()}${REPORT_REGISTRY[context.type].partnerPath}`)),
  });
}

/**
 * The mails of a report action that wrote rows (a save, a submission, a decision with edits):
 * a submission's receipt and notice, or a decision's notice; a save mails nothing.
 */
export async function mailAfterRowsAction(
  tx: Transaction,
  result: ReportActionResult,
  {
    action,
    comment,
    rows,
    nothingToReport,
  }: { action: "save" | "submit" | ReportDecision; comment: string; rows: SubmittedRowsLine; nothingToReport: boolean },
) {
  if (action === "submit") await mailReportSubmission(tx, result, { comment, rows, nothingToReport });
  else if (action !== "save") await mailReportDecision(tx, result, { decision: action, comment });
}
