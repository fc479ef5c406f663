/**
 * Every Excel export, and each blank template, opened in a real spreadsheet program: LibreOffice
 * Calc (headless) converts them all in one call to CSV, every sheet as the cells show, and the
 * CSV is read back: the header, a known row, the number formats and the Info sheet.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { countries, partners, users } from "~/db/schema";
import { loadFilingPlan, saveFilingPlan } from "~/reports/filing/model.server";
import { loadPdtReport, savePdtReport } from "~/reports/pdt/model.server";
import { loadSalesReport, saveSalesReport } from "~/reports/sales/model.server";
import { getAuthUser, type AuthUser } from "~/models/user.server";
import { loader as dashboardXlsx } from "~/routes/admin.dashboard.$table.xlsx";
import { loader as performanceXlsx } from "~/routes/admin.partner-performance.xlsx";
import { loader as pdtReportXlsx } from "~/routes/admin.report.development-timeline.xlsx";
import { loader as filingReportXlsx } from "~/routes/admin.report.filing-plans.xlsx";
import { loader as salesReportXlsx } from "~/routes/admin.report.sales-report.xlsx";
import { loader as pdtXlsx } from "~/routes/partner.development-timeline.xlsx";
import { loader as pdtTemplate } from "~/routes/partner.development-timeline.template[.]xlsx";
import { loader as filingXlsx } from "~/routes/partner.filing-plans.xlsx";
import { loader as filingTemplate } from "~/routes/partner.filing-plans.template[.]xlsx";
import { loader as salesXlsx } from "~/routes/partner.sales-report.xlsx";
import { loader as salesTemplate } from "~/routes/partner.sales-report.template[.]xlsx";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { buildRequest, sessionCookieFor, testContext } from "../support/remix";

const run = promisify(execFile);
const ADMIN = "admin@example.org";
const ACME = "partner1@example.org";
const ACME_NAME = "Acme Generics Ltd";
const BUYER = "LibreOffice Check Buyer";
const year = String(new Date().getUTCFullYear());

/** Every sheet of every file, as the cells show (numbers formatted), UTF-8, comma-separated. */
const CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1";

type Loader = (args: { request: Request; params: Record<string, string>; context: ReturnType<typeof testContext> }) => Promise<unknown>;

let dir: string;
let acme: number;
let partner1: AuthUser;

async function actorFor(email: string): Promise<AuthUser> {
  const [user] = await db.select().from(users).where(eq(users.email, email));
  return (await getAuthUser(user.id))!;
}

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "excel-libreoffice-"));
  [{ id: acme }] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, ACME));
  partner1 = await actorFor(ACME);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function saveKnownRows() {
  const sales = await loadSalesReport({ viewer: partner1, partnerId: acme });
  const [apiProduct] = sales.lists.productNames.API;
  const [fdfProduct] = sales.lists.productNames.FDF;
  const saved = await saveSalesReport({
    actor: partner1,
    partnerId: acme,
    quarterId: sales.quarter.id,
    expectedVersion: sales.report.version,
    deletedIds: [...sales.rows.API, ...sales.rows.FDF].map((row) => row.id!),
    api: [{ year, month: "March", country: "India", purchaser: BUYER, productName: apiProduct, quantity: "1250.5", totalValue: "98000" }],
    fdf: [
      {
        year,
        month: "April",
        country: "Kenya",
        purchaser: BUYER,
        productName: fdfProduct,
        strength: "10/20 mg",
        formulationType: "Tablet",
        packSize: "30",
        quantity: "1000",
        currency: "USD",
        grossSalePriceCurrency: "2.5",
        usdExchangeRate: "1",
        grossSalePriceUsd: "2.5",
        totalGrossValue: "2500",
        deductableExpenses: "100",
        totalValue: "2400",
        royaltyPercent: "5",
        royaltyDue: "120",
        procurementEndCountry: "",
        comments: "",
      },
    ],
    action: "save",
  });
  expect(saved.ok).toBe(true);

  const pdt = await loadPdtReport({ viewer: partner1, partnerId: acme });
  const [first] = pdt.rows;
  const pdtSaved = await savePdtReport({
    actor: partner1,
    partnerId: acme,
    quarterId: pdt.quarter.id,
    expectedVersion: pdt.report.version,
    rows: [{ productId: first.productId, stageId: first.stageId, notes: "Checked offline", startDate: `7/1/${year}`, endDate: `12/31/${year}` }],
    statuses: {},
    action: "save",
  });
  expect(pdtSaved.ok).toBe(true);

  const filing = await loadFilingPlan({ viewer: partner1, partnerId: acme });
  const [france] = await db.select({ id: countries.id }).from(countries).where(eq(countries.name, "France"));
  const filingSaved = await saveFilingPlan({
    actor: partner1,
    partnerId: acme,
    quarterId: filing.quarter.id,
    expectedVersion: filing.report.version,
    cells: [{ countryId: france.id, productId: filing.products[0].id, status: "Registered" }],
    action: "save",
  });
  expect(filingSaved.ok).toBe(true);
  return { apiProduct, fdfProduct, pdtRow: first, filingProducts: filing.products.map((product) => product.name), quarter: sales.quarter.name };
}

/** Downloads through the route, as the signed-in user, into `name`.xlsx. */
async function save(name: string, loader: Loader, url: string, email: string, params: Record<string, string> = {}) {
  const response = (await loader({ request: buildRequest(url, { cookie: await sessionCookieFor(email) }), params, context: testContext() })) as Response;
  expect(response.status, url).toBe(200);
  await fs.writeFile(path.join(dir, `${name}.xlsx`), Buffer.from(await response.arrayBuffer()));
}

/** The rows of one converted sheet. */
async function sheet(file: string, name: string): Promise<string[][]> {
  return parse(await fs.readFile(path.join(dir, "csv", `${file}-${name}.csv`), "utf8"), { relax_column_count: true, bom: true });
}

const trimmed = (row: string[] | undefined) => {
  const cells = [...(row ?? [])];
  while (cells.length && cells[cells.length - 1] === "") cells.pop();
  return cells;
};
const mmddyyyy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

describe("Excel exports open in LibreOffice Calc", () => {
  it("every export and blank template converts, with its header, a known row, formatted numbers and its Info sheet", { timeout: 180_000 }, async () => {
    const known = await saveKnownRows();
    await Promise.all([
      save("sales", salesXlsx, "/partner/sales-report/xlsx", ACME),
      save("sales-template", salesTemplate, "/partner/sales-report/template.xlsx", ACME),
      save("pdt", pdtXlsx, "/partner/development-timeline/xlsx", ACME),
      save("pdt-template", pdtTemplate, "/partner/development-timeline/template.xlsx", ACME),
      save("filing", filingXlsx, "/partner/filing-plans/xlsx", ACME),
      save("filing-template", filingTemplate, "/partner/filing-plans/template.xlsx", ACME),
      save("consolidated-sales", salesReportXlsx, `/admin/report/sales-report/xlsx?tab=FDF&partner=${acme}`, ADMIN),
      save("consolidated-pdt", pdtReportXlsx, `/admin/report/development-timeline/xlsx?partner=${acme}`, ADMIN),
      save("consolidated-filing", filingReportXlsx, `/admin/report/filing-plans/xlsx?partner=${acme}`, ADMIN),
      save("dashboard", dashboardXlsx, "/admin/dashboard/company-status-count/xlsx", ADMIN, { table: "company-status-count" }),
      save("performance", performanceXlsx, "/admin/partner-performance/xlsx", ADMIN),
    ]);
    const files = (await fs.readdir(dir)).filter((name) => name.endsWith(".xlsx"));
    expect(files).toHaveLength(11);
    await run(
      "soffice",
      [
        `-env:UserInstallation=file://${path.join(dir, "profile")}`,
        "--headless",
        "--convert-to",
        CSV_FILTER,
        "--outdir",
        path.join(dir, "csv"),
        ...files.map((name) => path.join(dir, name)),
      ],
      { timeout: 150_000 },
    );

    // The Sales Report: the grid's headers, the known rows with years plain, money with two decimals and thousands grouped.
    const api = await sheet("sales", "API");
    expect(api[0]).toEqual(["Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    expect(api[1]).toEqual([year, "March", "India", BUYER, known.apiProduct, "1,250.5", "98,000.00"]);
    const fdf = await sheet("sales", "FDF");
    expect(fdf[0]).toHaveLength(20);
    expect(trimmed(fdf[1])).toEqual([
      year,
      "April",
      "Kenya",
      BUYER,
      known.fdfProduct,
      "10/20 mg",
      "Tablet",
      "30",
      "1,000",
      "USD",
      "2.50",
      "1",
      "2.50",
      "2,500.00",
      "100.00",
      "2,400.00",
      "5",
      "120.00",
    ]);
    const info = await sheet("sales", "Info");
    expect(info.slice(0, 4)).toEqual([
      ["Report", "Sales Report"],
      ["Partner", ACME_NAME],
      ["Quarter", known.quarter],
      ["Status", "Saved"],
    ]);
    expect(info[4][0]).toBe("Exported at (UTC)");
    expect(info[4][1]).toMatch(new RegExp(`^${year}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));

    // Its blank template: the same headers, no rows.
    expect(await sheet("sales-template", "API")).toEqual([api[0]]);
    expect(await sheet("sales-template", "FDF")).toEqual([fdf[0]]);
    expect((await sheet("sales-template", "Info"))[0]).toEqual(["Report", "Sales Report (blank template)"]);

    // The timeline: dates as mm/dd/yyyy; the template keeps product, stage and status and leaves the rest empty.
    const pdt = await sheet("pdt", "PDT");
    expect(pdt[0].slice(0, 8)).toEqual(["Product", "Stage", "Status", "Notes", "Start Date", "End Date", "Start slip (days)", "End slip (days)"]);
    const status = PROJECT_STATUS_LABELS[known.pdtRow.status];
    expect(pdt[1].slice(0, 6)).toEqual([
      known.pdtRow.productName,
      known.pdtRow.stageName,
      status,
      "Checked offline",
      mmddyyyy(`${year}-07-01`),
      mmddyyyy(`${year}-12-31`),
    ]);
    const pdtBlank = await sheet("pdt-template", "PDT");
    expect(pdtBlank[0]).toEqual(["Product", "Stage", "Status", "Notes", "Start Date", "End Date"]);
    expect(pdtBlank[1]).toEqual([known.pdtRow.productName, known.pdtRow.stageName, status, "", "", ""]);
    expect((await sheet("pdt", "Info"))[0]).toEqual(["Report", "Product Development Timeline"]);

    // Filing Plans: a row per country; France holds the saved status, the template is empty.
    const filing = await sheet("filing", "Filing Plans");
    expect(filing[0]).toEqual(["Country", ...known.filingProducts]);
    expect(filing.find((row) => row[0] === "France")?.[1]).toBe("Registered");
    const filingBlank = await sheet("filing-template", "Filing Plans");
    expect(filingBlank[0]).toEqual(filing[0]);
    expect(filingBlank.find((row) => row[0] === "France")).toEqual(["France", ...known.filingProducts.map(() => "")]);

    // The consolidated reports, a dashboard table and the partner performance.
    const consolidatedSales = await sheet("consolidated-sales", "FDF");
    expect(consolidatedSales[0].slice(0, 4)).toEqual(["Company Name", "Report Status", "Year", "Month"]);
    expect(consolidatedSales.find((row) => row[5] === BUYER)?.slice(0, 6)).toEqual([ACME_NAME, "Saved", year, "April", "Kenya", BUYER]);
    const consolidatedPdt = await sheet("consolidated-pdt", "PDT");
    expect(consolidatedPdt[0].slice(0, 4)).toEqual(["Company Name", "Product", "Stage", "Status"]);
    expect(consolidatedPdt.find((row) => row[1] === known.pdtRow.productName && row[2] === known.pdtRow.stageName)?.[0]).toBe(ACME_NAME);
    const consolidatedFiling = await sheet("consolidated-filing", "Filing Plans");
    expect(consolidatedFiling[0].slice(0, 2)).toEqual(["Company Name", "Country"]);
    expect(consolidatedFiling.find((row) => row[1] === "France")?.[0]).toBe(ACME_NAME);
    expect((await sheet("dashboard", "Company Wise Product Count")).some((row) => row[0] === ACME_NAME)).toBe(true);
    expect((await sheet("performance", "Partner Performance")).some((row) => row.includes(ACME_NAME))).toBe(true);
    expect((await sheet("performance", "Info"))[0]).toEqual(["Report", "Partner Performance"]);
  });
});
