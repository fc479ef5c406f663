/**
 * The Sales Report's checks (issue "Checks that catch what a reviewer would miss") on a fixture
 * whose findings are worked out by hand below, each rule with a case just inside its threshold
 * that must not be flagged. Every test starts from the demo seed with its sales rows, licence
 * terms and filing values deleted.
 */
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  countries,
  filingValues,
  licenceCountryTerms,
  licenceTerms,
  partnerProducts,
  partners,
  pdtValues,
  products,
  reports,
  salesRows,
  stages,
} from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { loadReportChecks } from "~/reports/frame/checks.server";
import { FINDINGS_LISTED_PER_RULE } from "~/reports/frame/checks";
import { loader as adminSalesLoader } from "~/routes/_shell.admin.sales-report.$id";
import { loader as statementCsvLoader } from "~/routes/admin.sales-report.$id.royalty-statement[.]csv";
import { loader as statementXlsxLoader } from "~/routes/admin.sales-report.$id.royalty-statement[.]xlsx";
import { royaltyStatement } from "~/reports/sales/royalty-statement.server";
import { refreshSalesPriceMeans } from "~/reports/sales/price-means.server";
import ExcelJS from "exceljs";
import { loader as partnerSalesLoader } from "~/routes/_shell.partner.sales-report";
import { callApi, demoSignInBeforeEach, expectDocumented, expectRefused, expectStatus } from "../support/api";
import { buildRequest, runRoute, sessionCookieFor, testContext } from "../support/remix";

const DTG = "Dolutegravir 50 mg";
const DTG_API = "Dolutegravir API";
type NewSalesRow = typeof salesRows.$inferInsert;

let ids: { acme: number; borealis: number; cedar: number; open: number; dtg: number; dtgApi: number; kenya: number; india: number; brazil: number };
let acmeReport: number;

const idOf = async (table: typeof products | typeof countries, name: string) => (await db.select().from(table).where(eq(table.name, name)))[0].id;
const partnerOf = async (email: string) => (await db.select().from(partners).where(eq(partners.email, email)))[0].id;
async function reportOf(partnerId: number, type: "pdt" | "filing" | "sales") {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, ids.open), eq(reports.type, type)));
  return report?.id ?? (await db.insert(reports).values({ partnerId, quarterId: ids.open, type, status: "Saved" }).returning())[0].id;
}

/** An FDF row of Dolutegravir 50 mg: net value 1000 USD, the royalty and the price as given. */
const fdf = (reportId: number, countryId: number, values: Partial<NewSalesRow>): NewSalesRow => ({
  reportId,
  kind: "FDF",
  year: 2026,
  month: 1,
  countryId,
  purchaser: "Central Medical Stores",
  productId: ids.dtg,
  quantity: "100",
  currencyCode: "USD",
  usdExchangeRate: "1",
  grossSalePriceUsd: "11",
  totalGrossValue: "1100",
  deductableExpenses: "100",
  totalValue: "1000",
  royaltyPercent: "3",
  royaltyDue: "30",
  ...values,
});

beforeEach(async () => {
  await db.delete(salesRows);
  await db.delete(licenceTerms);
  await db.delete(filingValues);
  const [acme, borealis, cedar] = await Promise.all(["partner1", "partner2", "partner3"].map((name) => partnerOf(`${name}@example.org`)));
  const [dtg, dtgApi] = await Promise.all([DTG, DTG_API].map((name) => idOf(products, name)));
  const [kenya, india, brazil] = await Promise.all(["Kenya", "India", "Brazil"].map((name) => idOf(countries, name)));
  ids = { acme, borealis, cedar, open: (await ensureQuarter(openQuarterRef())).id, dtg, dtgApi, kenya, india, brazil };
  acmeReport = await reportOf(acme, "sales");

  // Acme's licence: Dolutegravir 50 mg at 5%, 3% in Kenya, India outside the territory; its API at 2%, without an API licence.
  const [dtgTerms, apiTerms] = await db
    .insert(licenceTerms)
    .values([
      { partnerId: acme, productId: dtg, royaltyRate: "5", apiLicensed: false },
      { partnerId: acme, productId: dtgApi, royaltyRate: "2", apiLicensed: false },
    ])
    .returning();
  await db.insert(licenceCountryTerms).values([
    { licenceTermId: dtgTerms.id, countryId: kenya, royaltyRate: "3" },
    { licenceTermId: dtgTerms.id, countryId: india, royaltyRate: null, isLicensed: false },
  ]);
  expect(apiTerms.apiLicensed).toBe(false);

  // Acme's Filing Plans: Dolutegravir registered in Kenya, filed in India, nothing for Brazil.
  const filing = await reportOf(acme, "filing");
  await db.insert(filingValues).values([
    { reportId: filing, countryId: kenya, productId: dtg, status: "Registered" },
    { reportId: filing, countryId: india, productId: dtg, status: "Filed" },
  ]);

  // Project statuses: the API only planned (no approval stage: a contradiction); the tablet under
  // development but past its WHO-PQ approval in the timeline (just inside: not flagged).
  await db
    .update(partnerProducts)
    .set({ projectStatus: "PLANNED" })
    .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, dtgApi)));
  await db
    .update(partnerProducts)
    .set({ projectStatus: "UNDER_DEVELOPMENT" })
    .where(and(eq(partnerProducts.partnerId, acme), eq(partnerProducts.productId, dtg)));
  const timeline = await reportOf(acme, "pdt");
  await db.delete(pdtValues).where(eq(pdtValues.reportId, timeline));
  const [approval] = await db.select().from(stages).where(eq(stages.name, "WHO-PQ Approval (FDF)"));
  await db.insert(pdtValues).values({ reportId: timeline, productId: dtg, stageId: approval.id, startDate: "2025-01-01", endDate: "2025-06-30" });

  // Other partners' prices per pack this quarter: Borealis 10 (two rows, 9 and 11), Cedar 12. Median of the partners: 11.
  const [borealisReport, cedarReport] = await Promise.all([reportOf(borealis, "sales"), reportOf(cedar, "sales")]);
  await db
    .insert(salesRows)
    .values([
      fdf(borealisReport, kenya, { grossSalePriceUsd: "9" }),
      fdf(borealisReport, kenya, { grossSalePriceUsd: "11" }),
      fdf(cedarReport, brazil, { grossSalePriceUsd: "12" }),
    ]);

  /*
   * Acme's rows, FDF then API, numbered as the grid numbers them:
   *   FDF 1 Kenya  3%, due 30,    price 11,   rate 1     nothing to say
   *   FDF 2 India  5%, due 50,    price 5.5,  rate 1     India outside the territory; price exactly half the median: not flagged
   *   FDF 3 Brazil 4%, due 40,    price 5.4,  rate 1     licence 5% (rate and due 50), no filing in Brazil, price under half
   *   FDF 4 Kenya  3%, due 30.01, price 22,   rate 1.06  due within a cent: not flagged; price exactly double: not flagged; rate 6% off
   *   FDF 5 Kenya  3%, due 30.02, price 22.1, rate 1.05  due 2 cents off; price over double; rate exactly 5% off: not flagged
   *   API 1 India  Dolutegravir API                      no API licence; planned, no approval stage
   */
  await db.insert(salesRows).values([
    fdf(acmeReport, kenya, {}),
    fdf(acmeReport, india, { royaltyPercent: "5", royaltyDue: "50", grossSalePriceUsd: "5.5" }),
    fdf(acmeReport, ids.brazil, { royaltyPercent: "4", royaltyDue: "40", grossSalePriceUsd: "5.4" }),
    fdf(acmeReport, kenya, { royaltyDue: "30.01", grossSalePriceUsd: "22", usdExchangeRate: "1.06" }),
    fdf(acmeReport, kenya, { royaltyDue: "30.02", grossSalePriceUsd: "22.1", usdExchangeRate: "1.05" }),
    {
      reportId: acmeReport,
      kind: "API",
      year: 2026,
      month: 2,
      countryId: india,
      purchaser: "Formulator Ltd",
      productId: dtgApi,
      quantity: "2",
      totalValue: "900",
    },
  ]);
  // The rows were written without a save: the partners' mean prices are refreshed as the save's job would.
  await refreshSalesPriceMeans({ quarterId: ids.open }, db);
});

const check = (withPeers: boolean) =>
  loadReportChecks({ type: "sales", reportId: acmeReport, partnerId: ids.acme, quarterId: ids.open }, { role: withPeers ? "ADMIN" : "PARTNER" });

/** The findings every viewer sees, in the panel's order. */
const OWN_FINDINGS = [
  { kind: "licence", rule: "royalty-rate", at: { table: "FDF", row: 3, column: "royaltyPercent" }, values: { entered: "4", expected: "5", country: "Brazil" } },
  {
    kind: "licence",
    rule: "royalty-due",
    at: { table: "FDF", row: 3, column: "royaltyDue" },
    values: { entered: "40", expected: "50", rate: "5", net: "1000" },
  },
  {
    kind: "licence",
    rule: "royalty-due",
    at: { table: "FDF", row: 5, column: "royaltyDue" },
    values: { entered: "30.02", expected: "30", rate: "3", net: "1000" },
  },
  { kind: "licence", rule: "territory", at: { table: "FDF", row: 2, column: "country" }, values: { country: "India", product: DTG } },
  { kind: "contradiction", rule: "api-licence", at: { table: "API", row: 1, column: "productName" }, values: { product: DTG_API } },
  { kind: "contradiction", rule: "filing", at: { table: "FDF", row: 3, column: "country" }, values: { country: "Brazil", product: DTG } },
  { kind: "contradiction", rule: "project-status", at: { table: "API", row: 1, column: "productName" }, values: { product: DTG_API, status: "Planned" } },
  {
    kind: "unusual",
    rule: "exchange-rate",
    at: { table: "FDF", row: 4, column: "usdExchangeRate" },
    values: { entered: "1.06", currency: "USD", expected: "1" },
  },
];
const PEER_FINDINGS = [
  { kind: "unusual", rule: "peer-price", at: { table: "FDF", row: 3, column: "grossSalePriceUsd" }, values: { entered: "5.4", product: DTG, median: "11" } },
  { kind: "unusual", rule: "peer-price", at: { table: "FDF", row: 5, column: "grossSalePriceUsd" }, values: { entered: "22.1", product: DTG, median: "11" } },
];
const withoutMessages = (findings: { message: string }[]) => findings.map(({ message, ...rest }) => (expect(message).toMatch(/\{\{/), rest));

describe("the Sales Report's checks", () => {
  it("administrators: each rule's findings, worked out by hand, none for the cases just inside a threshold, and the other partners' median", async () => {
    const checks = (await check(true))!;
    expect(withoutMessages(checks.findings)).toEqual([...OWN_FINDINGS, ...PEER_FINDINGS]);
    expect(checks.counts).toEqual({ licence: 4, contradiction: 3, unusual: 3 });
    expect(checks.total).toBe(10);
    expect(checks.findings[0].message).toBe("Royalty {{entered}}% — the licence sets {{expected}}% for {{country}}.");
  });

  it("a partner: the same findings without any figure derived from other partners", async () => {
    const checks = (await check(false))!;
    expect(withoutMessages(checks.findings)).toEqual(OWN_FINDINGS);
    expect(checks.counts).toEqual({ licence: 4, contradiction: 3, unusual: 1 });
  });

  it("the median of a country where three other partners sell takes over from the product's", async () => {
    // Three other partners in Kenya at 40, 44 and 50 (Acme's own rows do not count): Kenya's median 44, and the
    // product's too. Kenya's rows are compared with Kenya's: row 1 (11) is under half, rows 4 (22, exactly half) and
    // 5 (22.1) are not; rows 2 (India, 5.5) and 3 (Brazil, 5.4) with the product's.
    const [borealisReport, cedarReport] = await Promise.all([reportOf(ids.borealis, "sales"), reportOf(ids.cedar, "sales")]);
    await db.delete(salesRows).where(eq(salesRows.reportId, cedarReport));
    const [fourth] = await db
      .insert(partners)
      .values({ companyName: "Delta Pharma", email: "delta@example.org", contactNumber: "+254 700 000000", region: "Africa" })
      .returning();
    const deltaReport = (await db.insert(reports).values({ partnerId: fourth.id, quarterId: ids.open, type: "sales", status: "Saved" }).returning())[0].id;
    await db.delete(salesRows).where(eq(salesRows.reportId, borealisReport));
    await db
      .insert(salesRows)
      .values([
        fdf(borealisReport, ids.kenya, { grossSalePriceUsd: "40" }),
        fdf(cedarReport, ids.kenya, { grossSalePriceUsd: "44" }),
        fdf(deltaReport, ids.kenya, { grossSalePriceUsd: "50" }),
      ]);
    await refreshSalesPriceMeans({ quarterId: ids.open }, db);
    const peers = (await check(true))!.findings.filter((finding) => finding.rule === "peer-price");
    expect(peers.map((finding) => [finding.at.row, finding.values, finding.message])).toEqual([
      [1, { entered: "11", product: DTG, median: "44", country: "Kenya" }, expect.stringContaining("in {{country}}")],
      [2, { entered: "5.5", product: DTG, median: "44" }, expect.not.stringContaining("in {{country}}")],
      [3, { entered: "5.4", product: DTG, median: "44" }, expect.not.stringContaining("in {{country}}")],
    ]);
  });

  it("without licence terms or a filing plan nothing is said about them; a report without rows has nothing to say", async () => {
    await db.delete(licenceTerms);
    await db.delete(filingValues);
    const checks = (await check(false))!;
    expect(checks.findings.map((finding) => finding.rule)).toEqual(["filing", "filing", "filing", "filing", "filing", "project-status", "exchange-rate"]);
    await db.delete(salesRows).where(eq(salesRows.reportId, acmeReport));
    expect(await check(true)).toEqual({ findings: [], counts: { licence: 0, contradiction: 0, unusual: 0 }, total: 0 });
  });

  it(`lists at most ${FINDINGS_LISTED_PER_RULE} findings of a rule and counts the rest`, async () => {
    await db.insert(salesRows).values(Array.from({ length: 40 }, () => fdf(acmeReport, ids.brazil, { royaltyPercent: "4", royaltyDue: "40" })));
    const checks = (await check(false))!;
    expect(checks.findings.filter((finding) => finding.rule === "royalty-rate")).toHaveLength(FINDINGS_LISTED_PER_RULE);
    expect(checks.counts.licence).toBe(4 + 40 * 2);
  });
});

describe("the report's page shows its checks", () => {
  it("the admin's page carries the peer findings; the partner's own page does not", async () => {
    const admin = await runRoute(adminSalesLoader, buildRequest(`/admin/sales-report/${ids.acme}`, { cookie: await sessionCookieFor("admin@example.org") }), {
      params: { id: String(ids.acme) },
    });
    expect(admin.data.checks.total).toBe(10);
    const partner = await runRoute(partnerSalesLoader, buildRequest("/partner/sales-report", { cookie: await sessionCookieFor("partner1@example.org") }));
    expect(partner.data.checks.total).toBe(8);
    expect(partner.data.checks.findings.some((finding: { rule: string }) => finding.rule === "peer-price")).toBe(false);
  });
});

describe("GET /template/sales/checks/", () => {
  const demo = demoSignInBeforeEach(["admin", "staff", "partner1", "partner2"]);

  it("a partner reads its own findings in English, without peer figures; administrators and staff read a partner's with them", async () => {
    const own = await callApi("GET", "/template/sales/checks/", { token: demo.partner1 });
    expectStatus(own, 200);
    expectDocumented("GET", "/template/sales/checks/", own);
    expect(own.body).toMatchObject({ total: 8, counts: { licence: 4, contradiction: 3, unusual: 1 } });
    expect(own.body.findings[0]).toEqual({
      kind: "licence",
      rule: "royalty-rate",
      table: "FDF",
      row: 3,
      column: "royaltyPercent",
      message: "Royalty 4% — the licence sets 5% for Brazil.",
      values: { entered: "4", expected: "5", country: "Brazil" },
    });
    for (const token of [demo.admin, demo.staff]) {
      const answer = await callApi("GET", `/template/sales/checks/${demo.acme}/`, { token });
      expectStatus(answer, 200);
      expectDocumented("GET", "/template/sales/checks/{partnerId}/", answer);
      expect(answer.body.total).toBe(10);
      expect(answer.body.findings.at(-1).message).toBe(
        "Price per pack 22.1 USD for Dolutegravir 50 mg: outside half to double the other partners' median, 11 USD.",
      );
    }
  });

  it("refuses a partner reaching for another partner's findings or the administrators' call, and administrators the partner's", async () => {
    expectRefused("GET", "/template/sales/checks/{partnerId}/", await callApi("GET", `/template/sales/checks/${demo.acme}/`, { token: demo.partner2 }), 403);
    expectRefused(
      "GET",
      "/template/sales/checks/{partnerId}/",
      await callApi("GET", `/template/sales/checks/${demo.borealis}/`, { token: demo.partner1 }),
      403,
    );
    expectRefused("GET", "/template/sales/checks/", await callApi("GET", "/template/sales/checks/", { token: demo.admin }), 403);
    expectRefused("GET", "/template/sales/checks/{partnerId}/", await callApi("GET", "/template/sales/checks/999999/", { token: demo.admin }), 404);
  });
});

describe("the royalty statement", () => {
  /*
   * Acme's FDF rows by product and country (net value 1000 each):
   *   Brazil  reported 40,                 licence 5% (default): expected 50, difference −10
   *   India   reported 50,                 outside the territory: no rate, nothing expected
   *   Kenya   reported 30 + 30.01 + 30.02, licence 3% (Kenya):  expected 3 × 30, difference 0.03
   * Total: net 5000, reported 180.03, expected 140, difference −9.97 (over the lines with a rate).
   */
  const EXPECTED = {
    lines: [
      { product: DTG, country: "Brazil", netValue: "1000", reported: "40", rate: "5", expected: "50", difference: "-10" },
      { product: DTG, country: "India", netValue: "1000", reported: "50", rate: null, expected: null, difference: null },
      { product: DTG, country: "Kenya", netValue: "3000", reported: "90.03", rate: "3", expected: "90", difference: "0.03" },
    ],
    totals: { netValue: "5000", reported: "180.03", expected: "140", difference: "-9.97" },
  };

  it("reported against the licence by product and country, with the differences and the total, worked out by hand", async () => {
    expect(await royaltyStatement(acmeReport, ids.acme)).toEqual(EXPECTED);
    const admin = await runRoute(adminSalesLoader, buildRequest(`/admin/sales-report/${ids.acme}`, { cookie: await sessionCookieFor("staff@example.org") }), {
      params: { id: String(ids.acme) },
    });
    expect(admin.data.royaltyStatement).toEqual(EXPECTED);
    const partner = await runRoute(partnerSalesLoader, buildRequest("/partner/sales-report", { cookie: await sessionCookieFor("partner1@example.org") }));
    expect(partner.data.royaltyStatement).toBeNull();
  });

  const download = async (loader: typeof statementCsvLoader, file: string, email: string) => {
    const request = buildRequest(`/admin/sales-report/${ids.acme}/${file}`, { cookie: await sessionCookieFor(email) });
    return loader({ request, params: { id: String(ids.acme) }, context: testContext() });
  };

  it("downloads as CSV and Excel for ADMIN and STAFF, the lines then the total; a partner is refused", async () => {
    for (const email of ["admin@example.org", "staff@example.org"]) {
      const csv = await download(statementCsvLoader, "royalty-statement.csv", email);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="royalty-statement_Acme-Generics-Ltd_\d{4}-Q[1-4]\.csv"$/);
      expect(
        (await csv.text())
          .replace(/^\uFEFF/, "")
          .trim()
          .split(/\r?\n/),
      ).toEqual([
        "Product,Country,Total Net Sales Value,Royalty Due (reported),Licence rate (%),Royalty Due (licence),Difference",
        `${DTG},Brazil,1000,40,5,50,-10`,
        `${DTG},India,1000,50,,,`,
        `${DTG},Kenya,3000,90.03,3,90,0.03`,
        "Total,,5000,180.03,,140,-9.97",
      ]);
    }
    const xlsx = await download(statementXlsxLoader, "royalty-statement.xlsx", "admin@example.org");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as never);
    const sheet = workbook.getWorksheet("Royalty Statement")!;
    expect(sheet.getRow(4).values).toEqual([undefined, DTG, "Kenya", 3000, 90.03, 3, 90, 0.03]);
    expect(sheet.getRow(5).values).toEqual([undefined, "Total", undefined, 5000, 180.03, undefined, 140, -9.97]);

    const refused = await runRoute(
      statementCsvLoader,
      buildRequest(`/admin/sales-report/${ids.acme}/royalty-statement.csv`, { cookie: await sessionCookieFor("partner1@example.org") }),
      { params: { id: String(ids.acme) } },
    );
    expect(refused).toMatchObject({ status: 403, data: { message: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" } });
  });
});
