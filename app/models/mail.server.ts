import { eq, sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { db } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { logger } from "~/utils/logger.server";

export interface Mail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  partnerId?: number | null;
  reportType?: (typeof outbox.$inferInsert)["reportType"];
}

let transport: Transporter | undefined;
let transportUrl: string | undefined;

/** nodemailer is loaded with the first mail sent: a server without SMTP never needs it. */
async function smtpTransport(): Promise<Transporter | undefined> {
  const url = process.env.SMTP_URL;
  if (!url) return undefined;
  if (!transport || transportUrl !== url) {
    const { default: nodemailer } = await import("nodemailer");
    transport = nodemailer.createTransport(url);
    transportUrl = url;
  }
  return transport;
}

export function mailFrom() {
  return process.env.MAIL_FROM || "MPP Data Portal <no-reply@mpp-portal.local>";
}

/**
 * Every mail is stored in the outbox first. With SMTP_URL it is sent at once and marked sent
 * or failed; without it stays pending and only its recipient and subject are logged.
 */
export async function sendMail(mail: Mail): Promise<{ id: number; status: "pending" | "sent" | "failed" }> {
  const [row] = await db
    .insert(outbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      partnerId: mail.partnerId ?? null,
      reportType: mail.reportType ?? null,
    })
    .returning({ id: outbox.id });

  const smtp = await smtpTransport();
  if (!smtp) {
    // A mail holds set-password links: only development logs them, to follow them in a demo.
    const links = process.env.NODE_ENV === "development" ? { links: mail.text.match(/https?:\/\/\S+/g) ?? [] } : {};
    logger.info({ mailId: row.id, to: mail.to, subject: mail.subject, ...links }, "mail stored in outbox (no SMTP_URL)");
    return { id: row.id, status: "pending" };
  }
  try {
    await smtp.sendMail({ from: mailFrom(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    await db
      .update(outbox)
      .set({ status: "sent", sentAt: new Date(), attempts: sql`${outbox.attempts} + 1`, error: null })
      .where(eq(outbox.id, row.id));
    return { id: row.id, status: "sent" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error({ mailId: row.id, to: mail.to, err: message }, "mail delivery failed");
    await db
      .update(outbox)
      .set({ status: "failed", attempts: sql`${outbox.attempts} + 1`, error: message })
      .where(eq(outbox.id, row.id));
    return { id: row.id, status: "failed" };
  }
}
