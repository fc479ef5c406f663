import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, auditLog, partnerProducts, partners, products, reports, sessions, users } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { action as listAction, loader as listLoader } from "~/routes/_shell.admin.partner-list";
import { loader as confirmLoader } from "~/routes/_shell.admin.partner-list_.deactivate.$id";
import { loader as adminDashboardLoader } from "~/routes/_shell.admin.dashboard";
import { loader as partnerDashboardLoader } from "~/routes/_shell.partner.dashboard";
import { action as loginAction } from "~/routes/login";
import { ACCOUNT_INACTIVE } from "~/utils/auth.server";
import { partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import type { ReportState, ReportTypeKey } from "~/reports/frame/registry";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor, type RouteResult } from "../support/remix";

const ACME = "Acme Generics Ltd";
const BOREALIS = "Borealis Pharma Pvt";
const CEDAR = "Cedar Life Sciences";

async function openList(path = "/admin/partner-list", email = "admin@example.org") {
  return runRoute(listLoader, buildRequest(path, { cookie: await sessionCookieFor(email) }));
}
const names = (result: RouteResult<any>) => result.data.rows.map((row: { companyName: string }) => row.companyName);

async function partnerId(email: string) {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email));
  return row.id;
}

async function post(form: Record<string, string>, { email = "admin@example.org", path = "/admin/partner-list" } = {}) {
  return runRoute(listAction, buildRequest(path, { form, cookie: await sessionCookieFor(email) }));
}

async function toastOf(result: RouteResult) {
  return (await readToast(buildRequest("/admin/partner-list", { cookie: cookiesFrom(result) }))).toast;
}

const login = (email: string, password: string) => runRoute(loginAction, buildRequest("/login", { form: { email, password } }));

describe("GET /admin/partner-list", () => {
  it("sends a visitor without a session to /login", async () => {
    const result = await runRoute(listLoader, buildRequest("/admin/partner-list"));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/login");
  });

  it("shows the list to ADMIN (with controls) and STAFF (read-only); PARTNER gets 403", async () => {
    const admin = await openList();
    expect(admin.status).toBe(200);
    expect(admin.data.canEdit).toBe(true);
    expect(names(admin)).toEqual([ACME, BOREALIS, CEDAR]);

    const staff = await openList("/admin/partner-list", "staff@example.org");
    expect(staff.status).toBe(200);
    expect(staff.data.canEdit).toBe(false);
    expect(names(staff)).toEqual([ACME, BOREALIS, CEDAR]);

    const partner = await openList("/admin/partner-list", "partner1@example.org");
    expect(partner.status).toBe(403);
    expect(partner.data).toEqual({ message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" });
  });

  it("lists each partner's e-mail", async () => {
    const list = await openList();
    expect(list.data.rows.map((row: { email: string }) => row.email)).toEqual(["partner1@example.org", "partner2@example.org", "partner3@example.org"]);
  });

  it("sorts by company name both ways through the query string", async () => {
    expect(names(await openList("/admin/partner-list?sort=company&dir=asc"))).toEqual([ACME, BOREALIS, CEDAR]);
    const desc = await openList("/admin/partner-list?sort=company&dir=desc");
    expect(names(desc)).toEqual([CEDAR, BOREALIS, ACME]);
    expect(desc.data.query).toMatchObject({ sort: "company", dir: "desc" });
    // An unknown direction falls back to A to Z.
    expect(names(await openList("/admin/partner-list?dir=sideways"))).toEqual([ACME, BOREALIS, CEDAR]);
  });

  it("searches company names and e-mails, case-insensitively, keeping the sort", async () => {
    expect(names(await openList("/admin/partner-list?q=BOREALIS"))).toEqual([BOREALIS]);
    expect(names(await openList("/admin/partner-list?q=life"))).toEqual([CEDAR]);
    expect(names(await openList("/admin/partner-list?q=Partner3%40Example"))).toEqual([CEDAR]);
    // "e" is in every name and every e-mail.
    expect(names(await openList("/admin/partner-list?q=e&sort=company&dir=desc"))).toEqual([CEDAR, BOREALIS, ACME]);
    expect(names(await openList("/admin/partner-list?q=nobody-matches-this"))).toEqual([]);
  });

  it("searches % and _ literally", async () => {
    expect(names(await openList("/admin/partner-list?q=%25"))).toEqual([]);
    expect(names(await openList("/admin/partner-list?q=_"))).toEqual([]);
    await db.update(partners).set({ companyName: "Cedar 100% Life" }).where(eq(partners.email, "partner3@example.org"));
    expect(names(await openList("/admin/partner-list?q=0%25"))).toEqual(["Cedar 100% Life"]);
  });

  it("shows the active products as tags, sorted by name", async () => {
    const list = await openList();
    const productNames = (company: string) =>
      list.data.rows.find((row: { companyName: string }) => row.companyName === company).products.map((p: { name: string }) => p.name);
    expect(productNames(ACME)).toEqual(["Dolutegravir 50 mg", "Dolutegravir API", "Sofosbuvir/Daclatasvir", "TLD (Tenofovir/Lamivudine/Dolutegravir)"]);
    expect(productNames(CEDAR)).toEqual(["Abacavir API", "Lopinavir/ritonavir pellets", "Paediatric Abacavir/Lamivudine/Dolutegravir", "Ravidasvir API"]);
  });

  it("leaves out a product the partner no longer has and a deactivated product", async () => {
    const acme = await partnerId("partner1@example.org");
    const [dolutegravirApi] = await db.select().from(products).where(eq(products.name, "Dolutegravir API"));
    await db
      .update(partnerProducts)
      .set({ isActive: false })
      .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, dolutegravirApi.id)));
    await db.update(products).set({ isActive: false }).where(eq(products.name, "Sofosbuvir/Daclatasvir"));
    const list = await openList("/admin/partner-list?q=acme");
    expect(list.data.rows[0].products.map((p: { name: string }) => p.name)).toEqual(["Dolutegravir 50 mg", "TLD (Tenofovir/Lamivudine/Dolutegravir)"]);
  });

  it("shows each report's state in the open quarter, 'not started' without a report", async () => {
    const list = await openList();
    expect(list.data.quarterName).toBe((await getOpenQuarter()).name);
    const statuses = Object.fromEntries(list.data.rows.map((row: { companyName: string; statuses: unknown }) => [row.companyName, row.statuses]));
    expect(statuses).toEqual({
      [ACME]: { pdt: "Submitted", filing: "Rejected", sales: "Saved" },
      [BOREALIS]: { pdt: "Resubmitted", filing: "not started", sales: "Approved" },
      [CEDAR]: { pdt: "not started", filing: "not started", sales: "not started" },
    });
  });

  it("each partner's reminder menu offers only the reports it owes: none once everything is submitted", async () => {
    const owed = async () =>
      Object.fromEntries((await openList()).data.rows.map((row: { companyName: string; owed: string[] }) => [row.companyName, row.owed]));
    expect(await owed()).toEqual({ [ACME]: ["filing", "sales"], [BOREALIS]: ["filing"], [CEDAR]: ["pdt", "filing", "sales"] });
    const quarter = await getOpenQuarter();
    await db
      .update(reports)
      .set({ status: "Approved" })
      .where(and(eq(reports.quarterId, quarter.id), eq(reports.partnerId, await partnerId("partner1@example.org"))));
    expect((await owed())[ACME]).toEqual([]);
  });
});

describe("the report state filter (the admin dashboard's counts link here)", () => {
  it("lists the partners whose report of a type is in a state of the open quarter, 'not started' included", async () => {
    expect(names(await openList("/admin/partner-list?report=filing&state=Rejected"))).toEqual([ACME]);
    expect(names(await openList("/admin/partner-list?report=filing&state=not+started"))).toEqual([BOREALIS, CEDAR]);
    expect(names(await openList("/admin/partner-list?report=pdt&state=Resubmitted"))).toEqual([BOREALIS]);
    expect(names(await openList("/admin/partner-list?report=sales&state=Submitted"))).toEqual([]);
    // A closed quarter's report does not count: Cedar's filing plan of the last quarter was approved.
    expect(names(await openList("/admin/partner-list?report=filing&state=Approved"))).toEqual([]);
  });

  it("keeps the filter with a search and a sort, and in the links the list makes", async () => {
    const list = await openList("/admin/partner-list?q=e&dir=desc&report=filing&state=not+started");
    expect(names(list)).toEqual([CEDAR, BOREALIS]);
    expect(list.data.query.report).toEqual({ type: "filing", state: "not started" });
    expect(partnerListHref(list.data.query, { dir: "asc" })).toBe("/admin/partner-list?q=e&sort=company&dir=asc&report=filing&state=not+started");
    expect(partnerListHref(list.data.query, { report: null })).toBe("/admin/partner-list?q=e&sort=company&dir=desc");
  });

  it("ignores an unknown report or state, showing every partner", async () => {
    for (const search of ["report=pdt", "state=Rejected", "report=audit&state=Rejected", "report=pdt&state=Deleted"]) {
      const list = await openList(`/admin/partner-list?${search}`);
      expect(names(list), search).toEqual([ACME, BOREALIS, CEDAR]);
      expect(list.data.query.report).toBeNull();
    }
  });

  it("each count of the admin dashboard links to exactly the partners behind it", async () => {
    const cookie = await sessionCookieFor("staff@example.org");
    const { data } = await runRoute(adminDashboardLoader, buildRequest("/admin/dashboard", { cookie }));
    for (const row of data.counts as { type: ReportTypeKey; byStatus: Record<string, number>; notStarted: number }[]) {
      for (const [state, count] of Object.entries({ ...row.byStatus, "not started": row.notStarted })) {
        const href = partnerListHref(parsePartnerListQuery(new URLSearchParams()), { report: { type: row.type, state: state as ReportState } });
        expect(names(await openList(href)), href).toHaveLength(count);
      }
    }
  });
});

describe("the list's queries", () => {
  it("does not grow with the number of partners (no query per partner)", async () => {
    const handle = (globalThis as unknown as { __portalDb: { db: typeof db } }).__portalDb;
    const countSelects = async () => {
      const spy = vi.spyOn(handle.db, "select");
      try {
        await openList();
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    const withThree = await countSelects();
    const [product] = await db.select().from(products).limit(1);
    const extra = await db
      .insert(partners)
      .values(
        Array.from({ length: 20 }, (_, i) => ({ companyName: `Extra ${i}`, email: `extra${i}@example.org`, contactNumber: "+911234567890", region: "Asia" })),
      )
      .returning({ id: partners.id });
    await db.insert(partnerProducts).values(extra.map((partner) => ({ partnerId: partner.id, productId: product.id })));
    const withTwentyThree = await countSelects();
    expect(names(await openList())).toHaveLength(23);
    expect(withTwentyThree).toBe(withThree);
    expect(withThree).toBeGreaterThanOrEqual(4); // the signed-in user, the partners, their products, their reports
    expect(withThree).toBeLessThanOrEqual(8);
  });
});

describe("deactivating and reactivating a partner", () => {
  it("ADMIN deactivates: soft delete, login refused, sessions ended, audit written, list updated", async () => {
    const acme = await partnerId("partner1@example.org");
    const partnerCookie = await sessionCookieFor("partner1@example.org");
    expect((await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: partnerCookie }))).status).toBe(200);
    const [partnerUser] = await db.select().from(users).where(eq(users.partnerId, acme));
    await db.insert(apiTokens).values({ userId: partnerUser.id, tokenHash: "test-token-hash", expiresAt: new Date(Date.now() + 86_400_000) });

    const result = await post({ intent: "deactivate", partnerId: String(acme) });
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/partner-list");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Partner successfully removed!" });

    // Soft delete: the rows stay, marked inactive.
    const [partner] = await db.select().from(partners).where(eq(partners.id, acme));
    expect(partner.isActive).toBe(false);
    const [user] = await db.select().from(users).where(eq(users.partnerId, acme));
    expect(user.isActive).toBe(false);
    expect(await db.select().from(partnerProducts).where(eq(partnerProducts.partnerId, acme))).toHaveLength(4);

    // Its session ended: the old cookie no longer opens anything.
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const replay = await runRoute(partnerDashboardLoader, buildRequest("/partner/dashboard", { cookie: partnerCookie }));
    expect(replay.status).toBe(302);
    expect(replay.location).toBe("/login");
    const [token] = await db.select().from(apiTokens).where(eq(apiTokens.userId, user.id));
    expect(token.revokedAt).not.toBeNull();

    // It cannot sign in any more.
    const signIn = await login("partner1@example.org", "partner-pass-1");
    expect(signIn.status).toBe(401);
    expect(signIn.data.error[""]).toEqual([ACCOUNT_INACTIVE]);

    // It left the list and shows under "Show inactive".
    expect(names(await openList())).toEqual([BOREALIS, CEDAR]);
    const inactive = await openList("/admin/partner-list?status=inactive");
    expect(names(inactive)).toEqual([ACME]);
    expect(inactive.data.rows[0].isActive).toBe(false);

    const [admin] = await db.select().from(users).where(eq(users.email, "admin@example.org"));
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "partner.deactivate"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, entity: "partner", entityId: String(acme), requestId: "test-request" });
    expect(audit[0].before).toMatchObject({ companyName: ACME, isActive: true, users: [{ id: user.id, isActive: true }] });
    expect(audit[0].after).toMatchObject({ isActive: false, users: [{ id: user.id, isActive: false }], sessionsEnded: 1 });
  });

  it("ADMIN reactivates: both flags restored, sign-in works again, audit written", async () => {
    const cedar = await partnerId("partner3@example.org");
    await post({ intent: "deactivate", partnerId: String(cedar) });

    const result = await post({ intent: "reactivate", partnerId: String(cedar) }, { path: "/admin/partner-list?status=inactive" });
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/partner-list?sort=company&dir=asc&status=inactive");
    expect(await toastOf(result)).toMatchObject({ type: "success", message: "Partner reactivated!" });

    const [partner] = await db.select().from(partners).where(eq(partners.id, cedar));
    const [user] = await db.select().from(users).where(eq(users.partnerId, cedar));
    expect(partner.isActive).toBe(true);
    expect(user.isActive).toBe(true);
    expect((await login("partner3@example.org", "partner-pass-3")).location).toBe("/partner/dashboard");
    expect(names(await openList())).toEqual([ACME, BOREALIS, CEDAR]);
    expect(names(await openList("/admin/partner-list?status=inactive"))).toEqual([]);

    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "partner.reactivate"));
    expect(audit).toHaveLength(1);
    expect(audit[0].before).toMatchObject({ isActive: false, users: [{ id: user.id, isActive: false }] });
    expect(audit[0].after).toMatchObject({ isActive: true, users: [{ id: user.id, isActive: true }] });
  });

  it("goes back to the list in the state it was posted from", async () => {
    const borealis = await partnerId("partner2@example.org");
    const result = await post({ intent: "deactivate", partnerId: String(borealis) }, { path: "/admin/partner-list?q=a&sort=company&dir=desc" });
    expect(result.location).toBe("/admin/partner-list?q=a&sort=company&dir=desc");
  });

  it("STAFF and PARTNER get 403 for both actions, and nothing changes", async () => {
    const acme = await partnerId("partner1@example.org");
    const borealis = await partnerId("partner2@example.org");
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, borealis));
    await db.update(users).set({ isActive: false }).where(eq(users.partnerId, borealis));

    for (const email of ["staff@example.org", "partner1@example.org", "partner2@example.org"]) {
      const deactivate = await post({ intent: "deactivate", partnerId: String(acme) }, { email });
      const reactivate = await post({ intent: "reactivate", partnerId: String(borealis) }, { email });
      // partner2 is deactivated itself: its session is no session at all.
      const expected = email === "partner2@example.org" ? 302 : 403;
      expect(deactivate.status, email).toBe(expected);
      expect(reactivate.status, email).toBe(expected);
    }
    const rows = await db
      .select()
      .from(partners)
      .where(inArray(partners.id, [acme, borealis]));
    expect(Object.fromEntries(rows.map((row) => [row.id, row.isActive]))).toEqual({ [acme]: true, [borealis]: false });
    expect(await db.select().from(auditLog)).toHaveLength(0);
  });

  it("an anonymous post is sent to /login", async () => {
    const result = await runRoute(listAction, buildRequest("/admin/partner-list", { form: { intent: "deactivate", partnerId: "1" } }));
    expect(result.location).toBe("/login");
    expect(await db.select().from(partners).where(eq(partners.isActive, false))).toHaveLength(0);
  });

  it("refuses an unknown intent or partner", async () => {
    expect((await post({ intent: "delete", partnerId: "1" })).status).toBe(400);
    expect((await post({ intent: "deactivate", partnerId: "abc" })).status).toBe(400);
    const unknown = await post({ intent: "deactivate", partnerId: "99999" });
    expect(unknown.location).toBe("/error-404");
    expect(await db.select().from(auditLog)).toHaveLength(0);
  });

  it("deactivating twice changes nothing the second time", async () => {
    const acme = await partnerId("partner1@example.org");
    await post({ intent: "deactivate", partnerId: String(acme) });
    const again = await post({ intent: "deactivate", partnerId: String(acme) });
    expect(again.location).toBe("/admin/partner-list");
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "partner.deactivate"))).toHaveLength(1);
  });
});

describe("GET /admin/partner-list/deactivate/:id (the question without JavaScript)", () => {
  it("asks ADMIN about the partner and keeps the list's state for Cancel and Ok", async () => {
    const acme = await partnerId("partner1@example.org");
    const result = await runRoute(
      confirmLoader,
      buildRequest(`/admin/partner-list/deactivate/${acme}?q=ac&dir=desc`, { cookie: await sessionCookieFor("admin@example.org") }),
      { params: { id: String(acme) } },
    );
    expect(result.status).toBe(200);
    expect(result.data).toEqual({ partner: { id: acme, companyName: ACME }, back: "/admin/partner-list?q=ac&sort=company&dir=desc" });
  });

  it("is refused to STAFF and PARTNER, and sends unknown partners to the not-found page", async () => {
    const acme = await partnerId("partner1@example.org");
    for (const email of ["staff@example.org", "partner1@example.org"]) {
      const result = await runRoute(confirmLoader, buildRequest(`/admin/partner-list/deactivate/${acme}`, { cookie: await sessionCookieFor(email) }), {
        params: { id: String(acme) },
      });
      expect(result.status, email).toBe(403);
    }
    const unknown = await runRoute(
      confirmLoader,
      buildRequest("/admin/partner-list/deactivate/99999", { cookie: await sessionCookieFor("admin@example.org") }),
      { params: { id: "99999" } },
    );
    expect(unknown.location).toBe("/error-404");
  });

  it("sends an already deactivated partner back to the list", async () => {
    const acme = await partnerId("partner1@example.org");
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, acme));
    const result = await runRoute(
      confirmLoader,
      buildRequest(`/admin/partner-list/deactivate/${acme}`, { cookie: await sessionCookieFor("admin@example.org") }),
      { params: { id: String(acme) } },
    );
    expect(result.location).toBe("/admin/partner-list");
  });
});
