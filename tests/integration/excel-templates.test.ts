/**
 * Excel as an offline template: the blank template of each report downloads beside its upload
 * (same guard as the page), carries the Info sheet, drop-downs, autofilter and print setup, and
 * once filled in is read back by the report's upload; files are named by report, partner and quarter.
 */
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, partners, users } from "~/db/schema";
import { loadFilingPlan } from "~/reports/filing/model.server";
import { loadPdtReport, type PdtGridRow } from "~/reports/pdt/model.server";
import { loadSalesReport } from "~/reports/sales/model.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { action as filingAction } from "~/routes/_shell.partner.filing-plans";
import { action as pdtAction } from "~/routes/_shell.partner.development-timeline";
import { action as salesAction } from "~/routes/_shell.partner.sales-report";
import { loader as adminSalesTemplate } from "~/routes/admin.sales-report.$id.template[.]xlsx";
import { loader as adminSalesXlsx } from "~/routes/admin.sales-report.$id.xlsx";
import { loader as filingTemplate } from "~/routes/partner.filing-plans.template[.]xlsx";
import { loader as pdtTemplate } from "~/routes/partner.development-timeline.template[.]xlsx";
import { loader as salesTemplate } from "~/routes/partner.sales-report.template[.]xlsx";
import { FILING_SHEET } from "~/reports/filing/contract";
import { PDT_SHEET } from "~/reports/pdt/contract";
import { UPLOAD_MESSAGES } from "~/reports/frame/page.server";
import { buildRequest, runRoute, sessionCookieFor, testContext } from "../support/remix";

type Loader = Parameters<typeof runRoute>[0];

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const ACME = "partner1@example.org";
const CEDAR = "partner3@example.org";
const year = String(new Date().getUTCFullYear());

let acme: number;
let cedar: number;
let partner1: AuthUser;
/** The open quarter as a file name writes it: `2026-Q4`. */
let quarterPart: string;

beforeEach(async () => {
  const ids = await db.select({ id: partners.id, email: partners.email }).from(partners);
  acme = ids.find((row) => row.email === ACME)!.id;
  cedar = ids.find((row) => row.email === CEDAR)!.id;
  const [user] = await db.select().from(users).where(eq(users.email, ACME));
  partner1 = (await getAuthUser(user.id))!;
  const [, quarter, quarterYear] = /^Q(\d) (\d{4})$/.exec((await loadSalesReport({ viewer: partner1, partnerId: acme })).quarter.name)!;
  quarterPart = `${quarterYear}-Q${quarter}`;
});

/** A download that succeeds: its headers and the workbook read by exceljs. */
async function download(loader: Loader, url: string, email: string, params: Record<string, string> = {}) {
  const response = (await loader({ request: buildRequest(url, { cookie: await sessionCookieFor(email) }), params, context: testContext() })) as Response;
  expect(response.status, url).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await response.arrayBuffer()) as ExcelJS.Buffer);
  return { headers: response.headers, workbook };
}

/** A download's answer only (refusals included). */
async function answer(loader: Loader, url: string, email: string | null, params: Record<string, string> = {}) {
  return runRoute(loader, buildRequest(url, { cookie: email ? await sessionCookieFor(email) : undefined }), { params });
}

async function upload(action: Loader, url: string, workbook: ExcelJS.Workbook, version: number, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("version", String(version));
  for (const [name, value] of Object.entries(extra)) form.set(name, value);
  form.set("file", new Blob([await workbook.xlsx.writeBuffer()]), "filled.xlsx");
  return runRoute(action, new Request(`http://localhost${url}`, { method: "POST", body: form, headers: { Cookie: await sessionCookieFor(ACME) } }));
}

/** The Info sheet as label → value. */
function infoOf(workbook: ExcelJS.Workbook): Record<string, unknown> {
  const info: Record<string, unknown> = {};
  workbook.getWorksheet("Info")!.eachRow((row) => (info[String(row.getCell(1).value)] = row.getCell(2).value));
  return info;
}

/**
 * The size the sheet's 11 pt text prints at on a Letter landscape page (narrower than A4's): its
 * scale, or when fitted to the page's width, what the fit shrinks it by (a column of width w is
 * w × 7 + 5 pixels, 0.75 pt each; 0.7 in margins).
 */
function printedPointSize(sheet: ExcelJS.Worksheet): number {
  const printableWidth = (11 - 1.4) * 72;
  const width = sheet.columns.reduce((sum, column) => sum + ((column.width ?? 8.43) * 7 + 5) * 0.75, 0);
  const scale = sheet.pageSetup.fitToPage ? Math.min(1, printableWidth / width) : (sheet.pageSetup.scale ?? 100) / 100;
  return 11 * scale;
}

const validationOf = (sheet: ExcelJS.Worksheet, address: string) =>
  (sheet as unknown as { dataValidations: { model: Record<string, { type: string; formulae: string[]; errorStyle?: string }> } }).dataValidations.model[
    address
  ];

describe("blank templates", () => {
  it("the Sales template: named by partner and quarter, Info sheet, drop-downs (long lists from a hidden sheet), autofilter, print setup; filled in, it uploads", async () => {
    const before = Date.now();
    const { headers, workbook } = await download(salesTemplate, "/partner/sales-report/template.xlsx", ACME);
    expect(headers.get("Content-Disposition")).toBe(`attachment; filename="sales-report-template_Acme-Generics-Ltd_${quarterPart}.xlsx"`);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.state])).toEqual([
      ["API", "visible"],
      ["FDF", "visible"],
      ["Info", "visible"],
      ["Lists", "hidden"],
    ]);
    const view = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const info = infoOf(workbook);
    expect(info).toMatchObject({
      Report: "Sales Report (blank template)",
      Partner: "Acme Generics Ltd",
      Quarter: view.quarter.name,
      Status: view.report.status ?? "Not started",
    });
    expect((info["Exported at (UTC)"] as Date).getTime()).toBeGreaterThan(before - 60_000);
    expect(info["How to use"]).toMatch(/upload this file/);

    const api = workbook.getWorksheet("API")!;
    expect(api.rowCount).toBe(1);
    expect(api.autoFilter).toBe("A1:G1");
    // Seven columns fit a page's width at 8 pt or more; the FDF's twenty do not: they split across
    // pages at 73% (11 pt prints as 8 pt), Year, Month and Country repeated on each.
    expect(api.pageSetup).toMatchObject({ orientation: "landscape", fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: "1:1" });
    expect(printedPointSize(api)).toBeGreaterThanOrEqual(8);
    const fdfSheet = workbook.getWorksheet("FDF")!;
    expect(fdfSheet.pageSetup).toMatchObject({ orientation: "landscape", scale: 73, printTitlesRow: "1:1", printTitlesColumn: "A:C" });
    expect(fdfSheet.pageSetup.fitToPage).toBeFalsy();
    expect(printedPointSize(fdfSheet)).toBeGreaterThanOrEqual(8);
    expect(fdfSheet.getRow(1).alignment).toMatchObject({ wrapText: true });
    expect(validationOf(api, "B2")).toMatchObject({ type: "list", errorStyle: "warning", formulae: [`"${view.lists.months.join(",")}"`] });
    expect(validationOf(api, "C500")?.formulae[0]).toMatch(/^Lists!\$[A-Z]\$2:\$[A-Z]\$\d+$/);
    const fdf = workbook.getWorksheet("FDF")!;
    expect(validationOf(fdf, "G2")?.formulae).toEqual([`"${view.lists.formulationTypes.join(",")}"`]);
    expect(validationOf(fdf, "J2")?.formulae[0]).toMatch(/^Lists!/);
    expect(fdf.getColumn(14).numFmt).toBe("#,##0.00");
    // The hidden sheet holds the whole country list.
    const lists = workbook.getWorksheet("Lists")!;
    const countryColumn = lists.getRow(1).values as unknown[];
    const column = countryColumn.indexOf("Country");
    expect(lists.getColumn(column).values.slice(2)).toEqual(view.lists.countries);

    api.addRow([Number(year), "May", "Kenya", "Offline buyer", view.lists.productNames.API[0], 10, 2000]);
    const saved = await upload(salesAction, "/partner/sales-report", workbook, view.report.version, { mode: "replace", confirmReplace: "yes" });
    expect(saved.status).toBe(302);
    const after = await loadSalesReport({ viewer: partner1, partnerId: acme });
    expect(after.rows.API).toEqual([
      expect.objectContaining({ year, month: "May", country: "Kenya", purchaser: "Offline buyer", quantity: "10", totalValue: "2000" }),
    ]);
    expect(after.rows.FDF).toEqual([]);
  });

  it("the timeline template lists the product and stage rows with empty notes and dates; filled in, it uploads", async () => {
    const view = await loadPdtReport({ viewer: partner1, partnerId: acme });
    const { headers, workbook } = await download(pdtTemplate, "/partner/development-timeline/template.xlsx", ACME);
    expect(headers.get("Content-Disposition")).toBe(`attachment; filename="development-timeline-template_Acme-Generics-Ltd_${quarterPart}.xlsx"`);
    expect(infoOf(workbook)).toMatchObject({ Report: "Product Development Timeline (blank template)", Partner: "Acme Generics Ltd" });
    const sheet = workbook.getWorksheet(PDT_SHEET)!;
    expect(sheet.getRow(1).values).toEqual([undefined, "Product", "Stage", "Status", "Notes", "Start Date", "End Date"]);
    expect(sheet.rowCount).toBe(view.rows.length + 1);
    expect(sheet.getRow(2).values).toEqual([undefined, view.rows[0].productName, view.rows[0].stageName, expect.any(String)]);
    expect(validationOf(sheet, "C2")?.type).toBe("list");
    expect(sheet.getColumn(5).numFmt).toBe("mm/dd/yyyy");

    // Uploaded as it came, it holds nothing to save: refused, nothing changed.
    const blank = await upload(pdtAction, "/partner/development-timeline", workbook, view.report.version);
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.data)).toContain(UPLOAD_MESSAGES.nothingFilled);

    sheet.getRow(2).getCell(4).value = "Planned offline";
    sheet.getRow(2).getCell(5).value = new Date(Date.UTC(Number(year), 6, 1));
    sheet.getRow(2).getCell(6).value = `12/31/${year}`;
    const saved = await upload(pdtAction, "/partner/development-timeline", workbook, view.report.version);
    expect(saved.status).toBe(302);
    const [first, ...others] = (await loadPdtReport({ viewer: partner1, partnerId: acme })).rows;
    expect(first).toMatchObject({ notes: "Planned offline", startDate: `${year}-07-01`, endDate: `${year}-12-31` });
    // The rows left empty in the template keep what was stored.
    const plan = (row: PdtGridRow) => ({ notes: row.notes, startDate: row.startDate, endDate: row.endDate });
    expect(others.map(plan)).toEqual(view.rows.slice(1).map(plan));
  });

  it("the Filing Plans template has a row per country and a status drop-down per product; filled in, it uploads", async () => {
    const view = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    const { headers, workbook } = await download(filingTemplate, "/partner/filing-plans/template.xlsx", ACME);
    expect(headers.get("Content-Disposition")).toBe(`attachment; filename="filing-plans-template_Acme-Generics-Ltd_${quarterPart}.xlsx"`);
    const sheet = workbook.getWorksheet(FILING_SHEET)!;
    expect(sheet.getRow(1).values).toEqual([undefined, "Country", ...view.products.map((product) => product.name)]);
    expect(sheet.rowCount).toBe(view.rows.length + 1);
    const [first] = view.products;
    expect(validationOf(sheet, "B2")?.formulae).toEqual([`"${view.statusLists[first.category].join(",")}"`]);
    const franceIndex = view.rows.findIndex((row) => row.country === "France");
    const france = sheet.getRow(franceIndex + 2);
    expect(france.values).toEqual([undefined, "France"]);

    const blank = await upload(filingAction, "/partner/filing-plans", workbook, view.report.version);
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.data)).toContain(UPLOAD_MESSAGES.nothingFilled);

    france.getCell(2).value = "Filed";
    const saved = await upload(filingAction, "/partner/filing-plans", workbook, view.report.version);
    expect(saved.status).toBe(302);
    const [franceId] = await db.select({ id: countries.id }).from(countries).where(eq(countries.name, "France"));
    const after = await loadFilingPlan({ viewer: partner1, partnerId: acme });
    expect(after.rows.find((row) => row.countryId === franceId.id)?.cells[String(first.id)]).toBe("Filed");
    // The countries left empty in the template keep their stored filings.
    const storedElsewhere = view.rows.filter((row) => row.countryId !== franceId.id && Object.values(row.cells).some(Boolean));
    expect(storedElsewhere.length).toBeGreaterThan(0);
    for (const row of storedElsewhere) expect(after.rows.find((other) => other.countryId === row.countryId)?.cells).toEqual(row.cells);
  });

  it("a template has the guard of its page: a partner gets its own only, ADMIN and STAFF any partner's, a visitor the login", async () => {
    expect((await answer(adminSalesTemplate, `/admin/sales-report/${acme}/template.xlsx`, ACME, { id: String(acme) })).status).toBe(403);
    expect((await answer(pdtTemplate, "/partner/development-timeline/template.xlsx", ADMIN)).status).toBe(403);
    await download(adminSalesTemplate, `/admin/sales-report/${cedar}/template.xlsx`, STAFF, { id: String(cedar) });
    const { headers } = await download(adminSalesTemplate, `/admin/sales-report/${cedar}/template.xlsx`, ADMIN, { id: String(cedar) });
    expect(headers.get("Content-Disposition")).toContain(`sales-report-template_Cedar-Life-Sciences_${quarterPart}.xlsx`);
    const anonymous = await answer(salesTemplate, "/partner/sales-report/template.xlsx", null);
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/login/);
  });
});

describe("file names", () => {
  it("a partner name outside ASCII: a plain filename without it and filename* with it, UTF-8; an earlier quarter names that quarter", async () => {
    await db.update(partners).set({ companyName: "Société Générique 中文 (Pty)" }).where(eq(partners.id, cedar));
    const { headers, workbook } = await download(adminSalesXlsx, `/admin/sales-report/${cedar}/xlsx`, ADMIN, { id: String(cedar) });
    const unicode = `sales-report_Société-Générique-中文-Pty_${quarterPart}.xlsx`;
    expect(headers.get("Content-Disposition")).toBe(
      `attachment; filename="sales-report_Societe-Generique-Pty_${quarterPart}.xlsx"; filename*=UTF-8''${encodeURIComponent(unicode)}`,
    );
    expect(infoOf(workbook).Partner).toBe("Société Générique 中文 (Pty)");

    const view = await loadSalesReport({ viewer: partner1, partnerId: acme });
    const earlier = view.quarterDropdown[1];
    const [, quarter, quarterYear] = /^Q(\d) (\d{4})$/.exec(earlier.name)!;
    const older = await download(adminSalesXlsx, `/admin/sales-report/${cedar}/xlsx?quarter=${encodeURIComponent(earlier.name)}`, ADMIN, { id: String(cedar) });
    expect(older.headers.get("Content-Disposition")).toContain(`filename="sales-report_Societe-Generique-Pty_${quarterYear}-Q${quarter}.xlsx"`);
    expect(infoOf(older.workbook).Quarter).toBe(earlier.name);
  });
});
