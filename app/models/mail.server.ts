/**
 * Every mail is a row of the outbox and a delivery job, written in the transaction of the change
 * that causes it: a change that rolls back sends nothing, one that commits is always delivered.
 * The worker sends it over SMTP with retries (MAIL_RETRY); a mail given up is marked failed with
 * its error, for the administrators to see and send again.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { db, type Transaction } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { enqueueJob, MAIL_RETRY } from "~/jobs/queue.server";
import { logger, redactSecrets } from "~/utils/logger.server";
import { writeAudit } from "./audit.server";

interface Mail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  partnerId?: number | null;
  reportType?: (typeof outbox.$inferInsert)["reportType"];
  /** The submission whose proof (PDF) the mail carries: drawn when the mail is sent, from the snapshot. */
  attachmentSnapshotId?: number | null;
}

/** A file a mail carries, drawn when it is sent. */
interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** Draws the attachment of a mail that names a snapshot (the worker passes the proof of submission's); throws to have the attempt retried. */
type AttachmentOfSnapshot = (snapshotId: number) => Promise<MailAttachment>;

let transport: Transporter | undefined;
let transportUrl: string | undefined;

/**
 * nodemailer is loaded with the first mail sent: a server without SMTP never needs it. Its time
 * limits are shorter than the delivery job's, so a hanging server fails the attempt, which is retried.
 */
async function smtpTransport(): Promise<Transporter | undefined> {
  const url = process.env.SMTP_URL;
  if (!url) return undefined;
  if (!transport || transportUrl !== url) {
    const { default: nodemailer } = await import("nodemailer");
    // Settings in the URL's query (`?connectionTimeout=…`) take precedence over these.
    transport = nodemailer.createTransport({ url, connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 });
    transportUrl = url;
  }
  return transport;
}

function mailFrom() {
  return process.env.MAIL_FROM || "MPP Data Portal <no-reply@mpp-portal.local>";
}

/** Stores the mail and its delivery job in the caller's transaction; returns the outbox id. */
export async function enqueueMail(tx: Transaction, mail: Mail): Promise<number> {
  const [row] = await tx
    .insert(outbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      partnerId: mail.partnerId ?? null,
      reportType: mail.reportType ?? null,
      attachmentSnapshotId: mail.attachmentSnapshotId ?? null,
    })
    .returning({ id: outbox.id });
  await enqueueJob(tx, "mail-delivery", { mailId: row.id });
  logger.info({ mailId: row.id, to: mail.to, subject: redactSecrets(mail.subject) }, "mail queued");
  return row.id;
}

type DeliveryOutcome = "sent" | "already-sent" | "kept" | "missing";

/**
 * One delivery attempt of the worker. Without SMTP_URL the mail stays pending in the outbox (a
 * demo or a test reads it there). A failed attempt is counted and rethrown so the queue retries
 * it; on the last one (`finalAttempt`) the mail is marked failed. A mail that names a snapshot
 * carries its proof of submission, drawn by `attachmentOf` in the attempt: a drawing that fails
 * fails the attempt, which is retried like a refused SMTP delivery.
 */
export async function deliverMail(
  mailId: number,
  { finalAttempt, attachmentOf }: { finalAttempt: boolean; attachmentOf?: AttachmentOfSnapshot },
): Promise<DeliveryOutcome> {
  const [mail] = await db.select().from(outbox).where(eq(outbox.id, mailId));
  if (!mail) return "missing";
  if (mail.status === "sent") return "already-sent";
  const smtp = await smtpTransport();
  if (!smtp) {
    logger.info({ mailId, to: mail.toAddress, subject: redactSecrets(mail.subject) }, "mail stored in outbox (no SMTP_URL)");
    return "kept";
  }
  try {
    if (mail.attachmentSnapshotId !== null && !attachmentOf) throw new Error("this mail carries a proof of submission, and no renderer was given to draw it");
    const attachments = mail.attachmentSnapshotId !== null && attachmentOf ? [await attachmentOf(mail.attachmentSnapshotId)] : undefined;
    await smtp.sendMail({ from: mailFrom(), to: mail.toAddress, subject: mail.subject, text: mail.textBody, html: mail.htmlBody ?? undefined, attachments });
  } catch (error) {
    const message = redactSecrets(error instanceof Error ? error.message : String(error));
    await db
      .update(outbox)
      .set({ status: finalAttempt ? "failed" : "pending", attempts: sql`${outbox.attempts} + 1`, error: message })
      .where(eq(outbox.id, mailId));
    logger[finalAttempt ? "error" : "warn"]({ mailId, to: mail.toAddress, err: message, finalAttempt }, "mail delivery failed");
    throw new Error(message);
  }
  await db
    .update(outbox)
    .set({ status: "sent", sentAt: new Date(), attempts: sql`${outbox.attempts} + 1`, error: null })
    .where(eq(outbox.id, mailId));
  return "sent";
}

export interface UndeliveredMail {
  id: number;
  kind: string;
  toAddress: string;
  subject: string;
  attempts: number;
  error: string | null;
  createdAt: Date;
}

/** Mails given up after their attempts, newest first (the administrators' list). */
export async function listUndeliveredMails(limit = 50): Promise<UndeliveredMail[]> {
  return db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      toAddress: outbox.toAddress,
      subject: outbox.subject,
      attempts: outbox.attempts,
      error: outbox.error,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(eq(outbox.status, "failed"))
    .orderBy(desc(outbox.id))
    .limit(limit);
}

/** How many mails are given up (the list shows the newest only). */
export async function countUndeliveredMails(): Promise<number> {
  const [row] = await db.select({ count: count() }).from(outbox).where(eq(outbox.status, "failed"));
  return row.count;
}

/** Sends a given-up mail again: pending, with a new delivery job (in the caller's transaction `tx` when given). False when it was not failed. */
export async function retryMail(mailId: number, tx?: Transaction): Promise<boolean> {
  if (!tx) return db.transaction((own) => retryMail(mailId, own));
  const [row] = await tx
    .update(outbox)
    .set({ status: "pending", error: null })
    .where(and(eq(outbox.id, mailId), eq(outbox.status, "failed")))
    .returning({ id: outbox.id });
  if (!row) return false;
  await enqueueJob(tx, "mail-delivery", { mailId }, { retryLimit: MAIL_RETRY.retryLimit });
  return true;
}

/**
 * Send again, as an administrator asks: the mail, its new delivery job and the audit entry (with
 * the error it was given up with) in one transaction. False when it was not failed.
 */
export async function sendUndeliveredMailAgain(mailId: number, { actorId, requestId }: { actorId: number; requestId?: string | null }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [failed] = await tx
      .select({ attempts: outbox.attempts, error: outbox.error })
      .from(outbox)
      .where(and(eq(outbox.id, mailId), eq(outbox.status, "failed")))
      .for("update");
    if (!failed) return false;
    await retryMail(mailId, tx);
    await writeAudit(
      { actorId, action: "mail.retry", entity: "outbox", entityId: mailId, before: { status: "failed", ...failed }, after: { status: "pending" }, requestId },
      tx,
    );
    return true;
  });
}
