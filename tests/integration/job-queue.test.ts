import net from "node:net";
import { and, asc, eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, partners, passwordTokens, rateLimits, reports, sessions, users } from "~/db/schema";
import { purgeExpired, startWorker } from "~/jobs/worker.server";
import { enqueueMail, listUndeliveredMails, retryMail } from "~/models/mail.server";
import { createPasswordToken } from "~/models/password-token.server";
import { decideReport } from "~/reports/frame/screen.server";
import { performReportAction, WorkflowError } from "~/reports/frame/workflow.server";
import { sessionStorage } from "~/models/session.server";
import { getAuthUser } from "~/models/user.server";

const mails = () => db.select().from(outbox).orderBy(asc(outbox.id));

/** The delivery jobs queued, as pg-boss keeps them. */
async function deliveryJobs(): Promise<{ mailId: number; state: string }[]> {
  const result = (await db.execute(sql`select data, state from pgboss.job where name = 'mail-delivery' order by created_on`)) as unknown as
    { rows: { data: { mailId: number }; state: string }[] } | { data: { mailId: number }; state: string }[];
  const rows = Array.isArray(result) ? result : result.rows;
  return rows.map((row) => ({ mailId: row.data.mailId, state: row.state }));
}

async function actorFor(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}

/** A Submitted report of the demo seed, for a decision. */
async function submittedReport() {
  const [report] = await db.select().from(reports).where(eq(reports.status, "Submitted")).orderBy(asc(reports.id)).limit(1);
  return report;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** An SMTP server on a free port that refuses the first `refusals` messages with a temporary error. */
async function mailbox({ refusals = 0 } = {}) {
  const received: string[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refused < refusals) {
        refused++;
        return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.server.address() as net.AddressInfo).port)));
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

let stopWorker: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopWorker?.();
  stopWorker = undefined;
  delete process.env.SMTP_URL;
});

describe("mails are queued in the transaction of the change", () => {
  it("a decision queues its mail with a delivery job; nothing is sent before the worker takes it", async () => {
    const report = await submittedReport();
    await decideReport({
      actor: await actorFor("admin@example.org"),
      partnerId: report.partnerId,
      quarterId: report.quarterId,
      type: report.type,
      action: "approve",
      comment: "Fine",
    });
    const [mail] = await mails();
    expect(mail).toMatchObject({ kind: "report-approve", status: "pending", attempts: 0, partnerId: report.partnerId });
    expect(await deliveryJobs()).toEqual([{ mailId: mail.id, state: "created" }]);
  });

  it("a refused decision queues nothing", async () => {
    const report = await submittedReport();
    const staff = await actorFor("staff@example.org");
    await expect(
      decideReport({ actor: staff, partnerId: report.partnerId, quarterId: report.quarterId, type: report.type, action: "approve", comment: "Fine" }),
    ).rejects.toBeInstanceOf(WorkflowError);
    expect(await mails()).toEqual([]);
    expect(await deliveryJobs()).toEqual([]);
  });

  it("a change that fails after queueing its mail rolls the mail and its job back with it", async () => {
    const report = await submittedReport();
    const admin = await actorFor("admin@example.org");
    const failing = performReportAction({
      actor: admin,
      key: { partnerId: report.partnerId, quarterId: report.quarterId, type: report.type },
      action: "reject",
      comment: "Please fix",
      queueMails: async (tx) => {
        await enqueueMail(tx, { kind: "report-reject", to: "partner1@example.org", subject: "s", text: "t" });
        throw new Error("the mail could not be written");
      },
    });
    await expect(failing).rejects.toThrow("the mail could not be written");
    expect(await mails()).toEqual([]);
    expect(await deliveryJobs()).toEqual([]);
    const [after] = await db.select().from(reports).where(eq(reports.id, report.id));
    expect(after.status).toBe("Submitted");
  });
});

describe("the worker", () => {
  it("delivers a queued mail, retrying after a temporary SMTP refusal, and sends it once", async () => {
    const smtp = await mailbox({ refusals: 1 });
    process.env.SMTP_URL = smtp.url;
    try {
      const report = await submittedReport();
      await decideReport({
        actor: await actorFor("admin@example.org"),
        partnerId: report.partnerId,
        quarterId: report.quarterId,
        type: report.type,
        action: "approve",
        comment: "Fine",
      });
      stopWorker = await startWorker();
      const [afterFirst] = await until(mails, ([mail]) => mail.attempts >= 1);
      expect(afterFirst).toMatchObject({ status: "pending", attempts: 1 });
      expect(afterFirst.error).toMatch(/Try again later/);
      // The retry comes after the queue's delay (5 s, then doubling).
      const [delivered] = await until(mails, ([mail]) => mail.status === "sent");
      expect(delivered).toMatchObject({ status: "sent", attempts: 2, error: null });
      expect(smtp.received).toHaveLength(1);
      const [job] = await until(deliveryJobs, ([one]) => one?.state === "completed");
      expect(job.state).toBe("completed");
    } finally {
      await smtp.close();
    }
  });

  it("a mail given up is listed for the administrators with its error, and Send again queues it anew", async () => {
    const smtp = await mailbox();
    const mailId = await db.transaction((tx) => enqueueMail(tx, { kind: "reminder", to: "partner2@example.org", subject: "Reminder", text: "Please report" }));
    await db.update(outbox).set({ status: "failed", attempts: 11, error: "connect ECONNREFUSED 127.0.0.1:25" }).where(eq(outbox.id, mailId));
    expect(await listUndeliveredMails()).toEqual([
      expect.objectContaining({ id: mailId, toAddress: "partner2@example.org", attempts: 11, error: "connect ECONNREFUSED 127.0.0.1:25" }),
    ]);
    await db.execute(sql`delete from pgboss.job`);

    expect(await retryMail(mailId)).toBe(true);
    expect(await retryMail(mailId)).toBe(false);
    expect(await listUndeliveredMails()).toEqual([]);
    process.env.SMTP_URL = smtp.url;
    try {
      stopWorker = await startWorker();
      const [delivered] = await until(mails, ([mail]) => mail.status === "sent");
      expect(delivered.status).toBe("sent");
      expect(smtp.received).toEqual(["partner2@example.org"]);
    } finally {
      await smtp.close();
    }
  });

  it("a delivery job for a mail already sent sends nothing more", async () => {
    const smtp = await mailbox();
    const mailId = await db.transaction((tx) => enqueueMail(tx, { kind: "reminder", to: "partner3@example.org", subject: "Reminder", text: "Please report" }));
    await db.update(outbox).set({ status: "sent", sentAt: new Date() }).where(eq(outbox.id, mailId));
    process.env.SMTP_URL = smtp.url;
    try {
      stopWorker = await startWorker();
      const [job] = await until(deliveryJobs, ([one]) => one?.state === "completed");
      expect(job.state).toBe("completed");
      expect(smtp.received).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it("puts the scheduled reminders and the purge on the queue's schedule, and REMINDER_SCHEDULER=off takes the reminders off", async () => {
    const schedules = async () => {
      const result = (await db.execute(sql`select name, cron from pgboss.schedule order by name`)) as unknown as { rows: unknown[] } | unknown[];
      return Array.isArray(result) ? result : result.rows;
    };
    stopWorker = await startWorker();
    expect(await schedules()).toEqual([
      { name: "purge-expired", cron: "17 * * * *" },
      { name: "scheduled-reminders", cron: "*/15 * * * *" },
    ]);
    await stopWorker();
    process.env.REMINDER_SCHEDULER = "off";
    try {
      stopWorker = await startWorker();
      expect(await schedules()).toEqual([{ name: "purge-expired", cron: "17 * * * *" }]);
    } finally {
      delete process.env.REMINDER_SCHEDULER;
    }
  });
});

describe("sessions end after 2 hours without a request", () => {
  async function signIn(remember: boolean) {
    const [user] = await db.select().from(users).where(eq(users.email, "partner1@example.org"));
    const session = await sessionStorage.getSession();
    session.set("userId", user.id);
    const cookie = (await sessionStorage.commitSession(session, remember ? { maxAge: 30 * 24 * 3600 } : undefined)).split(";")[0];
    const [row] = await db
      .select()
      .from(sessions)
      .orderBy(sql`${sessions.createdAt} desc`)
      .limit(1);
    return { cookie, id: row.id };
  }
  const userIdOf = async (cookie: string) => (await sessionStorage.getSession(cookie)).get("userId");
  const idle = (id: string, interval: string) =>
    db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - ${interval}::interval` })
      .where(eq(sessions.id, id));

  it("a plain sign-in: alive after 1 h 59 min idle (and the request renews it), ended after 2 h idle", async () => {
    const { cookie, id } = await signIn(false);
    await idle(id, "119 minutes");
    expect(await userIdOf(cookie)).toBeTypeOf("number");
    const [renewed] = await db.select().from(sessions).where(eq(sessions.id, id));
    expect(Date.now() - renewed.lastSeenAt.getTime()).toBeLessThan(60_000);
    await idle(id, "121 minutes");
    expect(await userIdOf(cookie)).toBeUndefined();
  });

  it("a plain sign-in ends 12 hours after sign-in however busy; remember me has no idle end", async () => {
    const plain = await signIn(false);
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, plain.id));
    expect(await userIdOf(plain.cookie)).toBeUndefined();

    const remembered = await signIn(true);
    const [row] = await db.select().from(sessions).where(eq(sessions.id, remembered.id));
    expect(row.idleTimeoutSeconds).toBeNull();
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    await idle(remembered.id, "3 days");
    expect(await userIdOf(remembered.cookie)).toBeTypeOf("number");
  });

  it("the purge deletes ended sessions, spent password links and old rate-limit counters, and keeps the rest", async () => {
    const alive = await signIn(false);
    const idleOne = await signIn(false);
    const expired = await signIn(true);
    await idle(idleOne.id, "3 hours");
    await db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessions.id, expired.id));

    const [partner] = await db.select({ userId: users.id }).from(users).innerJoin(partners, eq(partners.id, users.partnerId)).limit(1);
    await createPasswordToken(partner.userId, "reset");
    await createPasswordToken(partner.userId, "reset"); // ends the first one (marked used)
    await db.insert(rateLimits).values([
      { key: "login:ip:old", windowStart: sql`now() - interval '2 days'` as never, count: 3 },
      { key: "login:ip:new", windowStart: new Date(), count: 1 },
    ]);

    expect(await purgeExpired()).toEqual({ sessions: 2, passwordTokens: 1, rateLimits: 1 });
    expect((await db.select({ id: sessions.id }).from(sessions)).map((row) => row.id)).toEqual([alive.id]);
    expect(await db.select().from(passwordTokens)).toHaveLength(1);
    expect(
      (
        await db
          .select()
          .from(rateLimits)
          .where(and(eq(rateLimits.key, "login:ip:new")))
      ).length,
    ).toBe(1);
    expect(await db.select().from(rateLimits)).toHaveLength(1);
  });
});
