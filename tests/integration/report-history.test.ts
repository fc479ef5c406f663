import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, reports, reportSnapshots, users } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { action as adminAction } from "~/routes/_shell.admin.sales-report.$id";
import { action as partnerAction, loader as partnerLoader } from "~/routes/_shell.partner.sales-report";
import type { SalesReportPageData } from "~/reports/sales/page.server";
import { unpackSalesRows } from "~/reports/sales/contract";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

const ADMIN = "admin@example.org";
const CEDAR = "partner3@example.org";
const year = String(new Date().getUTCFullYear());

let cedarId: number;
let quarterId: number;
beforeEach(async () => {
  const [partner] = await db.select().from(partners).where(eq(partners.email, CEDAR));
  cedarId = partner.id;
  quarterId = (await getOpenQuarter()).id;
});

async function nameOf(email: string) {
  const [user] = await db.select({ name: users.name }).from(users).where(eq(users.email, email));
  return user.name;
}

async function page(query = ""): Promise<SalesReportPageData> {
  const result = await runRoute<SalesReportPageData>(partnerLoader, buildRequest(`/partner/sales-report${query}`, { cookie: await sessionCookieFor(CEDAR) }));
  expect(result.status).toBe(200);
  return result.data!;
}

const apiRow = (purchaser: string) => ({
  year,
  month: "March",
  country: "India",
  purchaser,
  productName: "Abacavir API",
  quantity: "10",
  totalValue: "1000",
});

async function post(form: Record<string, string>, email = CEDAR) {
  const cookie = await sessionCookieFor(email);
  if (email === ADMIN) {
    return runRoute(adminAction, buildRequest(`/admin/sales-report/${cedarId}`, { cookie, form }), { params: { id: String(cedarId) } });
  }
  return runRoute(partnerAction, buildRequest("/partner/sales-report", { cookie, form }));
}

async function save(body: { API: object[]; deletedIds?: number[] }, extra: Record<string, string> = {}) {
  const version = String((await page()).view.report.version);
  return post({
    intent: "save",
    quarterId: String(quarterId),
    version,
    payload: JSON.stringify({ API: body.API, FDF: [], deletedIds: body.deletedIds ?? [] }),
    ...extra,
  });
}

describe("the Sales Report history", () => {
  it("a report not started has no history", async () => {
    const data = await page();
    expect(data.view.report.id).toBeNull();
    expect(data.history).toEqual([]);
    expect(data.changes).toBeNull();
  });

  it("save, submit and reject are listed newest first with who, comment, row count and snapshot hash", async () => {
    expect((await save({ API: [apiRow("Global Fund"), apiRow("UNICEF")] })).status).toBe(302);
    expect((await save({ API: [apiRow("PEPFAR")] }, { intent: "submit", comment: "Q sales attached." })).status).toBe(302);
    expect((await post({ intent: "reject", quarterId: String(quarterId), comment: "Purchaser missing." }, ADMIN)).status).toBe(302);

    const data = await page();
    const [report] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.partnerId, cedarId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
    const snapshots = await db.select().from(reportSnapshots).where(eq(reportSnapshots.reportId, report.id)).orderBy(reportSnapshots.id);
    expect(snapshots.map((snapshot) => snapshot.event)).toEqual(["submit", "reject"]);

    expect(data.history).toHaveLength(3);
    const [rejected, submitted, saved] = data.history;
    expect(rejected).toMatchObject({
      action: "reject",
      who: await nameOf(ADMIN),
      comment: "Purchaser missing.",
      rowCount: 3,
      snapshotSha256: snapshots[1].sha256,
    });
    expect(submitted).toMatchObject({
      action: "submit",
      who: await nameOf(CEDAR),
      comment: "Q sales attached.",
      rowCount: 3,
      snapshotSha256: snapshots[0].sha256,
    });
    expect(saved).toMatchObject({ action: "save", who: await nameOf(CEDAR), comment: null, rowCount: null, snapshotSha256: null });
    expect(rejected.snapshotSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(rejected.at).getTime()).toBeGreaterThanOrEqual(new Date(saved.at).getTime());

    // Nothing changed since the submission yet.
    expect(data.changes).toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it("counts rows added, changed and removed since the last submission", async () => {
    await save({ API: [apiRow("Global Fund"), apiRow("UNICEF"), apiRow("PEPFAR")] }, { intent: "submit", comment: "Sent." });
    await post({ intent: "reject", quarterId: String(quarterId), comment: "Check the quantities." }, ADMIN);

    const [first, second, third] = unpackSalesRows((await page()).view.rows).API;
    // Edit one row, delete one, add one.
    expect((await save({ API: [{ ...first, quantity: "20" } as object, second, apiRow("WHO")], deletedIds: [third.id!] })).status).toBe(302);

    const data = await page("?changes=submission");
    const added = unpackSalesRows(data.view.rows).API.find((row) => row.purchaser === "WHO")!;
    expect(data.changes).toEqual({ added: 1, changed: 1, removed: 1 });
    // The same rows marked on the screen: the changed cell with its old value, the added row, the removed one as it was.
    expect(data.comparison).toMatchObject({ found: true, counts: { added: 1, changed: 1, removed: 1 } });
    if (!data.comparison?.found) throw new Error("no comparison");
    expect(data.comparison.changed).toEqual({ [String(first.id)]: { quantity: "10" } });
    expect(data.comparison.added).toEqual([String(added.id)]);
    expect(data.comparison.removed).toEqual([{ table: "API", cells: expect.objectContaining({ purchaser: "PEPFAR", country: "India", month: "March" }) }]);
    expect(data.history.map((entry) => entry.action)).toEqual(["save", "reject", "submit"]);
  });

  it("the same number written otherwise and a reverted edit are no change", async () => {
    const purchasers = Array.from({ length: 30 }, (_, i) => `Buyer ${String(i).padStart(2, "0")}`);
    await save({ API: purchasers.map(apiRow) }, { intent: "submit", comment: "Thirty rows." });
    await post({ intent: "reject", quarterId: String(quarterId), comment: "Check." }, ADMIN);
    const rows = unpackSalesRows((await page()).view.rows).API;

    // Rows 0-1: the same quantity written as "10.00" and an edit put back; rows 2-16 changed; rows 17-24 removed; 10 added.
    const edited = rows
      .slice(0, 17)
      .map((row, i) => (i === 0 ? { ...row, quantity: "10.00" } : i === 1 ? row : { ...row, purchaser: `${row.purchaser} (corrected)` }));
    expect((await save({ API: [{ ...rows[1], purchaser: "Changed for a moment" }] })).status).toBe(302);
    const version = (await page()).view.report.version;
    expect(version).toBeGreaterThan(0);
    const added = Array.from({ length: 10 }, (_, i) => apiRow(`New buyer ${i}`));
    expect((await save({ API: [...edited, ...added], deletedIds: rows.slice(17, 25).map((row) => row.id!) })).status).toBe(302);

    const data = await page("?changes=submission");
    expect(data.changes).toEqual({ added: 10, changed: 15, removed: 8 });
    if (!data.comparison?.found) throw new Error("no comparison");
    expect(Object.keys(data.comparison.changed).map(Number)).toEqual(rows.slice(2, 17).map((row) => row.id));
    expect(data.comparison.changed[String(rows[2].id)]).toEqual({ purchaser: rows[2].purchaser });
    const addedIds = unpackSalesRows(data.view.rows)
      .API.filter((row) => row.purchaser.startsWith("New buyer"))
      .map((row) => String(row.id!));
    expect([...data.comparison.added].sort()).toEqual([...addedIds].sort());
  });
});
