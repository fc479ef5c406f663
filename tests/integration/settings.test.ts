import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, settings } from "~/db/schema";
import { openQuarterSpan } from "~/models/quarter.server";
import { getCutOffDate, getReminderSchedule } from "~/models/settings.server";
import { action as settingsAction, loader as settingsLoader } from "~/routes/_shell.admin.settings";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { CUT_OFF_BEFORE_OPEN_QUARTER, CUT_OFF_DAY_TWICE_ERROR, DAY_LIST_ERROR, DEFAULT_REMINDER_SCHEDULE } from "~/schemas/settings";
import { formatDate } from "~/utils/dates";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;

const as = (email: string) => sessionCookieFor(email);
const post = async (email: string, form: Record<string, string>) =>
  runRoute(settingsAction, buildRequest("/admin/settings", { form, cookie: await as(email) }));
const setDate = (email: string, cutOffDate: string) => post(email, { intent: "cut-off", cutOffDate });
const setSchedule = (email: string, daysBefore: string, daysAfter: string) => post(email, { intent: "schedule", daysBefore, daysAfter });

describe("settings page: loader", () => {
  it("shows ADMIN the stored cut-off date and the default reminder schedule, editable", async () => {
    const result = await runRoute(settingsLoader, buildRequest("/admin/settings", { cookie: await as("admin@example.org") }));
    expect(result.status).toBe(200);
    expect(result.data.cutOffDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(result.data.cutOffDate).toBe(await getCutOffDate());
    expect(result.data.schedule).toEqual({ daysBefore: [7], daysAfter: [1, 7] });
    expect(result.data.canEdit).toBe(true);
    // The hint names the open quarter and its first day, the earliest date the form takes.
    const { name, startDate } = openQuarterSpan();
    expect(result.data.openQuarter).toEqual({ name, startDate });
  });

  it("shows STAFF the same settings read-only and refuses PARTNER", async () => {
    const staff = await runRoute(settingsLoader, buildRequest("/admin/settings", { cookie: await as("staff@example.org") }));
    expect(staff.status).toBe(200);
    expect(staff.data.canEdit).toBe(false);
    const partner = await runRoute(settingsLoader, buildRequest("/admin/settings", { cookie: await as("partner1@example.org") }));
    expect(partner.status).toBe(403);
  });
});

describe("settings page: report submission date", () => {
  it("ADMIN sets the date: stored as YYYY-MM-DD, toast, audit entry, partner dashboard shows it", async () => {
    const before = await getCutOffDate();
    const result = await setDate("admin@example.org", "2027-03-15");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/settings");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Submission Date set successfully!" });
    expect(await getCutOffDate()).toBe("2027-03-15");

    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "setting.cut_off_date"), eq(auditLog.entityId, "cut_off_date")));
    expect(audit).toMatchObject({ entity: "setting", before, after: "2027-03-15", requestId: "test-request" });

    const dashboard = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: await as("partner1@example.org") }));
    expect(formatDate(dashboard.data.cutOff.date)).toBe("15-03-2027");
  });

  it("reads a date typed as DD-MM-YYYY (day first, not month first)", async () => {
    expect((await setDate("admin@example.org", "05-01-2028")).status).toBe(302);
    expect(await getCutOffDate()).toBe("2028-01-05");
    expect((await setDate("admin@example.org", "5-1-2029")).status).toBe(302);
    expect(await getCutOffDate()).toBe("2029-01-05");
    expect((await setDate("admin@example.org", "12-31-2028")).data.result.error.cutOffDate).toEqual(["Please select a valid date!"]);
  });

  it("takes the date picker's YYYY-MM-DD (posted without JavaScript) over the field's stored date, and checks it the same way", async () => {
    const picked = await post("admin@example.org", { intent: "cut-off", cutOffDate: formatDate(await getCutOffDate()), cutOffDatePicked: "2028-06-30" });
    expect(picked.status).toBe(302);
    expect(await getCutOffDate()).toBe("2028-06-30");
    // Nothing picked: the typed field counts.
    expect((await post("admin@example.org", { intent: "cut-off", cutOffDate: "01-07-2028", cutOffDatePicked: "" })).status).toBe(302);
    expect(await getCutOffDate()).toBe("2028-07-01");
    const early = await post("admin@example.org", { intent: "cut-off", cutOffDate: "01-07-2028", cutOffDatePicked: "2020-01-01" });
    expect(early.status).toBe(400);
    expect(early.data.result.error.cutOffDate).toEqual([CUT_OFF_BEFORE_OPEN_QUARTER]);
    expect(await getCutOffDate()).toBe("2028-07-01");
  });

  it("refuses a date before the open quarter starts, with a message; the quarter's first day is taken", async () => {
    const { startDate } = openQuarterSpan();
    const stored = await getCutOffDate();
    const dayBefore = formatDate(new Date(Date.parse(`${startDate}T00:00:00Z`) - 86_400_000));
    for (const early of [dayBefore, "01-01-2020"]) {
      const result = await setDate("admin@example.org", early);
      expect(result.status, early).toBe(400);
      expect(result.data.result.error.cutOffDate).toEqual([CUT_OFF_BEFORE_OPEN_QUARTER]);
    }
    expect(await getCutOffDate()).toBe(stored);
    expect((await setDate("admin@example.org", formatDate(startDate))).status).toBe(302);
    expect(await getCutOffDate()).toBe(startDate);
  });

  it("an empty date is refused with 'Please select date!', an impossible one with its own message", async () => {
    const stored = await getCutOffDate();
    const empty = await setDate("admin@example.org", "");
    expect(empty.status).toBe(400);
    expect(empty.data.intent).toBe("cut-off");
    expect(empty.data.result.error.cutOffDate).toEqual(["Please select date!"]);
    const missing = await post("admin@example.org", { intent: "cut-off" });
    expect(missing.data.result.error.cutOffDate).toEqual(["Please select date!"]);
    for (const wrong of ["2027-02-30", "31-04-2027", "tomorrow"]) {
      const result = await setDate("admin@example.org", wrong);
      expect(result.status, wrong).toBe(400);
      expect(result.data.result.error.cutOffDate).toEqual(["Please select a valid date!"]);
    }
    expect(await getCutOffDate()).toBe(stored);
  });

  it("STAFF and PARTNER get 403 and change nothing", async () => {
    const stored = await getCutOffDate();
    for (const email of ["staff@example.org", "partner1@example.org"]) {
      expect((await setDate(email, "2030-01-01")).status).toBe(403);
      expect((await setSchedule(email, "1", "2")).status).toBe(403);
    }
    expect(await getCutOffDate()).toBe(stored);
    expect(await getReminderSchedule()).toEqual(DEFAULT_REMINDER_SCHEDULE);
    expect(await db.select().from(auditLog)).toHaveLength(0);
  });

  it("a visitor without a session is sent to /login", async () => {
    const result = await runRoute(settingsAction, buildRequest("/admin/settings", { form: { intent: "cut-off", cutOffDate: "2030-01-01" } }));
    expect(result.location).toBe("/login");
  });
});

describe("settings page: reminder schedule", () => {
  it("ADMIN saves the days (sorted, duplicates dropped) as JSON with an audit entry", async () => {
    const result = await setSchedule("admin@example.org", "7, 3,3", "14 ,1,7");
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/settings");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Reminder schedule saved successfully!" });
    const [row] = await db.select().from(settings).where(eq(settings.key, "reminder_schedule"));
    expect(row.value).toEqual({ daysBefore: [3, 7], daysAfter: [1, 7, 14] });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "setting.reminder_schedule"));
    expect(audit).toMatchObject({ before: null, after: { daysBefore: [3, 7], daysAfter: [1, 7, 14] } });

    const loaded = await runRoute(settingsLoader, buildRequest("/admin/settings", { cookie: await as("admin@example.org") }));
    expect(loaded.data.schedule).toEqual({ daysBefore: [3, 7], daysAfter: [1, 7, 14] });
  });

  it("empty fields mean no scheduled reminders", async () => {
    expect((await setSchedule("admin@example.org", "", "")).status).toBe(302);
    expect(await getReminderSchedule()).toEqual({ daysBefore: [], daysAfter: [] });
  });

  it("refuses anything but whole numbers of days from 0 to 90, and the cut-off day in both lists", async () => {
    for (const [daysBefore, daysAfter, field] of [
      ["seven", "1", "daysBefore"],
      ["7", "91", "daysAfter"],
      ["-1", "1", "daysBefore"],
      ["7", "1.5", "daysAfter"],
    ] as const) {
      const result = await setSchedule("admin@example.org", daysBefore, daysAfter);
      expect(result.status, `${daysBefore} / ${daysAfter}`).toBe(400);
      expect(result.data.intent).toBe("schedule");
      expect(result.data.result.error[field]).toEqual([DAY_LIST_ERROR]);
    }
    const twice = await setSchedule("admin@example.org", "0, 7", "0");
    expect(twice.status).toBe(400);
    expect(twice.data.result.error.daysAfter).toEqual([CUT_OFF_DAY_TWICE_ERROR]);
    expect(await getReminderSchedule()).toEqual(DEFAULT_REMINDER_SCHEDULE);
  });

  it("an unknown form is a bad request", async () => {
    expect((await post("admin@example.org", { intent: "other" })).status).toBe(400);
  });
});
