import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import ExcelJS from "exceljs";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, reports, salesRows } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { REPORT_HAS_ROWS } from "~/reports/frame/screen.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { unpackSalesRows, type PackedSalesRows } from "~/reports/sales/contract";
import { action as adminAction, loader as adminLoader } from "~/routes/_shell.admin.sales-report.$id";
import { loader as adminXlsx } from "~/routes/admin.sales-report.$id.xlsx";
import { action as partnerAction, loader as partnerLoader } from "~/routes/_shell.partner.sales-report";
import { loader as partnerXlsx } from "~/routes/partner.sales-report.xlsx";
import { REPLACE_NOT_CONFIRMED } from "~/reports/sales/page.server";
import { readToast } from "~/utils/toast.server";
import { REQUEST_REFUSALS } from "~/utils/form-data.server";
import { BAD_REQUEST } from "~/utils/messages";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor, testContext, type RouteResult } from "../support/remix";
import { apiGridRow, fdfGridRow } from "../support/sales-grid-rows";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const CEDAR = "partner3@example.org";

const toastOf = async (result: RouteResult) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result) }))).toast;

async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}

let acmeId: number;
let cedarId: number;
let quarterId: number;
const year = String(new Date().getUTCFullYear());
beforeEach(async () => {
  acmeId = await partnerIdOf(ACME);
  cedarId = await partnerIdOf(CEDAR);
  quarterId = (await getOpenQuarter()).id;
});

/** A page's result with its rows as the page reads them (the data carries them packed). */
function withRows(result: RouteResult<any>) {
  if (result.data?.view?.rows) result.data.view.rows = unpackSalesRows(result.data.view.rows);
  return result;
}
async function partnerPage(email: string, search = "") {
  const cookie = await sessionCookieFor(email);
  return withRows(await runRoute(partnerLoader, buildRequest(`/partner/sales-report${search}`, { cookie })));
}
async function adminPage(email: string, partnerId: number, search = "") {
  const cookie = await sessionCookieFor(email);
  return withRows(await runRoute(adminLoader, buildRequest(`/admin/sales-report/${partnerId}${search}`, { cookie }), { params: { id: String(partnerId) } }));
}
/** The partner's page as the browser loads it after `result` (with the cookies it set). */
async function pageAfter(email: string, result: RouteResult, previous?: string) {
  const cookie = cookiesFrom(result, previous ?? (await sessionCookieFor(email)));
  return withRows(await runRoute(partnerLoader, buildRequest("/partner/sales-report", { cookie })));
}
async function postPartner(email: string, form: Record<string, string>, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerAction, buildRequest(`/partner/sales-report${search}`, { cookie, form }));
}
async function postAdmin(email: string, partnerId: number, form: Record<string, string>) {
  const cookie = await sessionCookieFor(email);
  return runRoute(adminAction, buildRequest(`/admin/sales-report/${partnerId}`, { cookie, form }), { params: { id: String(partnerId) } });
}

async function storedRows(partnerId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  if (!report) return [];
  return db.select().from(salesRows).where(eq(salesRows.reportId, report.id)).orderBy(salesRows.id);
}

async function versionOf(email: string) {
  const page = await partnerPage(email);
  return String(page.data.view.report.version);
}

const apiRow = (overrides: Record<string, string> = {}) =>
  apiGridRow({ year, month: "March", purchaser: "Global Fund", quantity: "1,250.5", totalValue: "98000", ...overrides });
const fdfRow = (overrides: Record<string, string> = {}) =>
  fdfGridRow({
    year,
    month: "February",
    purchaser: "PEPFAR",
    productName: "Lopinavir/ritonavir pellets",
    strength: "40/10 mg",
    formulationType: "Oral pellets",
    quantity: "1000",
    comments: "=cmd|' /C calc'!A0",
    ...overrides,
  });

/** The partner's post as the grid sends it: one JSON object. */
async function postPartnerJson(email: string, json: unknown) {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerAction, buildRequest("/partner/sales-report", { cookie, json }));
}

/** The grid's save: the page's fields and the rows, posted as JSON. */
async function saveJson(email: string, body: { API?: object[]; FDF?: object[]; deletedIds?: number[] }, extra: Record<string, string> = {}) {
  return postPartnerJson(email, {
    intent: "save",
    quarterId: String(quarterId),
    version: await versionOf(email),
    payload: { API: body.API ?? [], FDF: body.FDF ?? [], deletedIds: body.deletedIds ?? [] },
    ...extra,
  });
}

describe("who may open and change a Sales Report", () => {
  it("a partner opens its own report; the title data, status and lists are there", async () => {
    const page = await partnerPage(ACME);
    expect(page.status).toBe(200);
    expect(page.data.view.partner.companyName).toBe("Acme Generics Ltd");
    expect(page.data.view.quarter.historic).toBe(false);
    expect(page.data.view.statusLine.status).toBe("Saved");
    expect(page.data.view.lists.productNames.API).toContain("Dolutegravir API");
    expect(page.data.view.rows.API.length).toBeGreaterThan(0);
    expect(page.data.viewerRole).toBe("PARTNER");
  });

  it("the page's data carries each saved row as its id and its cells in the tab's column order, read back as the model gives them", async () => {
    const page = await runRoute(partnerLoader, buildRequest("/partner/sales-report", { cookie: await sessionCookieFor(ACME) }));
    const packed = page.data.view.rows as PackedSalesRows;
    const { rows } = await loadSalesReport({ viewer: { id: 0, role: "ADMIN", partnerId: null }, partnerId: acmeId });
    expect(rows.API.length + rows.FDF.length).toBeGreaterThan(0);
    expect(packed.API[0]).toEqual([
      rows.API[0].id,
      rows.API[0].year,
      rows.API[0].month,
      rows.API[0].country,
      rows.API[0].purchaser,
      rows.API[0].productName,
      rows.API[0].quantity,
      rows.API[0].totalValue,
    ]);
    expect(unpackSalesRows(packed)).toEqual(rows);
  });

  it("a partner reaching any partner's report through the admin route gets 403, for reading and for changing", async () => {
    expect((await adminPage(ACME, acmeId)).status).toBe(403);
    expect((await adminPage(ACME, cedarId)).status).toBe(403);
    const refused = await postAdmin(ACME, cedarId, {
      intent: "save",
      quarterId: String(quarterId),
      payload: JSON.stringify({ API: [apiRow()], FDF: [], deletedIds: [] }),
    });
    expect(refused.status).toBe(403);
    expect(await storedRows(cedarId)).toHaveLength(0);
  });

  it("ADMIN and STAFF read any partner's report; STAFF's posts are refused with 403", async () => {
    const admin = await adminPage(ADMIN, acmeId);
    expect(admin.status).toBe(200);
    expect(admin.data.view.permissions.save).toBe(true);
    const staff = await adminPage(STAFF, acmeId);
    expect(staff.status).toBe(200);
    expect(staff.data.view.permissions).toMatchObject({ save: false, submit: false, approve: false, reject: false, reopen: false });
    // Each disabled button says why.
    expect(staff.data.view.permissions.reasons.save).toBe(WORKFLOW_REFUSALS.staff);
    for (const intent of ["save", "approve", "reject", "read-messages", "verify-product"]) {
      const result = await postAdmin(STAFF, acmeId, { intent, quarterId: String(quarterId), comment: "x", payload: "{}" });
      expect(result.status, intent).toBe(403);
    }
    expect(
      (
        await runRoute(adminXlsx, buildRequest(`/admin/sales-report/${acmeId}/xlsx`, { cookie: await sessionCookieFor(STAFF) }), {
          params: { id: String(acmeId) },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await runRoute(adminXlsx, buildRequest(`/admin/sales-report/${acmeId}/xlsx`, { cookie: await sessionCookieFor(ACME) }), {
          params: { id: String(acmeId) },
        })
      ).status,
    ).toBe(403);
  });

  it("every Sales Report route sends a visitor without a session to /login and refuses the other side's roles", async () => {
    const params = { params: { id: String(acmeId) } };
    const partnerRoutes = [
      (cookie?: string) => runRoute(partnerLoader, buildRequest("/partner/sales-report", { cookie })),
      (cookie?: string) => runRoute(partnerAction, buildRequest("/partner/sales-report", { cookie, form: { intent: "read-messages" } })),
      (cookie?: string) => runRoute(partnerXlsx, buildRequest("/partner/sales-report/xlsx", { cookie })),
    ];
    const adminRoutes = [
      (cookie?: string) => runRoute(adminLoader, buildRequest(`/admin/sales-report/${acmeId}`, { cookie }), params),
      (cookie?: string) => runRoute(adminAction, buildRequest(`/admin/sales-report/${acmeId}`, { cookie, form: { intent: "read-messages" } }), params),
      (cookie?: string) => runRoute(adminXlsx, buildRequest(`/admin/sales-report/${acmeId}/xlsx`, { cookie }), params),
    ];
    for (const [index, route] of [...partnerRoutes, ...adminRoutes].entries()) {
      const anonymous = await route();
      expect([anonymous.status, anonymous.location], `route ${index}`).toEqual([302, "/login"]);
    }
    for (const email of [ADMIN, STAFF]) {
      for (const route of partnerRoutes) expect((await route(await sessionCookieFor(email))).status, email).toBe(403);
    }
    for (const route of adminRoutes) expect((await route(await sessionCookieFor(ACME))).status).toBe(403);
    expect((await partnerRoutes[2](await sessionCookieFor(ACME))).status).toBe(200);
  });

  it("an unknown partner id answers 404 and an unknown quarter too", async () => {
    expect((await adminPage(ADMIN, 999999)).status).toBe(404);
    expect((await partnerPage(ACME, "?quarter=Q9 1999")).status).toBe(404);
  });
});

describe("saving from the grid (JSON)", () => {
  it("saves both tables, converts commas, derives FDF values, and reports the counts", async () => {
    const result = await saveJson(CEDAR, { API: [apiRow(), {}, apiRow({ purchaser: "UNICEF" })], FDF: [fdfRow()] });
    expect(result.status).toBe(302);
    expect(await toastOf(result)).toMatchObject({
      type: "success",
      message: "Data successfully recorded. Total Rows: {{total}}, Newly Added Rows: {{count}}",
      values: { total: 3, count: 3 },
    });
    const rows = await storedRows(cedarId);
    expect(rows).toHaveLength(3);
    const api = rows.filter((row) => row.kind === "API");
    expect(api.map((row) => row.purchaser)).toEqual(["Global Fund", "UNICEF"]);
    expect(Number(api[0].quantity)).toBe(1250.5);
    const fdf = rows.find((row) => row.kind === "FDF")!;
    expect(Number(fdf.grossSalePriceUsd)).toBe(2.5);
    expect(Number(fdf.totalValue)).toBe(2400);
    expect(Number(fdf.royaltyDue)).toBe(120);

    // Deleting a saved row: 'Deleted Rows'.
    const page = await partnerPage(CEDAR);
    const [first, second] = page.data.view.rows.API;
    const again = await saveJson(CEDAR, { API: [first], FDF: page.data.view.rows.FDF, deletedIds: [second.id] });
    expect(await toastOf(again)).toMatchObject({
      message: "Data successfully recorded. Total Rows: {{total}}, Deleted Rows: {{count}}",
      values: { total: 2, count: 1 },
    });
  });

  it("the rows posted as JSON text inside a form save the same; a JSON post with other fields, its rows as text, or broken JSON is refused and saves nothing", async () => {
    const fields = { intent: "save", quarterId: String(quarterId), version: await versionOf(CEDAR) };
    const rows = { API: [apiRow()], FDF: [], deletedIds: [] };
    const refusals: [unknown, number, string][] = [
      [{ ...fields, payload: rows, "api[0][country]": "India" }, 400, BAD_REQUEST],
      [{ ...fields, payload: JSON.stringify(rows) }, 400, BAD_REQUEST],
      [[fields], 400, BAD_REQUEST],
    ];
    for (const [json, status, message] of refusals) {
      const refused = await postPartnerJson(CEDAR, json);
      expect(refused.status).toBe(status);
      expect(refused.data).toMatchObject({ message });
    }
    const cookie = await sessionCookieFor(CEDAR);
    const broken = new Request("http://localhost/partner/sales-report", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: '{"intent": ',
    });
    const brokenResult = await runRoute(partnerAction, broken);
    expect(brokenResult.status).toBe(400);
    expect(brokenResult.data).toEqual({ message: REQUEST_REFUSALS.badJson });
    expect(await storedRows(cedarId)).toEqual([]);

    const asForm = await postPartner(CEDAR, { ...fields, payload: JSON.stringify(rows) });
    expect(asForm.status).toBe(302);
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Global Fund"]);
  });

  it("FDF values more than 1 % off the calculated ones are saved; the page the save returns to lists them once", async () => {
    const result = await saveJson(CEDAR, { FDF: [fdfRow(), fdfRow({ totalGrossValue: "3000" })] }, { tab: "FDF" });
    expect(result.status).toBe(302);
    // Back on the tab the save was made from.
    expect(result.location).toBe("/partner/sales-report?tab=FDF");
    expect(await toastOf(result)).toMatchObject({
      message: "Data successfully recorded. Total Rows: {{total}}, Newly Added Rows: {{count}}",
      values: { total: 2, count: 2 },
    });
    const rows = await storedRows(cedarId);
    expect(rows.map((row) => Number(row.totalGrossValue))).toEqual([2500, 3000]);

    const page = await pageAfter(CEDAR, result);
    expect(page.data.savedWarnings).toMatchObject({
      reportId: rows[0].reportId,
      source: "grid",
      items: [{ row: 2, column: "Total Gross Sales Value (USD)" }],
      more: 0,
    });
    expect(Number(page.data.savedWarnings.items[0].expected)).toBe(2500);
    // Shown once: the page clears it, and a reload has none.
    const reload = await pageAfter(CEDAR, page, cookiesFrom(result, await sessionCookieFor(CEDAR)));
    expect(reload.data.savedWarnings).toBeNull();
    // A save without warnings carries none.
    const clean = await saveJson(CEDAR, { FDF: [fdfRow()] });
    expect((await pageAfter(CEDAR, clean)).data.savedWarnings).toBeNull();
    // Submitting rows lists their warnings the same way.
    const submitted = await saveJson(CEDAR, { FDF: [fdfRow({ royaltyDue: "1" })] }, { intent: "submit", comment: "Our quarter." });
    expect(await toastOf(submitted)).toMatchObject({ message: "Report has been submitted to the admin!" });
    expect((await pageAfter(CEDAR, submitted)).data.savedWarnings).toMatchObject({ items: [{ row: 1, column: "Royalty Due" }], more: 0 });
  });

  it("many warnings: the first 20 are listed and the rest counted", async () => {
    const result = await saveJson(CEDAR, { FDF: Array.from({ length: 25 }, () => fdfRow({ royaltyDue: "1" })) });
    const { savedWarnings } = (await pageAfter(CEDAR, result)).data;
    expect(savedWarnings.items).toHaveLength(20);
    expect(savedWarnings.items[19]).toMatchObject({ row: 20, column: "Royalty Due" });
    expect(savedWarnings.more).toBe(5);
  });

  it("'Nothing to report this quarter': a comment is required, rows refuse it, an empty report is submitted", async () => {
    const noComment = await postPartner(CEDAR, { intent: "submit-empty", quarterId: String(quarterId), version: await versionOf(CEDAR), comment: " " });
    expect(noComment.status).toBe(400);
    expect(noComment.data).toMatchObject({ kind: "error", intent: "submit-empty", field: "comment", message: "Enter comments for admin" });

    const acme = await postPartner(ACME, { intent: "submit-empty", quarterId: String(quarterId), version: await versionOf(ACME), comment: "None." });
    expect(acme.status).toBe(409);
    expect(acme.data).toMatchObject({ kind: "error", message: REPORT_HAS_ROWS });
    expect((await partnerPage(ACME)).data.view.statusLine.status).toBe("Saved");

    const staff = await postAdmin(STAFF, cedarId, { intent: "submit-empty", quarterId: String(quarterId), version: await versionOf(CEDAR), comment: "x" });
    expect(staff.status).toBe(403);
    const admin = await postAdmin(ADMIN, cedarId, { intent: "submit-empty", quarterId: String(quarterId), version: await versionOf(CEDAR), comment: "x" });
    expect(admin.data).toMatchObject({ kind: "error", message: "Only the partner can submit its report." });

    const done = await postPartner(CEDAR, {
      intent: "submit-empty",
      quarterId: String(quarterId),
      version: await versionOf(CEDAR),
      comment: "No sales this quarter.",
    });
    expect(done.status).toBe(302);
    expect(await toastOf(done)).toMatchObject({ message: "Report has been submitted to the admin!" });
    const view = (await adminPage(ADMIN, cedarId)).data.view;
    expect(view.report).toMatchObject({ status: "Submitted", isEmpty: true });
    expect(view.messages.map((message: { message: string }) => message.message)).toEqual(["No sales this quarter."]);
  });

  it("invalid rows: 'Invalid data!' problems by grid row and column, nothing saved", async () => {
    const result = await saveJson(CEDAR, { API: [apiRow(), apiRow({ year: "1990", country: "Atlantis" })], FDF: [{}, fdfRow({ royaltyPercent: "" })] });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "problems",
      problems: {
        API: [{ rowNumber: 2, columns: ["Year", "Country"], entered: { year: "1990", country: "Atlantis" } }],
        FDF: [{ rowNumber: 2, columns: ["Royalty %", "Royalty Due"] }],
      },
    });
    expect(await storedRows(cedarId)).toHaveLength(0);
  });

  it("an empty FDF Royalty Due is refused even when it could be calculated (spec section 5); nothing is saved", async () => {
    const result = await saveJson(CEDAR, { FDF: [fdfRow(), fdfRow({ royaltyDue: "" })] });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ kind: "problems", problems: { API: [], FDF: [{ rowNumber: 2, keys: ["royaltyDue"], columns: ["Royalty Due"] }] } });
    expect(await storedRows(cedarId)).toHaveLength(0);

    const saved = await saveJson(CEDAR, { FDF: [fdfRow(), fdfRow({ royaltyDue: "120" })] });
    expect(saved.status).toBe(302);
    expect((await storedRows(cedarId)).map((row) => Number(row.royaltyDue))).toEqual([120, 120]);
  });

  it("a row with only a year is refused, listing what it misses; nothing is written", async () => {
    const result = await saveJson(CEDAR, { API: [apiRow(), { year }], FDF: [{}, {}, { year, purchaser: "PEPFAR" }] });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "problems",
      problems: {
        API: [{ rowNumber: 2, columns: ["Month", "Country", "Api Name", "Quantity (Kg)"] }],
        FDF: [{ rowNumber: 3, columns: ["Month", "Country", "Product", "Quantity", "Royalty %", "Royalty Due"] }],
      },
    });
    expect(await storedRows(cedarId)).toHaveLength(0);
    expect((await partnerPage(CEDAR)).data.view.report.status).toBeNull();
  });

  it("a save of the changed rows alone (with their grid positions) gives the same report as a save of every row", async () => {
    // Two saves from the same starting rows: every row posted, and only the changed one with its position.
    const start = [apiRow({ purchaser: "Buyer A" }), apiRow({ purchaser: "Buyer B" }), apiRow({ purchaser: "Buyer C" })];
    expect((await saveJson(CEDAR, { API: start })).status).toBe(302);
    const saved = await storedRows(cedarId);
    const asGrid = saved.map((row, index) => ({ ...start[index], id: row.id }));
    const full = [...asGrid.slice(0, 1), { ...asGrid[1], purchaser: "Buyer B2" }, ...asGrid.slice(2), apiRow({ purchaser: "Buyer D" })];
    expect((await saveJson(CEDAR, { API: full })).status).toBe(302);
    const afterFull = (await storedRows(cedarId)).map(({ id: _id, createdAt: _at, reportId: _report, ...values }) => values);

    // Back to the start, then the changed rows alone.
    const removed = (await storedRows(cedarId)).map((row) => row.id);
    expect((await saveJson(CEDAR, { API: start, deletedIds: removed })).status).toBe(302);
    const again = await storedRows(cedarId);
    const changedOnly = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(quarterId),
      version: await versionOf(CEDAR),
      payload: JSON.stringify({
        API: [{ ...start[1], purchaser: "Buyer B2", id: again[1].id }, apiRow({ purchaser: "Buyer D" })],
        FDF: [],
        positions: { API: [1, 3], FDF: [] },
        deletedIds: [],
      }),
    });
    expect(changedOnly.status).toBe(302);
    expect(await toastOf(changedOnly)).toMatchObject({
      message: "Data successfully recorded. Total Rows: {{total}}, Newly Added Rows: {{count}}",
      values: { total: 4, count: 1 },
    });
    const afterChanged = (await storedRows(cedarId)).map(({ id: _id, createdAt: _at, reportId: _report, ...values }) => values);
    expect(afterChanged).toEqual(afterFull);
  });

  it("problems of a changed-rows save are numbered by the posted grid positions; malformed positions are refused", async () => {
    const invalid = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(quarterId),
      version: await versionOf(CEDAR),
      payload: JSON.stringify({ API: [apiRow(), apiRow({ month: "Smarch" })], FDF: [], positions: { API: [4, 41], FDF: [] }, deletedIds: [] }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.data).toMatchObject({ kind: "problems", problems: { API: [{ rowNumber: 42, columns: ["Month"] }] } });
    expect(await storedRows(cedarId)).toHaveLength(0);
    for (const positions of [
      { API: [3, 1], FDF: [] },
      { API: [0], FDF: [] },
      { API: ["x", 1], FDF: [] },
      { API: [0, 1], FDF: [], extra: [] },
    ]) {
      const refused = await postPartner(CEDAR, {
        intent: "save",
        quarterId: String(quarterId),
        version: await versionOf(CEDAR),
        payload: JSON.stringify({ API: [apiRow(), apiRow()], FDF: [], positions, deletedIds: [] }),
      });
      expect(refused.status, JSON.stringify(positions)).toBe(400);
    }
    expect(await storedRows(cedarId)).toHaveLength(0);
  });

  it("a submitted report is submitted again only with changes", async () => {
    expect((await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit", comment: "Q sales." })).status).toBe(302);
    const unchanged = await postPartner(CEDAR, {
      intent: "submit",
      quarterId: String(quarterId),
      version: await versionOf(CEDAR),
      comment: "Again.",
      payload: JSON.stringify({ API: [], FDF: [], deletedIds: [] }),
    });
    expect(unchanged.status).toBe(409);
    expect(unchanged.data).toMatchObject({ kind: "error", message: WORKFLOW_REFUSALS.alreadySubmitted });
    expect((await partnerPage(CEDAR)).data.view.statusLine.status).toBe("Submitted");
    const changed = await saveJson(CEDAR, { API: [apiRow({ purchaser: "Another buyer" })] }, { intent: "submit", comment: "One more row." });
    expect(changed.status).toBe(302);
    expect((await partnerPage(CEDAR)).data.view.statusLine.status).toBe("Resubmitted");
  });

  it("a stale save is refused with who saved and when; nothing is overwritten", async () => {
    const stale = await versionOf(CEDAR);
    expect((await saveJson(CEDAR, { API: [apiRow()] })).status).toBe(302);
    const refused = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(quarterId),
      version: stale,
      payload: JSON.stringify({ API: [apiRow({ purchaser: "Late writer" })], FDF: [], deletedIds: [] }),
    });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({
      kind: "error",
      stale: true,
      values: { name: expect.any(String), time: expect.stringMatching(/\d{4}, \d\d:\d\d [AP]M$/) },
    });
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Global Fund"]);
  });

  it("submit asks for a comment, saves the rows first, then the admin rejects and approves with comments", async () => {
    const noComment = await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit" });
    expect(noComment.status).toBe(400);
    expect(noComment.data).toMatchObject({ kind: "error", field: "comment", message: "Enter comments for admin" });
    expect(await storedRows(cedarId)).toHaveLength(0);

    const submitted = await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit", comment: "Q sales attached." });
    expect(submitted.status).toBe(302);
    expect(await toastOf(submitted)).toMatchObject({ message: "Report has been submitted to the admin!" });
    expect(await storedRows(cedarId)).toHaveLength(1);

    const adminView = await adminPage(ADMIN, cedarId);
    expect(adminView.data.view.statusLine.status).toBe("Submitted");
    expect(adminView.data.view.permissions).toMatchObject({ approve: true, reject: true });

    const missing = await postAdmin(ADMIN, cedarId, { intent: "reject", quarterId: String(quarterId), comment: " " });
    expect(missing.data).toMatchObject({ kind: "error", field: "comment", message: "Enter comments for partner" });

    const rejected = await postAdmin(ADMIN, cedarId, { intent: "reject", quarterId: String(quarterId), comment: "Purchaser missing on row 2." });
    expect(await toastOf(rejected)).toMatchObject({ message: "Report Rejected!" });
    const resubmitted = await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit", comment: "Fixed." });
    expect(resubmitted.status).toBe(302);
    expect((await partnerPage(CEDAR)).data.view.statusLine.status).toBe("Resubmitted");
    const approved = await postAdmin(ADMIN, cedarId, { intent: "approve", quarterId: String(quarterId), comment: "Thank you." });
    expect(await toastOf(approved)).toMatchObject({ message: "Report Approved!" });

    const after = await partnerPage(CEDAR);
    expect(after.data.view.canEditRows).toBe(false);
    expect(after.data.view.permissions).toMatchObject({ save: false, submit: false });
    const refused = await saveJson(CEDAR, { API: [apiRow({ purchaser: "Too late" })] });
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ kind: "error", message: "This report is approved and can no longer be changed." });
  });

  it("an administrator's decision with unsaved edits is one transaction: refused, nothing is saved and the next Save works", async () => {
    // Cedar's report is a draft (Saved): it cannot be approved yet.
    expect((await saveJson(CEDAR, { API: [apiRow()] })).status).toBe(302);
    const view = (await adminPage(ADMIN, cedarId)).data.view;
    const [saved] = view.rows.API;
    const edited = { API: [{ ...saved, purchaser: "Edited by admin" }], FDF: [], deletedIds: [] };
    const form = { quarterId: String(quarterId), version: String(view.report.version), payload: JSON.stringify(edited), comment: "Looks fine." };

    const refused = await postAdmin(ADMIN, cedarId, { intent: "approve", ...form });
    expect(refused.status).toBe(409);
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Global Fund"]);
    const after = (await adminPage(ADMIN, cedarId)).data.view;
    expect(after.report.version).toBe(view.report.version);
    expect(after.statusLine.status).toBe("Saved");

    // The page still holds the loaded version: its Save goes through.
    const save = await postAdmin(ADMIN, cedarId, { intent: "save", ...form });
    expect(save.status).toBe(302);
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Edited by admin"]);
  });

  it("an administrator's approval with unsaved edits saves them and approves in one step", async () => {
    expect((await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit", comment: "Q sales attached." })).status).toBe(302);
    const view = (await adminPage(ADMIN, cedarId)).data.view;
    const edited = { API: [{ ...view.rows.API[0], purchaser: "Corrected" }], FDF: [], deletedIds: [] };
    const approved = await postAdmin(ADMIN, cedarId, {
      intent: "approve",
      quarterId: String(quarterId),
      version: String(view.report.version),
      payload: JSON.stringify(edited),
      comment: "Corrected the purchaser.",
    });
    expect(await toastOf(approved)).toMatchObject({ message: "Report Approved!" });
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Corrected"]);
    const after = (await adminPage(ADMIN, cedarId)).data.view;
    expect(after.statusLine.status).toBe("Approved");
    expect(after.report.version).toBe(view.report.version + 1);
  });

  it("opening the messages marks them read: the unread count becomes 0", async () => {
    await saveJson(CEDAR, { API: [apiRow()] }, { intent: "submit", comment: "Please review." });
    await postAdmin(ADMIN, cedarId, { intent: "reject", quarterId: String(quarterId), comment: "Missing FDF rows." });
    const before = await partnerPage(CEDAR);
    expect(before.data.view.unreadMessageCount).toBe(1);
    expect(before.data.view.messages.map((message: { message: string }) => message.message)).toEqual(["Please review.", "Missing FDF rows."]);
    const read = await postPartner(CEDAR, { intent: "read-messages", quarterId: String(quarterId) });
    expect(read.data).toEqual({ kind: "messages-read", intent: "read-messages", unreadMessageCount: 0 });
    expect((await partnerPage(CEDAR)).data.view.unreadMessageCount).toBe(0);
  });
});

describe("the form without JavaScript", () => {
  it("posting the form's rows saves them; blank rows are ignored; a ticked saved row is deleted", async () => {
    const version = await versionOf(CEDAR);
    const form: Record<string, string> = { intent: "save", quarterId: String(quarterId), version, tab: "API", page: "1" };
    for (const [key, value] of Object.entries(apiRow())) form[`api[0][${key}]`] = value;
    for (const [key, value] of Object.entries(apiRow({ purchaser: "MSF" }))) form[`api[1][${key}]`] = value;
    for (const key of Object.keys(apiRow())) form[`api[2][${key}]`] = "";
    const saved = await postPartner(CEDAR, form);
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/partner/sales-report");
    expect(await toastOf(saved)).toMatchObject({ values: { total: 2, count: 2 } });

    const page = await partnerPage(CEDAR);
    const rows = page.data.view.rows.API;
    expect(rows.map((row: { purchaser: string }) => row.purchaser)).toEqual(["Global Fund", "MSF"]);
    expect(rows[0]).toMatchObject({ quantity: "1250.5", country: "India", month: "March" });

    // Change the first row, delete the second.
    const edit: Record<string, string> = {
      intent: "save",
      quarterId: String(quarterId),
      version: String(page.data.view.report.version),
      tab: "API",
      page: "1",
      deleteIds: String(rows[1].id),
    };
    for (const [index, row] of rows.entries()) {
      for (const [key, value] of Object.entries(row)) edit[`api[${index}][${key}]`] = String(value);
    }
    edit["api[0][purchaser]"] = "Global Fund (changed)";
    const edited = await postPartner(CEDAR, edit);
    expect(edited.status).toBe(302);
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Global Fund (changed)"]);
  });

  it("months as 'Oct' or '10' and names in any case are saved in their canonical spelling", async () => {
    const form: Record<string, string> = { intent: "save", quarterId: String(quarterId), version: await versionOf(CEDAR), tab: "API", page: "1" };
    for (const [key, value] of Object.entries(apiRow({ month: "Oct", country: " india ", productName: "abacavir api" }))) form[`api[0][${key}]`] = value;
    for (const [key, value] of Object.entries(apiRow({ month: "01", country: "SOUTH AFRICA" }))) form[`api[1][${key}]`] = value;
    expect((await postPartner(CEDAR, form)).status).toBe(302);
    const rows = (await partnerPage(CEDAR)).data.view.rows.API;
    expect(rows.map((row: Record<string, unknown>) => [row.month, row.country, row.productName])).toEqual([
      ["October", "India", "Abacavir API"],
      ["January", "South Africa", "Abacavir API"],
    ]);
    const stored = await storedRows(cedarId);
    expect(stored.map((row) => [row.month, row.productName, row.productId != null, row.productVerificationId])).toEqual([
      [10, "Abacavir API", true, null],
      [1, "Abacavir API", true, null],
    ]);
  });

  it("invalid cells come back by grid row with the posted values kept; nothing is saved", async () => {
    const form: Record<string, string> = { intent: "save", quarterId: String(quarterId), version: await versionOf(CEDAR), tab: "API", page: "1" };
    for (const [key, value] of Object.entries(apiRow({ month: "Smarch" }))) form[`api[4][${key}]`] = value;
    const result = await postPartner(CEDAR, form);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "problems",
      problems: { API: [{ rowNumber: 5, columns: ["Month"], keys: ["month"], entered: { month: "Smarch" } }], FDF: [] },
      submitted: { tab: "API", rows: { 4: { month: "Smarch", purchaser: "Global Fund" } } },
    });
    expect(await storedRows(cedarId)).toHaveLength(0);
  });

  it("submit without a comment keeps the values and asks for it; with one it submits", async () => {
    const form: Record<string, string> = {
      intent: "submit",
      quarterId: String(quarterId),
      version: await versionOf(CEDAR),
      tab: "API",
      page: "1",
      comment: "",
    };
    for (const [key, value] of Object.entries(apiRow())) form[`api[0][${key}]`] = value;
    const refused = await postPartner(CEDAR, form);
    expect(refused.data).toMatchObject({
      kind: "error",
      field: "comment",
      message: "Enter comments for admin",
      submitted: { rows: { 0: { purchaser: "Global Fund" } } },
    });
    const done = await postPartner(CEDAR, { ...form, comment: "First report." });
    expect(await toastOf(done)).toMatchObject({ message: "Report has been submitted to the admin!" });
    expect((await partnerPage(CEDAR)).data.view.statusLine.status).toBe("Submitted");
  });
});

async function workbookOf(response: RouteResult | Response): Promise<ExcelJS.Workbook> {
  const body = response instanceof Response ? response : undefined;
  if (!body) throw new Error("expected a Response");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await body.arrayBuffer()) as ExcelJS.Buffer);
  return workbook;
}

async function download(email: string) {
  const cookie = await sessionCookieFor(email);
  const response = (await partnerXlsx({ request: buildRequest("/partner/sales-report/xlsx", { cookie }), params: {}, context: testContext() })) as Response;
  return response;
}

async function upload(
  email: string,
  file: Blob,
  mode: "replace" | "append",
  { version, confirmReplace = true }: { version?: string; confirmReplace?: boolean } = {},
) {
  const cookie = await sessionCookieFor(email);
  const form = new FormData();
  form.set("intent", "upload");
  form.set("mode", mode);
  if (confirmReplace) form.set("confirmReplace", "yes");
  form.set("version", version ?? (await versionOf(email)));
  form.set("file", file, "sales-report.xlsx");
  const request = new Request("http://localhost/partner/sales-report", { method: "POST", body: form, headers: { Cookie: cookie } });
  return runRoute(partnerAction, request);
}

describe("Excel download and upload", () => {
  it("downloads the report, partner and quarter's workbook with API and FDF sheets, the grid's headers, typed numbers and neutralised formulas", async () => {
    await saveJson(CEDAR, { API: [apiRow()], FDF: [fdfRow()] });
    const response = await download(CEDAR);
    expect(response.status).toBe(200);
    const [, quarter, quarterYear] = /^Q(\d) (\d{4})$/.exec((await getOpenQuarter()).name)!;
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="sales-report_Cedar-Life-Sciences_${quarterYear}-Q${quarter}.xlsx"`);
    const workbook = await workbookOf(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["API", "FDF", "Info", "Lists"]);
    const api = workbook.getWorksheet("API")!;
    expect(api.getRow(1).values).toEqual([undefined, "Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    expect(api.getRow(2).values).toEqual([undefined, Number(year), "March", "India", "Global Fund", "Abacavir API", 1250.5, 98000]);
    expect(api.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    const fdf = workbook.getWorksheet("FDF")!;
    expect(fdf.getRow(2).getCell(20).value).toBe("'=cmd|' /C calc'!A0");
    expect(fdf.getRow(2).getCell(18).value).toBe(120);
  });

  it("uploading the downloaded workbook gives back the same rows (replace), or adds them (append)", async () => {
    await saveJson(CEDAR, { API: [apiRow(), apiRow({ purchaser: "UNICEF", month: "April" })], FDF: [fdfRow()] });
    const strip = (rows: Record<string, unknown>[]) => rows.map(({ id: _id, ...cells }) => cells);
    const before = (await partnerPage(CEDAR)).data.view.rows;
    const file = await (await download(CEDAR)).blob();

    // Replacing saved rows needs the user's confirmation; without it nothing changes.
    const unconfirmed = await upload(CEDAR, file, "replace", { confirmReplace: false });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.data).toEqual({ kind: "upload-problems", intent: "upload", problems: [{ message: REPLACE_NOT_CONFIRMED, values: { count: 3 } }] });
    expect(strip((await partnerPage(CEDAR)).data.view.rows.API)).toEqual(strip(before.API));

    const replaced = await upload(CEDAR, file, "replace");
    expect(replaced.status).toBe(302);
    expect(await toastOf(replaced)).toMatchObject({ message: "Data successfully recorded. Total Rows: {{total}}", values: { total: 3 } });
    const after = (await partnerPage(CEDAR)).data.view.rows;
    expect(strip(after.API)).toEqual(strip(before.API));
    expect(strip(after.FDF)).toEqual(strip(before.FDF));
    expect(after.API[0].id).not.toBe(before.API[0].id);

    const appended = await upload(CEDAR, file, "append");
    expect(await toastOf(appended)).toMatchObject({ values: { total: 6, count: 3 } });
  });

  it("an uploaded FDF value off the calculated one is saved and listed by its sheet row; 'oct' and lower-case names are read", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("API").addRow(["Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    const fdf = workbook.addWorksheet("FDF");
    fdf.addRow(Object.keys(fdfRow()));
    fdf.addRow(Object.values(fdfRow({ month: "oct", country: "KENYA", productName: "lopinavir/ritonavir PELLETS" })));
    fdf.addRow(Object.values(fdfRow({ royaltyDue: "999" })));
    const result = await upload(CEDAR, new Blob([await workbook.xlsx.writeBuffer()]), "replace");
    expect(result.status).toBe(302);
    expect(await toastOf(result)).toMatchObject({ values: { total: 2 } });
    expect((await pageAfter(CEDAR, result)).data.savedWarnings).toMatchObject({
      source: "workbook",
      items: [{ row: 3, column: "Royalty Due", expected: "120" }],
    });
    const [first] = (await pageAfter(CEDAR, result)).data.view.rows.FDF;
    expect(first).toMatchObject({ month: "October", country: "Kenya", productName: "Lopinavir/ritonavir pellets" });
  });

  it("an invalid workbook: errors by sheet, row and column, and nothing is saved", async () => {
    await saveJson(CEDAR, { API: [apiRow()] });
    const workbook = new ExcelJS.Workbook();
    const api = workbook.addWorksheet("API");
    api.addRow(["year", "MONTH", " Country ", "Purchaser", "Api  Name", "Quantity (Kg)", "Total Value (USD)"]);
    api.addRow([Number(year), "May", "India", "A", "Abacavir API", 10, 20]);
    api.addRow([1900, "May", "Narnia", "B", "Abacavir API", "ten", 20]);
    const fdf = workbook.addWorksheet("FDF");
    fdf.addRow(Object.keys(fdfRow()).map((key) => ({ royaltyPercent: "Royalty %" })[key] ?? key));
    fdf.addRow([]);
    fdf.addRow(Object.values(fdfRow({ royaltyPercent: "" })));
    const buffer = await workbook.xlsx.writeBuffer();
    const result = await upload(CEDAR, new Blob([buffer]), "replace");
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "upload-problems",
      problems: [
        {
          sheet: "API",
          row: 3,
          columns: ["Year", "Country", "Quantity (Kg)"],
          message: "Sheet {{sheet}}, row {{row}}: {{columns}}",
          values: { sheet: "API", row: 3, columns: "Year: “1900”, Country: “Narnia”, Quantity (Kg): “ten”" },
        },
        { sheet: "FDF", row: 3, columns: ["Royalty %", "Royalty Due"], values: { sheet: "FDF", row: 3, columns: "Royalty %, Royalty Due" } },
      ],
    });
    expect((await storedRows(cedarId)).map((row) => row.purchaser)).toEqual(["Global Fund"]);

    const missingSheet = new ExcelJS.Workbook();
    missingSheet.addWorksheet("API").addRow(["Year"]);
    const second = await upload(CEDAR, new Blob([await missingSheet.xlsx.writeBuffer()]), "replace");
    expect(second.data.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ message: "The workbook has no sheet {{sheet}}.", sheet: "FDF" }),
        expect.objectContaining({ sheet: "API", row: 1, columns: ["Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"] }),
      ]),
    );
    const garbage = await upload(CEDAR, new Blob(["not a workbook"]), "append");
    expect(garbage.data.problems).toEqual([{ message: "The file could not be read as an Excel workbook (.xlsx)." }]);
    expect(await storedRows(cedarId)).toHaveLength(1);
  });
});

describe("product verification from the screen", () => {
  it("an unknown product name waits for the admin, who approves it by creating the product; approval is then possible", async () => {
    await saveJson(CEDAR, { API: [apiRow({ productName: "Lenacapavir API" })] }, { intent: "submit", comment: "New API." });
    const page = await adminPage(ADMIN, cedarId);
    expect(page.data.view.pendingProductCount).toBe(1);
    expect(page.data.view.permissions.approve).toBe(false);
    const [pending] = page.data.verification.pendingProducts;
    expect(pending).toMatchObject({ product_name: "Lenacapavir API", category: "API" });

    // The partner cannot decide; a missing product status or therapy area is refused.
    const partnerTry = await postPartner(CEDAR, { intent: "verify-product", verificationId: String(pending.product_verification_id), decision: "approve" });
    expect(partnerTry.status).toBe(403);
    const noStatus = await postAdmin(ADMIN, cedarId, {
      intent: "verify-product",
      verificationId: String(pending.product_verification_id),
      decision: "approve",
      mapToProductId: "",
      productName: "Lenacapavir API",
      therapyArea: "HIV",
      projectStatus: "",
    });
    expect(noStatus.status).toBe(400);
    expect(noStatus.data).toMatchObject({ kind: "verification-errors", errors: { projectStatus: ["Please select Product Status!"] } });
    const incomplete = await postAdmin(ADMIN, cedarId, {
      intent: "verify-product",
      verificationId: String(pending.product_verification_id),
      decision: "approve",
      mapToProductId: "",
      productName: "Lenacapavir API",
      therapyArea: "",
      projectStatus: "FILED",
    });
    expect(incomplete.data).toMatchObject({ kind: "verification-errors", errors: { therapyArea: ["Please select therapy area."] } });
    expect((await adminPage(ADMIN, cedarId)).data.view.pendingProductCount).toBe(1);

    const approved = await postAdmin(ADMIN, cedarId, {
      intent: "verify-product",
      verificationId: String(pending.product_verification_id),
      decision: "approve",
      mapToProductId: "",
      productName: "Lenacapavir API",
      therapyArea: "HIV",
      projectStatus: "UNDER_DEVELOPMENT",
    });
    expect(approved.status).toBe(302);
    const after = await adminPage(ADMIN, cedarId);
    expect(after.data.view.pendingProductCount).toBe(0);
    expect(after.data.view.permissions.approve).toBe(true);
    expect((await partnerPage(CEDAR)).data.view.lists.productNames.API).toContain("Lenacapavir API");
  });
});
