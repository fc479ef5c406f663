import { and, asc, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, filingValues, outbox, partners, reports, users } from "~/db/schema";
import { loadFilingPlan, saveFilingPlan, type FilingPostedCell } from "~/reports/filing/model.server";
import { partnerActiveProducts, type PartnerProductName } from "~/reports/sales/product-verification.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { REPORT_HAS_ROWS, ROWS_NOT_IN_REPORT } from "~/reports/frame/screen.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { filingFieldName, FILING_SHEET } from "~/reports/filing/contract";
import { plannedFilingQuarters } from "~/reports/filing/statuses";
import { action as adminAction, loader as adminLoader } from "~/routes/_shell.admin.filing-plans.$id";
import { loader as adminXlsx } from "~/routes/admin.filing-plans.$id.xlsx";
import { action as partnerAction, loader as partnerLoader } from "~/routes/_shell.partner.filing-plans";
import { loader as partnerXlsx } from "~/routes/partner.filing-plans.xlsx";
import { addQuarters, quarterName, type QuarterRef } from "~/utils/quarters";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { readToast } from "~/utils/toast.server";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor, testContext, type RouteResult } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const BOREALIS = "partner2@example.org";
const CEDAR = "partner3@example.org";

async function actorFor(email: string): Promise<AuthUser> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}
async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function countryId(name: string) {
  const [country] = await db.select().from(countries).where(eq(countries.name, name));
  return country.id;
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

let open: number;
let previous: number;
let previousRef: QuarterRef;
let acme: number;
let borealis: number;
let cedar: number;
let partner1: AuthUser;
let partner2: AuthUser;
let admin: AuthUser;
let staff: AuthUser;
let acmeProducts: PartnerProductName[];
let india: number;
let france: number;

beforeEach(async () => {
  previousRef = addQuarters(openQuarterRef(), -1);
  open = (await ensureQuarter(openQuarterRef())).id;
  previous = (await ensureQuarter(previousRef)).id;
  [acme, borealis, cedar] = await Promise.all([ACME, BOREALIS, CEDAR].map(partnerIdOf));
  [partner1, partner2, admin, staff] = await Promise.all([ACME, BOREALIS, ADMIN, STAFF].map(actorFor));
  acmeProducts = await partnerActiveProducts(acme);
  india = await countryId("India");
  france = await countryId("France");
});

async function reportOf(partnerId: number, quarterId: number) {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "filing")));
  return report;
}
/** The report's stored cells as `countryId:productId=status`, sorted. */
async function storedCells(partnerId: number, quarterId: number) {
  const report = await reportOf(partnerId, quarterId);
  if (!report) return [];
  const rows = await db.select().from(filingValues).where(eq(filingValues.reportId, report.id)).orderBy(asc(filingValues.id));
  return rows.map((row) => `${row.countryId}:${row.productId}=${row.status}`).sort();
}

// ---------------------------------------------------------------- route helpers

async function partnerPage(email: string, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerLoader, buildRequest(`/partner/filing-plans${search}`, { cookie }));
}
async function adminPage(email: string, partnerId: number, search = "") {
  const cookie = await sessionCookieFor(email);
  return runRoute(adminLoader, buildRequest(`/admin/filing-plans/${partnerId}${search}`, { cookie }), { params: { id: String(partnerId) } });
}
async function postPartner(email: string, form: Record<string, string>) {
  const cookie = await sessionCookieFor(email);
  return runRoute(partnerAction, buildRequest("/partner/filing-plans", { cookie, form }));
}
async function postAdmin(email: string, partnerId: number, form: Record<string, string>) {
  const cookie = await sessionCookieFor(email);
  return runRoute(adminAction, buildRequest(`/admin/filing-plans/${partnerId}`, { cookie, form }), { params: { id: String(partnerId) } });
}
async function versionOf(partnerId: number, quarterId = open) {
  return String((await reportOf(partnerId, quarterId))?.version ?? 0);
}
const payload = (cells: Record<number, Record<number, string>>) => JSON.stringify({ cells });

async function saveJson(email: string, partnerId: number, cells: Record<number, Record<number, string>>, extra: Record<string, string> = {}) {
  return postPartner(email, { intent: "save", quarterId: String(open), version: await versionOf(partnerId), payload: payload(cells), ...extra });
}

describe("loading Filing Plans", () => {
  it("a partner loads its own plan: every country by name, a column per active product, status lists with the four quarters after the quarter", async () => {
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const allCountries = await db.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name));
    expect(view.partner.companyName).toBe("Acme Generics Ltd");
    expect(view.type).toBe("filing");
    expect(view.rows.map((row) => row.countryId)).toEqual(allCountries.map((country) => country.id));
    expect(view.products).toEqual(acmeProducts);
    expect(view.products.length).toBeGreaterThan(0);
    for (const row of view.rows) expect(Object.keys(row.cells).sort()).toEqual(acmeProducts.map((product) => String(product.id)).sort());
    const indiaRow = view.rows.find((row) => row.country === "India")!;
    expect(Object.values(indiaRow.cells).some((status) => status !== "0")).toBe(true);
    expect(view.rows.find((row) => row.country === "France")!.cells).toEqual(Object.fromEntries(acmeProducts.map((p) => [String(p.id), "0"])));
    const planned = plannedFilingQuarters(openQuarterRef());
    expect(planned).toEqual([1, 2, 3, 4].map((n) => quarterName(addQuarters(openQuarterRef(), n))));
    for (const category of ["API", "FDF"] as const) {
      expect(view.statusLists[category]).toEqual(["Filed", "Registered", "Filing-Planned", "Not Planned", ...planned]);
    }
    expect(view.carriedOverFrom).toBeNull();
    expect(view.statusLine.status).toBe("Rejected");

    // An earlier quarter: its own lists (the four quarters after it).
    const earlier = await loadFilingPlan({ viewer: partner1, partnerId: acme, quarterName: quarterName(previousRef) });
    expect(earlier.quarter).toMatchObject({ id: previous, historic: true });
    expect(earlier.statusLists.API.slice(4)).toEqual(plannedFilingQuarters(previousRef));

    const page = await partnerPage(ACME, "?page=2");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ changes: null, viewerRole: "PARTNER", page: 2 });
    expect(page.data.view.rows).toHaveLength(allCountries.length);
    expect(page.data.history.length).toBeGreaterThanOrEqual(0);
  });

  it("a partner reaching another partner's plan is refused (403), in the model and the routes; an unknown partner is not found", async () => {
    expect((await refusal(loadFilingPlan({ viewer: partner1, partnerId: cedar }))).status).toBe(403);
    expect((await refusal(saveFilingPlan({ actor: partner1, partnerId: cedar, quarterId: open, cells: [], action: "save" }))).status).toBe(403);
    expect((await adminPage(ACME, cedar)).status).toBe(403);
    expect((await adminPage(ACME, acme)).status).toBe(403);
    const post = await postAdmin(ACME, cedar, {
      intent: "save",
      quarterId: String(open),
      version: "0",
      payload: payload({ [india]: { [acmeProducts[0].id]: "Filed" } }),
    });
    expect(post.status).toBe(403);
    expect(await reportOf(cedar, open)).toBeUndefined();
    const download = await runRoute(adminXlsx, buildRequest(`/admin/filing-plans/${cedar}/xlsx`, { cookie: await sessionCookieFor(ACME) }), {
      params: { id: String(cedar) },
    });
    expect(download.status).toBe(403);

    expect((await refusal(loadFilingPlan({ viewer: admin, partnerId: 999_999 }))).status).toBe(404);
    expect((await adminPage(ADMIN, 999_999)).status).toBe(404);
    expect((await adminPage(ADMIN, acme, "?quarter=Q9 2999")).status).toBe(404);
  });

  it("STAFF reads any partner's plan, and every post of STAFF is refused with 403", async () => {
    const page = await adminPage(STAFF, acme);
    expect(page.status).toBe(200);
    expect(page.data.view.permissions).toMatchObject({ save: false, submit: false, approve: false, reject: false, reopen: false });
    const before = await storedCells(acme, open);
    for (const intent of ["save", "submit", "submit-empty", "approve", "reject", "reopen"]) {
      const result = await postAdmin(STAFF, acme, {
        intent,
        quarterId: String(open),
        version: await versionOf(acme),
        comment: "x",
        payload: payload({ [france]: { [acmeProducts[0].id]: "Filed" } }),
      });
      expect(result.status, intent).toBe(403);
    }
    expect((await refusal(saveFilingPlan({ actor: staff, partnerId: acme, quarterId: open, cells: [], action: "save" }))).status).toBe(403);
    expect(await storedCells(acme, open)).toEqual(before);
    const download = await runRoute(adminXlsx, buildRequest(`/admin/filing-plans/${acme}/xlsx`, { cookie: await sessionCookieFor(STAFF) }), {
      params: { id: String(acme) },
    });
    expect(download.status).toBe(200);
  });
});

describe("saving Filing Plans", () => {
  it("the grid's JSON save writes only the changed cells; '' and '0' empty a cell", async () => {
    const [first, second] = acmeProducts;
    const before = await storedCells(acme, open);
    const indiaFirst = before.find((cell) => cell.startsWith(`${india}:${first.id}=`));
    const saved = await saveJson(ACME, acme, { [india]: { [first.id]: "Registered" }, [france]: { [second.id]: "filed" } });
    expect(saved.status).toBe(302);
    expect(await toastOf(saved)).toMatchObject({ type: "success", message: "Data recorded successfully!" });
    const after = await storedCells(acme, open);
    const expected = before
      .filter((cell) => cell !== indiaFirst)
      .concat(`${india}:${first.id}=Registered`, `${france}:${second.id}=Filed`)
      .sort();
    expect(after).toEqual(expected);
    expect((await reportOf(acme, open)).status).toBe("Saved");

    const emptied = await saveJson(ACME, acme, { [india]: { [first.id]: "" }, [france]: { [second.id]: " 0 " } });
    expect(emptied.status).toBe(302);
    const afterEmptying = await storedCells(acme, open);
    expect(afterEmptying.some((cell) => cell.startsWith(`${india}:${first.id}=`) || cell.startsWith(`${france}:${second.id}=`))).toBe(false);
    expect(afterEmptying).toHaveLength(after.length - 2);
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    expect(view.rows.find((row) => row.countryId === india)!.cells[String(first.id)]).toBe("0");
  });

  it("an unknown status refuses the save with its row and column, and writes nothing", async () => {
    const [first, second] = acmeProducts;
    const before = await storedCells(acme, open);
    const version = await versionOf(acme);
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const indiaRow = view.rows.findIndex((row) => row.countryId === india) + 1;
    const result = await saveJson(ACME, acme, { [france]: { [first.id]: "Filed" }, [india]: { [second.id]: "Maybe later" } });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      kind: "problems",
      intent: "save",
      problems: { Filing: [{ rowNumber: indiaRow, keys: [String(second.id)], columns: [second.name], entered: { [second.id]: "Maybe later" } }] },
    });
    expect(await storedCells(acme, open)).toEqual(before);
    expect(await versionOf(acme)).toBe(version);

    // A country or product outside the grid refuses the save (400), in the model and the route.
    const other = (await partnerActiveProducts(cedar)).find((product) => !acmeProducts.some((own) => own.id === product.id))!;
    const foreign = await refusal(
      saveFilingPlan({
        actor: partner1,
        partnerId: acme,
        quarterId: open,
        cells: [{ countryId: india, productId: other.id, status: "Filed" }],
        action: "save",
      }),
    );
    expect(foreign).toMatchObject({ status: 400, message: ROWS_NOT_IN_REPORT });
    expect((await saveJson(ACME, acme, { 999_999: { [first.id]: "Filed" } })).status).toBe(400);
    // Malformed bodies: an unknown key, a non-canonical id, a status too long, a number.
    for (const body of [
      JSON.stringify({ cells: {}, rows: [] }),
      JSON.stringify({ cells: { [`0${india}`]: { [first.id]: "Filed" } } }),
      JSON.stringify({ cells: { [india]: { [first.id]: "x".repeat(65) } } }),
      JSON.stringify({ cells: { [india]: { [first.id]: 3 } } }),
      JSON.stringify({ cells: { [india]: "Filed" } }),
    ]) {
      const malformed = await postPartner(ACME, { intent: "save", quarterId: String(open), version, payload: body });
      expect(malformed.status, body).toBe(400);
    }
    expect(await storedCells(acme, open)).toEqual(before);
  });

  it("a save of the changed cells stores the same as a save of the whole grid", async () => {
    const [first, second] = acmeProducts;
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const original = await storedCells(acme, open);
    const changes: FilingPostedCell[] = [
      { countryId: india, productId: first.id, status: "Not Planned" },
      { countryId: india, productId: second.id, status: "0" },
      { countryId: france, productId: first.id, status: plannedFilingQuarters(openQuarterRef())[2] },
    ];
    const changed = await saveJson(ACME, acme, { [india]: { [first.id]: "Not Planned", [second.id]: "0" }, [france]: { [first.id]: changes[2].status } });
    expect(changed.status).toBe(302);
    const afterChanged = await storedCells(acme, open);

    // Back to the original plan with a whole-grid save, then the whole grid with the changes.
    const whole = (apply: FilingPostedCell[]) =>
      view.rows.flatMap((row) =>
        acmeProducts.map((product) => {
          const change = apply.find((cell) => cell.countryId === row.countryId && cell.productId === product.id);
          return { countryId: row.countryId, productId: product.id, status: change?.status ?? row.cells[String(product.id)] };
        }),
      );
    const restored = await saveFilingPlan({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: Number(await versionOf(acme)),
      cells: whole([]),
      action: "save",
    });
    expect(restored).toMatchObject({ ok: true });
    expect(await storedCells(acme, open)).toEqual(original);
    const full = await saveFilingPlan({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: Number(await versionOf(acme)),
      cells: whole(changes),
      action: "save",
    });
    expect(full).toMatchObject({ ok: true, counts: { total: afterChanged.length } });
    expect(await storedCells(acme, open)).toEqual(afterChanged);
  });

  it("a quarter without values shows the last quarter's plan, and its first save stores it", async () => {
    const lastQuarter = await storedCells(borealis, previous);
    expect(lastQuarter.length).toBeGreaterThan(0);
    expect(await reportOf(borealis, open)).toBeUndefined();
    const view = await loadFilingPlan({ viewer: partner2, partnerId: borealis });
    expect(view.carriedOverFrom).toBe(quarterName(previousRef));
    expect(view.report.id).toBeNull();
    const shown = view.rows
      .flatMap((row) =>
        Object.entries(row.cells)
          .filter(([, status]) => status !== "0")
          .map(([productId, status]) => `${row.countryId}:${productId}=${status}`),
      )
      .sort();
    expect(shown).toEqual(lastQuarter);

    // A carried-over cell posted as "0" ends up absent; another changes; the rest is stored as carried.
    const [emptied, changed] = lastQuarter.map((cell) => cell.split("=")[0].split(":").map(Number));
    const result = await saveJson(BOREALIS, borealis, {
      [emptied[0]]: { [emptied[1]]: "0" },
      [changed[0]]: { ...(emptied[0] === changed[0] ? { [emptied[1]]: "0" } : {}), [changed[1]]: "Registered" },
    });
    expect(result.status).toBe(302);
    const stored = await storedCells(borealis, open);
    const expected = lastQuarter
      .filter((cell) => !cell.startsWith(`${emptied[0]}:${emptied[1]}=`) && !cell.startsWith(`${changed[0]}:${changed[1]}=`))
      .concat(`${changed[0]}:${changed[1]}=Registered`)
      .sort();
    expect(stored).toEqual(expected);
    const reloaded = await loadFilingPlan({ viewer: partner2, partnerId: borealis });
    expect(reloaded.carriedOverFrom).toBeNull();
    expect(reloaded.rows.find((row) => row.countryId === emptied[0])!.cells[String(emptied[1])]).toBe("0");
    // The last quarter's plan is untouched.
    expect(await storedCells(borealis, previous)).toEqual(lastQuarter);
  });

  it("a plan emptied on purpose stays empty (it does not show the last quarter's again)", async () => {
    const lastQuarter = await storedCells(cedar, previous);
    expect(lastQuarter.length).toBeGreaterThan(0);
    const cells = lastQuarter.map((cell) => {
      const [countryId, productId] = cell.split("=")[0].split(":").map(Number);
      return { countryId, productId, status: "" };
    });
    const actor = await actorFor(CEDAR);
    const saved = await saveFilingPlan({ actor, partnerId: cedar, quarterId: open, expectedVersion: 0, cells, action: "save" });
    expect(saved).toMatchObject({ ok: true, counts: { total: 0, updated: 0 } });
    expect(await storedCells(cedar, open)).toEqual([]);
    const view = await loadFilingPlan({ viewer: actor, partnerId: cedar });
    expect(view.carriedOverFrom).toBeNull();
    expect(view.rows.every((row) => Object.values(row.cells).every((status) => status === "0"))).toBe(true);

    // Now "Nothing to report this quarter" is accepted.
    const nothing = await postPartner(CEDAR, {
      intent: "submit-empty",
      quarterId: String(open),
      version: await versionOf(cedar),
      comment: "No filings this quarter.",
    });
    expect(nothing.status).toBe(302);
    expect(await reportOf(cedar, open)).toMatchObject({ status: "Submitted", isEmpty: true });
  });
});

describe("the workflow of Filing Plans", () => {
  it("submitting asks for a comment first, then stores the plan and submits it", async () => {
    const [first] = await partnerActiveProducts(borealis);
    const form = { intent: "submit", quarterId: String(open), version: "0", payload: payload({ [france]: { [first.id]: "Filed" } }) };
    const refused = await postPartner(BOREALIS, form);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ kind: "error", field: "comment", message: WORKFLOW_REFUSALS.partnerComment });
    expect(await reportOf(borealis, open)).toBeUndefined();

    const done = await postPartner(BOREALIS, { ...form, comment: "Our plans for this quarter." });
    expect(done.status).toBe(302);
    expect(await toastOf(done)).toMatchObject({ message: "Report has been submitted to the admin!" });
    expect((await reportOf(borealis, open)).status).toBe("Submitted");
    expect(await storedCells(borealis, open)).toContain(`${france}:${first.id}=Filed`);
    const mails = await db.select().from(outbox);
    expect(mails.some((mail) => mail.kind === "report-receipt" && mail.toAddress === BOREALIS && mail.reportType === "filing")).toBe(true);

    // "Nothing to report" is refused while the plan has filings.
    const empty = await refusal(
      saveFilingPlan({
        actor: partner2,
        partnerId: borealis,
        quarterId: open,
        expectedVersion: Number(await versionOf(borealis)),
        cells: [],
        action: "submit",
        nothingToReport: true,
        comment: "Nothing.",
      }),
    );
    expect(empty).toMatchObject({ status: 409, message: REPORT_HAS_ROWS });
  });

  it("the admin approves only a submitted report, rejects, and reopens only in the open quarter", async () => {
    await postPartner(BOREALIS, { intent: "submit", quarterId: String(open), version: "0", comment: "Plans.", payload: payload({}) });
    expect((await reportOf(borealis, open)).status).toBe("Submitted");

    const noComment = await postAdmin(ADMIN, borealis, { intent: "approve", quarterId: String(open) });
    expect(noComment.data).toMatchObject({ kind: "error", field: "comment", message: WORKFLOW_REFUSALS.adminComment });
    const approved = await postAdmin(ADMIN, borealis, { intent: "approve", quarterId: String(open), comment: "Fine." });
    expect(await toastOf(approved)).toMatchObject({ message: "Report Approved!" });
    expect((await reportOf(borealis, open)).status).toBe("Approved");
    const again = await postAdmin(ADMIN, borealis, { intent: "approve", quarterId: String(open), comment: "Again." });
    expect(again).toMatchObject({ status: 409, data: { message: WORKFLOW_REFUSALS.notSubmitted } });

    const reopened = await postAdmin(ADMIN, borealis, { intent: "reopen", quarterId: String(open), comment: "One more change, please." });
    expect(await toastOf(reopened)).toMatchObject({ message: "Report reopened!" });
    expect((await reportOf(borealis, open)).status).toBe("Saved");

    await postPartner(BOREALIS, {
      intent: "submit",
      quarterId: String(open),
      version: await versionOf(borealis),
      comment: "Changed.",
      payload: payload({ [france]: { [(await partnerActiveProducts(borealis))[0].id]: "Registered" } }),
    });
    expect((await reportOf(borealis, open)).status).toBe("Resubmitted");
    const rejected = await postAdmin(ADMIN, borealis, { intent: "reject", quarterId: String(open), comment: "Please check Kenya." });
    expect(await toastOf(rejected)).toMatchObject({ message: "Report Rejected!" });
    expect((await reportOf(borealis, open)).status).toBe("Rejected");

    // Acme's last quarter is approved, but closed: no reopening.
    expect((await reportOf(acme, previous)).status).toBe("Approved");
    const closed = await postAdmin(ADMIN, acme, { intent: "reopen", quarterId: String(previous), comment: "Reopen?" });
    expect(closed).toMatchObject({ status: 409, data: { message: WORKFLOW_REFUSALS.historic } });
    expect((await reportOf(acme, previous)).status).toBe("Approved");
  });

  it("a refused decision with posted cells changes nothing; an accepted one stores them with the decision", async () => {
    const [first] = acmeProducts;
    const report = await reportOf(acme, open);
    expect(report.status).toBe("Rejected");
    const before = await storedCells(acme, open);
    const refused = await postAdmin(ADMIN, acme, {
      intent: "approve",
      quarterId: String(open),
      version: String(report.version),
      comment: "Approved.",
      payload: payload({ [france]: { [first.id]: "Filed" } }),
    });
    expect(refused).toMatchObject({ status: 409, data: { kind: "error", message: WORKFLOW_REFUSALS.notSubmitted } });
    expect(await storedCells(acme, open)).toEqual(before);
    expect((await reportOf(acme, open)).version).toBe(report.version);

    await postPartner(ACME, { intent: "submit", quarterId: String(open), version: String(report.version), comment: "Corrected.", payload: payload({}) });
    const submitted = await reportOf(acme, open);
    expect(submitted.status).toBe("Resubmitted");
    const decided = await postAdmin(ADMIN, acme, {
      intent: "approve",
      quarterId: String(open),
      version: String(submitted.version),
      comment: "Approved.",
      payload: payload({ [france]: { [first.id]: "Filed" } }),
    });
    expect(decided.status).toBe(302);
    expect((await reportOf(acme, open)).status).toBe("Approved");
    expect(await storedCells(acme, open)).toContain(`${france}:${first.id}=Filed`);
  });

  it("a save from a stale version is refused (409) and writes nothing", async () => {
    const [first] = acmeProducts;
    const before = await storedCells(acme, open);
    const current = Number(await versionOf(acme));
    const stale = await postPartner(ACME, {
      intent: "save",
      quarterId: String(open),
      version: String(current - 1),
      payload: payload({ [france]: { [first.id]: "Filed" } }),
    });
    expect(stale.status).toBe(409);
    expect(stale.data).toMatchObject({ kind: "error", stale: true });
    expect(await storedCells(acme, open)).toEqual(before);
  });

  it("a cell planned for a quarter that has since opened is kept as it stands when posted unchanged; changed, it must be one of the list", async () => {
    const [first, second] = acmeProducts;
    // Last quarter planned India × the first product for the quarter now open: no longer in this quarter's list.
    const openName = quarterName(openQuarterRef());
    const saved = await saveJson(ACME, acme, { [india]: { [first.id]: "Filed" } });
    expect(saved.status).toBe(302);
    const report = await reportOf(acme, open);
    await db
      .update(filingValues)
      .set({ status: openName })
      .where(and(eq(filingValues.reportId, report.id), eq(filingValues.countryId, india), eq(filingValues.productId, first.id)));
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    expect(view.statusLists[first.category]).not.toContain(openName);

    // The plain form posts the whole page, the stale cell as it stands, and one changed cell.
    const kept = await postPartner(ACME, {
      intent: "save",
      quarterId: String(open),
      version: await versionOf(acme),
      [filingFieldName(india, first.id)]: openName,
      [filingFieldName(india, second.id)]: "Registered",
    });
    expect(kept.status).toBe(302);
    expect(await storedCells(acme, open)).toEqual(expect.arrayContaining([`${india}:${first.id}=${openName}`, `${india}:${second.id}=Registered`]));

    const changed = await saveJson(ACME, acme, { [india]: { [second.id]: quarterName(addQuarters(openQuarterRef(), -1)) } });
    expect(changed.status).toBe(400);
    expect(changed.data).toMatchObject({ kind: "problems", problems: { Filing: [{ columns: [second.name] }] } });
  });

  it("the plain form posts filing[country][product] selects and saves them; a refusal echoes them by row position", async () => {
    const [first, second] = acmeProducts;
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const franceIndex = view.rows.findIndex((row) => row.countryId === france);
    const form = {
      intent: "save",
      quarterId: String(open),
      version: await versionOf(acme),
      [filingFieldName(france, first.id)]: "Filing-Planned",
      [filingFieldName(france, second.id)]: "0",
    };
    const saved = await postPartner(ACME, form);
    expect(saved.status).toBe(302);
    expect(await storedCells(acme, open)).toContain(`${france}:${first.id}=Filing-Planned`);

    const refused = await postPartner(ACME, { ...form, version: await versionOf(acme), [filingFieldName(france, second.id)]: "Soon" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      kind: "problems",
      problems: { Filing: [{ rowNumber: franceIndex + 1, columns: [second.name] }] },
      submitted: { tab: "Filing", rows: { [franceIndex]: { [String(first.id)]: "Filing-Planned", [String(second.id)]: "Soon" } } },
    });
  });

  it("the plain form saved with the country finder on changes only the countries shown and returns to the same list", async () => {
    const [first, second] = acmeProducts;
    const kenya = await countryId("Kenya");
    const earlier = await saveJson(ACME, acme, { [france]: { [first.id]: "Registered" } });
    expect(earlier.status).toBe(302);
    const before = await storedCells(acme, open);

    // The page ?country=ken shows Kenya alone: its form posts Kenya's selects, nothing of France.
    const cookie = await sessionCookieFor(ACME);
    const form = { intent: "save", quarterId: String(open), version: await versionOf(acme) };
    const request = buildRequest("/partner/filing-plans?country=ken&order=filed&page=1&lng=es", {
      cookie,
      form: { ...form, [filingFieldName(kenya, first.id)]: "Filed", [filingFieldName(kenya, second.id)]: "0" },
    });
    const saved = await runRoute(partnerAction, request);
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/partner/filing-plans?page=1&country=ken&order=filed");

    const after = await storedCells(acme, open);
    expect(after).toContain(`${france}:${first.id}=Registered`);
    const posted = [`${kenya}:${first.id}=`, `${kenya}:${second.id}=`];
    const untouched = (cells: string[]) => cells.filter((cell) => !posted.some((prefix) => cell.startsWith(prefix)));
    expect(untouched(after)).toEqual(untouched(before));
    expect(after).toContain(`${kenya}:${first.id}=Filed`);
    expect(after.some((cell) => cell.startsWith(posted[1]))).toBe(false);
  });
});

describe("Filing Plans as a workbook", () => {
  async function workbookOf(response: Response) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
    return workbook;
  }
  async function upload(email: string, partnerId: number, file: Blob) {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("version", await versionOf(partnerId));
    form.set("file", file, "filing-plans.xlsx");
    const request = new Request("http://localhost/partner/filing-plans", { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(email) } });
    return runRoute(partnerAction, request);
  }

  it("downloads the Filing Plans workbook: Country, a column per product, the statuses (empty for '0')", async () => {
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const response = (await partnerXlsx({
      request: buildRequest("/partner/filing-plans/xlsx", { cookie: await sessionCookieFor(ACME) }),
      params: {},
      context: testContext(),
    })) as Response;
    expect(response.headers.get("Content-Disposition")).toMatch(/filename="filing-plans_Acme-Generics-Ltd_\d{4}-Q[1-4]\.xlsx"/);
    const sheet = (await workbookOf(response)).getWorksheet(FILING_SHEET)!;
    expect(sheet.getRow(1).values).toEqual([undefined, "Country", ...acmeProducts.map((product) => product.name)]);
    expect(sheet.rowCount).toBe(view.rows.length + 1);
    const indexOfIndia = view.rows.findIndex((row) => row.countryId === india);
    const indiaRow = sheet.getRow(indexOfIndia + 2);
    expect(indiaRow.getCell(1).value).toBe("India");
    acmeProducts.forEach((product, index) => {
      const status = view.rows[indexOfIndia].cells[String(product.id)];
      expect(indiaRow.getCell(index + 2).value ?? "0").toBe(status);
    });
  });

  it("an upload of the downloaded workbook, edited, saves it; an unknown status or product saves nothing", async () => {
    const [first, second] = acmeProducts;
    const response = (await partnerXlsx({
      request: buildRequest("/partner/filing-plans/xlsx", { cookie: await sessionCookieFor(ACME) }),
      params: {},
      context: testContext(),
    })) as Response;
    const workbook = await workbookOf(response);
    const sheet = workbook.getWorksheet(FILING_SHEET)!;
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const franceRow = view.rows.findIndex((row) => row.countryId === france) + 2;
    sheet.getRow(franceRow).getCell(2).value = "registered";
    const ok = await upload(ACME, acme, new Blob([await workbook.xlsx.writeBuffer()]));
    expect(ok.status).toBe(302);
    expect(await storedCells(acme, open)).toContain(`${france}:${first.id}=Registered`);

    const before = await storedCells(acme, open);
    sheet.getRow(franceRow).getCell(3).value = "Someday";
    const bad = await upload(ACME, acme, new Blob([await workbook.xlsx.writeBuffer()]));
    expect(bad.status).toBe(400);
    expect(bad.data).toMatchObject({
      kind: "upload-problems",
      problems: [{ sheet: FILING_SHEET, row: franceRow, columns: [second.name], values: { columns: `${second.name}: “Someday”` } }],
    });
    expect(await storedCells(acme, open)).toEqual(before);

    const unknown = new ExcelJS.Workbook();
    const other = unknown.addWorksheet(FILING_SHEET);
    other.addRow(["country", first.name.toUpperCase(), "Aspirin"]);
    other.addRow(["France", "Filed", "Filed"]);
    const refused = await upload(ACME, acme, new Blob([await unknown.xlsx.writeBuffer()]));
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ kind: "upload-problems", problems: [{ values: { column: "Aspirin" }, row: 1 }] });
    expect(await storedCells(acme, open)).toEqual(before);
  });
});
