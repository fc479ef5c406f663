/**
 * The admin dashboard (spec section 2 "Admin dashboard", issue 10) through its page loader and its
 * downloads, on a small fixture whose figures are worked out by hand. Every test starts from the
 * demo seed with its sales rows and filing values deleted (the triggers empty the aggregates), so
 * the figures below depend only on the fixture. Sales rows carry fixed years and months; the
 * filing quarters are named after the open quarter.
 */
import { parse } from "csv-parse/sync";
import { and, asc, eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";

import { db } from "~/db/client.server";
import {
  countries,
  dashboardFilings,
  dashboardSales,
  filingValues,
  partnerProducts,
  partners,
  products,
  productVerifications,
  reports,
  salesRows,
  users,
} from "~/db/schema";
import { decideProductVerification } from "~/reports/sales/product-verification.server";
import { deactivatePartner, reactivatePartner } from "~/models/partner-list.server";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { decideReport } from "~/reports/frame/screen.server";
import { saveSalesReport, type SaveSalesReportInput } from "~/reports/sales/model.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import type { DashboardCell, DashboardTable } from "~/reports/dashboard/tables";
import { loader as csvLoader } from "~/routes/admin.dashboard.$table.csv";
import { loader as xlsxLoader } from "~/routes/admin.dashboard.$table.xlsx";
import { loader as pageLoader } from "~/routes/_shell.admin.dashboard";
import { addQuarters, quarterName } from "~/utils/quarters";
import type { SalesRowInput } from "~/reports/sales/columns";
import { expectAggregatesMatchRows } from "../support/dashboard-aggregates";
import { buildRequest, runRoute, sessionCookieFor, testContext } from "../support/remix";

const ADMIN = "admin@example.org";
const STAFF = "staff@example.org";
const PAGE = "/admin/dashboard";

const ACME = "Acme Generics Ltd";
const BOREALIS = "Borealis Pharma Pvt";
const CEDAR = "Cedar Life Sciences";
const DTG = "Dolutegravir 50 mg";
const TLD = "TLD (Tenofovir/Lamivudine/Dolutegravir)";
const DTG_API = "Dolutegravir API";
const PAED = "Paediatric Abacavir/Lamivudine/Dolutegravir";
const NOT_GIVEN = "Not given";

const openRef = openQuarterRef();
const OPEN = quarterName(openRef);
const PREVIOUS = quarterName(addQuarters(openRef, -1));
/** The four planned-filing quarters after the open quarter. */
const [F1, F2, F3, F4] = [1, 2, 3, 4].map((count) => quarterName(addQuarters(openRef, count)));

type PageData = Awaited<ReturnType<typeof pageLoader>>;
type View = PageData["view"];
type NewSalesRow = typeof salesRows.$inferInsert;

// ---------------------------------------------------------------- ids

let ids: {
  acme: number;
  borealis: number;
  cedar: number;
  open: number;
  previous: number;
  dtg: number;
  tld: number;
  dtgApi: number;
  paed: number;
  india: number;
  kenya: number;
  brazil: number;
};
let adminCookie: string;

async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function productIdOf(name: string) {
  const [product] = await db.select().from(products).where(eq(products.name, name));
  return product.id;
}
async function countryIdOf(name: string) {
  const [country] = await db.select().from(countries).where(eq(countries.name, name));
  return country.id;
}
async function reportOf(partnerId: number, quarterId: number, type: "pdt" | "filing" | "sales") {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, type)));
  return report;
}
async function newReport(partnerId: number, quarterId: number, type: "pdt" | "filing" | "sales", status: (typeof reports.$inferSelect)["status"]) {
  const [report] = await db.insert(reports).values({ partnerId, quarterId, type, status, submittedAt: new Date(), firstSubmittedAt: new Date() }).returning();
  return report;
}
async function actorFor(email: string): Promise<AuthUser> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}

beforeEach(async () => {
  // Independent of the seed's own figures: its sales rows and filing values go (and with them, by
  // the triggers, every aggregate row).
  await db.delete(salesRows);
  await db.delete(filingValues);
  const [acme, borealis, cedar] = await Promise.all(["partner1", "partner2", "partner3"].map((name) => partnerIdOf(`${name}@example.org`)));
  const [dtg, tld, dtgApi, paed] = await Promise.all([DTG, TLD, DTG_API, PAED].map(productIdOf));
  const [india, kenya, brazil] = await Promise.all(["India", "Kenya", "Brazil"].map(countryIdOf));
  const open = (await ensureQuarter(openRef)).id;
  const previous = (await ensureQuarter(addQuarters(openRef, -1))).id;
  ids = { acme, borealis, cedar, open, previous, dtg, tld, dtgApi, paed, india, kenya, brazil };
  adminCookie = await sessionCookieFor(ADMIN);
});

// ---------------------------------------------------------------- fixture

const fdfRow = (
  reportId: number,
  productId: number | null,
  countryId: number | null,
  period: [number, number] | null,
  packSize: string,
  quantity: string,
  totalGrossValue: string | null,
): NewSalesRow => ({
  reportId,
  kind: "FDF",
  year: period?.[0] ?? null,
  month: period?.[1] ?? null,
  countryId,
  purchaser: "Central Medical Stores",
  productId,
  productName: productId ? null : "Unverified Tablet 10 mg",
  packSize,
  quantity,
  totalGrossValue,
  // The net value is not a dashboard figure: a value that would show if it were used.
  totalValue: "1",
  currencyCode: "USD",
});
const apiRow = (reportId: number, productId: number, countryId: number, period: [number, number], quantity: string, totalValue: string): NewSalesRow => ({
  reportId,
  kind: "API",
  year: period[0],
  month: period[1],
  countryId,
  purchaser: "Formulator Ltd",
  productId,
  productName: DTG_API,
  quantity,
  totalValue,
});

/**
 * Sales rows (units = pack size x quantity of FDF rows; value = FDF total gross value, API total value):
 *
 * Borealis, open quarter, Approved:
 *   b1 FDF DTG India   2025-01 pack 30 x 10.1  = 303 units, gross 100.1
 *   b2 FDF DTG Kenya   2025-02 pack 60 x 4.2   = 252 units, gross 200.2
 *   b3 FDF TLD India   2025-04 pack 30 x 2     =  60 units, gross 50.05
 *   b4 API DTG API Kenya 2025-04 1.5 kg        =   0 units, value 1000.7
 *   b5 FDF TLD (no country) 2025-07 pack 90 x 1 = 90 units, gross 33.33
 *   b6 FDF DTG India (no year, no month) pack 30 x 1 = 30 units, gross 9.99: counts everywhere but in the period columns
 *   b7 FDF DTG India   2025-01 pack 30 x 5     = 150 units, no gross value: counts, value 0, not priced
 *   b8 FDF no product (pending verification) pack 30 x 1000, gross 5000: counts nowhere
 * Acme, open quarter, Saved:
 *   a1 FDF DTG India   2025-01 pack 30 x 0.3   =   9 units, gross 0.7
 *   a2 API DTG API India 2026-01 2 kg          =   0 units, value 0.2
 * Cedar, previous quarter, Submitted:
 *   c1 FDF TLD Kenya   2025-07 pack 30 x 3     =  90 units, gross 60
 */
async function insertSalesFixture() {
  const borealis = (await reportOf(ids.borealis, ids.open, "sales")).id;
  const acme = (await reportOf(ids.acme, ids.open, "sales")).id;
  const cedar = (await reportOf(ids.cedar, ids.previous, "sales")).id;
  expect(
    (
      await db
        .select({ id: reports.id, status: reports.status })
        .from(reports)
        .where(sql`${reports.id} in (${borealis}, ${acme}, ${cedar})`)
    )
      .map((row) => row.status)
      .sort(),
  ).toEqual(["Approved", "Saved", "Submitted"]);
  const { dtg, tld, dtgApi, india, kenya } = ids;
  await db
    .insert(salesRows)
    .values([
      fdfRow(borealis, dtg, india, [2025, 1], "30", "10.1", "100.1"),
      fdfRow(borealis, dtg, kenya, [2025, 2], "60", "4.2", "200.2"),
      fdfRow(borealis, tld, india, [2025, 4], "30", "2", "50.05"),
      apiRow(borealis, dtgApi, kenya, [2025, 4], "1.5", "1000.7"),
      fdfRow(borealis, tld, null, [2025, 7], "90", "1", "33.33"),
      fdfRow(borealis, dtg, india, null, "30", "1", "9.99"),
      fdfRow(borealis, dtg, india, [2025, 1], "30", "5", null),
      fdfRow(borealis, null, india, [2025, 1], "30", "1000", "5000"),
      fdfRow(acme, dtg, india, [2025, 1], "30", "0.3", "0.7"),
      apiRow(acme, dtgApi, india, [2026, 1], "2", "0.2"),
    ]);
  await db.insert(salesRows).values(fdfRow(cedar, tld, kenya, [2025, 7], "30", "3", "60"));
  return { borealis, acme, cedar };
}

/**
 * Filing Plans cells. Open quarter: Borealis and Cedar (new reports, Approved), Acme (the seed's
 * Rejected report). Previous quarter: Acme (Approved), Borealis (Submitted).
 */
async function insertFilingFixture() {
  const { dtg, tld, dtgApi, india, kenya, brazil } = ids;
  const borealisOpen = (await newReport(ids.borealis, ids.open, "filing", "Approved")).id;
  const cedarOpen = (await newReport(ids.cedar, ids.open, "filing", "Approved")).id;
  const acmeOpen = await reportOf(ids.acme, ids.open, "filing");
  const acmePrevious = await reportOf(ids.acme, ids.previous, "filing");
  const borealisPrevious = await reportOf(ids.borealis, ids.previous, "filing");
  expect([acmeOpen.status, acmePrevious.status, borealisPrevious.status]).toEqual(["Rejected", "Approved", "Submitted"]);
  const cell = (reportId: number, productId: number, countryId: number, status: string) => ({ reportId, productId, countryId, status });
  await db
    .insert(filingValues)
    .values([
      cell(borealisOpen, dtg, india, "Filed"),
      cell(borealisOpen, dtg, kenya, "Filed"),
      cell(borealisOpen, dtg, brazil, "Registered"),
      cell(borealisOpen, tld, india, "Filed"),
      cell(borealisOpen, tld, kenya, F1),
      cell(borealisOpen, tld, brazil, F3),
      cell(borealisOpen, dtgApi, india, "Filing-Planned"),
      cell(borealisOpen, dtgApi, kenya, "0"),
      cell(cedarOpen, dtg, india, "Filed"),
      cell(cedarOpen, tld, kenya, F1),
      cell(cedarOpen, tld, india, F2),
      cell(cedarOpen, dtgApi, brazil, "Filing-Planned"),
      cell(acmeOpen.id, dtg, brazil, "Filed"),
      cell(acmeOpen.id, tld, kenya, F4),
      cell(acmeOpen.id, dtgApi, india, "Filed"),
      cell(acmePrevious.id, dtg, india, "Registered"),
      cell(acmePrevious.id, tld, kenya, "Filed"),
      cell(acmePrevious.id, tld, india, "Filed"),
      cell(borealisPrevious.id, dtg, kenya, "Filed"),
    ]);
  return { borealisOpen, cedarOpen };
}

// ---------------------------------------------------------------- the page and its downloads

async function page(search = "", cookie = adminCookie): Promise<PageData> {
  const result = await runRoute<PageData>(pageLoader, buildRequest(`${PAGE}${search}`, { cookie }));
  expect(result.status, search).toBe(200);
  return result.data!;
}

function tableIn(view: View, id: string): DashboardTable {
  const tables: DashboardTable[] = ("tables" in view ? view.tables : undefined) ?? [];
  const table = tables.find((candidate) => candidate.id === id);
  if (!table) throw new Error(`No table ${id} in ${view.tab}: ${tables.map((t) => t.id).join(", ")}`);
  return table;
}

/** The shown page of one table. */
async function tableOf(search: string, id: string): Promise<DashboardTable> {
  return tableIn((await page(search)).view, id);
}
async function rowsOf(search: string, id: string): Promise<DashboardCell[][]> {
  return (await tableOf(search, id)).rows;
}
const labels = (table: DashboardTable) => table.columns.map((column) => column.label);

async function download(format: "csv" | "xlsx", table: string, search = "", cookie = adminCookie): Promise<Response> {
  const loader = format === "csv" ? csvLoader : xlsxLoader;
  return (await loader({ request: buildRequest(`${PAGE}/${table}/${format}${search}`, { cookie }), params: { table }, context: testContext() })) as Response;
}
async function csvOf(table: string, search = "") {
  const response = await download("csv", table, search);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${table}.csv"`);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...records] = parse(bytes, { bom: true }) as string[][];
  return { header, records };
}
async function xlsxOf(table: string, search = "") {
  const response = await download("xlsx", table, search);
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${table}.xlsx"`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
  expect(workbook.worksheets.map((sheet) => sheet.name).slice(1)).toEqual(["Info"]);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { sheet, header: rows[0], records: rows.slice(1) };
}
/** A shown row as the CSV writes it: empty cells empty, numbers as text. */
const asCsv = (row: DashboardCell[]) => row.map((cell) => (cell === null ? "" : String(cell)));

// ---------------------------------------------------------------- 1. every tab

describe("the dashboard's tabs, figure by figure", () => {
  it("starts from empty aggregates once the seed's rows are gone", async () => {
    expect(await db.select().from(dashboardSales)).toEqual([]);
    expect(await db.select().from(dashboardFilings)).toEqual([]);
    const view = (await page("?tab=sales-product&unapproved=1")).view;
    expect(tableIn(view, "product-company-sales").rows).toEqual([]);
    expect(tableIn(view, "product-time-sales")).toMatchObject({ rows: [], page: { total: 0, page: 1, pages: 1 } });
    expect((await page("?tab=sales-time")).view).toMatchObject({ chart: [] });
    expect((await page("?tab=price")).view).toMatchObject({ chart: [], products: [] });
  });

  it("Product / Project: tiles per status and both count tables, from the active projects of active partners and products", async () => {
    // On the seed's assignments: Borealis gets Dolutegravir 50 mg APPROVED; Cedar gets it ON_HOLD but
    // the assignment is inactive (not counted); Daclatasvir 60 mg (Borealis, FILED) is deactivated.
    await db.insert(partnerProducts).values([
      { partnerId: ids.borealis, productId: ids.dtg, projectStatus: "APPROVED" },
      { partnerId: ids.cedar, productId: ids.dtg, projectStatus: "ON_HOLD", isActive: false },
    ]);
    await db.update(products).set({ isActive: false }).where(eq(products.name, "Daclatasvir 60 mg"));

    const data = await page();
    expect(data.view.tab).toBe("product");
    if (data.view.tab !== "product") throw new Error("not the product tab");
    // ON_HOLD: TAF 25 mg (Borealis). UNDER_DEVELOPMENT: Sofosbuvir/Daclatasvir (Acme), Sofosbuvir API
    // (Borealis), Paediatric ABC/3TC/DTG (Cedar). DROPPED: LPV/r pellets (Cedar). FILED: TLD (Acme),
    // Abacavir API (Cedar). APPROVED: Dolutegravir 50 mg (Acme, Borealis), Dolutegravir API (Acme).
    // PLANNED (TAF API, Ravidasvir API) is no tile.
    expect(data.view.tiles).toEqual([
      { status: "ON_HOLD", count: 1 },
      { status: "UNDER_DEVELOPMENT", count: 3 },
      { status: "DROPPED", count: 1 },
      { status: "FILED", count: 2 },
      { status: "APPROVED", count: 3 },
    ]);
    const statusLabels = ["On Hold", "Under Development", "Dropped", "Filed", "Approved"];
    const byProduct = tableIn(data.view, "product-status-count");
    expect(byProduct.title).toBe("Product Wise Company Count");
    expect(labels(byProduct)).toEqual(["Product", ...statusLabels]);
    expect(byProduct.rows).toEqual([
      ["Abacavir API", 0, 0, 0, 1, 0],
      [DTG, 0, 0, 0, 0, 2],
      [DTG_API, 0, 0, 0, 0, 1],
      ["Lopinavir/ritonavir pellets", 0, 0, 1, 0, 0],
      [PAED, 0, 1, 0, 0, 0],
      ["Sofosbuvir API", 0, 1, 0, 0, 0],
      ["Sofosbuvir/Daclatasvir", 0, 1, 0, 0, 0],
      ["Tenofovir Alafenamide 25 mg", 1, 0, 0, 0, 0],
      [TLD, 0, 0, 0, 1, 0],
    ]);
    const byCompany = tableIn(data.view, "company-status-count");
    expect(byCompany.title).toBe("Company Wise Product Count");
    expect(labels(byCompany)).toEqual(["Company Name", ...statusLabels]);
    expect(byCompany.rows).toEqual([
      // Acme: Sofosbuvir/Daclatasvir; TLD; Dolutegravir 50 mg and Dolutegravir API.
      [ACME, 0, 1, 0, 1, 2],
      // Borealis: TAF 25 mg; Sofosbuvir API; Dolutegravir 50 mg (Daclatasvir 60 mg inactive, TAF API planned).
      [BOREALIS, 1, 1, 0, 0, 1],
      // Cedar: Paediatric; LPV/r pellets; Abacavir API (Dolutegravir 50 mg inactive, Ravidasvir planned).
      [CEDAR, 0, 1, 1, 1, 0],
    ]);
    // Not a report figure: the same with unapproved=1.
    expect(tableIn((await page("?unapproved=1")).view, "company-status-count").rows).toEqual(byCompany.rows);

    // The tiles' table is a download of its own.
    const { header, records } = await csvOf("project-status");
    expect(header).toEqual(["Status", "Projects"]);
    expect(records).toEqual([
      ["On Hold", "1"],
      ["Under Development", "3"],
      ["Dropped", "1"],
      ["Filed", "2"],
      ["Approved", "3"],
    ]);
  });

  it("Summary: the four views of the open quarter list the active partners by their three reports' states", async () => {
    // Seed, open quarter: Acme PDT Submitted, Filing Rejected, Sales Saved; Borealis PDT Resubmitted,
    // Sales Approved, no Filing Plan; Cedar nothing. Cedar now reports all three; Delta is a new
    // active partner without reports; Echo an inactive one (never listed).
    await newReport(ids.cedar, ids.open, "pdt", "Approved");
    await newReport(ids.cedar, ids.open, "filing", "Submitted");
    await newReport(ids.cedar, ids.open, "sales", "Approved");
    const [delta, echo] = await db
      .insert(partners)
      .values([
        { companyName: "Delta Pharma", email: "delta@example.org", contactNumber: "+911234567890", region: "Asia" },
        { companyName: "Echo Labs", email: "echo@example.org", contactNumber: "+911234567891", region: "Asia", isActive: false },
      ])
      .returning();
    // Echo would be in 'Yet to submit data' were it active.
    expect(echo.isActive).toBe(false);

    const notStarted = "not started";
    const views = {
      submitted: [
        { partnerId: ids.cedar, companyName: CEDAR, email: "partner3@example.org", statuses: { pdt: "Approved", filing: "Submitted", sales: "Approved" } },
      ],
      "not-submitted": [
        {
          partnerId: ids.borealis,
          companyName: BOREALIS,
          email: "partner2@example.org",
          statuses: { pdt: "Resubmitted", filing: notStarted, sales: "Approved" },
        },
        { partnerId: delta.id, companyName: "Delta Pharma", email: "delta@example.org", statuses: { pdt: notStarted, filing: notStarted, sales: notStarted } },
      ],
      saved: [{ partnerId: ids.acme, companyName: ACME, email: "partner1@example.org", statuses: { pdt: "Submitted", filing: "Rejected", sales: "Saved" } }],
      "awaiting-approval": [
        { partnerId: ids.acme, companyName: ACME, email: "partner1@example.org", statuses: { pdt: "Submitted", filing: "Rejected", sales: "Saved" } },
        {
          partnerId: ids.borealis,
          companyName: BOREALIS,
          email: "partner2@example.org",
          statuses: { pdt: "Resubmitted", filing: notStarted, sales: "Approved" },
        },
        { partnerId: ids.cedar, companyName: CEDAR, email: "partner3@example.org", statuses: { pdt: "Approved", filing: "Submitted", sales: "Approved" } },
      ],
    } as const;
    for (const [view, expected] of Object.entries(views)) {
      const data = await page(`?tab=summary${view === "submitted" ? "" : `&view=${view}`}`);
      if (data.view.tab !== "summary") throw new Error("not the summary tab");
      expect(data.view.quarterName, view).toBe(OPEN);
      expect(data.view.summary.rows, view).toEqual(expected);
      expect(data.view.summary.page, view).toEqual({ total: expected.length, page: 1, pages: 1, pageSize: 50 });
      // The bulk reminder names every partner of the view.
      expect(
        [...data.view.summary.partnerIds].sort((a, b) => a - b),
        view,
      ).toEqual(expected.map((row) => row.partnerId).sort((a, b) => a - b));
      expect(data.query.view).toBe(view);
      expect(data.canRemind).toBe(true);
    }
    // An unknown view is the default one.
    const fallback = await page("?tab=summary&view=everyone");
    expect(fallback.query.view).toBe("submitted");

    const { header, records } = await csvOf("summary", "?view=not-submitted");
    expect(header).toEqual(["Company Name", "E-mail", "PDT", "Filing Plan", "Sales Report", "Findings"]);
    // The Findings column is worked out in check-counts.test.ts.
    expect(records.map((record) => record.slice(0, 5))).toEqual([
      [BOREALIS, "partner2@example.org", "Resubmitted", notStarted, "Approved"],
      ["Delta Pharma", "delta@example.org", notStarted, notStarted, notStarted],
    ]);
  });

  it("Country Filings: Filed, Registered, Filing-Planned and Future-Quarters by product; by country; the map; an earlier quarter", async () => {
    await insertFilingFixture();
    const productCounts = async (search: string) => {
      const data = await page(`?tab=filings${search}`);
      if (data.view.tab !== "filings") throw new Error("not the filings tab");
      return data.view;
    };

    // Default: Filed, open quarter, approved reports only (Borealis and Cedar).
    const filed = await productCounts("");
    expect(filed.quarterName).toBe(OPEN);
    expect(filed.futureQuarters).toEqual([F1, F2, F3, F4]);
    expect(filed.quarters.slice(0, 2)).toEqual([OPEN, PREVIOUS]);
    expect(filed.quarters).not.toContain(F1);
    const filedTable = tableIn(filed, "product-country-count");
    expect(filedTable.title).toBe("Product Wise Country Count");
    expect(labels(filedTable)).toEqual(["Product", "Number of countries"]);
    expect(filedTable.rows).toEqual([
      // India and Kenya (India by two partners: one country).
      [DTG, 2],
      [TLD, 1],
    ]);
    const byCountry = tableIn(filed, "country-product-count");
    expect(byCountry.title).toBe("Country Wise Product Count");
    expect(labels(byCountry)).toEqual(["Country", "Product", "Number of partners"]);
    expect(byCountry.rows).toEqual([
      // Borealis and Cedar.
      ["India", DTG, 2],
      ["India", TLD, 1],
      ["Kenya", DTG, 1],
    ]);
    // The map: per country, the products with the status.
    expect(filed.map).toEqual([
      { isoCode: "IN", name: "India", value: 2 },
      { isoCode: "KE", name: "Kenya", value: 1 },
    ]);

    const registered = await productCounts("&filing=Registered&countryFiling=Registered");
    expect(tableIn(registered, "product-country-count").rows).toEqual([[DTG, 1]]);
    expect(tableIn(registered, "country-product-count").rows).toEqual([["Brazil", DTG, 1]]);
    expect(registered.map).toEqual([{ isoCode: "BR", name: "Brazil", value: 1 }]);

    const planned = await productCounts("&filing=Filing-Planned");
    // India (Borealis) and Brazil (Cedar); Kenya's '0' is no filing.
    expect(tableIn(planned, "product-country-count").rows).toEqual([[DTG_API, 2]]);

    const future = await productCounts("&filing=Future-Quarters&countryFiling=Future%20Quarter%20Status");
    const futureTable = tableIn(future, "product-country-count");
    expect(labels(futureTable)).toEqual(["Product", F1, F2, F3, F4]);
    expect(futureTable.columns.slice(1).every((column) => column.raw && column.numeric)).toBe(true);
    // TLD: Kenya in F1 (two partners, one country), India in F2, Brazil in F3; Acme's F4 is not approved.
    expect(futureTable.rows).toEqual([[TLD, 1, 1, 1, 0]]);
    const futureByCountry = tableIn(future, "country-product-count");
    expect(labels(futureByCountry)).toEqual(["Country", "Product", "Status", "Number of partners"]);
    expect(futureByCountry.rows).toEqual([
      ["Brazil", TLD, F3, 1],
      ["India", TLD, F2, 1],
      ["Kenya", TLD, F1, 2],
    ]);
    expect(future.map).toEqual([
      { isoCode: "BR", name: "Brazil", value: 1 },
      { isoCode: "IN", name: "India", value: 1 },
      { isoCode: "KE", name: "Kenya", value: 1 },
    ]);

    // An earlier quarter: its approved reports (Acme), the four quarters after it.
    const earlier = await productCounts(`&quarter=${encodeURIComponent(PREVIOUS)}`);
    expect(earlier.quarterName).toBe(PREVIOUS);
    expect(earlier.futureQuarters).toEqual([OPEN, F1, F2, F3]);
    expect(tableIn(earlier, "product-country-count").rows).toEqual([[TLD, 2]]);
    expect(tableIn(earlier, "country-product-count").rows).toEqual([
      ["India", TLD, 1],
      ["Kenya", TLD, 1],
    ]);
    const earlierFuture = await productCounts(`&quarter=${encodeURIComponent(PREVIOUS)}&filing=Future-Quarters`);
    expect(labels(tableIn(earlierFuture, "product-country-count"))).toEqual(["Product", OPEN, F1, F2, F3]);
    expect(tableIn(earlierFuture, "product-country-count").rows).toEqual([]);
    expect(tableIn(await productCounts(`&quarter=${encodeURIComponent(PREVIOUS)}&filing=Registered`), "product-country-count").rows).toEqual([[DTG, 1]]);

    // A future or unknown quarter is not found.
    for (const quarter of [F1, "Q1 1990", "someday"]) {
      const result = await runRoute(pageLoader, buildRequest(`${PAGE}?tab=filings&quarter=${encodeURIComponent(quarter)}`, { cookie: adminCookie }));
      expect(result.status, quarter).toBe(404);
    }

    // The downloads carry the filter: every row of the table as shown.
    const csv = await csvOf("country-product-count", "?countryFiling=Future%20Quarter%20Status");
    expect(csv.header).toEqual(["Country", "Product", "Status", "Number of partners"]);
    expect(csv.records).toEqual(futureByCountry.rows.map(asCsv));
    const xlsx = await xlsxOf("product-country-count", "?filing=Future-Quarters");
    expect(xlsx.header).toEqual(["Product", F1, F2, F3, F4]);
    expect(xlsx.records).toEqual([[TLD, 1, 1, 1, 0]]);
  });

  it("Sales by Product: product x company, product x country and product over time, per quarter, year and month", async () => {
    await insertSalesFixture();
    const view = (await page("?tab=sales-product")).view;
    expect((("tables" in view ? view.tables : undefined) ?? []).map((table) => table.id)).toEqual([
      "product-company-sales",
      "product-country-sales",
      "product-time-sales",
    ]);

    const byCompany = tableIn(view, "product-company-sales");
    expect(byCompany.title).toBe("Product Wise Company Sales");
    expect(labels(byCompany)).toEqual(["Product", "Company Name", "Sales total", "Sales value (USD)"]);
    expect(byCompany.rows).toEqual([
      // b1 303 + b2 252 + b6 30 + b7 150 = 735; 100.1 + 200.2 + 9.99 + 0 = 310.29 (b8 has no product).
      [DTG, BOREALIS, "735", "310.29"],
      // API rows sell kilograms: no sales total; value b4 1000.7.
      [DTG_API, BOREALIS, "0", "1000.7"],
      // b3 60 + b5 90 = 150; 50.05 + 33.33 = 83.38.
      [TLD, BOREALIS, "150", "83.38"],
    ]);
    expect(byCompany.page).toEqual({ total: 3, page: 1, pages: 1, pageSize: 50 });

    expect(tableIn(view, "product-country-sales").rows).toEqual([
      // India: b1 303 + b6 30 + b7 150 = 483; 100.1 + 9.99 = 110.09. Kenya: b2 252; 200.2.
      [DTG, "India", "483", "110.09"],
      [DTG, "Kenya", "252", "200.2"],
      [DTG_API, "Kenya", "0", "1000.7"],
      // Largest total first: b5 (no country) 90 before b3 (India) 60.
      [TLD, NOT_GIVEN, "90", "33.33"],
      [TLD, "India", "60", "50.05"],
    ]);

    // Over time: the periods with sales (b6 has none, so it is left out of these tables and their total).
    const byQuarter = tableIn(view, "product-time-sales");
    expect(labels(byQuarter)).toEqual(["Product", "Q1 2025", "Q2 2025", "Q3 2025", "Sales total"]);
    expect(byQuarter.rows).toEqual([
      // Q1: b1 303 + b2 252 + b7 150 = 705; all time, as in the cross tables, with b6 (no period) 30: 735.
      [DTG, "705", null, null, "735"],
      [DTG_API, null, "0", null, "0"],
      [TLD, null, "60", "90", "150"],
    ]);
    expect(await rowsOf("?tab=sales-product&period=year", "product-time-sales")).toEqual([
      [DTG, "705", "735"],
      [DTG_API, "0", "0"],
      [TLD, "150", "150"],
    ]);
    const byMonth = await tableOf("?tab=sales-product&period=month", "product-time-sales");
    expect(labels(byMonth)).toEqual(["Product", "2025-01", "2025-02", "2025-04", "2025-07", "Sales total"]);
    expect(byMonth.rows).toEqual([
      // January: b1 303 + b7 150 = 453.
      [DTG, "453", "252", null, null, "735"],
      [DTG_API, null, null, "0", null, "0"],
      [TLD, null, null, "60", "90", "150"],
    ]);
  });

  it("Sales by Company: company x product, company x country and company over time", async () => {
    await insertSalesFixture();
    const view = (await page("?tab=sales-company")).view;
    expect(tableIn(view, "company-product-sales").rows).toEqual([
      [BOREALIS, DTG, "735", "310.29"],
      [BOREALIS, TLD, "150", "83.38"],
      [BOREALIS, DTG_API, "0", "1000.7"],
    ]);
    expect(labels(tableIn(view, "company-country-sales"))).toEqual(["Company Name", "Country", "Sales total", "Sales value (USD)"]);
    expect(tableIn(view, "company-country-sales").rows).toEqual([
      // India: 303 + 60 + 30 + 150 = 543; 100.1 + 50.05 + 9.99 + 0 = 160.14.
      [BOREALIS, "India", "543", "160.14"],
      // Kenya: 252 + 0 = 252; 200.2 + 1000.7 = 1200.9.
      [BOREALIS, "Kenya", "252", "1200.9"],
      [BOREALIS, NOT_GIVEN, "90", "33.33"],
    ]);
    const overTime = tableIn(view, "company-time-sales");
    expect(labels(overTime)).toEqual(["Company Name", "Q1 2025", "Q2 2025", "Q3 2025", "Sales total"]);
    // Q1 705, Q2 60 (+ API 0), Q3 90: 855 over time; all time with b6 (no period) 30: 885.
    expect(overTime.rows).toEqual([[BOREALIS, "705", "60", "90", "885"]]);
    expect(await rowsOf("?tab=sales-company&period=year", "company-time-sales")).toEqual([[BOREALIS, "855", "885"]]);
    expect(await rowsOf("?tab=sales-company&period=month", "company-time-sales")).toEqual([[BOREALIS, "453", "252", "60", "90", "885"]]);
  });

  it("Sales by Country: country x product, country x company and country over time ('Not given' last)", async () => {
    await insertSalesFixture();
    const view = (await page("?tab=sales-country")).view;
    expect(tableIn(view, "country-product-sales").rows).toEqual([
      ["India", DTG, "483", "110.09"],
      ["India", TLD, "60", "50.05"],
      ["Kenya", DTG, "252", "200.2"],
      ["Kenya", DTG_API, "0", "1000.7"],
      [NOT_GIVEN, TLD, "90", "33.33"],
    ]);
    expect(tableIn(view, "country-company-sales").rows).toEqual([
      ["India", BOREALIS, "543", "160.14"],
      ["Kenya", BOREALIS, "252", "1200.9"],
      [NOT_GIVEN, BOREALIS, "90", "33.33"],
    ]);
    expect(tableIn(view, "country-time-sales").rows).toEqual([
      // India: Q1 b1 303 + b7 150 = 453, Q2 b3 60; all time with b6 (no period) 30: 543.
      ["India", "453", "60", null, "543"],
      ["Kenya", "252", "0", null, "252"],
      [NOT_GIVEN, null, null, "90", "90"],
    ]);
    expect(await rowsOf("?tab=sales-country&period=year", "country-time-sales")).toEqual([
      ["India", "513", "543"],
      ["Kenya", "252", "252"],
      [NOT_GIVEN, "90", "90"],
    ]);
    expect(await rowsOf("?tab=sales-country&period=month", "country-time-sales")).toEqual([
      ["India", "453", null, "60", null, "543"],
      ["Kenya", null, "252", "0", null, "252"],
      [NOT_GIVEN, null, null, null, "90", "90"],
    ]);
  });

  it("Sales over Time: by quarter (default), year and month, newest first; the chart oldest first", async () => {
    await insertSalesFixture();
    const data = await page("?tab=sales-time");
    if (data.view.tab !== "sales-time") throw new Error("not the sales-time tab");
    const table = tableIn(data.view, "sales-over-time");
    expect(labels(table)).toEqual(["Period", "Sales total", "Sales value (USD)"]);
    expect(table.rows).toEqual([
      ["Q3 2025", "90", "33.33"],
      // 50.05 + 1000.7 = 1050.75.
      ["Q2 2025", "60", "1050.75"],
      // 303 + 252 + 150 = 705; 100.1 + 200.2 + 0 = 300.3 (not 300.29999999999995).
      ["Q1 2025", "705", "300.3"],
    ]);
    expect(data.view.chart.map((point) => [point.label, point.units, point.value])).toEqual([
      ["Q1 2025", "705", "300.3"],
      ["Q2 2025", "60", "1050.75"],
      ["Q3 2025", "90", "33.33"],
    ]);
    // 705 + 60 + 90 = 855; 300.3 + 1050.75 + 33.33 = 1384.38.
    expect(await rowsOf("?tab=sales-time&period=year", "sales-over-time")).toEqual([["2025", "855", "1384.38"]]);
    expect(await rowsOf("?tab=sales-time&period=month", "sales-over-time")).toEqual([
      ["2025-07", "90", "33.33"],
      ["2025-04", "60", "1050.75"],
      ["2025-02", "252", "200.2"],
      ["2025-01", "453", "100.1"],
    ]);
    // An unknown period is the default one.
    expect((await page("?tab=sales-time&period=decade")).query.period).toBe("quarter");
  });

  it("Price: per pack and per 30-day treatment by period, of every FDF product or of one", async () => {
    await insertSalesFixture();
    const data = await page("?tab=price");
    if (data.view.tab !== "price") throw new Error("not the price tab");
    const table = tableIn(data.view, "price-over-time");
    expect(labels(table)).toEqual(["Period", "Price per pack (USD)", "Price per treatment (USD)"]);
    expect(table.rows).toEqual([
      // b5: 33.33 / 1 pack = 33.33; 33.33 / (1 x 90) x 30 = 11.11.
      ["Q3 2025", "33.33", "11.11"],
      // b3: 50.05 / 2 = 25.025 -> 25.03 (half up, exact); 50.05 / 60 x 30 = 25.025 -> 25.03. The API row b4 has no price.
      ["Q2 2025", "25.03", "25.03"],
      // b1 + b2 (b7 has no gross value): (100.1 + 200.2) / (10.1 + 4.2) = 300.3 / 14.3 = 21;
      // 300.3 / (303 + 252) x 30 = 9009 / 555 = 16.2324... -> 16.23.
      ["Q1 2025", "21", "16.23"],
    ]);
    expect(data.view.products).toEqual([
      { id: ids.dtg, name: DTG },
      { id: ids.tld, name: TLD },
    ]);
    expect(data.view.chart.map((point) => point.label)).toEqual(["Q1 2025", "Q2 2025", "Q3 2025"]);

    // Year 2025: (300.3 + 50.05 + 33.33) / (14.3 + 2 + 1) = 383.68 / 17.3 = 22.178... -> 22.18;
    // 383.68 / (555 + 60 + 90) x 30 = 11510.4 / 705 = 16.326... -> 16.33.
    expect(await rowsOf("?tab=price&period=year", "price-over-time")).toEqual([["2025", "22.18", "16.33"]]);
    expect(await rowsOf("?tab=price&period=month", "price-over-time")).toEqual([
      ["2025-07", "33.33", "11.11"],
      ["2025-04", "25.03", "25.03"],
      // b2: 200.2 / 4.2 = 47.666... -> 47.67; 200.2 / 252 x 30 = 23.833... -> 23.83.
      ["2025-02", "47.67", "23.83"],
      // b1: 100.1 / 10.1 = 9.9108... -> 9.91; 100.1 / 303 x 30 = 9.9108... -> 9.91.
      ["2025-01", "9.91", "9.91"],
    ]);
    expect(await rowsOf(`?tab=price&product=${ids.dtg}`, "price-over-time")).toEqual([["Q1 2025", "21", "16.23"]]);
    expect(await rowsOf(`?tab=price&product=${ids.tld}`, "price-over-time")).toEqual([
      ["Q3 2025", "33.33", "11.11"],
      ["Q2 2025", "25.03", "25.03"],
    ]);
    // An API product has no price.
    expect(await rowsOf(`?tab=price&product=${ids.dtgApi}`, "price-over-time")).toEqual([]);
    expect((await page(`?tab=price&product=${ids.tld}`)).query.product).toBe(ids.tld);
  });

  it("Price: an exact half cent rounds up, and a row without a pack size (stored as 0) has no price", async () => {
    const borealis = (await reportOf(ids.borealis, ids.open, "sales")).id;
    await db.insert(salesRows).values([
      // 493 / 40 = 12.325 -> 12.33; 493 x 30 / (40 x 30) = 12.325 -> 12.33.
      fdfRow(borealis, ids.dtg, ids.india, [2025, 1], "30", "40", "493"),
      // No pack size: it sells no units and has no price (else 25 would join 493 over the same 1,200 units).
      fdfRow(borealis, ids.tld, ids.india, [2025, 1], "0", "10", "25"),
    ]);
    expect(await rowsOf("?tab=price", "price-over-time")).toEqual([["Q1 2025", "12.33", "12.33"]]);
    expect(await rowsOf(`?tab=price&product=${ids.tld}`, "price-over-time")).toEqual([]);
  });
});

// ---------------------------------------------------------------- 2. approved only

describe("only approved reports count, unless unapproved=1", () => {
  it("the Saved (Acme) and Submitted (Cedar) reports' rows join every sales and price figure with unapproved=1", async () => {
    await insertSalesFixture();
    const approved = await rowsOf("?tab=sales-product", "product-company-sales");
    const all = await page("?tab=sales-product&unapproved=1");
    expect(all.query.unapproved).toBe(true);
    expect(tableIn(all.view, "product-company-sales").rows).toEqual([
      [DTG, BOREALIS, "735", "310.29"],
      // a1: 30 x 0.3 = 9; 0.7.
      [DTG, ACME, "9", "0.7"],
      // Equal totals: by company name.
      [DTG_API, ACME, "0", "0.2"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [TLD, BOREALIS, "150", "83.38"],
      // c1: 30 x 3 = 90; 60.
      [TLD, CEDAR, "90", "60"],
    ]);
    expect(approved).not.toEqual(tableIn(all.view, "product-company-sales").rows);
    expect(tableIn(all.view, "product-country-sales").rows).toEqual([
      // India: 483 + 9 = 492; 110.09 + 0.7 = 110.79.
      [DTG, "India", "492", "110.79"],
      [DTG, "Kenya", "252", "200.2"],
      [DTG_API, "India", "0", "0.2"],
      [DTG_API, "Kenya", "0", "1000.7"],
      // Kenya (c1) 90 and no country (b5) 90: by name, 'Not given' last.
      [TLD, "Kenya", "90", "60"],
      [TLD, NOT_GIVEN, "90", "33.33"],
      [TLD, "India", "60", "50.05"],
    ]);
    const overTime = tableIn(all.view, "product-time-sales");
    expect(labels(overTime)).toEqual(["Product", "Q1 2025", "Q2 2025", "Q3 2025", "Q1 2026", "Sales total"]);
    expect(overTime.rows).toEqual([
      // 705 + a1 9 = 714 over time; all time with b6 30: 744.
      [DTG, "714", null, null, null, "744"],
      [DTG_API, null, "0", null, "0", "0"],
      // Q3: b5 90 + c1 90 = 180.
      [TLD, null, "60", "180", null, "240"],
    ]);

    expect(await rowsOf("?tab=sales-time&unapproved=1", "sales-over-time")).toEqual([
      ["Q1 2026", "0", "0.2"],
      // 33.33 + 60 = 93.33.
      ["Q3 2025", "180", "93.33"],
      ["Q2 2025", "60", "1050.75"],
      // 705 + 9 = 714; 300.3 + 0.7 = 301.
      ["Q1 2025", "714", "301"],
    ]);
    expect(await rowsOf("?tab=price&unapproved=1", "price-over-time")).toEqual([
      // Q1 2026 has only an API row: no price.
      // (33.33 + 60) / (1 + 3) = 23.3325 -> 23.33; 93.33 / (90 + 90) x 30 = 15.555 -> 15.56.
      ["Q3 2025", "23.33", "15.56"],
      ["Q2 2025", "25.03", "25.03"],
      // (300.3 + 0.7) / (14.3 + 0.3) = 301 / 14.6 = 20.616... -> 20.62; 301 / (555 + 9) x 30 = 9030 / 564 = 16.0106... -> 16.01.
      ["Q1 2025", "20.62", "16.01"],
    ]);
    expect(await rowsOf("?tab=sales-company&unapproved=1", "company-country-sales")).toEqual([
      [ACME, "India", "9", "0.9"],
      [BOREALIS, "India", "543", "160.14"],
      [BOREALIS, "Kenya", "252", "1200.9"],
      [BOREALIS, NOT_GIVEN, "90", "33.33"],
      [CEDAR, "Kenya", "90", "60"],
    ]);

    // Downloads follow the link's unapproved=1.
    expect((await csvOf("product-company-sales")).records).toEqual(approved.map(asCsv));
    expect((await csvOf("product-company-sales", "?unapproved=1")).records).toEqual(tableIn(all.view, "product-company-sales").rows.map(asCsv));
  });

  it("the filings: Acme's Rejected open-quarter report and Borealis' Submitted earlier one count with unapproved=1", async () => {
    await insertFilingFixture();
    const all = await page("?tab=filings&unapproved=1");
    if (all.view.tab !== "filings") throw new Error("not the filings tab");
    // DTG: India, Kenya, Brazil (Acme); API: India (Acme); TLD: India.
    expect(tableIn(all.view, "product-country-count").rows).toEqual([
      [DTG, 3],
      [DTG_API, 1],
      [TLD, 1],
    ]);
    expect(tableIn(all.view, "country-product-count").rows).toEqual([
      ["Brazil", DTG, 1],
      ["India", DTG, 2],
      ["India", DTG_API, 1],
      ["India", TLD, 1],
      ["Kenya", DTG, 1],
    ]);
    expect(all.view.map).toEqual([
      { isoCode: "IN", name: "India", value: 3 },
      { isoCode: "BR", name: "Brazil", value: 1 },
      { isoCode: "KE", name: "Kenya", value: 1 },
    ]);
    // Acme's F4 for TLD in Kenya joins.
    expect(await rowsOf("?tab=filings&unapproved=1&filing=Future-Quarters", "product-country-count")).toEqual([[TLD, 1, 1, 1, 1]]);
    expect(await rowsOf("?tab=filings&unapproved=1&countryFiling=Future%20Quarter%20Status", "country-product-count")).toEqual([
      ["Brazil", TLD, F3, 1],
      ["India", TLD, F2, 1],
      ["Kenya", TLD, F1, 2],
      ["Kenya", TLD, F4, 1],
    ]);
    // The earlier quarter: Borealis' Submitted DTG filing in Kenya joins Acme's approved TLD filings.
    expect(await rowsOf(`?tab=filings&unapproved=1&quarter=${encodeURIComponent(PREVIOUS)}`, "product-country-count")).toEqual([
      [DTG, 1],
      [TLD, 2],
    ]);
  });
});

// ---------------------------------------------------------------- 3. aggregates follow every change

describe("the aggregates follow every change of the rows, the reports and the partners", () => {
  /** The fixture's Product Wise Company Sales, approved only and with unapproved=1. */
  const APPROVED_BASE = [
    [DTG, BOREALIS, "735", "310.29"],
    [DTG_API, BOREALIS, "0", "1000.7"],
    [TLD, BOREALIS, "150", "83.38"],
  ];
  const approvedFigures = () => rowsOf("?tab=sales-product", "product-company-sales");
  const allFigures = () => rowsOf("?tab=sales-product&unapproved=1", "product-company-sales");

  it("a save, a verified product, an approval, an admin's correction, a reopening, a rejection, a deactivation and deleted rows, each seen at once", async () => {
    const { acme: acmeReport } = await insertSalesFixture();
    await insertFilingFixture();
    const [partner3, admin] = await Promise.all([actorFor("partner3@example.org"), actorFor(ADMIN)]);
    const paedRow = (overrides: SalesRowInput = {}): SalesRowInput => {
      const row: SalesRowInput = {
        year: "2025",
        month: "January",
        country: "Kenya",
        purchaser: "Kenya Medical Supplies Authority",
        productName: PAED,
        strength: "60/30/5 mg",
        formulationType: "Tablet",
        packSize: "30",
        quantity: "10",
        currency: "USD",
        grossSalePriceCurrency: "2.5",
        royaltyPercent: "5",
        ...overrides,
      };
      // The partner types the royalty too (spec section 5): 5% of the packs' value, no expenses.
      return { royaltyDue: (Number(row.quantity) * Number(row.grossSalePriceCurrency) * 0.05).toFixed(2), ...row };
    };
    const save = (input: Partial<SaveSalesReportInput>) =>
      saveSalesReport({ actor: partner3, partnerId: ids.cedar, quarterId: ids.open, api: [], fdf: [], deletedIds: [], action: "save", ...input });

    // 1. Cedar saves its open quarter (a new report, Saved): Paediatric, 30 x 10 = 300 units at 2.5 USD a
    //    pack, 25 USD; and a product the list does not know, which waits for verification and counts nowhere.
    const first = await save({
      expectedVersion: 0,
      fdf: [paedRow(), paedRow({ month: "February", productName: "Dolutegravir 50mg tablets (generic)", quantity: "2", grossSalePriceCurrency: "5" })],
    });
    if (!first.ok) throw new Error(JSON.stringify(first.problems));
    expect(first.status).toBe("Saved");
    const [paed, unverified] = await db.select().from(salesRows).where(eq(salesRows.reportId, first.reportId)).orderBy(asc(salesRows.id));
    expect([paed.productId, unverified.productId]).toEqual([ids.paed, null]);
    const U0 = [
      [DTG, BOREALIS, "735", "310.29"],
      [DTG, ACME, "9", "0.7"],
      [DTG_API, ACME, "0", "0.2"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [TLD, BOREALIS, "150", "83.38"],
      [TLD, CEDAR, "90", "60"],
    ];
    expect(await approvedFigures()).toEqual(APPROVED_BASE);
    expect(await allFigures()).toEqual([...U0.slice(0, 4), [PAED, CEDAR, "300", "25"], ...U0.slice(4)]);

    // 2. The administrator maps the unknown name to Dolutegravir 50 mg: its row (30 x 2 = 60 units, 5 x 2 = 10 USD) counts.
    const [verification] = await db
      .select()
      .from(productVerifications)
      .where(and(eq(productVerifications.reportId, first.reportId), eq(productVerifications.status, "pending")));
    const decided = await decideProductVerification({
      actor: admin,
      verificationId: verification.id,
      decision: "approve",
      mapToProductId: ids.dtg,
      projectStatus: "PLANNED",
    });
    expect(decided).toMatchObject({ ok: true, rowsMapped: 1 });
    const withVerified = (paedFigures: string[]) => [
      [DTG, BOREALIS, "735", "310.29"],
      [DTG, CEDAR, "60", "10"],
      [DTG, ACME, "9", "0.7"],
      [DTG_API, ACME, "0", "0.2"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [PAED, CEDAR, ...paedFigures],
      [TLD, BOREALIS, "150", "83.38"],
      [TLD, CEDAR, "90", "60"],
    ];
    expect(await allFigures()).toEqual(withVerified(["300", "25"]));

    // 3. A second save changes the quantity to 12: 30 x 12 = 360 units, 2.5 x 12 = 30 USD.
    const second = await save({ expectedVersion: first.version, fdf: [paedRow({ id: paed.id, quantity: "12" })] });
    if (!second.ok) throw new Error(JSON.stringify(second.problems));
    expect(second.counts).toMatchObject({ updated: 1, added: 0, deleted: 0 });
    expect(await allFigures()).toEqual(withVerified(["360", "30"]));
    expect(await approvedFigures()).toEqual(APPROVED_BASE);

    // 4. Submitted: still not approved.
    const submitted = await save({ expectedVersion: second.version, action: "submit", comment: "Our sales." });
    if (!submitted.ok) throw new Error("submit failed");
    expect(submitted.status).toBe("Submitted");
    expect(await approvedFigures()).toEqual(APPROVED_BASE);

    // 5. Approved: Cedar's rows join the approved figures.
    const approved = await decideReport({ type: "sales", actor: admin, partnerId: ids.cedar, quarterId: ids.open, action: "approve", comment: "Thank you." });
    expect(approved.status).toBe("Approved");
    expect(await approvedFigures()).toEqual([
      [DTG, BOREALIS, "735", "310.29"],
      [DTG, CEDAR, "60", "10"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [PAED, CEDAR, "360", "30"],
      [TLD, BOREALIS, "150", "83.38"],
    ]);
    // Q1 2025: 705 + 360 + 60 = 1125 units; 300.3 + 30 + 10 = 340.3 USD.
    expect(await rowsOf("?tab=sales-time", "sales-over-time")).toEqual([
      ["Q3 2025", "90", "33.33"],
      ["Q2 2025", "60", "1050.75"],
      ["Q1 2025", "1125", "340.3"],
    ]);

    // 6. The administrator corrects the approved report (it stays Approved): 30 x 12.5 = 375 units, 31.25 USD.
    const corrected = await saveSalesReport({
      actor: admin,
      partnerId: ids.cedar,
      quarterId: ids.open,
      expectedVersion: approved.version,
      api: [],
      fdf: [paedRow({ id: paed.id, quantity: "12.5" })],
      deletedIds: [],
      action: "save",
    });
    if (!corrected.ok) throw new Error("admin save failed");
    expect(corrected.status).toBe("Approved");
    expect((await approvedFigures()).find((row) => row[0] === PAED)).toEqual([PAED, CEDAR, "375", "31.25"]);

    // 7. Reopened (Saved): Cedar's rows leave the approved figures, stay in the others.
    const reopened = await decideReport({
      type: "sales",
      actor: admin,
      partnerId: ids.cedar,
      quarterId: ids.open,
      action: "reopen",
      comment: "One more change.",
    });
    expect(reopened.status).toBe("Saved");
    expect(await approvedFigures()).toEqual(APPROVED_BASE);
    const afterReopen = withVerified(["375", "31.25"]);
    expect(await allFigures()).toEqual(afterReopen);

    // 8. Resubmitted, then rejected: never approved again.
    const resubmitted = await save({ expectedVersion: reopened.version, action: "submit", comment: "Changed." });
    if (!resubmitted.ok) throw new Error("resubmit failed");
    expect(resubmitted.status).toBe("Resubmitted");
    const rejected = await decideReport({
      type: "sales",
      actor: admin,
      partnerId: ids.cedar,
      quarterId: ids.open,
      action: "reject",
      comment: "Check the quantities.",
    });
    expect(rejected.status).toBe("Rejected");
    expect(await approvedFigures()).toEqual(APPROVED_BASE);
    expect(await allFigures()).toEqual(afterReopen);

    // 9. Cedar deactivated: its rows leave every figure, approved or not (c1 of the earlier quarter too).
    await deactivatePartner(ids.cedar, { actorId: admin.id });
    expect(await allFigures()).toEqual(U0.slice(0, 5));
    expect(await approvedFigures()).toEqual(APPROVED_BASE);
    // Borealis too: no approved sales left; the filings of both leave (Acme's Rejected report stays in unapproved).
    await deactivatePartner(ids.borealis, { actorId: admin.id });
    expect(await approvedFigures()).toEqual([]);
    expect(await allFigures()).toEqual([
      [DTG, ACME, "9", "0.7"],
      [DTG_API, ACME, "0", "0.2"],
    ]);
    expect(await rowsOf("?tab=filings", "product-country-count")).toEqual([]);
    expect(await rowsOf("?tab=filings&unapproved=1", "product-country-count")).toEqual([
      [DTG, 1],
      [DTG_API, 1],
    ]);
    // The projects of an inactive partner are not counted either.
    expect((await rowsOf("", "company-status-count")).map((row) => row[0])).toEqual([ACME]);

    // Both back: every figure as before.
    await reactivatePartner(ids.cedar, { actorId: admin.id });
    await reactivatePartner(ids.borealis, { actorId: admin.id });
    expect(await approvedFigures()).toEqual(APPROVED_BASE);
    expect(await allFigures()).toEqual(afterReopen);
    expect(await rowsOf("?tab=filings", "product-country-count")).toEqual([
      [DTG, 2],
      [TLD, 1],
    ]);

    // 10. Deleted rows leave: Cedar deletes its Paediatric row in the grid (the Rejected report is saved again).
    const [current] = await db.select().from(reports).where(eq(reports.id, first.reportId));
    const deleted = await save({ expectedVersion: current.version, deletedIds: [paed.id] });
    if (!deleted.ok) throw new Error("delete failed");
    expect(deleted.counts.deleted).toBe(1);
    expect(await allFigures()).toEqual(afterReopen.filter((row) => row[0] !== PAED));
    // And a plain delete of Acme's rows.
    await db.delete(salesRows).where(eq(salesRows.reportId, acmeReport));
    expect(await allFigures()).toEqual([
      [DTG, BOREALIS, "735", "310.29"],
      [DTG, CEDAR, "60", "10"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [TLD, BOREALIS, "150", "83.38"],
      [TLD, CEDAR, "90", "60"],
    ]);

    // 11. After all of it, every grain equals a GROUP BY over the rows.
    await expectAggregatesMatchRows();
  });

  it("direct changes of a report's status, a partner's activation and the rows keep every grain equal to a GROUP BY", async () => {
    const { acme } = await insertSalesFixture();
    await insertFilingFixture();
    await db.update(reports).set({ status: "Approved" }).where(eq(reports.id, acme));
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, ids.borealis));
    await db.update(salesRows).set({ quantity: "0.1" }).where(eq(salesRows.reportId, acme));
    await db.update(partners).set({ isActive: true }).where(eq(partners.id, ids.borealis));
    await expectAggregatesMatchRows();
    // a1 is now Approved: 30 x 0.1 = 3 units; a2 (API) keeps 0.
    expect(await approvedFigures()).toEqual([
      [DTG, BOREALIS, "735", "310.29"],
      [DTG, ACME, "3", "0.7"],
      [DTG_API, ACME, "0", "0.2"],
      [DTG_API, BOREALIS, "0", "1000.7"],
      [TLD, BOREALIS, "150", "83.38"],
    ]);
  });
});

// ---------------------------------------------------------------- 4. paging and downloads

describe("paging by 50 and downloads of every row", () => {
  /** 60 countries, each with one approved FDF sale of Dolutegravir 50 mg: pack 1 x (i + 1), gross (i + 1).05 USD. */
  async function sixtyCountries() {
    const sixty = await db
      .select({ id: countries.id, name: countries.name })
      .from(countries)
      .orderBy(asc(sql`lower(${countries.name})`), asc(countries.id))
      .limit(60);
    expect(sixty).toHaveLength(60);
    const reportId = (await reportOf(ids.borealis, ids.open, "sales")).id;
    await db.insert(salesRows).values(sixty.map((country, i) => fdfRow(reportId, ids.dtg, country.id, [2025, 1], "1", String(i + 1), `${i + 1}.05`)));
    return sixty;
  }

  it("a cross table: page 2 by table=&page=, a page past the end is the last page, the downloads hold all 60 rows", async () => {
    const sixty = await sixtyCountries();
    // Largest total first: the country sold 60 packs first.
    const expected = sixty.map((country, i) => [DTG, country.name, String(i + 1), `${i + 1}.05`]).reverse();

    const first = await page("?tab=sales-product");
    const firstPage = tableIn(first.view, "product-country-sales");
    expect(firstPage.page).toEqual({ total: 60, page: 1, pages: 2, pageSize: 50 });
    expect(firstPage.rows).toEqual(expected.slice(0, 50));

    const second = await page("?tab=sales-product&table=product-country-sales&page=2");
    expect(tableIn(second.view, "product-country-sales").page).toEqual({ total: 60, page: 2, pages: 2, pageSize: 50 });
    expect(tableIn(second.view, "product-country-sales").rows).toEqual(expected.slice(50));
    // The other tables of the tab stay on their first page.
    expect(tableIn(second.view, "product-company-sales").rows).toEqual([[DTG, BOREALIS, "1830", "1833"]]);

    const past = tableIn((await page("?tab=sales-product&table=product-country-sales&page=9")).view, "product-country-sales");
    expect(past.page.page).toBe(2);
    expect(past.rows).toEqual(expected.slice(50));

    const csv = await csvOf("product-country-sales", "?tab=sales-product&table=product-country-sales&page=2");
    expect(csv.header).toEqual(["Product", "Country", "Sales total", "Sales value (USD)"]);
    expect(csv.records).toEqual(expected);

    const xlsx = await xlsxOf("product-country-sales");
    expect(xlsx.sheet.name).toBe("Product Wise Country Sales");
    expect(xlsx.header).toEqual(["Product", "Country", "Sales total", "Sales value (USD)"]);
    // Figures as numbers in the workbook.
    expect(xlsx.records).toEqual(expected.map(([product, country, units, value]) => [product, country, Number(units), Number(value)]));
    expect(xlsx.records[0]).toEqual([DTG, sixty[59].name, 60, 60.05]);
  });

  it("an over-time table and a filings table page the same way", async () => {
    const sixty = await sixtyCountries();
    const overTime = sixty.map((country, i) => [country.name, String(i + 1), String(i + 1)]);
    const second = tableIn((await page("?tab=sales-country&table=country-time-sales&page=2")).view, "country-time-sales");
    expect(second.page).toEqual({ total: 60, page: 2, pages: 2, pageSize: 50 });
    expect(second.rows).toEqual(overTime.slice(50));
    expect(tableIn((await page("?tab=sales-country&table=country-time-sales&page=3")).view, "country-time-sales").rows).toEqual(overTime.slice(50));
    const csv = await csvOf("country-time-sales");
    expect(csv.header).toEqual(["Country", "Q1 2025", "Sales total"]);
    expect(csv.records).toEqual(overTime);
    const xlsx = await xlsxOf("country-time-sales", "?period=month");
    expect(xlsx.header).toEqual(["Country", "2025-01", "Sales total"]);
    expect(xlsx.records).toEqual(overTime.map(([name, a, b]) => [name, Number(a), Number(b)]));

    // Filings: 60 countries where Borealis filed Dolutegravir 50 mg (approved).
    const filing = await newReport(ids.borealis, ids.open, "filing", "Approved");
    await db.insert(filingValues).values(sixty.map((country) => ({ reportId: filing.id, productId: ids.dtg, countryId: country.id, status: "Filed" })));
    const byCountry = sixty.map((country) => [country.name, DTG, 1]);
    const filingsPage = await page("?tab=filings&table=country-product-count&page=2");
    const table = tableIn(filingsPage.view, "country-product-count");
    expect(table.page).toEqual({ total: 60, page: 2, pages: 2, pageSize: 50 });
    expect(table.rows).toEqual(byCountry.slice(50));
    expect(tableIn(filingsPage.view, "product-country-count").rows).toEqual([[DTG, 60]]);
    expect(tableIn((await page("?tab=filings&table=country-product-count&page=40")).view, "country-product-count").rows).toEqual(byCountry.slice(50));
    expect((await csvOf("country-product-count")).records).toEqual(byCountry.map(asCsv));
    expect((await xlsxOf("country-product-count")).records).toEqual(byCountry);
  });

  it("the summary pages its partners too", async () => {
    // 55 new active partners without reports: with Borealis and Cedar, 57 yet to submit.
    await db.insert(partners).values(
      Array.from({ length: 55 }, (_, i) => ({
        companyName: `Partner ${String(i + 1).padStart(2, "0")}`,
        email: `p${i + 1}@example.org`,
        contactNumber: "+911234567890",
        region: "Asia",
      })),
    );
    const names = [BOREALIS, CEDAR, ...Array.from({ length: 55 }, (_, i) => `Partner ${String(i + 1).padStart(2, "0")}`)];
    const second = await page("?tab=summary&view=not-submitted&table=summary&page=2");
    if (second.view.tab !== "summary") throw new Error("not the summary tab");
    expect(second.view.summary.page).toEqual({ total: 57, page: 2, pages: 2, pageSize: 50 });
    expect(second.view.summary.rows.map((row) => row.companyName)).toEqual(names.slice(50));
    expect(second.view.summary.partnerIds).toHaveLength(57);
    const past = await page("?tab=summary&view=not-submitted&table=summary&page=5");
    if (past.view.tab !== "summary") throw new Error("not the summary tab");
    expect(past.view.summary.page.page).toBe(2);
    expect(past.view.summary.rows.map((row) => row.companyName)).toEqual(names.slice(50));
    const csv = await csvOf("summary", "?view=not-submitted");
    expect(csv.records.map((record) => record[0])).toEqual(names);
  });
});

// ---------------------------------------------------------------- 5. who may read

describe("who may read the dashboard", () => {
  it("ADMIN and STAFF read the page and both downloads; STAFF may not remind; a partner is refused; no session goes to sign-in; an unknown table is not found", async () => {
    await insertSalesFixture();
    for (const email of [ADMIN, STAFF]) {
      const cookie = await sessionCookieFor(email);
      const data = await page("?tab=summary&view=not-submitted", cookie);
      expect(data.canRemind, email).toBe(email === ADMIN);
      expect((await page("?tab=sales-product", cookie)).view.tab).toBe("sales-product");
      const csv = await download("csv", "product-company-sales", "", cookie);
      expect(csv.status, email).toBe(200);
      expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      const xlsx = await download("xlsx", "product-company-sales", "", cookie);
      expect(xlsx.status, email).toBe(200);
      expect(xlsx.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    }

    const partnerCookie = await sessionCookieFor("partner1@example.org");
    const routes = [
      [pageLoader, `${PAGE}?tab=sales-product`],
      [csvLoader, `${PAGE}/product-company-sales/csv`],
      [xlsxLoader, `${PAGE}/product-company-sales/xlsx`],
    ] as const;
    for (const [loader, path] of routes) {
      const params = { table: "product-company-sales" };
      expect((await runRoute(loader, buildRequest(path, { cookie: partnerCookie }), { params })).status, path).toBe(403);
      const anonymous = await runRoute(loader, buildRequest(path), { params });
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.location, path).toBe("/login");
    }

    // A download has no page of its own: an unknown table goes to the not-found page.
    for (const loader of [csvLoader, xlsxLoader]) {
      const result = await runRoute(loader, buildRequest(`${PAGE}/no-such-table/csv`, { cookie: adminCookie }), { params: { table: "no-such-table" } });
      expect(result.status).toBe(302);
      expect(result.location).toBe("/error-404");
    }
    // Partners may not download either, even an unknown table (refused before the table is looked up).
    expect(
      (await runRoute(csvLoader, buildRequest(`${PAGE}/no-such-table/csv`, { cookie: partnerCookie }), { params: { table: "no-such-table" } })).status,
    ).toBe(403);
  });
});
