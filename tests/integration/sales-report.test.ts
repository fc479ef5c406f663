import { and, asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { auditLog, outbox, partnerProducts, partners, products, productVerifications, reports, reportSnapshots, salesRows, users } from "~/db/schema";
import { decideProductVerification, listProductVerifications } from "~/reports/sales/product-verification.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { StaleReportError, WorkflowError } from "~/reports/frame/workflow.server";
import { loadSalesReport, saveMessage, saveSalesReport, type SaveSalesReportInput } from "~/reports/sales/model.server";
import { decideReport, markReportMessagesRead, REPORT_HAS_ROWS, ROWS_NOT_IN_REPORT } from "~/reports/frame/screen.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { addQuarters, quarterName } from "~/utils/quarters";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import type { SalesRowInput } from "~/reports/sales/columns";

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
async function salesReportRow(partnerId: number, quarterId: number) {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
  return row;
}
async function rowsOf(reportId: number) {
  return db.select().from(salesRows).where(eq(salesRows.reportId, reportId)).orderBy(asc(salesRows.id));
}
const mails = () => db.select().from(outbox).orderBy(asc(outbox.id));
const pendingVerificationsOf = (partnerId: number) =>
  db
    .select()
    .from(productVerifications)
    .where(and(eq(productVerifications.partnerId, partnerId), eq(productVerifications.status, "pending")))
    .orderBy(asc(productVerifications.id));

let open: number;
let historic: number;
let acme: number;
let borealis: number;
let cedar: number;
let partner1: AuthUser;
let partner2: AuthUser;
let partner3: AuthUser;
let admin: AuthUser;
let staff: AuthUser;
const year = String(openQuarterRef().year);
const firstMonthOfOpenQuarter = ["January", "April", "July", "October"][openQuarterRef().quarter - 1];

beforeEach(async () => {
  open = (await ensureQuarter(openQuarterRef())).id;
  historic = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
  [acme, borealis, cedar] = await Promise.all(["partner1", "partner2", "partner3"].map((p) => partnerIdOf(`${p}@example.org`)));
  [partner1, partner2, partner3, admin, staff] = await Promise.all(
    ["partner1", "partner2", "partner3", "admin", "staff"].map((name) => actorFor(`${name}@example.org`)),
  );
});

/** A save of Cedar's open quarter (not started in the seed). */
function cedarSave(overrides: Partial<SaveSalesReportInput>): SaveSalesReportInput {
  return {
    actor: partner3,
    partnerId: cedar,
    quarterId: open,
    expectedVersion: 0,
    api: [],
    fdf: [],
    deletedIds: [],
    action: "save",
    ...overrides,
  };
}

const fdfRow = (overrides: SalesRowInput = {}): SalesRowInput => ({
  year,
  month: "February",
  country: "Kenya",
  purchaser: "Kenya Medical Supplies Authority",
  productName: "Paediatric Abacavir/Lamivudine/Dolutegravir",
  strength: "60/30/5 mg",
  formulationType: "tablet",
  packSize: "30",
  quantity: "1,000",
  currency: "usd",
  grossSalePriceCurrency: "2.5",
  royaltyPercent: "5",
  royaltyDue: "125",
  ...overrides,
});

describe("loading the Sales Report", () => {
  it("a partner loads its own open-quarter report: rows as grid strings, lists, permissions", async () => {
    const view = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const openName = quarterName(openQuarterRef());
    expect(view.partner).toEqual({ id: acme, companyName: "Acme Generics Ltd" });
    expect(view.quarter).toEqual({ id: open, name: openName, historic: false });
    expect(view.report).toMatchObject({ status: "Saved", version: 1, submittedAt: null, decidedAt: null, isLate: false });
    const report = await salesReportRow(acme, open);
    expect(view.statusLine).toEqual({ status: "Saved", at: report.savedAt });

    expect(view.rows.API).toHaveLength(3);
    expect(view.rows.FDF).toHaveLength(4);
    expect(view.rows.API[0]).toEqual({
      id: expect.any(Number),
      year,
      month: firstMonthOfOpenQuarter,
      country: "India",
      purchaser: "Hetero Labs Ltd",
      productName: "Dolutegravir API",
      quantity: "250.5",
      totalValue: "180360",
    });
    expect(view.rows.FDF[0]).toMatchObject({
      country: "Kenya",
      productName: "Dolutegravir 50 mg",
      formulationType: "Tablet",
      currency: "KES",
      packSize: "30",
      quantity: "120000",
      usdExchangeRate: "0.007752",
      grossSalePriceUsd: "3.02328",
      totalGrossValue: "362793.6",
      totalValue: "361293.6",
      royaltyDue: "18064.68",
      comments: "",
    });

    expect(view.lists.productNames).toEqual({
      API: ["Dolutegravir API"],
      FDF: ["Dolutegravir 50 mg", "Sofosbuvir/Daclatasvir", "TLD (Tenofovir/Lamivudine/Dolutegravir)"],
    });
    expect(view.lists.usdRates.USD).toBe("1");
    expect(view.lists.usdRates.KES).toBe("0.007752");
    expect(view.lists.months[0]).toBe("January");
    expect(view.lists.countries).toContain("Kenya");
    expect(view.lists.formulationTypes).toEqual(["Tablet", "Granules", "Liquid", "Powder for suspension", "Oral pellets"]);
    expect(view.lists.currentYear).toBe(openQuarterRef().year);

    expect(view.permissions).toEqual({
      save: true,
      submit: true,
      approve: false,
      reject: false,
      reopen: false,
      reasons: { approve: WORKFLOW_REFUSALS.adminOnly, reject: WORKFLOW_REFUSALS.adminOnly, reopen: WORKFLOW_REFUSALS.adminOnly },
    });
    expect(view.canEditRows).toBe(true);
    // The demo draft sold one FDF product that is not in Acme's list: it waits for verification.
    expect(view.rows.FDF[3].productName).toBe("Efavirenz/Lamivudine/TDF 600/300/300 mg");
    expect(view.pendingProductCount).toBe(1);

    // The open quarter first, then earlier ones newest first; no future quarter.
    expect(view.quarterDropdown[0]).toEqual({ id: open, name: openName, historic: false });
    expect(view.quarterDropdown[1]).toEqual({ id: historic, name: quarterName(addQuarters(openQuarterRef(), -1)), historic: true });
    expect(view.quarterDropdown.map((q) => q.name)).not.toContain(quarterName(addQuarters(openQuarterRef(), 1)));
    expect(view.quarterDropdown).toHaveLength(9);
  });

  it("a partner reaching for another partner's report is refused", async () => {
    const error = await refusal(loadSalesReport({ viewer: partner1, partnerId: borealis }));
    expect(error.status).toBe(403);
    expect((await refusal(saveSalesReport({ ...cedarSave({}), actor: partner1 }))).status).toBe(403);
    expect((await refusal(markReportMessagesRead(partner1, borealis, open, "sales"))).status).toBe(403);
  });

  it("staff read every partner's report with no action allowed; the admin may save but approves only a submitted report", async () => {
    const staffView = await loadSalesReport({ viewer: staff, partnerId: acme });
    expect(staffView.rows.API).toHaveLength(3);
    const staffRefusals = {
      save: WORKFLOW_REFUSALS.staff,
      submit: WORKFLOW_REFUSALS.staff,
      approve: WORKFLOW_REFUSALS.staff,
      reject: WORKFLOW_REFUSALS.staff,
      reopen: WORKFLOW_REFUSALS.staff,
    };
    expect(staffView.permissions).toEqual({ save: false, submit: false, approve: false, reject: false, reopen: false, reasons: staffRefusals });
    expect(staffView.canEditRows).toBe(false);

    const adminView = await loadSalesReport({ viewer: admin, partnerId: acme });
    expect(adminView.permissions).toEqual({
      save: true,
      submit: false,
      approve: false,
      reject: false,
      reopen: false,
      reasons: {
        submit: WORKFLOW_REFUSALS.partnerOnly,
        approve: WORKFLOW_REFUSALS.notSubmitted,
        reject: WORKFLOW_REFUSALS.notSubmitted,
        reopen: WORKFLOW_REFUSALS.notApproved,
      },
    });
    const approved = await loadSalesReport({ viewer: admin, partnerId: borealis });
    expect(approved.permissions).toMatchObject({ approve: false, reopen: true });
    expect(approved.statusLine).toEqual({ status: "Approved", at: approved.report.decidedAt });
    expect(approved.report.decidedAt).toBeInstanceOf(Date);
  });

  it("an unknown partner or quarter is not found", async () => {
    expect((await refusal(loadSalesReport({ viewer: admin, partnerId: 999_999 }))).status).toBe(404);
    expect((await refusal(loadSalesReport({ viewer: admin, partnerId: acme, quarterName: "Q1 1990" }))).status).toBe(404);
    expect((await refusal(loadSalesReport({ viewer: admin, partnerId: acme, quarterName: "no quarter" }))).status).toBe(404);
    const future = quarterName(addQuarters(openQuarterRef(), 1));
    expect((await refusal(loadSalesReport({ viewer: admin, partnerId: acme, quarterName: future }))).status).toBe(404);
  });

  it("a historic quarter is read-only for the partner; its status line shows the submission time", async () => {
    const twoBack = quarterName(addQuarters(openQuarterRef(), -2));
    const view = await loadSalesReport({ viewer: partner1, partnerId: acme, quarterName: twoBack });
    expect(view.quarter).toMatchObject({ name: twoBack, historic: true });
    expect(view.report.status).toBe("Resubmitted");
    expect(view.statusLine).toEqual({ status: "Resubmitted", at: view.report.submittedAt });
    expect(view.rows.API).toHaveLength(2);
    expect(view.rows.FDF).toHaveLength(3);
    expect(view.permissions).toEqual({
      save: false,
      submit: false,
      approve: false,
      reject: false,
      reopen: false,
      reasons: {
        save: WORKFLOW_REFUSALS.historic,
        submit: WORKFLOW_REFUSALS.historic,
        approve: WORKFLOW_REFUSALS.adminOnly,
        reject: WORKFLOW_REFUSALS.adminOnly,
        reopen: WORKFLOW_REFUSALS.adminOnly,
      },
    });
    expect(view.canEditRows).toBe(false);

    const refused = await refusal(
      saveSalesReport({
        actor: partner1,
        partnerId: acme,
        quarterId: view.quarter.id,
        expectedVersion: view.report.version,
        api: [],
        fdf: [],
        action: "save",
      }),
    );
    expect(refused.message).toBe(WORKFLOW_REFUSALS.historic);
    // The admin may correct any quarter.
    expect((await loadSalesReport({ viewer: admin, partnerId: acme, quarterName: twoBack })).permissions.save).toBe(true);
  });

  it("a report not started loads with no status, version 0 and no rows", async () => {
    const view = await loadSalesReport({ viewer: partner3, partnerId: cedar });
    expect(view.report).toMatchObject({ id: null, status: null, version: 0 });
    expect(view.statusLine).toEqual({ status: null, at: null });
    expect(view.rows).toEqual({ API: [], FDF: [] });
    expect(view.permissions).toMatchObject({ save: true, submit: true });
    expect(view.unreadMessageCount).toBe(0);
  });
});

describe("saving rows", () => {
  it("stores texts as typed (quotes, backslashes, braces, commas, the word NULL), and a lone surrogate as U+FFFD", async () => {
    const texts = ['He said "NULL"', "{a,b}", 'back\\slash \\"', "NULL", "\ud800 lone"];
    const result = await saveSalesReport(cedarSave({ fdf: texts.map((purchaser) => fdfRow({ purchaser, comments: purchaser })) }));
    if (!result.ok) throw new Error(`save refused: ${JSON.stringify(result.problems)}`);
    const stored = await rowsOf(result.reportId);
    const expected = [...texts.slice(0, 4), "\ufffd lone"];
    expect(stored.map((row) => row.purchaser)).toEqual(expected);
    expect(stored.map((row) => row.comments)).toEqual(expected);
  });

  it("adds rows: commas converted, null numbers 0, empty rows dropped, names mapped to ids", async () => {
    const result = await saveSalesReport(
      cedarSave({
        api: [
          {
            year,
            month: "3",
            country: "kenya",
            purchaser: "  Cipla Ltd ",
            productName: "abacavir api",
            quantity: "1,250.5",
            totalValue: "",
          },
          { year: " ", month: "", country: " " },
          {},
        ],
        fdf: [{}, fdfRow()],
      }),
    );
    expect(result).toMatchObject({ ok: true, status: "Saved", version: 1, counts: { total: 2, previousTotal: 0, added: 2, deleted: 0 } });
    if (!result.ok) throw new Error("save failed");
    expect(saveMessage(result.counts).text).toBe("Data successfully recorded. Total Rows: 2, Newly Added Rows: 2");

    const [api, fdf] = await rowsOf(result.reportId);
    const [abacavir] = await db.select().from(products).where(eq(products.name, "Abacavir API"));
    expect(api).toMatchObject({
      kind: "API",
      year: Number(year),
      month: 3,
      purchaser: "Cipla Ltd",
      productId: abacavir.id,
      productName: "Abacavir API",
      productVerificationId: null,
      strength: null,
      packSize: null,
    });
    expect(Number(api.quantity)).toBe(1250.5);
    expect(Number(api.totalValue)).toBe(0);
    expect(api.countryId).toEqual(expect.any(Number));

    // FDF derived values: rate from the currency table, then price, gross, net and royalty.
    expect(fdf).toMatchObject({ kind: "FDF", currencyCode: "USD", month: 2 });
    expect(Number(fdf.usdExchangeRate)).toBe(1);
    expect(Number(fdf.grossSalePriceUsd)).toBe(2.5);
    expect(Number(fdf.totalGrossValue)).toBe(2500);
    expect(Number(fdf.totalValue)).toBe(2500);
    expect(Number(fdf.royaltyDue)).toBe(125);
    expect(Number(fdf.deductableExpenses)).toBe(0);

    const view = await loadSalesReport({ viewer: partner3, partnerId: cedar });
    expect(view.rows.API[0]).toMatchObject({
      month: "March",
      country: "Kenya",
      productName: "Abacavir API",
      quantity: "1250.5",
      totalValue: "0",
    });
    expect(view.rows.FDF[0]).toMatchObject({ formulationType: "Tablet", currency: "USD", totalGrossValue: "2500", royaltyDue: "125" });
    expect(view.report.version).toBe(1);
  });

  it("updates rows by id, deletes rows by id, a single space clears a cell, and leaves other rows alone", async () => {
    const before = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const [first, second, third] = before.rows.API;
    const result = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: before.report.version,
      api: [{ ...first, purchaser: " ", quantity: "300" }, third],
      fdf: [],
      deletedIds: [second.id!],
      action: "save",
    });
    if (!result.ok) throw new Error("save failed");
    expect(result.counts).toEqual({ total: 6, previousTotal: 7, deleted: 1, added: 0, updated: 1 });
    expect(saveMessage(result.counts)).toEqual({
      message: "Data successfully recorded. Total Rows: {{total}}, Deleted Rows: {{count}}",
      values: { total: 6, count: 1 },
      text: "Data successfully recorded. Total Rows: 6, Deleted Rows: 1",
    });

    const after = await loadSalesReport({ viewer: partner1, partnerId: acme });
    expect(after.rows.API.map((row) => row.id)).toEqual([first.id, third.id]);
    expect(after.rows.API[0]).toEqual({ ...first, purchaser: "", quantity: "300" });
    expect(after.rows.API[1]).toEqual(third);
    expect(after.rows.FDF).toEqual(before.rows.FDF);
    expect(after.report.version).toBe(before.report.version + 1);
  });

  it("a saved row emptied in the grid is deleted; an unchanged save reports the same total", async () => {
    const before = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const emptied = { id: before.rows.FDF[0].id, year: "", month: " " };
    const result = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: before.report.version,
      api: [],
      fdf: [emptied],
      action: "save",
    });
    if (!result.ok) throw new Error("save failed");
    expect(result.counts).toMatchObject({ total: 6, deleted: 1 });
    const again = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: result.version,
      api: [],
      fdf: [],
      action: "save",
    });
    if (!again.ok) throw new Error("save failed");
    expect(saveMessage(again.counts).text).toBe("Data successfully recorded. Total Rows: 6");
  });

  it("ids of another partner's rows are refused, and neither report changes", async () => {
    const borealisReport = await salesReportRow(borealis, open);
    const [foreign] = await rowsOf(borealisReport.id);
    const acmeReport = await salesReportRow(acme, open);
    const acmeBefore = await rowsOf(acmeReport.id);

    const base = {
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: acmeReport.version,
      fdf: [],
      action: "save" as const,
    };
    const deleting = await refusal(
      saveSalesReport({
        ...base,
        api: [{ year, month: "May", country: "India", purchaser: "New buyer", productName: "Any API", quantity: "1" }],
        deletedIds: [foreign.id],
      }),
    );
    expect(deleting).toMatchObject({ status: 400, message: ROWS_NOT_IN_REPORT });
    const updating = await refusal(
      saveSalesReport({
        ...base,
        api: [{ id: foreign.id, year, month: "May", country: "India", purchaser: "Overwritten", productName: "Any API", quantity: "1", totalValue: "1" }],
      }),
    );
    expect(updating.status).toBe(400);
    // An admin saving one partner's report cannot reach into another's either.
    const adminReaching = await refusal(
      saveSalesReport({
        ...base,
        actor: admin,
        api: [{ id: foreign.id, year, month: "May", country: "India", purchaser: "Overwritten", productName: "Any API", quantity: "1" }],
      }),
    );
    expect(adminReaching.status).toBe(400);

    expect(await rowsOf(borealisReport.id)).toContainEqual(foreign);
    expect(await rowsOf(acmeReport.id)).toEqual(acmeBefore);
    expect((await salesReportRow(acme, open)).version).toBe(acmeReport.version);
  });

  it("an API row's id in the FDF table is refused", async () => {
    const view = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const error = await refusal(
      saveSalesReport({
        actor: partner1,
        partnerId: acme,
        quarterId: open,
        expectedVersion: 1,
        api: [],
        fdf: [fdfRow({ id: view.rows.API[0].id })],
        action: "save",
      }),
    );
    expect(error.status).toBe(400);
  });

  it("invalid rows: problems per table with row numbers, and nothing is saved, not even the valid rows or the deletions", async () => {
    const acmeReport = await salesReportRow(acme, open);
    const before = await rowsOf(acmeReport.id);
    const result = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: acmeReport.version,
      api: [
        { year, month: "June", country: "India", purchaser: "Valid buyer", productName: "Any API", quantity: "5", totalValue: "10" },
        { year: "1990", month: "Juny", country: "India", quantity: "1O" },
      ],
      fdf: [{}, {}, fdfRow({ royaltyPercent: "", currency: "XXX" })],
      deletedIds: [before[0].id],
      action: "save",
    });
    expect(result).toEqual({
      ok: false,
      problems: {
        API: [
          {
            rowNumber: 2,
            keys: ["year", "month", "productName", "quantity"],
            columns: ["Year", "Month", "Api Name", "Quantity (Kg)"],
            entered: { year: "1990", month: "Juny", quantity: "1O" },
          },
        ],
        FDF: [{ rowNumber: 3, keys: ["currency", "royaltyPercent"], columns: ["Currency", "Royalty %"], entered: { currency: "XXX" } }],
      },
    });
    expect(await rowsOf(acmeReport.id)).toEqual(before);
    expect(await salesReportRow(acme, open)).toEqual(acmeReport);
  });

  it("a stale save is refused with who saved and when, and the rows stay as they were", async () => {
    const loaded = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const adminSave = await saveSalesReport({
      actor: admin,
      partnerId: acme,
      quarterId: open,
      expectedVersion: loaded.report.version,
      api: [{ ...loaded.rows.API[0], purchaser: "Corrected by MPP" }],
      fdf: [],
      action: "save",
    });
    expect(adminSave).toMatchObject({ ok: true, status: "Saved", version: loaded.report.version + 1 });
    const reportRow = await salesReportRow(acme, open);
    const before = await rowsOf(reportRow.id);

    const error = await refusal(
      saveSalesReport({
        actor: partner1,
        partnerId: acme,
        quarterId: open,
        expectedVersion: loaded.report.version,
        api: [{ ...loaded.rows.API[0], purchaser: "Partner's edit" }],
        fdf: [],
        deletedIds: [loaded.rows.API[1].id!],
        action: "save",
      }),
    );
    expect(error).toBeInstanceOf(StaleReportError);
    expect(error.status).toBe(409);
    expect((error as StaleReportError).values.name).toBe("Portal Administrator");
    expect((error as StaleReportError).values.time).toMatch(/^\d{1,2}(st|nd|rd|th) \w{3} \d{4}, \d{2}:\d{2} (AM|PM)$/);
    expect(await rowsOf(reportRow.id)).toEqual(before);
    expect(before.find((row) => row.id === loaded.rows.API[0].id)?.purchaser).toBe("Corrected by MPP");
  });

  it("staff cannot save, even valid rows", async () => {
    const error = await refusal(saveSalesReport({ ...cedarSave({ api: [{ year, purchaser: "x" }] }), actor: staff }));
    expect(error).toMatchObject({ status: 403, message: WORKFLOW_REFUSALS.staff });
    expect(await salesReportRow(cedar, open)).toBeUndefined();
  });
});

describe("product names outside the partner's list", () => {
  it("an unknown name is kept on the rows and raises ONE pending verification, across rows and saves", async () => {
    const first = await saveSalesReport(
      cedarSave({ fdf: [fdfRow({ productName: "Efavirenz 600 mg" }), fdfRow({ productName: " efavirenz 600 MG ", country: "Uganda" })] }),
    );
    if (!first.ok) throw new Error("save failed");
    const second = await saveSalesReport(cedarSave({ expectedVersion: first.version, fdf: [fdfRow({ productName: "EFAVIRENZ 600 mg", country: "Nigeria" })] }));
    if (!second.ok) throw new Error("save failed");

    const verifications = await db.select().from(productVerifications).where(eq(productVerifications.partnerId, cedar));
    expect(verifications).toHaveLength(1);
    expect(verifications[0]).toMatchObject({
      productName: "Efavirenz 600 mg",
      category: "FDF",
      status: "pending",
      reportId: first.reportId,
      productId: null,
    });
    const rows = await rowsOf(first.reportId);
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => [row.productName, row.productId, row.productVerificationId])).toEqual([
      ["Efavirenz 600 mg", null, verifications[0].id],
      ["efavirenz 600 MG", null, verifications[0].id],
      ["EFAVIRENZ 600 mg", null, verifications[0].id],
    ]);

    const view = await loadSalesReport({ viewer: admin, partnerId: cedar });
    expect(view.pendingProductCount).toBe(1);
    expect(view.rows.FDF.map((row) => row.productName)).toEqual(["Efavirenz 600 mg", "efavirenz 600 MG", "EFAVIRENZ 600 mg"]);
    const list = await listProductVerifications(cedar, first.reportId);
    expect(list.pendingProducts).toEqual([
      expect.objectContaining({
        product_verification_id: verifications[0].id,
        product_name: "Efavirenz 600 mg",
        is_approved: null,
        category: "FDF",
        row_count: 3,
        does_product_exist: false,
      }),
    ]);
  });

  it("an API row naming one of the partner's FDF products asks for an API product", async () => {
    const result = await saveSalesReport(
      cedarSave({ api: [{ year, month: "May", country: "India", productName: "Lopinavir/ritonavir pellets", quantity: "2", totalValue: "3" }] }),
    );
    if (!result.ok) throw new Error("save failed");
    const [row] = await rowsOf(result.reportId);
    expect(row.productId).toBeNull();
    const [verification] = await db.select().from(productVerifications).where(eq(productVerifications.partnerId, cedar));
    expect(verification).toMatchObject({ category: "API", productName: "Lopinavir/ritonavir pellets", status: "pending" });
  });

  it("correcting the name drops the verification it no longer needs", async () => {
    const first = await saveSalesReport(cedarSave({ fdf: [fdfRow({ productName: "Typo pellets" })] }));
    if (!first.ok) throw new Error("save failed");
    const [row] = await rowsOf(first.reportId);
    const second = await saveSalesReport(
      cedarSave({
        expectedVersion: first.version,
        fdf: [fdfRow({ id: row.id, productName: "Lopinavir/ritonavir pellets", formulationType: "Oral pellets" })],
      }),
    );
    expect(second).toMatchObject({ ok: true, counts: { updated: 1, total: 1 } });
    expect(await db.select().from(productVerifications).where(eq(productVerifications.partnerId, cedar))).toHaveLength(0);
    expect((await rowsOf(first.reportId))[0].productId).not.toBeNull();
  });
});

describe("submitting", () => {
  it("mails a receipt to the partner and a notice to the admins; Submitted, then Resubmitted after a rejection", async () => {
    const loaded = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const noComment = await refusal(
      saveSalesReport({
        actor: partner1,
        partnerId: acme,
        quarterId: open,
        expectedVersion: loaded.report.version,
        api: [],
        fdf: [],
        action: "submit",
        comment: " ",
      }),
    );
    expect(noComment.message).toBe("Enter comments for admin");

    const submitted = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: loaded.report.version,
      api: [
        {
          year,
          month: "May",
          country: "India",
          purchaser: "Aurobindo",
          productName: "Dolutegravir API",
          quantity: "10",
          totalValue: "8000",
        },
      ],
      fdf: [],
      action: "submit",
      comment: "Q sales complete.",
      requestId: "submit-request",
    });
    if (!submitted.ok) throw new Error("submit failed");
    expect(submitted).toMatchObject({ status: "Submitted", isEmpty: false, counts: { total: 8, added: 1 } });
    expect(submitted.snapshotSha256).toMatch(/^[0-9a-f]{64}$/);
    const [snapshot] = await db.select().from(reportSnapshots).where(eq(reportSnapshots.reportId, submitted.reportId));
    expect(snapshot).toMatchObject({ event: "submit", rowCount: 8, sha256: submitted.snapshotSha256 });

    const sent = await mails();
    expect(sent.map((mail) => [mail.kind, mail.toAddress])).toEqual([
      ["report-receipt", "partner1@example.org"],
      ["report-submitted", "admin@example.org"],
    ]);
    const [receipt, notice] = sent;
    const quarter = quarterName(openQuarterRef());
    expect(receipt).toMatchObject({ partnerId: acme, reportType: "sales", subject: `Receipt: Sales Report for ${quarter}` });
    expect(receipt.textBody).toContain("Dear Acme Generics Ltd,");
    expect(receipt.textBody).toContain("Status: Submitted");
    expect(receipt.textBody).toContain("Rows: 8 (API: 4, FDF: 4)");
    expect(receipt.textBody).toContain(`Snapshot SHA-256: ${submitted.snapshotSha256}`);
    expect(receipt.textBody).toMatch(/Submitted on: \d{1,2}(st|nd|rd|th) \w{3} \d{4}, \d{2}:\d{2} (AM|PM) \(UTC\)/);
    expect(receipt.textBody).toContain("/partner/sales-report");
    expect(notice.subject).toBe(`Acme Generics Ltd submitted its Sales Report for ${quarter}`);
    expect(notice.textBody).toContain("Comment: Q sales complete.");
    expect(notice.textBody).toContain(`/admin/sales-report/${acme}`);

    // The seed's unverified product holds up the decision until the administrator rejects it.
    const [seeded] = (await listProductVerifications(acme, submitted.reportId)).pendingProducts;
    await decideProductVerification({ actor: admin, verificationId: seeded.product_verification_id, decision: "reject" });
    const rejected = await decideReport({
      type: "sales",
      actor: admin,
      partnerId: acme,
      quarterId: open,
      action: "reject",
      comment: "Please add the June sales.",
    });
    expect(rejected).toMatchObject({ status: "Rejected", message: "Report Rejected!" });
    const [decisionMail] = (await mails()).filter((mail) => mail.kind === "report-reject");
    expect(decisionMail).toMatchObject({
      toAddress: "partner1@example.org",
      partnerId: acme,
      reportType: "sales",
      subject: `Your Sales Report for ${quarter} was rejected`,
    });
    expect(decisionMail.textBody).toContain(`Your Sales Report for ${quarter} was rejected. Please correct it and submit it again.`);
    expect(decisionMail.textBody).toContain("Comment: Please add the June sales.");
    expect(decisionMail.textBody).toContain(`Snapshot SHA-256: ${rejected.snapshotSha256}`);
    expect(decisionMail.textBody).toMatch(/Decided on: \d{1,2}(st|nd|rd|th) \w{3} \d{4}, \d{2}:\d{2} (AM|PM) \(UTC\)/);
    const resubmitted = await saveSalesReport({
      actor: partner1,
      partnerId: acme,
      quarterId: open,
      expectedVersion: rejected.version,
      api: [],
      fdf: [],
      action: "submit",
      comment: "June added.",
    });
    expect(resubmitted).toMatchObject({ ok: true, status: "Resubmitted" });
    expect((await mails()).filter((mail) => mail.kind === "report-receipt")).toHaveLength(2);
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, "report.submit"));
    expect(audit).toHaveLength(2);
    expect(audit[0].requestId).toBe("submit-request");
  });

  it("the receipt is in the partner's language", async () => {
    await db.update(users).set({ language: "fr" }).where(eq(users.email, "partner3@example.org"));
    const result = await saveSalesReport(cedarSave({ fdf: [fdfRow()], action: "submit", comment: "Rapport complet." }));
    expect(result.ok).toBe(true);
    const [receipt, notice] = await mails();
    expect(receipt.subject).toBe(`Accusé de réception : Rapport de ventes pour ${quarterName(openQuarterRef())}`);
    expect(receipt.textBody).toContain("Statut : Soumis");
    expect(notice.subject).toMatch(/^Cedar Life Sciences submitted its Sales Report/);
  });

  it("'Nothing to report this quarter': an empty report submitted with a comment counts as submitted", async () => {
    const noComment = await refusal(saveSalesReport(cedarSave({ action: "submit", comment: "" })));
    expect(noComment.message).toBe("Enter comments for admin");
    expect(await salesReportRow(cedar, open)).toBeUndefined();

    const result = await saveSalesReport(cedarSave({ action: "submit", comment: "No sales this quarter." }));
    expect(result).toMatchObject({ ok: true, status: "Submitted", isEmpty: true, counts: { total: 0 } });
    const report = await salesReportRow(cedar, open);
    expect(report).toMatchObject({ status: "Submitted", isEmpty: true });
    expect(report.submittedAt).toBeInstanceOf(Date);
    const [receipt] = await mails();
    expect(receipt.textBody).toContain("Nothing to report this quarter");
    expect(receipt.textBody).toContain("Rows: 0 (API: 0, FDF: 0)");

    // Rows saved later make it an ordinary draft again.
    const later = await saveSalesReport(cedarSave({ expectedVersion: report.version, fdf: [fdfRow()] }));
    expect(later).toMatchObject({ ok: true, status: "Saved", isEmpty: false });
    expect((await salesReportRow(cedar, open)).isEmpty).toBe(false);
  });

  it("the explicit 'Nothing to report' is refused while the report has rows, and nothing changes", async () => {
    const before = await salesReportRow(acme, open);
    const refused = await refusal(
      saveSalesReport({
        actor: partner1,
        partnerId: acme,
        quarterId: open,
        expectedVersion: before.version,
        api: [],
        fdf: [],
        action: "submit",
        nothingToReport: true,
        comment: "None.",
      }),
    );
    expect(refused).toMatchObject({ status: 409, message: REPORT_HAS_ROWS });
    expect(await salesReportRow(acme, open)).toEqual(before);
    expect(await rowsOf(before.id)).toHaveLength(7);
    expect(await mails()).toEqual([]);

    const empty = await saveSalesReport(cedarSave({ action: "submit", nothingToReport: true, comment: "No sales this quarter." }));
    expect(empty).toMatchObject({ ok: true, status: "Submitted", isEmpty: true });
  });
});

describe("approval and product verification", () => {
  async function cedarSubmitsUnknownProduct() {
    const result = await saveSalesReport(
      cedarSave({
        fdf: [fdfRow({ productName: "Efavirenz 600 mg" }), fdfRow({ productName: "Efavirenz 600 mg", country: "Uganda" })],
        action: "submit",
        comment: "Includes a new product.",
      }),
    );
    if (!result.ok) throw new Error("submit failed");
    const [verification] = await db.select().from(productVerifications).where(eq(productVerifications.partnerId, cedar));
    return { reportId: result.reportId, verificationId: verification.id };
  }

  it("approval waits for the pending verification; mapping it to an existing product unblocks it", async () => {
    const { reportId, verificationId } = await cedarSubmitsUnknownProduct();
    const blocked = await refusal(decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "approve", comment: "ok" }));
    expect(blocked.message).toBe("Product verification pending!");
    const view = await loadSalesReport({ viewer: admin, partnerId: cedar });
    expect(view).toMatchObject({ pendingProductCount: 1, permissions: { approve: false, reject: false } });

    const [dolutegravir] = await db.select().from(products).where(eq(products.name, "Dolutegravir 50 mg"));
    const withoutStatus = await decideProductVerification({ actor: admin, verificationId, decision: "approve", mapToProductId: dolutegravir.id });
    expect(withoutStatus).toEqual({ ok: false, errors: { projectStatus: ["Please select Product Status!"] } });
    const decided = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      mapToProductId: dolutegravir.id,
      projectStatus: "PLANNED",
      requestId: "verify",
    });
    expect(decided).toEqual({
      ok: true,
      status: "approved",
      productId: dolutegravir.id,
      createdProduct: false,
      rowsMapped: 2,
      message: "Product approved and assigned to the partner.",
    });

    expect((await rowsOf(reportId)).map((row) => [row.productId, row.productName])).toEqual([
      [dolutegravir.id, "Efavirenz 600 mg"],
      [dolutegravir.id, "Efavirenz 600 mg"],
    ]);
    const [assignment] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, cedar), eq(partnerProducts.productId, dolutegravir.id)));
    expect(assignment).toMatchObject({ projectStatus: "PLANNED", isActive: true });
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, "product-verification.approve"));
    expect(audit).toMatchObject({ entityId: String(verificationId), requestId: "verify" });

    const after = await loadSalesReport({ viewer: admin, partnerId: cedar });
    expect(after).toMatchObject({ pendingProductCount: 0, permissions: { approve: true, reject: true } });
    expect(after.rows.FDF[0].productName).toBe("Dolutegravir 50 mg");
    const list = await listProductVerifications(cedar);
    expect(list.pendingProducts).toEqual([]);
    expect(list.existingProducts).toEqual([
      expect.objectContaining({
        product_verification_id: verificationId,
        is_approved: true,
        therapy_area: "HIV",
        product_status: "PLANNED",
        row_count: 2,
      }),
    ]);

    const approved = await decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "approve", comment: "Thank you." });
    expect(approved).toMatchObject({ status: "Approved", message: "Report Approved!" });
    // Once approved the partner can no longer save.
    const refused = await refusal(
      saveSalesReport(
        cedarSave({
          expectedVersion: approved.version,
          api: [{ year, month: "May", country: "India", purchaser: "late", productName: "Abacavir API", quantity: "1" }],
        }),
      ),
    );
    expect(refused.message).toBe(WORKFLOW_REFUSALS.approved);
  });

  it("approving by creating a new product assigns it to the partner with the chosen status; the name is known afterwards", async () => {
    const { reportId, verificationId } = await cedarSubmitsUnknownProduct();
    const missingArea = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      newProduct: { name: "Efavirenz 600 mg" },
      projectStatus: "FILED",
    });
    expect(missingArea).toEqual({ ok: false, errors: { therapyArea: ["Please select therapy area."] } });
    const missingName = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      newProduct: { name: " ", therapyArea: "HIV" },
      projectStatus: "FILED",
    });
    expect(missingName).toEqual({ ok: false, errors: { productName: ["Please Enter Product name"] } });
    const badStatus = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      newProduct: { name: "x", therapyArea: "HIV" },
      projectStatus: "DONE",
    });
    expect(badStatus).toEqual({ ok: false, errors: { projectStatus: ["Please select Product Status!"] } });
    const otherCategory = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      newProduct: { name: "sofosbuvir api", therapyArea: "HCV" },
      projectStatus: "FILED",
    });
    expect(otherCategory).toEqual({ ok: false, errors: { productName: ["A product with this name already exists."] } });
    const [apiProduct] = await db.select().from(products).where(eq(products.name, "Sofosbuvir API"));
    const wrongMap = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      mapToProductId: apiProduct.id,
      projectStatus: "FILED",
    });
    expect(wrongMap).toEqual({ ok: false, errors: { productName: ["Please select a product of the same category."] } });
    expect(
      await db
        .select()
        .from(products)
        .where(eq(sql`lower(${products.name})`, "efavirenz 600 mg")),
    ).toHaveLength(0);

    const decided = await decideProductVerification({
      actor: admin,
      verificationId,
      decision: "approve",
      newProduct: { name: "Efavirenz 600 mg", therapyArea: "HIV" },
      projectStatus: "FILED",
    });
    expect(decided).toMatchObject({ ok: true, status: "approved", createdProduct: true, rowsMapped: 2 });
    const [created] = await db.select().from(products).where(eq(products.name, "Efavirenz 600 mg"));
    expect(created).toMatchObject({ category: "FDF", therapyArea: "HIV", isActive: true });
    expect((await rowsOf(reportId)).every((row) => row.productId === created.id)).toBe(true);
    const [assignment] = await db
      .select()
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, cedar), eq(partnerProducts.productId, created.id)));
    expect(assignment.projectStatus).toBe("FILED");
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "product.create"))).toHaveLength(1);

    // The partner's product list now has it: the next row maps at once, no new verification.
    const view = await loadSalesReport({ viewer: partner3, partnerId: cedar });
    expect(view.lists.productNames.FDF).toContain("Efavirenz 600 mg");
    expect(await refusal(decideProductVerification({ actor: admin, verificationId, decision: "reject" }))).toMatchObject({ status: 409 });
  });

  it("rejecting keeps the entered name without a product and lets the report be decided; re-saving does not ask again", async () => {
    const { reportId, verificationId } = await cedarSubmitsUnknownProduct();
    expect((await refusal(decideProductVerification({ actor: staff, verificationId, decision: "reject" }))).status).toBe(403);
    expect(await decideProductVerification({ actor: admin, verificationId, decision: "reject", requestId: "r" })).toMatchObject({
      ok: true,
      status: "rejected",
      productId: null,
      message: "Product rejected.",
    });
    const rows = await rowsOf(reportId);
    expect(rows.map((row) => [row.productName, row.productId])).toEqual([
      ["Efavirenz 600 mg", null],
      ["Efavirenz 600 mg", null],
    ]);
    const [verification] = await db.select().from(productVerifications).where(eq(productVerifications.id, verificationId));
    expect(verification).toMatchObject({ status: "rejected", decidedBy: admin.id });

    const rejected = await decideReport({
      type: "sales",
      actor: admin,
      partnerId: cedar,
      quarterId: open,
      action: "reject",
      comment: "Efavirenz is not licensed.",
    });
    const resubmitted = await saveSalesReport(
      cedarSave({
        expectedVersion: rejected.version,
        fdf: rows.map((row) => ({ id: row.id, ...fdfRow({ productName: "Efavirenz 600 mg" }) })),
        action: "submit",
        comment: "Kept as is.",
      }),
    );
    expect(resubmitted).toMatchObject({ ok: true, status: "Resubmitted" });
    expect(await pendingVerificationsOf(cedar)).toHaveLength(0);
    expect((await decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "approve", comment: "Accepted." })).status).toBe(
      "Approved",
    );
  });

  it("a name still waiting since an earlier report holds up this report too", async () => {
    const earlier = await salesReportRow(cedar, historic);
    await db.insert(productVerifications).values({ partnerId: cedar, reportId: earlier.id, productName: "Nevirapine 200 mg", category: "FDF" });
    const result = await saveSalesReport(cedarSave({ fdf: [fdfRow({ productName: "nevirapine 200 mg" })], action: "submit", comment: "Sales attached." }));
    if (!result.ok) throw new Error("submit failed");
    expect(await db.select().from(productVerifications).where(eq(productVerifications.partnerId, cedar))).toHaveLength(1);
    const blocked = await refusal(decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "approve", comment: "ok" }));
    expect(blocked.message).toBe("Product verification pending!");
    const [pending] = (await listProductVerifications(cedar, result.reportId)).pendingProducts;
    expect(pending).toMatchObject({ product_name: "Nevirapine 200 mg", row_count: 1 });

    // Rejected: re-submitting the same rows does not raise the name again.
    await decideProductVerification({ actor: admin, verificationId: pending.product_verification_id, decision: "reject" });
    const rejected = await decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "reject", comment: "Unknown product." });
    const [row] = await rowsOf(result.reportId);
    const again = await saveSalesReport(
      cedarSave({
        expectedVersion: rejected.version,
        fdf: [fdfRow({ id: row.id, productName: "nevirapine 200 mg" })],
        action: "submit",
        comment: "As sold.",
      }),
    );
    expect(again).toMatchObject({ ok: true, status: "Resubmitted" });
    expect(await pendingVerificationsOf(cedar)).toHaveLength(0);
  });
});

describe("messages and decisions", () => {
  it("opening the messages marks them read for the viewer's side and the count becomes 0", async () => {
    // Borealis' open-quarter Sales Report: approved with a message the partner has not read.
    const before = await loadSalesReport({ viewer: partner2, partnerId: borealis });
    expect(before.unreadMessageCount).toBe(1);
    expect(before.messages.map((m) => m.message)).toContain("Thank you, approved.");
    expect((await loadSalesReport({ viewer: staff, partnerId: borealis })).unreadMessageCount).toBe(0);

    expect(await markReportMessagesRead(partner2, borealis, open, "sales")).toEqual({ unreadMessageCount: 0 });
    expect((await loadSalesReport({ viewer: partner2, partnerId: borealis })).unreadMessageCount).toBe(0);

    // The partner's next submission is unread for the admins; staff reading it does not mark it read.
    await decideReport({ type: "sales", actor: admin, partnerId: borealis, quarterId: open, action: "reopen", comment: "Please correct May." });
    const reopened = await loadSalesReport({ viewer: partner2, partnerId: borealis });
    await saveSalesReport({
      actor: partner2,
      partnerId: borealis,
      quarterId: open,
      expectedVersion: reopened.report.version,
      api: [],
      fdf: [],
      action: "submit",
      comment: "Corrected.",
    });
    expect(await markReportMessagesRead(staff, borealis, open, "sales")).toEqual({ unreadMessageCount: 1 });
    expect((await loadSalesReport({ viewer: admin, partnerId: borealis })).unreadMessageCount).toBe(1);
    expect(await markReportMessagesRead(admin, borealis, open, "sales")).toEqual({ unreadMessageCount: 0 });
    expect((await loadSalesReport({ viewer: admin, partnerId: borealis })).unreadMessageCount).toBe(0);
  });

  it("only the admin decides: reopen an approved report; partners and staff are refused", async () => {
    expect((await refusal(decideReport({ type: "sales", actor: partner2, partnerId: borealis, quarterId: open, action: "reopen", comment: "x" }))).status).toBe(
      403,
    );
    expect((await refusal(decideReport({ type: "sales", actor: staff, partnerId: borealis, quarterId: open, action: "reopen", comment: "x" }))).status).toBe(
      403,
    );
    const reopened = await decideReport({
      type: "sales",
      actor: admin,
      partnerId: borealis,
      quarterId: open,
      action: "reopen",
      comment: "Please correct May.",
    });
    expect(reopened).toMatchObject({ status: "Saved", message: "Report reopened!" });
    expect((await loadSalesReport({ viewer: partner2, partnerId: borealis })).permissions).toMatchObject({ save: true, submit: true });
    // Only the decision that happened is mailed, once, to the partner.
    const sent = await mails();
    expect(sent.map((mail) => [mail.kind, mail.toAddress])).toEqual([["report-reopen", "partner2@example.org"]]);
    expect(sent[0].subject).toBe(`Your Sales Report for ${quarterName(openQuarterRef())} was reopened`);
    expect(sent[0].textBody).toContain("Comment: Please correct May.");
    expect(sent[0].textBody).not.toContain("Snapshot SHA-256");
  });

  it("the approval is mailed to the partner in its language, with the SHA-256 of the rows approved", async () => {
    await db.update(users).set({ language: "fr" }).where(eq(users.email, "partner3@example.org"));
    const submitted = await saveSalesReport(cedarSave({ fdf: [fdfRow()], action: "submit", comment: "Rapport complet." }));
    if (!submitted.ok) throw new Error("submit failed");
    const approved = await decideReport({ type: "sales", actor: admin, partnerId: cedar, quarterId: open, action: "approve", comment: "Merci." });
    const [mail] = (await mails()).filter((sent) => sent.kind === "report-approve");
    expect(mail).toMatchObject({ toAddress: "partner3@example.org", subject: `Votre Rapport de ventes pour ${quarterName(openQuarterRef())} a été approuvé` });
    expect(mail.textBody).toContain("Statut : Approuvé");
    expect(mail.textBody).toContain("Merci.");
    expect(mail.textBody).toContain(approved.snapshotSha256!);
    // The rows approved are the rows submitted: the same snapshot hash.
    expect(approved.snapshotSha256).toBe(submitted.snapshotSha256);
  });
});

/**
 * The sales rows behind a product verification, looked up by the verification (the index of
 * migration 0008): the dialog counts each verification's own rows, whatever report carries them and
 * whatever other partners carry, and a save drops the verifications it raised that no row carries.
 */
const VERIFIED_NAME = "Nevirapine 200 mg";

describe("the rows of a pending product verification", () => {
  it("are counted per verification in the dialog, and the verification goes with the last row that carries it", async () => {
    const first = await saveSalesReport(
      cedarSave({ fdf: [fdfRow({ productName: VERIFIED_NAME }), fdfRow({ productName: "nevirapine 200 MG", country: "Nigeria" }), fdfRow()] }),
    );
    if (!first.ok) throw new Error(JSON.stringify(first.problems));
    const [pending] = await pendingVerificationsOf(cedar);
    expect(pending).toMatchObject({ productName: VERIFIED_NAME, reportId: first.reportId });

    // The name is carried by a row of Cedar's earlier report too; Acme waits for a verification of the same name, with one row.
    await db
      .insert(salesRows)
      .values({ reportId: (await salesReportRow(cedar, historic)).id, kind: "FDF", productName: VERIFIED_NAME, productVerificationId: pending.id });
    const acmeReport = await salesReportRow(acme, open);
    const [acmePending] = await db
      .insert(productVerifications)
      .values({ partnerId: acme, reportId: acmeReport.id, productName: VERIFIED_NAME, category: "FDF" })
      .returning();
    await db.insert(salesRows).values({ reportId: acmeReport.id, kind: "FDF", productName: VERIFIED_NAME, productVerificationId: acmePending.id });

    const cedarList = await listProductVerifications(cedar, first.reportId);
    expect(cedarList.pendingProducts).toEqual([expect.objectContaining({ product_verification_id: pending.id, product_name: VERIFIED_NAME, row_count: 3 })]);
    expect((await listProductVerifications(acme, acmeReport.id)).pendingProducts).toContainEqual(
      expect.objectContaining({ product_verification_id: acmePending.id, product_name: VERIFIED_NAME, row_count: 1 }),
    );

    // Cedar corrects both rows of this report: the earlier report's row still carries the name, so it still waits.
    const rows = await rowsOf(first.reportId);
    const corrected = await saveSalesReport(
      cedarSave({ expectedVersion: first.version, fdf: [fdfRow({ id: rows[0].id }), fdfRow({ id: rows[1].id, country: "Nigeria" })] }),
    );
    expect(corrected).toMatchObject({ ok: true, counts: { updated: 2 } });
    if (!corrected.ok) return;
    expect((await pendingVerificationsOf(cedar)).map((verification) => verification.id)).toEqual([pending.id]);
    expect((await listProductVerifications(cedar, first.reportId)).pendingProducts).toEqual([
      expect.objectContaining({ product_verification_id: pending.id, row_count: 1 }),
    ]);

    // That row gone too, the next save of the report that raised the name drops it; Acme's stays.
    await db.delete(salesRows).where(eq(salesRows.productVerificationId, pending.id));
    const saved = await saveSalesReport(cedarSave({ expectedVersion: corrected.version }));
    expect(saved).toMatchObject({ ok: true });
    expect(await pendingVerificationsOf(cedar)).toEqual([]);
    expect((await listProductVerifications(cedar, first.reportId)).pendingProducts).toEqual([]);
    expect((await pendingVerificationsOf(acme)).map((verification) => verification.id)).toContain(acmePending.id);
  });
});
