import ExcelJS from "exceljs";
import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, partnerProducts, partners, pdtValues, products, reports, stages, users } from "~/db/schema";
import { loadPdtReport, savePdtReport, type PdtGridRow, type PdtReportView } from "~/reports/pdt/model.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { ROWS_NOT_IN_REPORT } from "~/reports/frame/screen.server";
import { listReportHistory, WorkflowError } from "~/reports/frame/workflow.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { formatPdtDate } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { pdtWorkbookDownload } from "~/reports/pdt/page.server";
import { action as adminAction, loader as adminLoader } from "~/routes/_shell.admin.development-timeline.$id";
import { action as partnerAction, loader as partnerLoader } from "~/routes/_shell.partner.development-timeline";
import { loader as adminXlsx } from "~/routes/admin.development-timeline.$id.xlsx";
import { loader as partnerXlsx } from "~/routes/partner.development-timeline.xlsx";
import { addQuarters, quarterBounds, quarterName } from "~/utils/quarters";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { readToast } from "~/utils/toast.server";
import { resetDatabase } from "../support/database";
import { buildRequest, cookiesFrom, NOT_FOUND_PAGE, runRoute, sessionCookieFor, testContext, type RouteResult } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const BOREALIS = "partner2@example.org";
const CEDAR = "partner3@example.org";
const PAGE = "/partner/development-timeline";
const SAVED_TOAST = "Data recorded successfully!";

// ---------------------------------------------------------------- helpers

const DAY_MS = 86_400_000;
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** M/D/YYYY, without leading zeros. */
const shortDate = (iso: string) => {
  const [year, month, day] = iso.split("-").map(Number);
  return `${month}/${day}/${year}`;
};

async function actorFor(email: string): Promise<AuthUser> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}
async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowError);
  return error as WorkflowError;
}
const toastOf = async (result: RouteResult) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result) }))).toast;

let acme: number;
let borealis: number;
let cedar: number;
let open: number;
let lastQuarter: number;
let partner1: AuthUser;
let partner3: AuthUser;
let admin: AuthUser;
let staff: AuthUser;
const openName = quarterName(openQuarterRef());
const lastName = quarterName(addQuarters(openQuarterRef(), -1));

async function loadIds() {
  open = (await ensureQuarter(openQuarterRef())).id;
  lastQuarter = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
  [acme, borealis, cedar] = await Promise.all([ACME, BOREALIS, CEDAR].map(partnerIdOf));
  [partner1, partner3, admin, staff] = await Promise.all([ACME, CEDAR, ADMIN, STAFF].map(actorFor));
}
beforeEach(loadIds);

async function partnerPage(email: string, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerLoader, buildRequest(`${PAGE}${search}`, { cookie }));
}
async function adminPage(email: string, partnerId: number | string, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(adminLoader, buildRequest(`/admin/development-timeline/${partnerId}${search}`, { cookie }), { params: { id: String(partnerId) } });
}
async function postPartner(email: string, form: Record<string, string>, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerAction, buildRequest(`${PAGE}${search}`, { cookie, form }));
}
async function postAdmin(email: string, partnerId: number | string, form: Record<string, string>) {
  const cookie = await sessionCookieFor(email);
  return runRoute(adminAction, buildRequest(`/admin/development-timeline/${partnerId}`, { cookie, form }), { params: { id: String(partnerId) } });
}

/** The partner's timeline as its own page shows it (open quarter unless `quarter` is named). */
async function viewOf(email: string, quarter?: string): Promise<PdtReportView> {
  const page = await partnerPage(email, quarter ? `?quarter=${encodeURIComponent(quarter)}` : "");
  expect(page.status).toBe(200);
  return page.data.view;
}
async function adminViewOf(partnerId: number, quarter?: string): Promise<PdtReportView> {
  const page = await adminPage(ADMIN, partnerId, quarter ? `?quarter=${encodeURIComponent(quarter)}` : "");
  expect(page.status).toBe(200);
  return page.data.view;
}

interface PostedJsonRow {
  productId: number;
  stageId: number;
  status?: string;
  notes: string;
  startDate: string;
  endDate: string;
}
/** A grid row as the grid posts it back: dates as MM/DD/YYYY. */
const posted = (row: PdtGridRow, overrides: Partial<PostedJsonRow> = {}): PostedJsonRow => ({
  productId: row.productId,
  stageId: row.stageId,
  notes: row.notes,
  startDate: formatPdtDate(row.startDate),
  endDate: formatPdtDate(row.endDate),
  ...overrides,
});
const payload = (rows: PostedJsonRow[]) => JSON.stringify({ rows });

/** The grid's JSON post of the partner's open quarter, with the version its page holds. */
async function saveJson(email: string, rows: PostedJsonRow[], extra: Record<string, string> = {}) {
  const view = await viewOf(email);
  return postPartner(email, { intent: "save", quarterId: String(open), version: String(view.report.version), payload: payload(rows), ...extra });
}

async function reportOf(partnerId: number, quarterId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "pdt")));
  return report;
}
/** The stored plan of one partner's quarter, in a stable order, without ids. */
async function storedPlan(partnerId: number, quarterId: number) {
  const report = await reportOf(partnerId, quarterId);
  if (!report) return [];
  const rows = await db
    .select({ productId: pdtValues.productId, stageId: pdtValues.stageId, startDate: pdtValues.startDate, endDate: pdtValues.endDate, notes: pdtValues.notes })
    .from(pdtValues)
    .where(eq(pdtValues.reportId, report.id))
    .orderBy(asc(pdtValues.productId), asc(pdtValues.stageId));
  return rows;
}
/** Every stored PDT value of every report, with its report: what "nothing changed" compares. */
async function everyPdtValue() {
  return db.select().from(pdtValues).orderBy(asc(pdtValues.id));
}
async function projectStatuses() {
  return db.select().from(partnerProducts).orderBy(asc(partnerProducts.id));
}
async function pdtReports() {
  return db.select().from(reports).where(eq(reports.type, "pdt")).orderBy(asc(reports.id));
}
/** Everything a refused post must leave as it was. */
async function everything() {
  return { values: await everyPdtValue(), statuses: await projectStatuses(), reports: await pdtReports() };
}

const keyOf = (row: { productId: number; stageId: number }) => `${row.productId}:${row.stageId}`;

// ---------------------------------------------------------------- loading

describe("loading the Development Timeline", () => {
  it("a partner loads its own open quarter: one row per active product × stage of its category, in stage order, with the project status", async () => {
    const view = await loadPdtReport({ viewer: partner1, partnerId: acme });
    expect(view.partner).toEqual({ id: acme, companyName: "Acme Generics Ltd" });
    expect(view.quarter).toEqual({ id: open, name: openName, historic: false });
    expect(view.report.status).toBe("Submitted");

    const own = await db
      .select({ productId: products.id, name: products.name, category: products.category, status: partnerProducts.projectStatus })
      .from(partnerProducts)
      .innerJoin(products, eq(products.id, partnerProducts.productId))
      .where(eq(partnerProducts.partnerId, acme));
    const stageList = await db.select().from(stages).orderBy(asc(stages.sortOrder));
    const stagesOf = (category: string) => stageList.filter((stage) => stage.category === category);
    const expectedCount = own.reduce((sum, product) => sum + stagesOf(product.category).length, 0);
    expect(view.rows).toHaveLength(expectedCount);

    // Products one after another, by name; each with its category's stages in their order.
    const productOrder = view.rows.map((row) => row.productName).filter((name, index, names) => names.indexOf(name) === index);
    expect(productOrder).toEqual(["Dolutegravir 50 mg", "Dolutegravir API", "Sofosbuvir/Daclatasvir", "TLD (Tenofovir/Lamivudine/Dolutegravir)"]);
    for (const product of own) {
      const rows = view.rows.filter((row) => row.productId === product.productId);
      const first = view.rows.findIndex((row) => row.productId === product.productId);
      expect(view.rows.slice(first, first + rows.length)).toEqual(rows);
      expect(rows.map((row) => row.stageId)).toEqual(stagesOf(product.category).map((stage) => stage.id));
      expect(rows.map((row) => row.stageName)).toEqual(stagesOf(product.category).map((stage) => stage.name));
      expect(new Set(rows.map((row) => row.status))).toEqual(new Set([product.status]));
      expect(rows.every((row) => row.category === product.category)).toBe(true);
    }
    expect(view.rows.find((row) => row.productName === "TLD (Tenofovir/Lamivudine/Dolutegravir)")!.status).toBe("FILED");
    expect(view.rows.find((row) => row.productName === "Sofosbuvir/Daclatasvir")!.status).toBe("UNDER_DEVELOPMENT");

    // The open quarter's own stored plan is what the rows show.
    const stored = new Map((await storedPlan(acme, open)).map((row) => [keyOf(row), row]));
    for (const row of view.rows) {
      const value = stored.get(keyOf(row))!;
      expect([row.startDate, row.endDate, row.notes]).toEqual([value.startDate, value.endDate, value.notes ?? ""]);
    }

    // Earlier quarters, oldest first, then the open one.
    const expectedOrder = [-3, -2, -1, 0].map((offset) => {
      const ref = addQuarters(openQuarterRef(), offset);
      return { name: quarterName(ref), ...quarterBounds(ref) };
    });
    expect(view.quarterOrder).toEqual(expectedOrder);
    expect(Object.keys(view.rows[0].history).sort()).toEqual(
      expectedOrder
        .slice(0, 3)
        .map((quarter) => quarter.name)
        .sort(),
    );
    const lastStored = new Map((await storedPlan(acme, lastQuarter)).map((row) => [keyOf(row), row]));
    for (const row of view.rows) {
      const last = lastStored.get(keyOf(row))!;
      expect(row.history[lastName]).toEqual({ startDate: last.startDate, endDate: last.endDate });
      expect(row.previous).toEqual({ startDate: last.startDate, endDate: last.endDate });
    }
  });

  it("a deactivated product leaves the timeline", async () => {
    const before = await loadPdtReport({ viewer: partner1, partnerId: acme });
    const dropped = before.rows[0].productId;
    await db
      .update(partnerProducts)
      .set({ isActive: false })
      .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, dropped)));
    const after = await loadPdtReport({ viewer: partner1, partnerId: acme });
    expect(after.rows.some((row) => row.productId === dropped)).toBe(false);
    expect(after.rows).toHaveLength(before.rows.filter((row) => row.productId !== dropped).length);
  });

  it("Cedar (not started this quarter) sees last quarter's plan carried over: same dates and notes, `previous` set, slip 0", async () => {
    const page = await partnerPage(CEDAR);
    expect(page.status).toBe(200);
    const view: PdtReportView = page.data.view;
    expect(view.report).toMatchObject({ id: null, status: null, version: 0 });
    expect(page.data.history).toEqual([]);
    expect(await reportOf(cedar, open)).toBeUndefined();

    const last = await storedPlan(cedar, lastQuarter);
    expect(view.rows).toHaveLength(last.length);
    const lastByKey = new Map(last.map((row) => [keyOf(row), row]));
    for (const row of view.rows) {
      const plan = lastByKey.get(keyOf(row))!;
      expect(plan).toBeDefined();
      expect(row.startDate).toBe(plan.startDate);
      expect(row.endDate).toBe(plan.endDate);
      expect(row.notes).toBe(plan.notes ?? "");
      expect(row.previous).toEqual({ startDate: plan.startDate, endDate: plan.endDate });
      expect(row.slip).toEqual({ start: 0, end: 0 });
    }
    // Some of last quarter's rows say why a stage slipped: the note comes along.
    expect(view.rows.some((row) => row.notes !== "")).toBe(true);
    expect(view.quarterOrder.map((quarter) => quarter.name)).toEqual([-3, -2, -1, 0].map((offset) => quarterName(addQuarters(openQuarterRef(), offset))));
  });

  it("a quarter nobody reported still has its columns; the slip counts from the quarter just before, or is not shown", async () => {
    // Cedar's report of last quarter removed: the quarter stays in the order, empty, and nothing is compared with older plans.
    await db.delete(reports).where(and(eq(reports.partnerId, cedar), eq(reports.quarterId, lastQuarter), eq(reports.type, "pdt")));
    const view = await viewOf(CEDAR);
    expect(view.quarterOrder.map((quarter) => quarter.name)).toEqual([-3, -2, -1, 0].map((offset) => quarterName(addQuarters(openQuarterRef(), offset))));
    expect(view.quarterOrder[3]).toMatchObject(quarterBounds(openQuarterRef()));
    const lastName = quarterName(addQuarters(openQuarterRef(), -1));
    for (const row of view.rows) {
      expect(row.previous).toBeNull();
      expect(row.slip).toEqual({ start: null, end: null });
      expect(row.history[lastName]).toBeUndefined();
    }
    // The plan itself still starts from the latest one reported.
    expect(view.rows.every((row) => row.startDate !== null)).toBe(true);
  });

  it("'Nothing to report this quarter' submits the plan as it stands (carried over when never saved)", async () => {
    const before = await storedPlan(cedar, lastQuarter);
    const result = await postPartner(CEDAR, { intent: "submit-empty", quarterId: String(open), version: "0", comment: "No change this quarter." });
    expect(result.status).toBe(302);
    expect(await toastOf(result)).toMatchObject({ message: "Report has been submitted to the admin!" });
    expect((await reportOf(cedar, open))!.status).toBe("Submitted");
    expect(await storedPlan(cedar, open)).toEqual(before);
  });

  it("an earlier quarter is shown with its own plan and the quarters before it", async () => {
    const view = await viewOf(ACME, lastName);
    expect(view.quarter).toEqual({ id: lastQuarter, name: lastName, historic: true });
    expect(view.quarterOrder.at(-1)!.name).toBe(lastName);
    // The three quarters before it, whether reported or not (the demo reports start three quarters back).
    expect(view.quarterOrder.map((quarter) => quarter.name)).toEqual([-4, -3, -2, -1].map((offset) => quarterName(addQuarters(openQuarterRef(), offset))));
    const stored = new Map((await storedPlan(acme, lastQuarter)).map((row) => [keyOf(row), row]));
    for (const row of view.rows) expect(row.endDate).toBe(stored.get(keyOf(row))!.endDate);
    expect(view.permissions.save).toBe(false);
    expect(view.permissions.reasons.save).toBe(WORKFLOW_REFUSALS.historic);
  });
});

// ---------------------------------------------------------------- slip

describe("slip", () => {
  it("an end date saved 30 days later than last quarter's shows a slip of 30 days", async () => {
    const view = await viewOf(CEDAR);
    const target = view.rows[3];
    const moved = addDays(target.previous!.endDate!, 30);
    const result = await saveJson(CEDAR, [posted(target, { endDate: shortDate(moved) })]);
    expect(result.status).toBe(302);

    const after = (await viewOf(CEDAR)).rows.find((row) => keyOf(row) === keyOf(target))!;
    expect(after.endDate).toBe(moved);
    expect(after.previous).toEqual(target.previous);
    expect(after.slip).toEqual({ start: 0, end: 30 });
    // Earlier: a negative slip.
    const earlier = addDays(target.previous!.startDate!, -7);
    await saveJson(CEDAR, [posted(after, { startDate: shortDate(earlier) })]);
    expect((await viewOf(CEDAR)).rows.find((row) => keyOf(row) === keyOf(target))!.slip).toEqual({ start: -7, end: 30 });
  });
});

// ---------------------------------------------------------------- access

describe("who may read and change a timeline", () => {
  it("a partner cannot read or change another partner's timeline, by the model or by the admin route", async () => {
    expect((await refusal(loadPdtReport({ viewer: partner1, partnerId: cedar }))).status).toBe(403);
    const cedarView = await loadPdtReport({ viewer: partner3, partnerId: cedar });
    const before = await everything();
    const saved = await refusal(
      savePdtReport({
        actor: partner1,
        partnerId: cedar,
        quarterId: open,
        expectedVersion: 0,
        rows: [posted(cedarView.rows[0], { notes: "Not mine" })],
        statuses: {},
        action: "save",
      }),
    );
    expect(saved.status).toBe(403);

    // The admin screen is not a partner's: 403 for reading and for posting, its own partner id or another's.
    expect((await adminPage(ACME, cedar)).status).toBe(403);
    expect((await adminPage(ACME, acme)).status).toBe(403);
    const refused = await postAdmin(ACME, cedar, {
      intent: "save",
      quarterId: String(open),
      version: "0",
      payload: payload([posted(cedarView.rows[0], { notes: "Not mine" })]),
    });
    expect(refused.status).toBe(403);

    // The partner's own route always means its own partner: another partner's rows are not part of it.
    const intruding = await saveJson(ACME, [posted(cedarView.rows[0], { notes: "Not mine" })]);
    expect(intruding.status).toBe(400);
    expect(intruding.data).toMatchObject({ kind: "error", message: ROWS_NOT_IN_REPORT });
    // A status for a product that is not the partner's is refused the same way.
    const foreignStatus = await saveJson(ACME, [{ ...posted(cedarView.rows[0]), status: "ON_HOLD" }]);
    expect(foreignStatus.status).toBe(400);
    expect(await everything()).toEqual(before);
  });

  it("ADMIN and STAFF read any partner's timeline; every STAFF post is refused with 403 and changes nothing", async () => {
    const adminView = await adminPage(ADMIN, acme);
    expect(adminView.status).toBe(200);
    expect(adminView.data.viewerRole).toBe("ADMIN");
    expect(adminView.data.view.permissions).toMatchObject({ save: true, approve: true, reject: true });
    const staffView = await adminPage(STAFF, acme);
    expect(staffView.status).toBe(200);
    expect(staffView.data.view.rows).toEqual(adminView.data.view.rows);
    expect(staffView.data.view.permissions).toMatchObject({ save: false, submit: false, approve: false, reject: false, reopen: false });
    expect(staffView.data.view.permissions.reasons.save).toBe(WORKFLOW_REFUSALS.staff);

    const before = await everything();
    const view: PdtReportView = adminView.data.view;
    const rows = payload([{ ...posted(view.rows[0], { notes: "Staff edit" }), status: "DROPPED" }]);
    const common = { quarterId: String(open), version: String(view.report.version), comment: "Staff comment", payload: rows };
    for (const intent of ["save", "submit", "submit-empty", "approve", "reject", "reopen", "read-messages"]) {
      const result = await postAdmin(STAFF, acme, { intent, ...common });
      expect(result.status, intent).toBe(403);
    }
    for (const intent of ["approve", "reject", "reopen"]) {
      expect((await postAdmin(STAFF, acme, { intent, quarterId: String(open), comment: "x" })).status, intent).toBe(403);
    }
    // A workbook upload too.
    const form = new FormData();
    form.set("intent", "upload");
    form.set("version", String(view.report.version));
    form.set("file", new Blob([await uploadWorkbook([["Dolutegravir 50 mg", view.rows[0].stageName, "DROPPED", "Staff edit", "", ""]])]), "pdt.xlsx");
    const upload = await runRoute(
      adminAction,
      new Request(`http://localhost/admin/development-timeline/${acme}`, { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(STAFF) } }),
      { params: { id: String(acme) } },
    );
    expect(upload.status).toBe(403);
    // The model refuses STAFF whatever the route did.
    const staffActor = await refusal(
      savePdtReport({ actor: staff, partnerId: acme, quarterId: open, expectedVersion: view.report.version, rows: [], statuses: {}, action: "save" }),
    );
    expect(staffActor.status).toBe(403);
    expect(staffActor.message).toBe(WORKFLOW_REFUSALS.staff);
    expect(await everything()).toEqual(before);
  });

  it("an unknown partner id is not found, for the page, the workbook and a post", async () => {
    expect((await adminPage(ADMIN, 999999)).status).toBe(404);
    expect((await adminPage(ADMIN, "abc")).status).toBe(404);
    expect((await adminPage(STAFF, 999999)).status).toBe(404);
    const cookie = await sessionCookieFor(ADMIN);
    expect(await runRoute(adminXlsx, buildRequest("/admin/development-timeline/999999/xlsx", { cookie }), { params: { id: "999999" } })).toMatchObject(
      NOT_FOUND_PAGE,
    );
    const post = await postAdmin(ADMIN, 999999, { intent: "save", quarterId: String(open), version: "0", payload: payload([]) });
    expect(post.status).toBe(404);
    expect((await refusal(loadPdtReport({ viewer: admin, partnerId: 999999 }))).status).toBe(404);
    // An unknown quarter too.
    expect((await partnerPage(ACME, "?quarter=Q9 1999")).status).toBe(404);
  });

  it("the workbook downloads: the partner its own, never through the admin URL; ADMIN and STAFF any partner's", async () => {
    const params = { params: { id: String(acme) } };
    const own = await partnerXlsx({ request: buildRequest(`${PAGE}/xlsx`, { cookie: await sessionCookieFor(ACME) }), params: {}, context: testContext() });
    expect(own).toBeInstanceOf(Response);
    expect((own as Response).status).toBe(200);
    expect((own as Response).headers.get("Content-Disposition")).toMatch(/^attachment; filename="development-timeline_Acme-Generics-Ltd_\d{4}-Q[1-4]\.xlsx"$/);
    await (own as Response).arrayBuffer();

    for (const partnerId of [acme, cedar]) {
      const refused = await runRoute(adminXlsx, buildRequest(`/admin/development-timeline/${partnerId}/xlsx`, { cookie: await sessionCookieFor(ACME) }), {
        params: { id: String(partnerId) },
      });
      expect(refused.status).toBe(403);
    }
    for (const email of [STAFF, ADMIN]) {
      const response = await adminXlsx({
        request: buildRequest(`/admin/development-timeline/${acme}/xlsx`, { cookie: await sessionCookieFor(email) }),
        ...params,
        context: testContext(),
      });
      expect((response as Response).status, email).toBe(200);
      await (response as Response).arrayBuffer();
    }
    // ADMIN and STAFF have no partner download.
    for (const email of [ADMIN, STAFF]) {
      expect((await runRoute(partnerXlsx, buildRequest(`${PAGE}/xlsx`, { cookie: await sessionCookieFor(email) }))).status, email).toBe(403);
    }
    // Without a session: to the login page.
    const anonymous = await runRoute(partnerXlsx, buildRequest(`${PAGE}/xlsx`));
    expect([anonymous.status, anonymous.location]).toEqual([302, "/login"]);
  });
});

// ---------------------------------------------------------------- saving

describe("saving from the grid (JSON)", () => {
  it("Cedar's first save of the quarter: one changed row stores the whole carried-over plan plus the change", async () => {
    const view = await viewOf(CEDAR);
    expect(view.report.version).toBe(0);
    const target = view.rows[1];
    const newEnd = addDays(target.endDate!, 14);
    const result = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(open),
      version: "0",
      payload: payload([posted(target, { notes: "Moved after the site audit", endDate: shortDate(newEnd) })]),
    });
    expect(result.status).toBe(302);
    expect(result.location).toBe(PAGE);
    expect(await toastOf(result)).toMatchObject({ type: "success", message: SAVED_TOAST });

    const report = await reportOf(cedar, open);
    expect(report).toMatchObject({ status: "Saved", version: 1 });
    const stored = await storedPlan(cedar, open);
    expect(stored).toHaveLength(view.rows.length);
    const byKey = new Map(stored.map((row) => [keyOf(row), row]));
    for (const row of view.rows) {
      const value = byKey.get(keyOf(row))!;
      if (keyOf(row) === keyOf(target)) {
        expect(value).toMatchObject({ startDate: target.startDate, endDate: newEnd, notes: "Moved after the site audit" });
      } else {
        expect(value).toMatchObject({ startDate: row.startDate, endDate: row.endDate, notes: row.notes || null });
      }
    }
    const after = await viewOf(CEDAR);
    expect(after.report).toMatchObject({ status: "Saved", version: 1 });
    expect(after.statusLine.status).toBe("Saved");
  });

  it("posting only the changed rows stores the same plan as posting every row", async () => {
    const view = await viewOf(CEDAR);
    const change = (row: PdtGridRow) =>
      posted(row, { notes: "Pilot BE rescheduled", startDate: shortDate(addDays(row.startDate!, 10)), endDate: shortDate(addDays(row.endDate!, 20)) });
    const target = view.rows[2];
    expect((await saveJson(CEDAR, [change(target)])).status).toBe(302);
    const changedOnly = await storedPlan(cedar, open);

    await resetDatabase();
    await loadIds();
    const fresh = await viewOf(CEDAR);
    expect(fresh.rows).toEqual(view.rows);
    const everyRow = fresh.rows.map((row) => (keyOf(row) === keyOf(target) ? change(row) : posted(row)));
    expect((await saveJson(CEDAR, everyRow)).status).toBe(302);
    expect(await storedPlan(cedar, open)).toEqual(changedOnly);
    expect((await reportOf(cedar, open)).version).toBe(1);
  });

  it("notes, dates as M/D/YYYY and MM/DD/YYYY are accepted; a single space clears a date", async () => {
    const view = await viewOf(CEDAR);
    const [first, second, third] = view.rows;
    const result = await saveJson(CEDAR, [
      posted(first, { startDate: "3/5/2027", endDate: "04/09/2027" }),
      posted(second, { startDate: " ", endDate: " " }),
      posted(third, { notes: "  Waiting for the reference product  " }),
    ]);
    expect(result.status).toBe(302);
    const byKey = new Map((await storedPlan(cedar, open)).map((row) => [keyOf(row), row]));
    expect(byKey.get(keyOf(first))).toMatchObject({ startDate: "2027-03-05", endDate: "2027-04-09" });
    expect(byKey.get(keyOf(second))).toMatchObject({ startDate: null, endDate: null });
    expect(byKey.get(keyOf(third))).toMatchObject({ notes: "Waiting for the reference product", startDate: third.startDate, endDate: third.endDate });

    const after = new Map((await viewOf(CEDAR)).rows.map((row) => [keyOf(row), row]));
    expect(after.get(keyOf(first))).toMatchObject({ startDate: "2027-03-05", endDate: "2027-04-09" });
    // A cleared date has no slip.
    expect(after.get(keyOf(second))).toMatchObject({ startDate: null, endDate: null, slip: { start: null, end: null } });
    expect(after.get(keyOf(third))!.notes).toBe("Waiting for the reference product");
  });
});

// ---------------------------------------------------------------- validation

describe("invalid rows", () => {
  it("an end date before its start, '13/45/2026' or an unknown status: 400 with the grid's row numbers, nothing written", async () => {
    const view = await viewOf(ACME);
    const secondProduct = view.rows.findIndex((row) => row.productId !== view.rows[0].productId);
    expect(secondProduct).toBeGreaterThan(4);
    const before = await everything();
    const result = await saveJson(ACME, [
      posted(view.rows[0], { notes: "A valid change that must not be saved either" }),
      posted(view.rows[2], { startDate: "06/10/2027", endDate: "06/01/2027" }),
      posted(view.rows[4], { startDate: "13/45/2026" }),
      { ...posted(view.rows[secondProduct]), status: "Finished" },
    ]);
    expect(result.status).toBe(400);
    expect(result.data).toEqual({
      kind: "problems",
      intent: "save",
      problems: {
        PDT: [
          { rowNumber: 3, keys: ["endDate"], columns: ["End Date"], entered: { endDate: "06/01/2027" } },
          { rowNumber: 5, keys: ["startDate"], columns: ["Start Date"], entered: { startDate: "13/45/2026" } },
          { rowNumber: secondProduct + 1, keys: ["status"], columns: ["Status"], entered: { status: "Finished" } },
        ],
      },
    });
    expect(await everything()).toEqual(before);
    expect((await viewOf(ACME)).report).toMatchObject({ status: "Submitted", version: view.report.version });
  });

  it("the model answers the same problems and writes nothing, even for a report not started", async () => {
    const view = await loadPdtReport({ viewer: partner3, partnerId: cedar });
    const result = await savePdtReport({
      actor: partner3,
      partnerId: cedar,
      quarterId: open,
      expectedVersion: 0,
      rows: [posted(view.rows[1], { endDate: "2/30/2027" })],
      statuses: {},
      action: "save",
    });
    expect(result).toEqual({ ok: false, problems: [{ rowNumber: 2, keys: ["endDate"], columns: ["End Date"], entered: { endDate: "2/30/2027" } }] });
    expect(await reportOf(cedar, open)).toBeUndefined();
  });
});

// ---------------------------------------------------------------- status

describe("the project status", () => {
  it("a posted status change updates partner_products and writes an audit entry with the old and new status", async () => {
    const view = await viewOf(CEDAR);
    const abacavir = view.rows.filter((row) => row.productName === "Abacavir API");
    expect(abacavir[0].status).toBe("FILED");
    const result = await saveJson(CEDAR, [{ ...posted(abacavir[2]), status: "On Hold" }]);
    expect(result.status).toBe(302);

    const [link] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, cedar), eq(partnerProducts.productId, abacavir[0].productId)));
    expect(link.projectStatus).toBe("ON_HOLD");
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "product.status"));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: partner3.id,
      entity: "partner_product",
      entityId: `${cedar}:${abacavir[0].productId}`,
      before: { projectStatus: "FILED" },
      after: { projectStatus: "ON_HOLD" },
    });
    // Every row of the product shows it; the other products keep theirs.
    const after = await viewOf(CEDAR);
    expect(after.rows.filter((row) => row.productName === "Abacavir API").every((row) => row.status === "ON_HOLD")).toBe(true);
    expect(after.rows.filter((row) => row.productName !== "Abacavir API").map((row) => row.status)).toEqual(
      view.rows.filter((row) => row.productName !== "Abacavir API").map((row) => row.status),
    );

    // Posting the same status again is no change: no second audit entry.
    await saveJson(CEDAR, [{ ...posted(after.rows.find((row) => row.productName === "Abacavir API")!), status: "ON_HOLD" }]);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "product.status"))).toHaveLength(1);
  });

  it("one row posted twice in a save is refused; nothing changes", async () => {
    const view = await viewOf(CEDAR);
    const before = await everything();
    const twice = await saveJson(CEDAR, [posted(view.rows[0], { notes: "First copy" }), posted(view.rows[1]), posted(view.rows[0], { notes: "Second copy" })]);
    expect(twice.status).toBe(400);
    expect(await everything()).toEqual(before);
  });

  it("two rows of one product posted with different statuses are refused; nothing changes", async () => {
    const view = await viewOf(CEDAR);
    const [first, second] = view.rows.filter((row) => row.productName === "Ravidasvir API");
    const before = await everything();
    const result = await saveJson(CEDAR, [
      { ...posted(first), status: "UNDER_DEVELOPMENT" },
      { ...posted(second), status: "DROPPED" },
    ]);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ kind: "error", intent: "save" });
    expect(await everything()).toEqual(before);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "product.status"))).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- workflow

describe("the workflow, per role and quarter state", () => {
  it("a partner's submission needs a comment; with one, Cedar's timeline is saved and Submitted", async () => {
    const view = await viewOf(CEDAR);
    const row = posted(view.rows[0], { notes: "Submitted with the report" });
    const missing = await postPartner(CEDAR, { intent: "submit", quarterId: String(open), version: "0", comment: "  ", payload: payload([row]) });
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ kind: "error", intent: "submit", field: "comment", message: WORKFLOW_REFUSALS.partnerComment });
    expect(await reportOf(cedar, open)).toBeUndefined();

    const submitted = await postPartner(CEDAR, {
      intent: "submit",
      quarterId: String(open),
      version: "0",
      comment: "Our timeline for the quarter.",
      payload: payload([row]),
    });
    expect(submitted.status).toBe(302);
    expect(await toastOf(submitted)).toMatchObject({ type: "success", message: "Report has been submitted to the admin!" });
    const after = await viewOf(CEDAR);
    expect(after.report.status).toBe("Submitted");
    expect(after.messages.map((message) => message.message)).toEqual(["Our timeline for the quarter."]);
    const stored = await storedPlan(cedar, open);
    expect(stored).toHaveLength(view.rows.length);
    expect(stored.find((value) => keyOf(value) === keyOf(view.rows[0]))!.notes).toBe("Submitted with the report");
  });

  it("an already submitted report is not submitted again without a change; with a changed row it is Resubmitted", async () => {
    const view = await viewOf(ACME);
    expect(view.report.status).toBe("Submitted");
    const before = await everything();
    const version = String(view.report.version);
    for (const rows of [[], [posted(view.rows[0])]]) {
      const refused = await postPartner(ACME, { intent: "submit", quarterId: String(open), version, comment: "Again.", payload: payload(rows) });
      expect(refused.status).toBe(409);
      expect(refused.data).toMatchObject({ kind: "error", message: "This report is already submitted. Change it to submit it again." });
    }
    expect(await everything()).toEqual(before);

    const changed = await postPartner(ACME, {
      intent: "submit",
      quarterId: String(open),
      version,
      comment: "Updated the pilot BE dates.",
      payload: payload([posted(view.rows[2], { endDate: shortDate(addDays(view.rows[2].endDate!, 5)) })]),
    });
    expect(changed.status).toBe(302);
    expect((await viewOf(ACME)).report).toMatchObject({ status: "Resubmitted", version: view.report.version + 1 });
  });

  it("an administrator's approval and rejection need a comment; a rejection makes the report Rejected", async () => {
    for (const intent of ["approve", "reject"]) {
      const missing = await postAdmin(ADMIN, acme, { intent, quarterId: String(open), comment: "" });
      expect(missing.status, intent).toBe(400);
      expect(missing.data).toMatchObject({ kind: "error", intent, field: "comment", message: WORKFLOW_REFUSALS.adminComment });
    }
    expect((await reportOf(acme, open)).status).toBe("Submitted");

    const rejected = await postAdmin(ADMIN, acme, { intent: "reject", quarterId: String(open), comment: "Please check the stability dates." });
    expect(rejected.status).toBe(302);
    expect(rejected.location).toBe(`/admin/development-timeline/${acme}`);
    expect(await toastOf(rejected)).toMatchObject({ type: "success", message: "Report Rejected!" });
    const view = await viewOf(ACME);
    expect(view.report.status).toBe("Rejected");
    expect(view.messages.at(-1)).toMatchObject({ message: "Please check the stability dates.", isApproved: false });
    // The partner may now save and submit again: a second submission is a resubmission.
    const again = await postPartner(ACME, {
      intent: "submit",
      quarterId: String(open),
      version: String(view.report.version),
      comment: "Fixed.",
      payload: payload([]),
    });
    expect(again.status).toBe(302);
    expect((await reportOf(acme, open)).status).toBe("Resubmitted");
  });

  it("a Saved report cannot be approved; with posted rows the refused approval changes nothing", async () => {
    expect((await saveJson(CEDAR, [posted((await viewOf(CEDAR)).rows[0], { notes: "Draft" })])).status).toBe(302);
    const view = await adminViewOf(cedar);
    expect(view.report.status).toBe("Saved");
    const before = await everything();

    const plain = await postAdmin(ADMIN, cedar, { intent: "approve", quarterId: String(open), comment: "Looks fine." });
    expect(plain.status).toBe(409);
    expect(plain.data).toMatchObject({ kind: "error", message: WORKFLOW_REFUSALS.notSubmitted });

    const withRows = await postAdmin(ADMIN, cedar, {
      intent: "approve",
      quarterId: String(open),
      version: String(view.report.version),
      comment: "Corrected and approved.",
      payload: payload([{ ...posted(view.rows[0], { notes: "Admin correction", endDate: " " }), status: "APPROVED" }]),
    });
    expect(withRows.status).toBe(409);
    expect(withRows.data).toMatchObject({ kind: "error", message: WORKFLOW_REFUSALS.notSubmitted });
    expect(await everything()).toEqual(before);
    expect((await adminViewOf(cedar)).report).toMatchObject({ status: "Saved", version: view.report.version });
  });

  it("an administrator's approval with edited rows saves them and approves in one step", async () => {
    const view = await adminViewOf(acme);
    const target = view.rows[5];
    const approved = await postAdmin(ADMIN, acme, {
      intent: "approve",
      quarterId: String(open),
      version: String(view.report.version),
      comment: "Corrected a typo and approved.",
      payload: payload([posted(target, { notes: "Corrected by the administrator" })]),
    });
    expect(approved.status).toBe(302);
    expect(await toastOf(approved)).toMatchObject({ message: "Report Approved!" });
    const after = await adminViewOf(acme);
    expect(after.report).toMatchObject({ status: "Approved", version: view.report.version + 1 });
    expect(after.rows.find((row) => keyOf(row) === keyOf(target))!.notes).toBe("Corrected by the administrator");
  });

  it("an Approved open-quarter report is closed to the partner until the administrator reopens it (Saved)", async () => {
    expect((await postAdmin(ADMIN, acme, { intent: "approve", quarterId: String(open), comment: "Thank you." })).status).toBe(302);
    const approved = await viewOf(ACME);
    expect(approved.report.status).toBe("Approved");
    const partnerSave = await saveJson(ACME, [posted(approved.rows[0], { notes: "Too late" })]);
    expect(partnerSave.status).toBe(409);
    expect(partnerSave.data).toMatchObject({ kind: "error", message: WORKFLOW_REFUSALS.approved });

    const noComment = await postAdmin(ADMIN, acme, { intent: "reopen", quarterId: String(open), comment: "" });
    expect(noComment.data).toMatchObject({ kind: "error", field: "comment", message: WORKFLOW_REFUSALS.adminComment });
    const reopened = await postAdmin(ADMIN, acme, { intent: "reopen", quarterId: String(open), comment: "Please update the filing dates." });
    expect(reopened.status).toBe(302);
    expect(await toastOf(reopened)).toMatchObject({ message: "Report reopened!" });
    expect((await viewOf(ACME)).report.status).toBe("Saved");
    expect((await saveJson(ACME, [posted(approved.rows[0], { notes: "Updated after reopening" })])).status).toBe(302);
    expect((await viewOf(ACME)).rows[0].notes).toBe("Updated after reopening");

    // Reopening a report that is not approved is refused.
    const notApproved = await postAdmin(ADMIN, acme, { intent: "reopen", quarterId: String(open), comment: "Again." });
    expect(notApproved.status).toBe(409);
    expect(notApproved.data).toMatchObject({ message: WORKFLOW_REFUSALS.notApproved });
  });

  it("a closed quarter: reopening its approved report is refused, a partner's save too; the administrator's save keeps the state", async () => {
    const before = await everything();
    const reopen = await postAdmin(ADMIN, acme, { intent: "reopen", quarterId: String(lastQuarter), comment: "Reopen last quarter." });
    expect(reopen.status).toBe(409);
    expect(reopen.data).toMatchObject({ kind: "error", message: "This quarter is closed: its reports can no longer be changed." });

    const historic = await viewOf(ACME, lastName);
    expect(historic.report.status).toBe("Approved");
    const partnerSave = await postPartner(
      ACME,
      {
        intent: "save",
        quarterId: String(lastQuarter),
        version: String(historic.report.version),
        payload: payload([posted(historic.rows[0], { notes: "Rewrite history" })]),
      },
      `?quarter=${encodeURIComponent(lastName)}`,
    );
    expect(partnerSave.status).toBe(409);
    expect(partnerSave.data).toMatchObject({ kind: "error", message: WORKFLOW_REFUSALS.historic });
    // A partner's status change through a closed quarter is refused with it.
    const partnerStatus = await postPartner(ACME, {
      intent: "save",
      quarterId: String(lastQuarter),
      version: String(historic.report.version),
      payload: payload([{ ...posted(historic.rows[0]), status: "DROPPED" }]),
    });
    expect(partnerStatus.status).toBe(409);
    expect(await everything()).toEqual(before);

    // Cedar's closed quarter, not reported by the partner then, is refused as well.
    const cedarHistoric = await viewOf(CEDAR, lastName);
    const cedarSave = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(lastQuarter),
      version: String(cedarHistoric.report.version),
      payload: payload([posted(cedarHistoric.rows[0], { notes: "x" })]),
    });
    expect(cedarSave.status).toBe(409);

    const adminHistoric = await adminViewOf(acme, lastName);
    const target = adminHistoric.rows[1];
    const adminSave = await postAdmin(ADMIN, acme, {
      intent: "save",
      quarterId: String(lastQuarter),
      version: String(adminHistoric.report.version),
      payload: payload([posted(target, { notes: "Corrected by the administrator" })]),
    });
    expect(adminSave.status).toBe(302);
    expect(await toastOf(adminSave)).toMatchObject({ message: SAVED_TOAST });
    const after = await adminViewOf(acme, lastName);
    expect(after.report).toMatchObject({ status: "Approved", version: adminHistoric.report.version + 1 });
    expect(after.rows.find((row) => keyOf(row) === keyOf(target))!.notes).toBe("Corrected by the administrator");
    // Only that quarter's report changed.
    const changedReports = (await pdtReports()).filter((report, index) => report.version !== before.reports[index].version);
    expect(changedReports.map((report) => report.quarterId)).toEqual([lastQuarter]);
  });

  it("a stale version is refused with who saved and when; nothing is written", async () => {
    const view = await viewOf(CEDAR);
    expect((await saveJson(CEDAR, [posted(view.rows[0], { notes: "First writer" })])).status).toBe(302);
    const before = await everything();
    const stale = await postPartner(CEDAR, {
      intent: "save",
      quarterId: String(open),
      version: "0",
      payload: payload([{ ...posted(view.rows[0], { notes: "Late writer" }), status: "DROPPED" }]),
    });
    expect(stale.status).toBe(409);
    expect(stale.data).toMatchObject({ kind: "error", intent: "save", stale: true, values: { name: "Cedar Life Sciences", time: expect.any(String) } });
    expect(await everything()).toEqual(before);

    // An administrator holding an older version is refused too.
    const adminStale = await postAdmin(ADMIN, acme, {
      intent: "save",
      quarterId: String(open),
      version: "0",
      payload: payload([posted((await adminViewOf(acme)).rows[0], { notes: "Old page" })]),
    });
    expect(adminStale.status).toBe(409);
    expect(adminStale.data).toMatchObject({ stale: true });
    expect(await everything()).toEqual(before);
  });

  it("a save without a version, or with a malformed payload, is a bad request", async () => {
    const view = await viewOf(CEDAR);
    const before = await everything();
    const noVersion = await postPartner(CEDAR, { intent: "save", quarterId: String(open), payload: payload([posted(view.rows[0])]) });
    expect(noVersion.status).toBe(400);
    for (const body of [
      "{",
      JSON.stringify({ rows: {} }),
      JSON.stringify({ rows: [], extra: 1 }),
      JSON.stringify({ rows: [{ ...posted(view.rows[0]), productId: "x" }] }),
    ]) {
      const result = await postPartner(CEDAR, { intent: "save", quarterId: String(open), version: "0", payload: body });
      expect(result.status, body).toBe(400);
    }
    expect(await everything()).toEqual(before);
  });
});

// ---------------------------------------------------------------- history

describe("history", () => {
  it("a save and a submission are listed, the submission with its snapshot hash; earlier quarters' values stay as they were", async () => {
    const earlierReports = (await pdtReports()).filter((report) => report.partnerId === cedar && report.quarterId !== open).map((report) => report.id);
    expect(earlierReports).toHaveLength(3);
    const earlierValues = () => db.select().from(pdtValues).where(inArray(pdtValues.reportId, earlierReports)).orderBy(asc(pdtValues.id));
    const before = await earlierValues();

    const view = await viewOf(CEDAR);
    expect((await saveJson(CEDAR, [posted(view.rows[0], { endDate: shortDate(addDays(view.rows[0].endDate!, 30)), notes: "Slipped" })])).status).toBe(302);
    const saved = await viewOf(CEDAR);
    const submitted = await postPartner(CEDAR, {
      intent: "submit",
      quarterId: String(open),
      version: String(saved.report.version),
      comment: "Timeline attached.",
      payload: payload([]),
    });
    expect(submitted.status).toBe(302);

    const report = await reportOf(cedar, open);
    const history = await listReportHistory(report.id);
    expect(history.map((entry) => entry.action)).toEqual(["submit", "save"]);
    expect(history[0]).toMatchObject({ who: "Cedar Life Sciences", comment: "Timeline attached.", version: 2, rowCount: view.rows.length });
    expect(history[0].snapshotSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(history[1]).toMatchObject({ version: 1, snapshotSha256: null, rowCount: null });
    // The page lists it as well.
    expect((await partnerPage(CEDAR)).data.history.map((entry: { action: string }) => entry.action)).toEqual(["submit", "save"]);

    expect(await earlierValues()).toEqual(before);
    // The grid's history columns still show last quarter's plan.
    const after = (await viewOf(CEDAR)).rows[0];
    expect(after.history[lastName]).toEqual(view.rows[0].history[lastName]);
    expect(after.slip.end).toBe(30);
  });
});

// ---------------------------------------------------------------- plain form

describe("the form without JavaScript", () => {
  it("posting `pdt[i][…]` fields with ISO dates from date inputs saves the rows and the status", async () => {
    const view = await viewOf(CEDAR);
    const first = view.rows[0];
    const second = view.rows[1];
    const form: Record<string, string> = { intent: "save", quarterId: String(open), version: "0", page: "1" };
    const fields = (index: number, row: PdtGridRow, cells: Record<string, string>) => {
      for (const [key, value] of Object.entries({
        productId: String(row.productId),
        stageId: String(row.stageId),
        notes: row.notes,
        startDate: row.startDate ?? "",
        endDate: row.endDate ?? "",
        ...cells,
      })) {
        form[`pdt[${index}][${key}]`] = value;
      }
    };
    fields(0, first, { status: "ON_HOLD", startDate: "2027-01-04", endDate: "2027-02-26" });
    fields(1, second, { notes: "Trial batch planned with the new supplier", endDate: "" });
    const result = await postPartner(CEDAR, form);
    expect(result.status).toBe(302);
    expect(result.location).toBe(PAGE);
    expect(await toastOf(result)).toMatchObject({ message: SAVED_TOAST });

    const byKey = new Map((await storedPlan(cedar, open)).map((row) => [keyOf(row), row]));
    expect(byKey.size).toBe(view.rows.length);
    expect(byKey.get(keyOf(first))).toMatchObject({ startDate: "2027-01-04", endDate: "2027-02-26" });
    expect(byKey.get(keyOf(second))).toMatchObject({ notes: "Trial batch planned with the new supplier", startDate: second.startDate, endDate: null });
    const after = await viewOf(CEDAR);
    expect(after.rows.filter((row) => row.productId === first.productId).every((row) => row.status === "ON_HOLD")).toBe(true);
  });

  it("invalid cells come back by row with the posted values kept; nothing is saved", async () => {
    const view = await viewOf(CEDAR);
    const row = view.rows[6];
    const form: Record<string, string> = {
      intent: "save",
      quarterId: String(open),
      version: "0",
      "pdt[6][productId]": String(row.productId),
      "pdt[6][stageId]": String(row.stageId),
      "pdt[6][notes]": "Kept",
      "pdt[6][startDate]": "2027-02-30",
      "pdt[6][endDate]": "2027-03-01",
    };
    const result = await postPartner(CEDAR, form);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "problems",
      problems: { PDT: [{ rowNumber: 7, keys: ["startDate"], columns: ["Start Date"] }] },
      submitted: { tab: "PDT", rows: { 6: { notes: "Kept", startDate: "2027-02-30" } } },
    });
    expect(await reportOf(cedar, open)).toBeUndefined();
  });

  it("a date typed month first that could be meant either way round is saved month first; the page after the save says so, once", async () => {
    const view = await viewOf(CEDAR);
    const [first] = view.rows;
    const form: Record<string, string> = {
      intent: "save",
      quarterId: String(open),
      version: String(view.report.version),
      page: "1",
      "pdt[0][productId]": String(first.productId),
      "pdt[0][stageId]": String(first.stageId),
      "pdt[0][notes]": first.notes,
      "pdt[0][startDate]": "05/11/2027",
      "pdt[0][endDate]": "5/13/2027",
    };
    const result = await postPartner(CEDAR, form);
    expect(result.status).toBe(302);
    expect(await toastOf(result)).toMatchObject({ message: SAVED_TOAST });
    const byKey = new Map((await storedPlan(cedar, open)).map((row) => [keyOf(row), row]));
    expect(byKey.get(keyOf(first))).toMatchObject({ startDate: "2027-05-11", endDate: "2027-05-13" });

    // The page the save returns to names the ambiguous start date (5/13 reads only one way); the next one does not.
    const session = await sessionCookieFor(CEDAR);
    const cookie = cookiesFrom(result, session);
    const after = await runRoute(partnerLoader, buildRequest(PAGE, { cookie }));
    expect(after.data.dateReadings).toEqual([{ index: 0, key: "startDate" }]);
    const again = await runRoute(partnerLoader, buildRequest(PAGE, { cookie: cookiesFrom(after, cookie) }));
    expect(again.data.dateReadings).toBeNull();
  });

  it("the grid's save of an ambiguous date names nothing after it: the grid said what it read before saving", async () => {
    const view = await viewOf(CEDAR);
    const result = await saveJson(CEDAR, [posted(view.rows[0], { startDate: "05/11/2027", endDate: "" })]);
    expect(result.status).toBe(302);
    const page = await runRoute(partnerLoader, buildRequest(PAGE, { cookie: cookiesFrom(result, await sessionCookieFor(CEDAR)) }));
    expect(page.data.view.rows[0].startDate).toBe("2027-05-11");
    expect(page.data.dateReadings).toBeNull();
  });
});

// ---------------------------------------------------------------- workbook

async function workbookFrom(response: Response): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
  return workbook;
}

/** A workbook as a partner fills it: sheet PDT with the six columns an upload reads. */
async function uploadWorkbook(rows: (string | Date | null)[][], header = ["Product", "Stage", "Status", "Notes", "Start Date", "End Date"]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("PDT");
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return workbook.xlsx.writeBuffer();
}

async function upload(email: string, file: BlobPart, version?: string) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("version", version ?? String((await viewOf(email)).report.version));
  form.set("file", new Blob([file]), "development-timeline.xlsx");
  const request = new Request(`http://localhost${PAGE}`, { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(email) } });
  return runRoute(partnerAction, request);
}

describe("the workbook", () => {
  it("downloads sheet PDT with the grid's columns, the first product and stage first, and real Excel dates", async () => {
    const view = await loadPdtReport({ viewer: admin, partnerId: acme });
    const response = await pdtWorkbookDownload({ request: buildRequest(`/admin/development-timeline/${acme}/xlsx`), viewer: admin, partnerId: acme });
    expect(response.status).toBe(200);
    const workbook = await workbookFrom(response);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["PDT", "Info"]);
    const sheet = workbook.getWorksheet("PDT")!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 8)).toEqual(["Product", "Stage", "Status", "Notes", "Start Date", "End Date", "Start slip (days)", "End slip (days)"]);
    // Then the earlier quarters' plans.
    expect(header.slice(8)).toEqual(view.quarterOrder.slice(0, -1).flatMap((quarter) => [`Start Date (${quarter.name})`, `End Date (${quarter.name})`]));
    expect(sheet.rowCount).toBe(view.rows.length + 1);

    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toBe(view.rows[0].productName);
    expect(first.getCell(2).value).toBe(view.rows[0].stageName);
    expect(first.getCell(3).value).toBe(PROJECT_STATUS_LABELS[view.rows[0].status]);
    const start = first.getCell(5).value;
    const end = first.getCell(6).value;
    expect(start).toBeInstanceOf(Date);
    expect(end).toBeInstanceOf(Date);
    expect((start as Date).toISOString().slice(0, 10)).toBe(view.rows[0].startDate);
    expect((end as Date).toISOString().slice(0, 10)).toBe(view.rows[0].endDate);
    expect(first.getCell(8).value).toBe(view.rows[0].slip.end);
    const lastQuarterStart = first.getCell(9 + 2 * (view.quarterOrder.length - 2)).value;
    expect((lastQuarterStart as Date).toISOString().slice(0, 10)).toBe(view.rows[0].history[lastName].startDate);
  });

  it("a ?quarter= download is that quarter's plan", async () => {
    const cookie = await sessionCookieFor(ACME);
    const response = (await partnerXlsx({
      request: buildRequest(`${PAGE}/xlsx?quarter=${encodeURIComponent(lastName)}`, { cookie }),
      params: {},
      context: testContext(),
    })) as Response;
    const sheet = (await workbookFrom(response)).getWorksheet("PDT")!;
    const view = await viewOf(ACME, lastName);
    expect((sheet.getRow(2).getCell(6).value as Date).toISOString().slice(0, 10)).toBe(view.rows[0].endDate);
  });

  it("uploading a filled workbook saves its rows (dates as Excel dates or text, status by its label)", async () => {
    const view = await viewOf(CEDAR);
    const [first, second] = view.rows;
    const file = await uploadWorkbook([
      [first.productName, first.stageName, "On Hold", "Uploaded note", new Date(Date.UTC(2027, 0, 11)), "03/15/2027"],
      [second.productName.toUpperCase(), `  ${second.stageName} `, second.status, second.notes, formatPdtDate(second.startDate), "5/2/2027"],
    ]);
    const result = await upload(CEDAR, file);
    expect(result.status).toBe(302);
    expect(result.location).toBe(PAGE);
    expect(await toastOf(result)).toMatchObject({ message: SAVED_TOAST });
    const byKey = new Map((await storedPlan(cedar, open)).map((row) => [keyOf(row), row]));
    expect(byKey.size).toBe(view.rows.length);
    expect(byKey.get(keyOf(first))).toMatchObject({ startDate: "2027-01-11", endDate: "2027-03-15", notes: "Uploaded note" });
    expect(byKey.get(keyOf(second))).toMatchObject({ startDate: second.startDate, endDate: "2027-05-02" });
    const [link] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, cedar), eq(partnerProducts.productId, first.productId)));
    expect(link.projectStatus).toBe("ON_HOLD");
  });

  it("a date typed as text in the workbook reads as M/D/YYYY or ISO, like the grid", async () => {
    const view = await viewOf(CEDAR);
    const [first] = view.rows;
    const result = await upload(CEDAR, await uploadWorkbook([[first.productName, first.stageName, first.status, "", "2027-06-01", "7/1/2027"]]));
    expect(result.status).toBe(302);
    const byKey = new Map((await storedPlan(cedar, open)).map((row) => [keyOf(row), row]));
    expect(byKey.get(keyOf(first))).toMatchObject({ startDate: "2027-06-01", endDate: "2027-07-01" });
  });

  it("the downloaded workbook uploads back without changing the plan; a formula-like note is neutralised and read back as typed", async () => {
    const view = await viewOf(CEDAR);
    expect((await saveJson(CEDAR, [posted(view.rows[0], { notes: '=HYPERLINK("http://x")' })])).status).toBe(302);
    const before = await storedPlan(cedar, open);
    const cookie = await sessionCookieFor(CEDAR);
    const downloaded = (await partnerXlsx({ request: buildRequest(`${PAGE}/xlsx`, { cookie }), params: {}, context: testContext() })) as Response;
    const buffer = await downloaded.arrayBuffer();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as ExcelJS.Buffer);
    expect(workbook.getWorksheet("PDT")!.getRow(2).getCell(4).value).toBe('\'=HYPERLINK("http://x")');
    const result = await upload(CEDAR, buffer);
    expect(result.status).toBe(302);
    expect(await storedPlan(cedar, open)).toEqual(before);
  });

  it("a row with an invalid date: 400 naming the sheet row, nothing saved", async () => {
    const view = await viewOf(CEDAR);
    const late = view.rows[view.rows.length - 2];
    const file = await uploadWorkbook([
      [view.rows[0].productName, view.rows[0].stageName, view.rows[0].status, "Fine", "", ""],
      [late.productName, late.stageName, late.status, "", "01/10/2027", "13/45/2026"],
    ]);
    const before = await everything();
    const result = await upload(CEDAR, file);
    expect(result.status).toBe(400);
    expect(result.data).toEqual({
      kind: "upload-problems",
      intent: "upload",
      problems: [
        {
          message: "Sheet {{sheet}}, row {{row}}: {{columns}}",
          values: { sheet: "PDT", row: 3, columns: "End Date: “13/45/2026”" },
          sheet: "PDT",
          row: 3,
          columns: ["End Date"],
        },
      ],
    });
    expect(await everything()).toEqual(before);
    expect(await reportOf(cedar, open)).toBeUndefined();
  });

  it("a row naming an unknown product or a stage of another category is a problem; nothing saved", async () => {
    const view = await viewOf(CEDAR);
    const apiRow = view.rows.find((row) => row.category === "API")!;
    const file = await uploadWorkbook([
      [view.rows[0].productName, view.rows[0].stageName, view.rows[0].status, "Fine", "", ""],
      ["Aspirin 100 mg", view.rows[0].stageName, "PLANNED", "", "", ""],
      [apiRow.productName, "Pilot BE", apiRow.status, "", "", ""],
    ]);
    const before = await everything();
    const result = await upload(CEDAR, file);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "upload-problems",
      problems: [
        { message: "Sheet {{sheet}}, row {{row}}: this product and stage are not part of the timeline.", sheet: "PDT", row: 3 },
        { sheet: "PDT", row: 4 },
      ],
    });
    expect(await everything()).toEqual(before);
  });

  it("a product's status may be changed on any of its rows; rows changing it differently, or to an unknown one, point at their sheet row", async () => {
    const view = await viewOf(CEDAR);
    const product = view.rows[0].productId;
    const own = view.rows.filter((row) => row.productId === product);
    const line = (row: PdtGridRow, status: string) => [
      row.productName,
      row.stageName,
      status,
      row.notes,
      row.startDate ? new Date(`${row.startDate}T00:00:00Z`) : null,
      row.endDate ? new Date(`${row.endDate}T00:00:00Z`) : null,
    ];
    // The status edited on the third row only (the first two leave it empty).
    const changed = await upload(CEDAR, await uploadWorkbook([line(own[0], ""), line(own[1], ""), line(own[2], "ON_HOLD")]));
    expect(changed.status).toBe(302);
    const [assignment] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, cedar), eq(partnerProducts.productId, product)));
    expect(assignment.projectStatus).toBe("ON_HOLD");

    const before = await everything();
    const disagreeing = await upload(
      CEDAR,
      await uploadWorkbook([line(own[0], "ON_HOLD"), line(own[1], "DROPPED"), line(own[2], "FILED")]),
      String((await viewOf(CEDAR)).report.version),
    );
    expect(disagreeing.status).toBe(400);
    // Row 2 repeats the current status (ON_HOLD), row 3 changes it to DROPPED, row 4 to FILED: row 4 disagrees.
    expect(disagreeing.data.problems).toEqual([expect.objectContaining({ sheet: "PDT", row: 4, columns: ["Status"] })]);
    const unknown = await upload(CEDAR, await uploadWorkbook([line(own[2], "Finished")]), String((await viewOf(CEDAR)).report.version));
    expect(unknown.status).toBe(400);
    expect(unknown.data.problems).toEqual([expect.objectContaining({ sheet: "PDT", row: 2, columns: ["Status"] })]);
    expect(await everything()).toEqual(before);
  });

  it("a workbook of many wrong rows: the first 50 problems are listed and the rest counted", async () => {
    const rows = Array.from({ length: 60 }, (_, index) => [`Unknown product ${index}`, "Pilot BE", "PLANNED", "", "", ""]);
    const result = await upload(CEDAR, await uploadWorkbook(rows));
    expect(result.status).toBe(400);
    expect(result.data.problems).toHaveLength(50);
    expect(result.data.problems[49]).toMatchObject({ sheet: "PDT", row: 51 });
    expect(result.data.more).toBe(10);
  });

  it("a workbook without the columns, or a stale version, is refused", async () => {
    const missing = await upload(CEDAR, await uploadWorkbook([["x"]], ["Product", "Stage"]));
    expect(missing.status).toBe(400);
    expect(missing.data.problems[0]).toMatchObject({ sheet: "PDT", row: 1, columns: ["Status", "Notes", "Start Date", "End Date"] });

    const view = await viewOf(CEDAR);
    expect((await saveJson(CEDAR, [posted(view.rows[0], { notes: "Saved first" })])).status).toBe(302);
    const before = await everything();
    const stale = await upload(
      CEDAR,
      await uploadWorkbook([[view.rows[0].productName, view.rows[0].stageName, view.rows[0].status, "Uploaded late", "", ""]]),
      "0",
    );
    expect(stale.status).toBe(409);
    expect(await everything()).toEqual(before);
  });
});

// ---------------------------------------------------------------- other partners stay apart

describe("partners stay apart", () => {
  it("a save of one partner leaves the other partners' reports and statuses untouched", async () => {
    const others = async () => ({
      values: await db
        .select()
        .from(pdtValues)
        .where(inArray(pdtValues.reportId, db.select({ id: reports.id }).from(reports).where(ne(reports.partnerId, cedar))))
        .orderBy(asc(pdtValues.id)),
      statuses: await db.select().from(partnerProducts).where(ne(partnerProducts.partnerId, cedar)).orderBy(asc(partnerProducts.id)),
    });
    const before = await others();
    const view = await viewOf(CEDAR);
    expect(
      (
        await saveJson(
          CEDAR,
          view.rows.map((row) => ({ ...posted(row, { notes: "Everything moved" }), status: "ON_HOLD" })),
        )
      ).status,
    ).toBe(302);
    expect(await others()).toEqual(before);
    expect((await viewOf(BOREALIS)).report.status).toBe("Resubmitted");
    expect(borealis).not.toBe(cedar);
  });
});
