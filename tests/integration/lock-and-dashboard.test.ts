import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { partners, reports, users } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { performReportAction } from "~/reports/frame/workflow.server";
import { setCutOffDate } from "~/models/settings.server";
import { getAuthUser } from "~/models/user.server";
import { loader as adminDashboardLoader } from "~/routes/_shell.admin.dashboard";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { loader as partnerProfileLoader } from "~/routes/_shell.partner.profile";
import { action as lockAction, loader as lockLoader } from "~/routes/lock-screen";
import { daysBetween } from "~/utils/dates";
import { addQuarters, quarterBounds } from "~/utils/quarters";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

async function authUserOf(email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}

describe("lock screen", () => {
  it("locks the session until the password is given again", async () => {
    let cookie = await sessionCookieFor("partner1@example.org");
    const locked = await runRoute(lockAction, buildRequest("/lock-screen", { form: { intent: "lock" }, cookie }));
    expect(locked.location).toBe("/lock-screen");
    cookie = cookiesFrom(locked, cookie);

    const blocked = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie }));
    expect(blocked.location).toBe("/lock-screen");
    const screen = await runRoute(lockLoader, buildRequest("/lock-screen", { cookie }));
    expect(screen.data).toEqual({ name: "Acme Generics Ltd", email: "partner1@example.org" });

    const wrong = await runRoute(lockAction, buildRequest("/lock-screen", { form: { intent: "unlock", password: "nope" }, cookie }));
    expect(wrong.status).toBe(401);
    expect(wrong.data.error[""]).toEqual(["Incorrect password. Please try again."]);

    const unlocked = await runRoute(lockAction, buildRequest("/lock-screen", { form: { intent: "unlock", password: "partner-pass-1" }, cookie }));
    expect(unlocked.location).toBe("/partner/dashboard");
    cookie = cookiesFrom(unlocked, cookie);
    expect((await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie }))).status).toBe(200);
  });
});

describe("partner dashboard", () => {
  const dashboardOf = async (email: string) =>
    (await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: await sessionCookieFor(email) }))).data;
  const tileOf = (data: { tiles: { type: string }[] }, type: string) => data.tiles.find((tile) => tile.type === type);

  it("offers per report of the open quarter what to do next: start, continue, fix (with the comment) or nothing", async () => {
    const acme = await dashboardOf("partner1@example.org");
    expect(acme.quarterName).toBe((await getOpenQuarter()).name);
    expect(tileOf(acme, "pdt")).toMatchObject({ state: "Submitted", nextStep: null, lastMessage: expect.stringMatching(/report is complete/) });
    expect(tileOf(acme, "filing")).toMatchObject({
      state: "Rejected",
      nextStep: "fix",
      sentBack: { by: "rejected", comment: "Please check the quantities for the second month." },
    });
    expect(tileOf(acme, "sales")).toMatchObject({ state: "Saved", nextStep: "continue", submittedAt: null, sentBack: null });
    // Filing Plans to fix and the Sales Report to finish; the timeline is submitted.
    expect(acme.owed).toBe(2);

    const borealis = await dashboardOf("partner2@example.org");
    expect(tileOf(borealis, "filing")).toMatchObject({ state: "not started", nextStep: "start", lastMessage: null });
    expect(tileOf(borealis, "sales")).toMatchObject({ state: "Approved", nextStep: null, sentBack: null });
  });

  it("after an administrator rejects, the partner is asked to fix the report with the latest comment; once saved, to continue, the comment still shown until submitted", async () => {
    const quarter = await getOpenQuarter();
    const borealis = await authUserOf("partner2@example.org");
    const key = { partnerId: borealis.partnerId!, quarterId: quarter.id, type: "pdt" as const };
    await performReportAction({ actor: await authUserOf("admin@example.org"), key, action: "reject", comment: "Stage dates of Q3 are missing." });
    expect(tileOf(await dashboardOf("partner2@example.org"), "pdt")).toMatchObject({
      state: "Rejected",
      nextStep: "fix",
      sentBack: { by: "rejected", comment: "Stage dates of Q3 are missing." },
    });

    await performReportAction({ actor: borealis, key, action: "save" });
    expect(tileOf(await dashboardOf("partner2@example.org"), "pdt")).toMatchObject({
      state: "Saved",
      nextStep: "continue",
      sentBack: { by: "rejected", comment: "Stage dates of Q3 are missing." },
    });
    await performReportAction({ actor: borealis, key, action: "submit", comment: "Dates added." });
    expect(tileOf(await dashboardOf("partner2@example.org"), "pdt")).toMatchObject({ state: "Resubmitted", nextStep: null, sentBack: null });
  });

  it("a report reopened after approval is flagged with the administrator's comment; the partner owes it again", async () => {
    const quarter = await getOpenQuarter();
    const admin = await authUserOf("admin@example.org");
    const borealis = await authUserOf("partner2@example.org");
    const before = await dashboardOf("partner2@example.org");
    expect(tileOf(before, "sales")).toMatchObject({ state: "Approved", sentBack: null });
    const key = { partnerId: borealis.partnerId!, quarterId: quarter.id, type: "sales" as const };
    await performReportAction({ actor: admin, key, action: "reopen", comment: "Please add the March shipments." });
    const after = await dashboardOf("partner2@example.org");
    expect(tileOf(after, "sales")).toMatchObject({
      state: "Saved",
      nextStep: "continue",
      sentBack: { by: "reopened", comment: "Please add the March shipments." },
    });
    expect(after.owed).toBe(before.owed + 1);
  });

  it("counts the days left to the open quarter's cut-off date, negative once it has passed, and ignores a closed quarter's date", async () => {
    const quarter = await getOpenQuarter();
    const admin = await authUserOf("admin@example.org");
    vi.stubEnv("PORTAL_TODAY", quarter.startDate);
    try {
      await setCutOffDate(quarter.endDate, { actorId: admin.id });
      const ahead = await dashboardOf("partner1@example.org");
      expect(ahead.cutOff).toEqual({ date: quarter.endDate, daysLeft: daysBetween(quarter.startDate, quarter.endDate) });
      expect(ahead.cutOff.daysLeft).toBeGreaterThan(80);

      vi.stubEnv("PORTAL_TODAY", quarter.endDate);
      await setCutOffDate(quarter.startDate, { actorId: admin.id });
      expect((await dashboardOf("partner1@example.org")).cutOff.daysLeft).toBeLessThan(-80);

      const closed = addQuarters(quarter, -1);
      await setCutOffDate(quarterBounds(closed).endDate, { actorId: admin.id });
      expect((await dashboardOf("partner1@example.org")).cutOff).toBeNull();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("shows only the signed-in partner's reports", async () => {
    const [acme] = await db.select().from(partners).where(eq(partners.email, "partner1@example.org"));
    await db.delete(reports).where(eq(reports.partnerId, acme.id));
    const { tiles } = await dashboardOf("partner1@example.org");
    expect(tiles.map((tile: { state: string }) => tile.state)).toEqual(["not started", "not started", "not started"]);
    expect(tileOf(await dashboardOf("partner2@example.org"), "sales")).toMatchObject({ state: "Approved" });
  });

  it("profile shows the partner's own details, with no address when it has none", async () => {
    const { data } = await runRoute(partnerProfileLoader, buildRequest("/partner/profile", { cookie: await sessionCookieFor("partner3@example.org") }));
    expect(data.profile).toEqual({
      companyName: "Cedar Life Sciences",
      email: "partner3@example.org",
      contactNumber: "+271155501234",
      region: "Africa",
      address: null,
    });
  });

  it("a partner whose company is deactivated loses its session", async () => {
    const cookie = await sessionCookieFor("partner2@example.org");
    const [user] = await db.select().from(users).where(eq(users.email, "partner2@example.org"));
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, user.partnerId!));
    expect((await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie }))).location).toBe("/login");
  });
});

describe("admin dashboard", () => {
  it("counts the open quarter's reports per state, with the partners that have not started", async () => {
    const { data } = await runRoute(adminDashboardLoader, buildRequest("/admin/dashboard", { cookie: await sessionCookieFor("staff@example.org") }));
    const byType = Object.fromEntries(data.counts.map((row: { type: string }) => [row.type, row]));
    expect(byType.pdt).toEqual({ type: "pdt", byStatus: { Submitted: 1, Resubmitted: 1 }, notStarted: 1 });
    expect(byType.filing).toEqual({ type: "filing", byStatus: { Rejected: 1 }, notStarted: 2 });
    expect(byType.sales).toEqual({ type: "sales", byStatus: { Saved: 1, Approved: 1 }, notStarted: 1 });
  });
});
