/**
 * The dashboard's Royalties tab and the royalty statement in the JSON API (issue "Checks that catch
 * what a reviewer would miss", Licence terms), on a fixture of two partners over two quarters whose
 * figures are worked out by hand below. Every test starts from the demo seed with its sales rows
 * and licence terms deleted.
 */
import { parse } from "csv-parse/sync";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, licenceCountryTerms, licenceTerms, partners, products, reports, salesRows } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import type { DashboardTable } from "~/reports/dashboard/tables";
import { loader as pageLoader } from "~/routes/_shell.admin.dashboard";
import { loader as csvLoader } from "~/routes/admin.dashboard.$table.csv";
import { loader as xlsxLoader } from "~/routes/admin.dashboard.$table.xlsx";
import { addQuarters, quarterName } from "~/utils/quarters";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor, testContext } from "../support/remix";

const PAGE = "/admin/dashboard";
const ACME = "Acme Generics Ltd";
const BOREALIS = "Borealis Pharma Pvt";
const DTG = "Dolutegravir 50 mg";
const TLD = "TLD (Tenofovir/Lamivudine/Dolutegravir)";
const OPEN = quarterName(openQuarterRef());
const PREVIOUS = quarterName(addQuarters(openQuarterRef(), -1));
const HEADER = [
  "Partner",
  "Quarter",
  "Net value (USD)",
  "Royalty reported",
  "Royalty expected",
  "Difference (reported − expected)",
  "Rows without a licence rate",
];

type NewSalesRow = typeof salesRows.$inferInsert;
type ReportStatus = (typeof reports.$inferSelect)["status"];

let ids: { acme: number; borealis: number; open: number; previous: number; dtg: number; tld: number; kenya: number; india: number; brazil: number };

const idOf = async (table: typeof products | typeof countries, name: string) => (await db.select().from(table).where(eq(table.name, name)))[0].id;
const partnerOf = async (email: string) => (await db.select().from(partners).where(eq(partners.email, email)))[0].id;

/** The partner's Sales Report of the quarter (the seed's, or a new one) in the status given. */
async function salesReport(partnerId: number, quarterId: number, status: ReportStatus) {
  const where = and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, "sales"));
  const [found] = await db.select().from(reports).where(where);
  if (!found) return (await db.insert(reports).values({ partnerId, quarterId, type: "sales", status }).returning())[0].id;
  await db.update(reports).set({ status }).where(eq(reports.id, found.id));
  return found.id;
}

/** An FDF row: its product, country, net value and reported Royalty Due. */
const fdf = (reportId: number, productId: number, countryId: number, totalValue: string, royaltyDue: string): NewSalesRow => ({
  reportId,
  kind: "FDF",
  year: 2026,
  month: 1,
  countryId,
  purchaser: "Central Medical Stores",
  productId,
  quantity: "100",
  currencyCode: "USD",
  totalValue,
  royaltyDue,
});

/*
 * Licences: Acme sells Dolutegravir at 5%, 3% in Kenya, India outside the territory, and has no terms
 * for TLD; Borealis sells Dolutegravir at 4%, royalty-free (0%) in Brazil.
 *
 * Open quarter:
 *   Acme (Saved: counts only with unapproved reports)
 *     Dolutegravir Kenya   net 1000    reported 30  3%: expected 30                        difference 0
 *     Dolutegravir Brazil  net 1000.5  reported 40  5%: expected 50.025 -> 50.03           difference -10.03
 *     Dolutegravir India   net 200     reported 10  outside the territory: no rate
 *     TLD Kenya            net 300     reported 6   no licence terms: no rate
 *     line: net 2500.5, reported 86, expected 80.03, difference -10.03, 2 rows without a rate
 *   Borealis (Approved)
 *     Dolutegravir Kenya   net 2000    reported 80  4%: expected 80                        difference 0
 *     Dolutegravir Brazil  net 500     reported 20  0%: expected 0                         difference 20
 *     line: net 2500, reported 100, expected 80, difference 20
 * Previous quarter (both Approved):
 *   Acme      Dolutegravir Kenya net 1000 reported 45, 3%: expected 30, difference 15
 *   Borealis  Dolutegravir Kenya net 1000 reported 25, 4%: expected 40, difference -15; an API sale of 900 counts nowhere
 */
beforeEach(async () => {
  await db.delete(salesRows);
  await db.delete(licenceTerms);
  const [acme, borealis] = await Promise.all(["partner1", "partner2"].map((name) => partnerOf(`${name}@example.org`)));
  const [dtg, tld] = await Promise.all([DTG, TLD].map((name) => idOf(products, name)));
  const [kenya, india, brazil] = await Promise.all(["Kenya", "India", "Brazil"].map((name) => idOf(countries, name)));
  const [open, previous] = await Promise.all([ensureQuarter(openQuarterRef()), ensureQuarter(addQuarters(openQuarterRef(), -1))]);
  ids = { acme, borealis, open: open.id, previous: previous.id, dtg, tld, kenya, india, brazil };

  const [acmeTerms, borealisTerms] = await db
    .insert(licenceTerms)
    .values([
      { partnerId: acme, productId: dtg, royaltyRate: "5" },
      { partnerId: borealis, productId: dtg, royaltyRate: "4" },
    ])
    .returning();
  await db.insert(licenceCountryTerms).values([
    { licenceTermId: acmeTerms.id, countryId: kenya, royaltyRate: "3" },
    { licenceTermId: acmeTerms.id, countryId: india, royaltyRate: null, isLicensed: false },
    { licenceTermId: borealisTerms.id, countryId: brazil, royaltyRate: "0" },
  ]);

  const acmeOpen = await salesReport(acme, open.id, "Saved");
  const borealisOpen = await salesReport(borealis, open.id, "Approved");
  const acmePrevious = await salesReport(acme, previous.id, "Approved");
  const borealisPrevious = await salesReport(borealis, previous.id, "Approved");
  await db.insert(salesRows).values([
    fdf(acmeOpen, dtg, kenya, "1000", "30"),
    fdf(acmeOpen, dtg, brazil, "1000.5", "40"),
    fdf(acmeOpen, dtg, india, "200", "10"),
    fdf(acmeOpen, tld, kenya, "300", "6"),
    fdf(borealisOpen, dtg, kenya, "2000", "80"),
    fdf(borealisOpen, dtg, brazil, "500", "20"),
    fdf(acmePrevious, dtg, kenya, "1000", "45"),
    fdf(borealisPrevious, dtg, kenya, "1000", "25"),
    {
      reportId: borealisPrevious,
      kind: "API",
      year: 2026,
      month: 1,
      countryId: india,
      purchaser: "Formulator Ltd",
      productId: dtg,
      quantity: "2",
      totalValue: "900",
    },
  ]);
});

// ---------------------------------------------------------------- the tab

const ACME_OPEN = [ACME, OPEN, "2500.5", "86", "80.03", "-10.03", 2];
const BOREALIS_OPEN = [BOREALIS, OPEN, "2500", "100", "80", "20", 0];
const ACME_PREVIOUS = [ACME, PREVIOUS, "1000", "45", "30", "15", 0];
const BOREALIS_PREVIOUS = [BOREALIS, PREVIOUS, "1000", "25", "40", "-15", 0];

async function royaltiesView(search: string, email = "admin@example.org") {
  const result = await runRoute(pageLoader, buildRequest(`${PAGE}?tab=royalties${search}`, { cookie: await sessionCookieFor(email) }));
  expect(result.status, search).toBe(200);
  return result.data.view as { tab: string; quarterName: string; quarters: string[]; tables: DashboardTable[] };
}

/** A download as the browser gets it: the file, or (refused) the answer's status and message. */
const download = async (format: "csv" | "xlsx", search: string, email = "admin@example.org") =>
  runRoute(format === "csv" ? csvLoader : xlsxLoader, buildRequest(`${PAGE}/royalties/${format}${search}`, { cookie: await sessionCookieFor(email) }), {
    params: { table: "royalties" },
  });

async function file(format: "csv" | "xlsx", search: string, email = "admin@example.org") {
  const loader = format === "csv" ? csvLoader : xlsxLoader;
  const request = buildRequest(`${PAGE}/royalties/${format}${search}`, { cookie: await sessionCookieFor(email) });
  const response = (await loader({ request, params: { table: "royalties" }, context: testContext() })) as Response;
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="royalties.${format}"`);
  return Buffer.from(await response.arrayBuffer());
}

const csvRecords = async (search: string, email?: string) => parse(await file("csv", search, email), { bom: true }) as string[][];

async function xlsxRows(search: string, email?: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await file("xlsx", search, email)) as never);
  expect(workbook.worksheets[0].name).toBe("Royalties expected vs reported");
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe("the dashboard's Royalties tab", () => {
  it("the open quarter by default: approved reports only, one line per partner, each linking to its report's admin screen", async () => {
    const view = await royaltiesView("");
    expect(view.quarterName).toBe(OPEN);
    expect(view.quarters.slice(0, 2)).toEqual([OPEN, PREVIOUS]);
    const [table] = view.tables;
    expect(table.title).toBe("Royalties: expected vs reported");
    expect(table.columns.map((column) => column.label)).toEqual(HEADER);
    expect(table.rows).toEqual([BOREALIS_OPEN]);
    expect(table.links).toEqual([`/admin/sales-report/${ids.borealis}?quarter=${OPEN.replace(" ", "+")}`]);
  });

  it("with unapproved reports: the largest difference either way first, whatever the names (Borealis 20 before Acme -10.03)", async () => {
    const [table] = (await royaltiesView("&unapproved=1")).tables;
    expect(table.rows).toEqual([BOREALIS_OPEN, ACME_OPEN]);
    expect(table.page).toMatchObject({ total: 2, page: 1, pages: 1 });
  });

  it("another quarter from the list; equal differences (15 and -15) by partner name", async () => {
    const view = await royaltiesView(`&quarter=${encodeURIComponent(PREVIOUS)}`);
    expect(view.quarterName).toBe(PREVIOUS);
    expect(view.tables[0].rows).toEqual([ACME_PREVIOUS, BOREALIS_PREVIOUS]);
    expect(view.tables[0].links).toEqual([
      `/admin/sales-report/${ids.acme}?quarter=${PREVIOUS.replace(" ", "+")}`,
      `/admin/sales-report/${ids.borealis}?quarter=${PREVIOUS.replace(" ", "+")}`,
    ]);
  });

  it("a line without any licence rate has no expected royalty nor difference and comes last", async () => {
    // Borealis's terms gone: its open-quarter rows have no rate (2 rows), nothing expected.
    await db.delete(licenceTerms).where(eq(licenceTerms.partnerId, ids.borealis));
    const [table] = (await royaltiesView("&unapproved=1")).tables;
    expect(table.rows).toEqual([ACME_OPEN, [BOREALIS, OPEN, "2500", "100", null, null, 2]]);
  });

  it("the CSV holds the tab's lines under the same quarter and switch; the workbook its figures as numbers", async () => {
    expect(await csvRecords("?tab=royalties&unapproved=1")).toEqual([
      HEADER,
      [BOREALIS, OPEN, "2500", "100", "80", "20", "0"],
      [ACME, OPEN, "2500.5", "86", "80.03", "-10.03", "2"],
    ]);
    expect(await csvRecords("?tab=royalties")).toEqual([HEADER, [BOREALIS, OPEN, "2500", "100", "80", "20", "0"]]);
    expect(await csvRecords(`?tab=royalties&quarter=${encodeURIComponent(PREVIOUS)}`)).toEqual([
      HEADER,
      [ACME, PREVIOUS, "1000", "45", "30", "15", "0"],
      [BOREALIS, PREVIOUS, "1000", "25", "40", "-15", "0"],
    ]);
    expect(await xlsxRows(`?tab=royalties&quarter=${encodeURIComponent(PREVIOUS)}`)).toEqual([
      HEADER,
      [ACME, PREVIOUS, 1000, 45, 30, 15, 0],
      [BOREALIS, PREVIOUS, 1000, 25, 40, -15, 0],
    ]);
  });

  it("ADMIN and STAFF read the tab and its downloads; a partner is refused both, and an unknown quarter is not found", async () => {
    for (const email of ["admin@example.org", "staff@example.org"]) {
      expect((await royaltiesView("", email)).tables[0].rows, email).toEqual([BOREALIS_OPEN]);
      expect(await csvRecords("?tab=royalties", email)).toEqual([HEADER, [BOREALIS, OPEN, "2500", "100", "80", "20", "0"]]);
      expect((await xlsxRows("?tab=royalties", email)).slice(1), email).toEqual([[BOREALIS, OPEN, 2500, 100, 80, 20, 0]]);
    }
    const cookie = await sessionCookieFor("partner1@example.org");
    const refused = await runRoute(pageLoader, buildRequest(`${PAGE}?tab=royalties`, { cookie }));
    expect(refused).toMatchObject({ status: 403, data: { message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" } });
    for (const format of ["csv", "xlsx"] as const) {
      const answer = await download(format, "?tab=royalties", "partner1@example.org");
      expect(answer, format).toMatchObject({ status: 403, data: { message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" } });
    }
    const unknown = await runRoute(pageLoader, buildRequest(`${PAGE}?tab=royalties&quarter=Q1+1990`, { cookie: await sessionCookieFor("admin@example.org") }));
    expect(unknown.status).toBe(404);
  });
});

// ---------------------------------------------------------------- the API

describe("GET /template/sales/royalty_statement/", () => {
  const demo = demoSignInBeforeEach(["admin", "staff", "partner1", "partner2"]);

  /*
   * Acme's open-quarter statement, by product then country (the rows above):
   *   Dolutegravir Brazil 1000.5, 40, 5%: 50.03, -10.03; India 200, 10, no rate; Kenya 1000, 30, 3%: 30, 0
   *   TLD Kenya 300, 6, no rate
   *   totals: net 2500.5, reported 86, expected 80.03, difference -10.03 (over the lines with a rate)
   */
  const ACME_STATEMENT = {
    quarter: OPEN,
    lines: [
      { product: DTG, country: "Brazil", net_value: "1000.5", reported: "40", rate: "5", expected: "50.03", difference: "-10.03" },
      { product: DTG, country: "India", net_value: "200", reported: "10", rate: null, expected: null, difference: null },
      { product: DTG, country: "Kenya", net_value: "1000", reported: "30", rate: "3", expected: "30", difference: "0" },
      { product: TLD, country: "Kenya", net_value: "300", reported: "6", rate: null, expected: null, difference: null },
    ],
    totals: { net_value: "2500.5", reported: "86", expected: "80.03", difference: "-10.03" },
  };

  it("administrators and staff read a partner's statement of a quarter; a partner reads its own", async () => {
    for (const token of [demo.admin, demo.staff]) {
      const answer = await callApi("GET", `/template/sales/royalty_statement/${demo.acme}/`, { token });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/sales/royalty_statement/{partnerId}/", answer);
      expect(answer.body).toEqual({ partner: { id: demo.acme, name: ACME }, ...ACME_STATEMENT });
    }
    // Borealis's previous quarter: Kenya 1000 at 4% -> 40 expected, 25 reported; the API sale is not in it.
    const previous = await callApi("GET", `/template/sales/royalty_statement/${demo.borealis}/`, { token: demo.admin, query: { quarter: PREVIOUS } });
    expectStatus(previous, 200);
    expect(previous.body).toEqual({
      partner: { id: demo.borealis, name: BOREALIS },
      quarter: PREVIOUS,
      lines: [{ product: DTG, country: "Kenya", net_value: "1000", reported: "25", rate: "4", expected: "40", difference: "-15" }],
      totals: { net_value: "1000", reported: "25", expected: "40", difference: "-15" },
    });

    const own = await callApi("GET", "/template/sales/royalty_statement/", { token: demo.partner1 });
    expectStatus(own, 200);
    expectDocumented("GET", "/template/sales/royalty_statement/", own);
    expect(own.body).toEqual({ partner: { id: demo.acme, name: ACME }, ...ACME_STATEMENT });
  });

  it("refuses a partner reaching for another partner's statement or the administrators' call, administrators the partner's call; no report is not found", async () => {
    const path = "/template/sales/royalty_statement/{partnerId}/";
    expectRefused("GET", path, await callApi("GET", `/template/sales/royalty_statement/${demo.borealis}/`, { token: demo.partner1 }), 403);
    expectRefused("GET", path, await callApi("GET", `/template/sales/royalty_statement/${demo.acme}/`, { token: demo.partner1 }), 403);
    const byQuery = await callApi("GET", "/template/sales/royalty_statement/", { token: demo.partner1, query: { partner_id: String(demo.borealis) } });
    expectRefused("GET", "/template/sales/royalty_statement/", byQuery, 400);
    expectRefused("GET", "/template/sales/royalty_statement/", await callApi("GET", "/template/sales/royalty_statement/", { token: demo.admin }), 403);
    expectRefused("GET", path, await callApi("GET", "/template/sales/royalty_statement/999999/", { token: demo.admin }), 404);
    expectRefused("GET", "/template/sales/royalty_statement/", await callApi("GET", "/template/sales/royalty_statement/"), 401);

    // A quarter in which Acme has no Sales Report.
    const empty = quarterName(addQuarters(openQuarterRef(), -12));
    await ensureQuarter(addQuarters(openQuarterRef(), -12));
    const none = await callApi("GET", `/template/sales/royalty_statement/${demo.acme}/`, { token: demo.admin, query: { quarter: empty } });
    expectRefused("GET", path, none, 404);
    expect(none.body).toEqual({ status: "notfound", detail: `No Sales Report of ${empty}.` });
  });
});
