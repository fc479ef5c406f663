import { asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, outbox } from "~/db/schema";
import { enqueueMail } from "~/models/mail.server";
import { findUserByEmail } from "~/models/user.server";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_shell.admin.settings";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const ERROR = "connect ECONNREFUSED 127.0.0.1:25";

/** A mail the worker gave up after its attempts, as it leaves it in the outbox. */
async function failedMail(to = "partner2@example.org", subject = "Reminder: your Filing Plans for Q1 2026 is due") {
  const mailId = await db.transaction((tx) => enqueueMail(tx, { kind: "reminder", to, subject, text: "Please report" }));
  await db.update(outbox).set({ status: "failed", attempts: 11, error: ERROR }).where(eq(outbox.id, mailId));
  return mailId;
}

const mailRow = async (mailId: number) => (await db.select().from(outbox).where(eq(outbox.id, mailId)))[0];

/** The delivery jobs of one mail, as pg-boss keeps them, oldest first. */
async function deliveryJobs(mailId: number): Promise<{ name: string; data: unknown; state: string }[]> {
  const result = (await db.execute(
    sql`select name, data, state from pgboss.job where name = 'mail-delivery' and (data->>'mailId')::int = ${mailId} order by created_on, id`,
  )) as unknown as { rows: { name: string; data: unknown; state: string }[] } | { name: string; data: unknown; state: string }[];
  return Array.isArray(result) ? [...result] : result.rows;
}

const retryAudits = () => db.select().from(auditLog).where(eq(auditLog.action, "mail.retry")).orderBy(asc(auditLog.id));

const page = async (email: string) => runRoute(settingsLoader, buildRequest("/admin/settings", { cookie: await sessionCookieFor(email) }));
const sendAgain = async (email: string, mailId: number | string) =>
  runRoute(settingsAction, buildRequest("/admin/settings", { form: { intent: "retry-mail", mailId: String(mailId) }, cookie: await sessionCookieFor(email) }));
const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;

describe("settings page: undelivered mails", () => {
  it("ADMIN sees a failed mail with its error and sends it again: pending, error cleared, a new delivery job, an audit entry", async () => {
    const mailId = await failedMail();
    const before = await page("admin@example.org");
    expect(before.status).toBe(200);
    expect(before.data.undeliveredMails).toEqual([
      {
        id: mailId,
        kind: "reminder",
        toAddress: "partner2@example.org",
        subject: "Reminder: your Filing Plans for Q1 2026 is due",
        attempts: 11,
        error: ERROR,
        createdAt: expect.any(Date),
      },
    ]);
    expect(before.data.undeliveredTotal).toBe(1);
    expect(before.data.canEdit).toBe(true);
    const jobsBefore = await deliveryJobs(mailId);

    const result = await sendAgain("admin@example.org", mailId);
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/settings");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Mail queued again." });

    expect(await mailRow(mailId)).toMatchObject({ status: "pending", error: null, attempts: 11 });
    const jobs = await deliveryJobs(mailId);
    expect(jobs).toHaveLength(jobsBefore.length + 1);
    expect(jobs.at(-1)).toMatchObject({ name: "mail-delivery", data: { mailId }, state: "created" });

    const admin = await findUserByEmail("admin@example.org");
    expect(await retryAudits()).toEqual([
      expect.objectContaining({
        actorId: admin!.id,
        entity: "outbox",
        entityId: String(mailId),
        before: { status: "failed", attempts: 11, error: ERROR },
        after: { status: "pending" },
        requestId: "test-request",
      }),
    ]);

    const after = await page("admin@example.org");
    expect(after.data.undeliveredMails).toEqual([]);
    expect(after.data.undeliveredTotal).toBe(0);
  });

  it("a mail that is not failed (sent again already, delivered, unknown) gives an error toast and queues nothing", async () => {
    const retried = await failedMail();
    expect((await sendAgain("admin@example.org", retried)).status).toBe(302);
    const sent = await db.transaction((tx) => enqueueMail(tx, { kind: "reminder", to: "partner3@example.org", subject: "Reminder", text: "Please report" }));
    await db.update(outbox).set({ status: "sent", sentAt: new Date(), attempts: 1 }).where(eq(outbox.id, sent));
    const jobs = { retried: (await deliveryJobs(retried)).length, sent: (await deliveryJobs(sent)).length };

    for (const mailId of [retried, sent, 999_999]) {
      const result = await sendAgain("admin@example.org", mailId);
      expect(result.status, String(mailId)).toBe(302);
      expect(result.location).toBe("/admin/settings");
      expect(await toastOf(result)).toMatchObject({ type: "error", message: "This mail is not waiting to be sent again." });
    }
    expect((await deliveryJobs(retried)).length).toBe(jobs.retried);
    expect((await deliveryJobs(sent)).length).toBe(jobs.sent);
    expect(await mailRow(sent)).toMatchObject({ status: "sent" });
    expect(await retryAudits()).toHaveLength(1);
  });

  it("a post without a mail id is a bad request", async () => {
    for (const mailId of ["", "abc", "-1", "1.5", "99999999999"]) {
      expect((await sendAgain("admin@example.org", mailId)).status, mailId).toBe(400);
    }
  });

  it("STAFF sees the failed mail without the right to send it: its post is refused with 403 and nothing changes", async () => {
    const mailId = await failedMail();
    const staff = await page("staff@example.org");
    expect(staff.status).toBe(200);
    expect(staff.data.canEdit).toBe(false);
    expect(staff.data.undeliveredMails).toEqual([expect.objectContaining({ id: mailId, error: ERROR })]);
    const jobsBefore = await deliveryJobs(mailId);

    expect((await sendAgain("staff@example.org", mailId)).status).toBe(403);
    expect(await mailRow(mailId)).toMatchObject({ status: "failed", error: ERROR, attempts: 11 });
    expect(await deliveryJobs(mailId)).toEqual(jobsBefore);
    expect(await retryAudits()).toEqual([]);
  });

  it("PARTNER gets 403 on the page and on the post", async () => {
    const mailId = await failedMail();
    expect((await page("partner1@example.org")).status).toBe(403);
    expect((await sendAgain("partner1@example.org", mailId)).status).toBe(403);
    expect(await mailRow(mailId)).toMatchObject({ status: "failed", error: ERROR });
  });

  it("lists the newest 50 first and counts them all; none: an empty list", async () => {
    expect((await page("admin@example.org")).data).toMatchObject({ undeliveredMails: [], undeliveredTotal: 0 });
    const ids: number[] = [];
    for (let index = 0; index < 52; index++) ids.push(await failedMail(`partner${index}@example.org`, `Mail ${index}`));
    const { data } = await page("admin@example.org");
    expect(data.undeliveredTotal).toBe(52);
    expect(data.undeliveredMails.map((mail: { id: number }) => mail.id)).toEqual([...ids].reverse().slice(0, 50));
  });
});
