import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, outbox, partners, reminders, reports, settings, users } from "~/db/schema";
import { getOpenQuarter, openQuarterRef } from "~/models/quarter.server";
import { deliverMail } from "~/models/mail.server";
import { dueScheduleKeys, runScheduledReminders } from "~/models/reminder-scheduler.server";
import { owedReports, sendReminders, SKIP_INACTIVE, SKIP_NOT_OWED, SKIP_UNKNOWN } from "~/models/reminder.server";
import { action as remindersAction, loader as remindersLoader } from "~/routes/admin.reminders";
import { loader as remindEveryoneLoader } from "~/routes/_shell.admin.partner-list_.remind-everyone";
import { REMIND_EVERYONE_OWING } from "~/schemas/reminders";
import { formatDate } from "~/utils/dates";
import { appUrl } from "~/utils/env.server";
import { quarterBounds } from "~/utils/quarters";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor, testContext } from "../support/remix";

const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;

async function partnerId(email: string) {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email));
  return row.id;
}

/** A form post with repeated `partnerId` fields, as a bulk form sends it. */
async function postReminder(email: string | null, fields: [string, string][]) {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (email) headers.set("Cookie", await sessionCookieFor(email));
  const request = new Request("http://localhost/admin/reminders", { method: "POST", headers, body: new URLSearchParams(fields) });
  return runRoute(remindersAction, request, { context: testContext({ requestId: "reminder-request" }) });
}

const remind = (ids: number[], reportType: string, redirectTo = "/admin/partner-list") =>
  postReminder("admin@example.org", [...ids.map((id): [string, string] => ["partnerId", String(id)]), ["reportType", reportType], ["redirectTo", redirectTo]]);

const mails = () => db.select().from(outbox).orderBy(asc(outbox.id));
/** Pretends the reminders sent so far went out two hours ago. */
const ageReminders = () => db.update(reminders).set({ createdAt: sql`now() - interval '2 hours'` });

describe("POST /admin/reminders", () => {
  it("ADMIN sends a reminder: mail with the report link and cut-off date, outbox row, audit entry, toast", async () => {
    const acme = await partnerId("partner1@example.org");
    const result = await remind([acme], "sales", "/admin/partner-list?search=acme");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/partner-list?search=acme");
    expect(await toastOf(result)).toEqual({ type: "success", message: "Reminder sent!" });

    const quarter = await getOpenQuarter();
    const [cutOff] = await db.select().from(settings).where(eq(settings.key, "cut_off_date"));
    const [mail] = await mails();
    expect(mail).toMatchObject({ kind: "reminder", toAddress: "partner1@example.org", partnerId: acme, reportType: "sales", status: "pending" });
    expect(mail.subject).toBe(`Reminder: your Sales Report for ${quarter.name} is due`);
    expect(mail.textBody).toContain("Dear Acme Generics Ltd,");
    expect(mail.textBody).toContain("Current status: Saved");
    expect(mail.textBody).toContain(`report submission date: ${formatDate(cutOff.value as string)}.`);
    expect(mail.textBody).toMatch(/\d{2}-\d{2}-\d{4}\./);
    expect(mail.textBody).toContain(`${appUrl()}/partner/sales-report`);

    const [row] = await db.select().from(reminders);
    expect(row).toMatchObject({ partnerId: acme, reportType: "sales", quarterId: quarter.id, kind: "manual", scheduleKey: null, outboxId: mail.id });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "reminder.send"));
    expect(audit).toMatchObject({ entity: "partner", entityId: String(acme), requestId: "reminder-request" });
    expect(audit.after).toMatchObject({ reportTypes: ["sales"], kind: "manual" });
  });

  it("each report type links to its own page", async () => {
    const cedar = await partnerId("partner3@example.org");
    await remind([cedar], "pdt");
    await remind([cedar], "filing");
    const [pdt, filing] = await mails();
    expect(pdt.subject).toContain("PDT");
    expect(pdt.textBody).toContain(`${appUrl()}/partner/development-timeline`);
    expect(filing.subject).toContain("Filing Plans");
    expect(filing.textBody).toContain(`${appUrl()}/partner/filing-plans`);
  });

  it("writes the mail in the partner user's language", async () => {
    await db.update(users).set({ language: "fr" }).where(eq(users.email, "partner1@example.org"));
    await remind([await partnerId("partner1@example.org")], "sales");
    const quarter = await getOpenQuarter();
    const [mail] = await mails();
    expect(mail.subject).toBe(`Rappel : votre rapport « Rapport de ventes » pour ${quarter.name} est attendu`);
    expect(mail.textBody).toContain("Ouvrir le rapport :");
    expect(mail.textBody).toContain(`${appUrl()}/partner/sales-report`);
  });

  it("sends at most one reminder per partner and report type per hour, and says so", async () => {
    const acme = await partnerId("partner1@example.org");
    const cedar = await partnerId("partner3@example.org");
    expect(await toastOf(await remind([acme], "sales"))).toMatchObject({ message: "Reminder sent!" });

    const again = await remind([acme], "sales");
    expect(again.location).toBe("/admin/partner-list");
    expect(await toastOf(again)).toEqual({
      type: "info",
      message: "No reminder sent: {{count}} skipped (already reminded in the last hour).",
      values: { count: 1 },
    });
    expect(await mails()).toHaveLength(1);

    // Another report type is another reminder.
    expect(await toastOf(await remind([acme], "filing"))).toMatchObject({ message: "Reminder sent!" });

    // In a bulk send the throttled partner is reported, the others get their mail.
    const bulk = await remind([acme, cedar], "sales");
    expect(await toastOf(bulk)).toEqual({
      type: "success",
      message: "Reminder sent! {{count}} skipped: already reminded in the last hour.",
      values: { count: 1 },
    });
    expect((await mails()).map((m) => [m.partnerId, m.reportType])).toEqual([
      [acme, "sales"],
      [acme, "filing"],
      [cedar, "sales"],
    ]);

    // An hour later the partner can be reminded again.
    await ageReminders();
    expect(await toastOf(await remind([acme], "sales"))).toMatchObject({ message: "Reminder sent!" });
    expect(await mails()).toHaveLength(4);
  });

  it("bulk: skips an inactive partner and an unknown id with their reasons", async () => {
    const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerId));
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, borealis));
    const result = await remind([acme, borealis, cedar, 99999], "filing");
    expect(await toastOf(result)).toEqual({
      type: "success",
      message: "Reminder sent! {{count}} skipped: partner inactive or not found.",
      values: { count: 2 },
    });
    expect((await mails()).map((m) => m.toAddress)).toEqual(["partner1@example.org", "partner3@example.org"]);

    const direct = await sendReminders({ partnerIds: [borealis, 99999], reportType: "pdt", actorId: null, kind: "manual" });
    expect(direct).toEqual({
      sent: [],
      skipped: [
        { partnerId: borealis, reason: SKIP_INACTIVE },
        { partnerId: 99999, reason: SKIP_UNKNOWN },
      ],
    });
    const none = await remind([borealis], "pdt");
    expect(await toastOf(none)).toMatchObject({ type: "error", message: "No reminder sent: partner inactive or not found." });
  });

  it("a reminder whose delivery was given up is marked failed with its error, and may be sent again at once", async () => {
    const acme = await partnerId("partner1@example.org");
    expect(await toastOf(await remind([acme], "sales"))).toMatchObject({ message: "Reminder sent!" });
    const [queued] = await mails();
    process.env.SMTP_URL = "smtp://127.0.0.1:9/?connectionTimeout=2000";
    try {
      await expect(deliverMail(queued.id, { finalAttempt: true })).rejects.toThrow();
    } finally {
      delete process.env.SMTP_URL;
    }
    const [mail] = await mails();
    expect(mail).toMatchObject({ status: "failed", partnerId: acme, reportType: "sales", attempts: 1 });
    expect(mail.error).toBeTruthy();
    // A failed delivery does not count as a reminder of the last hour.
    expect(await toastOf(await remind([acme], "sales"))).toMatchObject({ message: "Reminder sent!" });
    expect(await mails()).toHaveLength(2);
  });

  it("only returns to an /admin/ page", async () => {
    const acme = await partnerId("partner1@example.org");
    for (const [redirectTo, expected] of [
      ["/admin/dashboard?view=yet-to-submit", "/admin/dashboard?view=yet-to-submit"],
      ["https://evil.example/admin/", "/admin/partner-list"],
      ["//evil.example/admin/", "/admin/partner-list"],
      ["/partner/dashboard", "/admin/partner-list"],
      ["", "/admin/partner-list"],
    ]) {
      expect((await remind([acme], "sales", redirectTo)).location, redirectTo).toBe(expected);
    }
  });

  it("refuses a request without a partner or with an unknown report type", async () => {
    const noPartner = await postReminder("admin@example.org", [["reportType", "pdt"]]);
    expect(noPartner.location).toBe("/admin/partner-list");
    expect(await toastOf(noPartner)).toMatchObject({ type: "error", message: "Please select a partner." });
    const badType = await remind([await partnerId("partner1@example.org")], "annual");
    expect(await toastOf(badType)).toMatchObject({ type: "error", message: "Please select a report." });
    expect(await mails()).toHaveLength(0);
  });

  it("is for ADMIN only: STAFF and PARTNER get 403, a visitor goes to /login, nothing is sent", async () => {
    const fields: [string, string][] = [
      ["partnerId", String(await partnerId("partner1@example.org"))],
      ["reportType", "pdt"],
    ];
    for (const email of ["staff@example.org", "partner1@example.org"]) {
      expect((await postReminder(email, fields)).status, email).toBe(403);
    }
    expect((await postReminder(null, fields)).location).toBe("/login");
    expect(await mails()).toHaveLength(0);
    expect(await db.select().from(reminders)).toHaveLength(0);
  });

  it("answers a GET with 405", async () => {
    const result = await runRoute(remindersLoader, buildRequest("/admin/reminders", { cookie: await sessionCookieFor("admin@example.org") }));
    expect(result.status).toBe(405);
    expect(result.headers.get("Allow")).toBe("POST");
  });
});

describe("what partners owe", () => {
  it("missing, Saved and Rejected reports of the open quarter are owed; submitted and approved ones are not", async () => {
    const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerId));
    // Demo seed, open quarter: Acme PDT Submitted, Filing Rejected, Sales Saved; Borealis PDT Resubmitted,
    // no Filing, Sales Approved; Cedar nothing.
    const quarter = await getOpenQuarter();
    expect(await owedReports(quarter)).toEqual(
      new Map([
        [acme, ["filing", "sales"]],
        [borealis, ["filing"]],
        [cedar, ["pdt", "filing", "sales"]],
      ]),
    );

    await db.update(partners).set({ isActive: false }).where(eq(partners.id, cedar));
    await db
      .update(reports)
      .set({ status: "Submitted" })
      .where(and(eq(reports.partnerId, acme), eq(reports.quarterId, quarter.id)));
    expect(await owedReports(quarter)).toEqual(new Map([[borealis, ["filing"]]]));
  });

  it("a reminder of a report already submitted or approved is refused with a message; a bulk one skips it", async () => {
    const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerId));
    for (const [id, type] of [
      [acme, "pdt"],
      [borealis, "pdt"],
      [borealis, "sales"],
    ] as const) {
      const refused = await remind([id], type);
      expect(await toastOf(refused), type).toEqual({ type: "error", message: "No reminder sent: the report has already been submitted or approved." });
    }
    expect(await mails()).toHaveLength(0);

    const bulk = await remind([acme, borealis, cedar], "pdt");
    expect(await toastOf(bulk)).toEqual({
      type: "success",
      message: "Reminder sent! {{count}} skipped: report already submitted or approved.",
      values: { count: 2 },
    });
    expect((await mails()).map((m) => [m.partnerId, m.reportType])).toEqual([[cedar, "pdt"]]);
    expect(await sendReminders({ partnerIds: [acme], reportType: "pdt", actorId: null, kind: "manual" })).toEqual({
      sent: [],
      skipped: [{ partnerId: acme, reason: SKIP_NOT_OWED }],
    });
  });
});

describe("remind everyone who owes a report", () => {
  const remindEveryone = () =>
    postReminder("admin@example.org", [
      ["intent", REMIND_EVERYONE_OWING],
      ["redirectTo", "/admin/partner-list?q=a"],
    ]);

  it("mails each owing active partner once, listing only the reports it owes; a second click within the hour sends nothing", async () => {
    const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerId));
    // An inactive partner gets nothing, though it owes its Filing Plans.
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, borealis));

    const result = await remindEveryone();
    expect(result.location).toBe("/admin/partner-list?q=a");
    expect(await toastOf(result)).toEqual({ type: "success", message: "Reminder sent!" });

    const quarter = await getOpenQuarter();
    const sent = await mails();
    expect(sent.map((m) => [m.partnerId, m.toAddress])).toEqual([
      [acme, "partner1@example.org"],
      [cedar, "partner3@example.org"],
    ]);
    const [toAcme, toCedar] = sent;
    expect(toAcme.subject).toBe(`Reminder: your reports for ${quarter.name} are due`);
    expect(toAcme.reportType).toBeNull();
    expect(toAcme.textBody).toContain(`This is a reminder about your reports for ${quarter.name} that are still to be submitted:`);
    expect(toAcme.textBody).toContain(`- Filing Plans: Rejected\n  ${appUrl()}/partner/filing-plans`);
    expect(toAcme.textBody).toContain(`- Sales Report: Saved\n  ${appUrl()}/partner/sales-report`);
    expect(toAcme.textBody).not.toContain("PDT");
    expect(toAcme.textBody).not.toContain("/partner/development-timeline");
    expect(toAcme.textBody).toMatch(/Please submit them by the report submission date: \d{2}-\d{2}-\d{4}\./);
    for (const path of ["/partner/development-timeline", "/partner/filing-plans", "/partner/sales-report"]) expect(toCedar.textBody).toContain(path);
    expect(toCedar.textBody).toContain("- PDT: Not started");

    // One reminder row per report, all pointing at the partner's one mail.
    const rows = await db.select().from(reminders).orderBy(asc(reminders.id));
    expect(rows.map((row) => [row.partnerId, row.reportType, row.outboxId])).toEqual([
      [acme, "filing", toAcme.id],
      [acme, "sales", toAcme.id],
      [cedar, "pdt", toCedar.id],
      [cedar, "filing", toCedar.id],
      [cedar, "sales", toCedar.id],
    ]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "reminder.send"));
    expect(audits.map((audit) => audit.after)).toEqual([
      expect.objectContaining({ reportTypes: ["filing", "sales"], kind: "manual" }),
      expect.objectContaining({ reportTypes: ["pdt", "filing", "sales"], kind: "manual" }),
    ]);

    expect(await toastOf(await remindEveryone())).toEqual({
      type: "info",
      message: "No reminder sent: {{count}} skipped (already reminded in the last hour).",
      values: { count: 2 },
    });
    expect(await mails()).toHaveLength(2);
  });

  const confirmation = async (email: string) =>
    runRoute(remindEveryoneLoader, buildRequest("/admin/partner-list/remind-everyone?q=a", { cookie: await sessionCookieFor(email) }));

  it("asks first, naming how many partners and reports the sending then mails; asking mails nothing", async () => {
    const [acme, borealis] = await Promise.all(["partner1@example.org", "partner2@example.org"].map(partnerId));
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, borealis));
    // Acme was reminded of its Filing Plans a moment ago: held back, as the sending holds it back.
    await remind([acme], "filing");

    const asked = await confirmation("admin@example.org");
    expect(asked.status).toBe(200);
    // Acme owes its Filing Plans and Sales Report (one held back), Cedar its three reports.
    expect(asked.data).toEqual({ owing: { partners: 2, reports: 4 }, back: "/admin/partner-list?q=a&sort=company&dir=asc" });
    expect(await mails()).toHaveLength(1);
    expect(await db.select().from(reminders)).toHaveLength(1);

    await remindEveryone();
    expect(await mails()).toHaveLength(1 + asked.data.owing.partners);
    expect(await db.select().from(reminders)).toHaveLength(1 + asked.data.owing.reports);
    // Everything owed has just been reminded of: nothing left to send.
    expect((await confirmation("admin@example.org")).data.owing).toEqual({ partners: 0, reports: 0 });
  });

  it("the confirmation is for ADMIN only, and says when nobody owes a report", async () => {
    expect((await confirmation("staff@example.org")).status).toBe(403);
    expect((await confirmation("partner1@example.org")).status).toBe(403);
    const quarter = await getOpenQuarter();
    await db.update(reports).set({ status: "Approved" }).where(eq(reports.quarterId, quarter.id));
    const missing = await Promise.all(["partner2@example.org", "partner3@example.org"].map(partnerId));
    await db.update(partners).set({ isActive: false }).where(inArray(partners.id, missing));
    expect((await confirmation("admin@example.org")).data.owing).toEqual({ partners: 0, reports: 0 });
  });

  it("says so when nobody owes a report", async () => {
    const quarter = await getOpenQuarter();
    // Acme has all three reports of the open quarter; Borealis and Cedar, which miss some, are inactive.
    await db.update(reports).set({ status: "Approved" }).where(eq(reports.quarterId, quarter.id));
    const missing = await Promise.all(["partner2@example.org", "partner3@example.org"].map(partnerId));
    await db.update(partners).set({ isActive: false }).where(inArray(partners.id, missing));
    expect(await toastOf(await remindEveryone())).toEqual({ type: "info", message: "No reminder sent: no partner owes a report of the open quarter." });
    expect(await mails()).toHaveLength(0);
  });

  it("is for ADMIN only", async () => {
    const refused = await postReminder("staff@example.org", [["intent", REMIND_EVERYONE_OWING]]);
    expect(refused.status).toBe(403);
    expect(await mails()).toHaveLength(0);
  });
});

describe("scheduled reminders", () => {
  /** A cut-off date on the last day of the open quarter, so that "7 days before" is in the open quarter too. */
  async function cutOffAtQuarterEnd() {
    const { endDate } = quarterBounds(openQuarterRef());
    await db.update(settings).set({ value: endDate }).where(eq(settings.key, "cut_off_date"));
    return endDate;
  }
  const day = (iso: string, offset: number) => new Date(Date.parse(`${iso}T08:30:00Z`) + offset * 86_400_000);

  it("works out which schedule keys are due", () => {
    const schedule = { daysBefore: [7, 0], daysAfter: [1, 7] };
    expect(dueScheduleKeys("2026-10-15", schedule, "2026-10-08")).toEqual(["before-7"]);
    expect(dueScheduleKeys("2026-10-15", schedule, "2026-10-15")).toEqual(["before-0"]);
    expect(dueScheduleKeys("2026-10-15", schedule, "2026-10-16")).toEqual(["after-1"]);
    expect(dueScheduleKeys("2026-10-15", schedule, "2026-10-22")).toEqual(["after-7"]);
    expect(dueScheduleKeys("2026-10-15", schedule, "2026-10-09")).toEqual([]);
    // Across a month end.
    expect(dueScheduleKeys("2026-03-03", schedule, "2026-02-24")).toEqual(["before-7"]);
  });

  it("7 days before the cut-off date reminds, once, each partner that still owes reports: one mail listing them", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    const [acme, borealis, cedar] = await Promise.all(["partner1@example.org", "partner2@example.org", "partner3@example.org"].map(partnerId));
    const run = await runScheduledReminders(day(cutOff, -7));
    expect(run).toMatchObject({ ran: true, due: ["before-7"] });

    // The rule of a reminder sent by hand: submitted and approved reports are not reminded.
    const sent = (await mails()).map((m) => [m.partnerId, m.reportType]);
    expect(sent).toEqual([
      [acme, null],
      [borealis, "filing"],
      [cedar, null],
    ]);
    const rows = await db.select().from(reminders).orderBy(asc(reminders.id));
    expect(rows.map((row) => [row.partnerId, row.reportType])).toEqual([
      [acme, "filing"],
      [acme, "sales"],
      [borealis, "filing"],
      [cedar, "pdt"],
      [cedar, "filing"],
      [cedar, "sales"],
    ]);
    expect(rows.every((row) => row.kind === "scheduled" && row.scheduleKey === "before-7" && row.createdBy === null)).toBe(true);
    const [mail] = await mails();
    expect(mail.textBody).toContain(`${formatDate(cutOff)}.`);
    expect(mail.textBody).toContain("- Filing Plans: Rejected");
    expect(mail.textBody).not.toContain("PDT");
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "reminder.send"));
    expect(audits).toHaveLength(3);
    expect(audits[0].after).toMatchObject({ kind: "scheduled", scheduleKey: "before-7", reportTypes: ["filing", "sales"] });

    // A second pass the same day, or much later that day, sends nothing more.
    await runScheduledReminders(day(cutOff, -7));
    await ageReminders();
    const later = await runScheduledReminders(day(cutOff, -7));
    expect(later.batches.every((batch) => batch.sent.length === 0)).toBe(true);
    expect(await mails()).toHaveLength(3);
  });

  it("two passes at the same time still send each reminder once", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    const runs = await Promise.all([runScheduledReminders(day(cutOff, -7)), runScheduledReminders(day(cutOff, -7))]);
    expect(runs.some((run) => run.ran)).toBe(true);
    expect(await mails()).toHaveLength(3);
  });

  it("a day that is not in the schedule sends nothing", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    for (const offset of [-8, -6, -1, 0]) {
      const run = await runScheduledReminders(day(cutOff, offset));
      expect(run.due, String(offset)).toEqual([]);
    }
    expect(await mails()).toHaveLength(0);
  });

  it("follows the schedule the administrator saved", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    await db.insert(settings).values({ key: "reminder_schedule", value: { daysBefore: [3], daysAfter: [] } });
    await runScheduledReminders(day(cutOff, -7));
    expect(await mails()).toHaveLength(0);
    await runScheduledReminders(day(cutOff, -3));
    expect(await mails()).toHaveLength(3);
    expect(new Set((await db.select().from(reminders)).map((row) => row.scheduleKey))).toEqual(new Set(["before-3"]));
  });

  it("a partner reminded by hand in the last hour gets the scheduled reminder on a later pass that day", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    const cedar = await partnerId("partner3@example.org");
    await sendReminders({ partnerIds: [cedar], reportType: "pdt", actorId: null, kind: "manual" });

    // Cedar's scheduled mail leaves out the PDT it was reminded of by hand.
    await runScheduledReminders(day(cutOff, -7));
    const cedarMails = async () => (await mails()).filter((mail) => mail.partnerId === cedar);
    expect(await mails()).toHaveLength(1 + 3);
    expect((await cedarMails())[1].textBody).not.toContain("PDT");

    await ageReminders();
    await runScheduledReminders(day(cutOff, -7));
    const scheduled = await db
      .select()
      .from(reminders)
      .where(and(eq(reminders.partnerId, cedar), eq(reminders.reportType, "pdt")));
    expect(scheduled.map((row) => row.kind).sort()).toEqual(["manual", "scheduled"]);
    expect(await mails()).toHaveLength(5);
    expect((await cedarMails())[2]).toMatchObject({ reportType: "pdt" });
  });

  it("does nothing after the cut-off date once its quarter has closed", async () => {
    const cutOff = await cutOffAtQuarterEnd();
    // 7 days after a cut-off on the last day of the quarter is in the next quarter.
    const run = await runScheduledReminders(day(cutOff, 7));
    expect(run.due).toEqual(["after-7"]);
    expect(run.batches).toEqual([]);
    expect(await mails()).toHaveLength(0);
  });
});
