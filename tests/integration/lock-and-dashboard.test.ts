import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, reports, users } from "~/db/schema";
import { loader as adminDashboardLoader } from "~/routes/_shell.admin.dashboard";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { loader as partnerProfileLoader } from "~/routes/_shell.partner.profile";
import { action as lockAction, loader as lockLoader } from "~/routes/lock-screen";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

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
  it("shows each report's latest quarter, status, submission time and last message from the reports table", async () => {
    const cookie = await sessionCookieFor("partner1@example.org");
    const { data } = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie }));
    expect(data.tiles.pdt).toMatchObject({ status: "Submitted", lastMessage: expect.stringMatching(/report is complete/) });
    expect(data.tiles.filing).toMatchObject({ status: "Rejected", lastMessage: "Please check the quantities for the second month." });
    expect(data.tiles.sales).toMatchObject({ status: "Saved", submittedAt: null, lastMessage: null });
    expect(data.tiles.pdt.quarterName).toMatch(/^Q[1-4] \d{4}$/);
    expect(data.cutOffDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("shows only the signed-in partner's reports", async () => {
    const [acme] = await db.select().from(partners).where(eq(partners.email, "partner1@example.org"));
    await db.delete(reports).where(eq(reports.partnerId, acme.id));
    const { data } = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: await sessionCookieFor("partner1@example.org") }));
    expect(data.tiles).toEqual({ pdt: null, filing: null, sales: null });
    const other = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: await sessionCookieFor("partner2@example.org") }));
    expect(other.data.tiles.sales).toMatchObject({ status: "Approved" });
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
