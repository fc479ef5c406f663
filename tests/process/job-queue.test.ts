/**
 * The job queue against real processes: a submission while SMTP hangs or is down is answered at
 * once and its receipt is delivered, once, when SMTP is back; two instances on one database with
 * the reminders due send one reminder per partner; an instance with WORKER=off serves pages and
 * leaves the mails to a worker started alone.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailbox } from "../e2e/support/mailbox";
import { apiToken } from "./support/portal-http";
import { freePort, freshDatabase, SERVER_URL, startPortal, type PortalProcess } from "./support/server";

const describeOnPostgres = SERVER_URL ? describe : describe.skip;

/** A server that takes connections and never says a word: an SMTP server that hangs. */
async function startSilentServer(port: number) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return {
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Submits the first of the partner's reports that can be submitted; returns its type. */
async function submitAReport(baseUrl: string, token: string): Promise<{ type: string; ms: number }> {
  for (const type of ["pdt", "filing", "sales"]) {
    const meta = await fetch(`${baseUrl}/api/template/${type}/`, { headers: { Authorization: `Bearer ${token}` } });
    if (!meta.ok) continue;
    // The report's meta (status, version, can_edit) sits under the report's own name.
    const template = (await meta.json()) as Record<string, unknown>;
    const reportMeta = Object.values(template).find(
      (value): value is { version: number } => typeof value === "object" && value !== null && "version" in value && "can_edit" in value,
    );
    const version = reportMeta?.version ?? 0;
    const started = Date.now();
    const answer = await fetch(`${baseUrl}/api/template/${type}/submit/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Our quarter, as agreed.", version }),
    });
    const ms = Date.now() - started;
    if (answer.ok) return { type, ms };
  }
  throw new Error("No report of the partner could be submitted");
}

describeOnPostgres("the job queue, with real processes", () => {
  const portals: PortalProcess[] = [];
  let admin: postgres.Sql;
  beforeAll(() => {
    admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await Promise.all(portals.map((portal) => portal.stop()));
    await admin.end();
  });

  async function portal(env: Record<string, string | undefined>) {
    const started = startPortal({ REMINDER_SCHEDULER: "off", ...env }, await freePort());
    portals.push(started);
    await started.ready();
    return started;
  }

  it("a submission while SMTP hangs, then is down, is answered at once; its receipt goes out once SMTP is back, exactly once", async () => {
    const databaseUrl = await freshDatabase("portal_process_smtp_down");
    const smtpPort = await freePort();
    const silent = await startSilentServer(smtpPort);
    const server = await portal({
      DATABASE_URL: databaseUrl,
      // Short waits so the hanging attempt fails quickly; the queue retries after 5 s, then 10 s…
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}/?connectionTimeout=2000&greetingTimeout=2000&socketTimeout=2000`,
    });
    const token = await apiToken(server.baseUrl, "partner2@example.org", "partner-pass-2");
    const submitted = await submitAReport(server.baseUrl, token);
    // Before the queue, a hanging SMTP server held this answer 30 s per mail.
    expect(submitted.ms).toBeLessThan(2000);

    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const receipt = () => sql`select status, attempts, error from outbox where kind = 'report-receipt' and to_address = 'partner2@example.org'`;
      const failedOnce = await until(receipt, (rows) => rows[0]?.attempts >= 1, 15_000);
      expect(failedOnce[0]).toMatchObject({ status: "pending" });
      expect(failedOnce[0].error).toBeTruthy();

      // SMTP down altogether for a while, then back on the same port.
      await silent.close();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const mailbox = await startMailbox(smtpPort);
      try {
        const delivered = await until(receipt, (rows) => rows[0]?.status === "sent", 45_000);
        expect(delivered[0]).toMatchObject({ status: "sent", error: null });
        // The administrators' notices of the same submission are delivered too.
        const notices = await until(
          () => sql`select status from outbox where kind = 'report-submitted'`,
          (rows) => rows.length > 0 && rows.every((row) => row.status === "sent"),
          30_000,
        );
        expect(notices.every((row) => row.status === "sent")).toBe(true);
        // A few more polls of the worker: nothing is sent twice.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const receipts = mailbox.received.filter((mail) => mail.to.includes("partner2@example.org") && /^Subject: Receipt/m.test(mail.raw));
        expect(receipts).toHaveLength(1);
        expect(mailbox.received).toHaveLength(1 + notices.length);
      } finally {
        await mailbox.close();
      }
    } finally {
      await sql.end();
    }
  });

  it("two instances on one database with the reminders due send one reminder per partner", async () => {
    const databaseUrl = await freshDatabase("portal_process_two_schedulers");
    const today = "2026-11-20";
    // The first start seeds the demo data; then 200 more partners that owe every report.
    const seeder = await portal({ DATABASE_URL: databaseUrl, PORTAL_TODAY: today, WORKER: "off" });
    await seeder.stop();
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await sql`insert into partners (company_name, email, contact_number, region)
        select 'Load Partner ' || n, 'load' || n || '@example.org', '+1 555 0100', 'Africa' from generate_series(1, 200) n`;
      // The cut-off date 7 days ahead: the default schedule reminds 7 days before it.
      await sql`insert into settings (key, value) values ('cut_off_date', '"2026-11-27"'::jsonb)
        on conflict (key) do update set value = excluded.value`;
      const owing = await sql`select count(*)::int as n from partners where is_active`;

      const env = { DATABASE_URL: databaseUrl, PORTAL_TODAY: today, REMINDER_SCHEDULER: "on", REMINDER_CRON: "* * * * *" };
      await Promise.all([portal(env), portal(env)]);

      const perPartner = () => sql`select partner_id, count(*)::int as mails from outbox where kind = 'reminder' group by partner_id`;
      // The schedule is every minute: the first pass comes within about a minute of the start.
      const sent = await until(perPartner, (rows) => rows.length >= 200, 100_000);
      // Let both instances' schedulers and workers go round again: nothing more may be sent.
      await new Promise((resolve) => setTimeout(resolve, 8000));
      const settled = await perPartner();
      expect(sent.length).toBeGreaterThanOrEqual(200);
      expect(settled.length).toBeLessThanOrEqual(owing[0].n);
      expect(settled.filter((row) => row.mails !== 1)).toEqual([]);
    } finally {
      await sql.end();
    }
  }, 240_000);

  it("WORKER=off serves pages and queues mails; `npm run worker` alone delivers them", async () => {
    const databaseUrl = await freshDatabase("portal_process_worker_apart");
    const smtpPort = await freePort();
    const mailbox = await startMailbox(smtpPort);
    const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
    const web = await portal({ DATABASE_URL: databaseUrl, WORKER: "off", SMTP_URL: smtpUrl });
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const worker = spawn(process.execPath, ["build/worker.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtpUrl,
        SESSION_SECRET: "process-test-session-secret",
        REMINDER_SCHEDULER: "off",
      },
      stdio: "ignore",
    });
    try {
      const reset = await fetch(`${web.baseUrl}/reset-password`, {
        method: "POST",
        body: new URLSearchParams({ email: "partner3@example.org" }),
        redirect: "manual",
      });
      expect(reset.status).toBeLessThan(400);
      const queued = await sql`select id from outbox where to_address = 'partner3@example.org'`;
      expect(queued).toHaveLength(1);
      const delivered = await until(
        () => Promise.resolve(mailbox.received),
        (received) => received.length > 0,
        30_000,
      );
      expect(delivered.map((mail) => mail.to)).toEqual([["partner3@example.org"]]);
      // The worker marks the mail sent once the SMTP server has taken it: a moment after the mailbox has it.
      const status = await until(
        async () => (await sql`select status from outbox where id = ${queued[0].id}`)[0].status as string,
        (value) => value === "sent",
        5_000,
      );
      expect(status).toBe("sent");
    } finally {
      worker.kill("SIGTERM");
      await new Promise((resolve) => worker.once("exit", resolve));
      await sql.end();
      await mailbox.close();
    }
  });
});
