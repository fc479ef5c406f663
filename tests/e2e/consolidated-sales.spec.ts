import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { request as playwrightRequest, type APIRequestContext, type Download, type Page } from "@playwright/test";
import { ACCOUNTS, expect, test } from "./support/fixtures";

/**
 * The consolidated Sales Report. The browser tests share one seeded database and other specs edit
 * the demo partners' sales, so this spec reports its own: a partner it creates, whose open-quarter
 * Sales Report the administrator saves with 130 API rows (two pages) and 3 FDF rows. Counts
 * checked here are that partner's.
 */
const PATH = "/admin/report/sales-report";
const BASE_URL = `http://localhost:${process.env.E2E_PORT || 3300}`;
const UNIQUE = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const COMPANY = `Zz Consolidated Sales ${UNIQUE}`;
const API_ROWS = 130;
const YEAR = new Date().getUTCFullYear();
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const CHINESE_BUYER = "上海医药集团股份有限公司";

let partnerId = "";

const table = (page: Page) => page.getByTestId("sales-report-table");
const bodyRows = (page: Page) => table(page).locator("tbody tr");
const filters = (page: Page) => page.getByTestId("sales-report-filters");
const column = async (page: Page, index: number) => (await bodyRows(page).locator(`> :nth-child(${index})`).allTextContents()).map((text) => text.trim());
const count = (page: Page) => page.getByTestId("sales-report-count");
/** The first cells of a column once the table shows them (a client navigation renders after the address changes). */
const expectColumnStart = (page: Page, index: number, values: string[]) =>
  expect.poll(async () => (await column(page, index)).slice(0, values.length)).toEqual(values);

async function csvOf(download: Download, filename: string) {
  expect(download.suggestedFilename()).toBe(filename);
  const bytes = await fs.readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}

async function xlsxOf(download: Download, filename: string, sheetName: string) {
  expect(download.suggestedFilename()).toBe(filename);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await fs.readFile((await download.path())!)) as unknown as ExcelJS.Buffer);
  expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([sheetName, "Info"]);
  const rows = workbook
    .getWorksheet(sheetName)!
    .getSheetValues()
    .filter(Boolean)
    .map((row) => (row as unknown[]).slice(1));
  return { header: rows[0], rows: rows.slice(1) };
}

async function downloadOf(page: Page, name: string) {
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name }).click();
  return downloading;
}

/** An API row of the spec's partner: quantity n + 0.5 kg, a purchaser numbered n. */
function apiRow(n: number) {
  return {
    year: String(YEAR),
    month: MONTH_NAMES[n % 12],
    country: n % 2 ? "Kenya" : "India",
    purchaser: n === 7 ? CHINESE_BUYER : `Zz Buyer ${String(n).padStart(3, "0")}`,
    productName: "Dolutegravir API",
    quantity: `${n}.5`,
    totalValue: String(n * 100),
  };
}

function fdfRow(n: number, currency: string) {
  return {
    year: String(YEAR),
    month: "January",
    country: "Kenya",
    purchaser: `Zz Ministry ${n}`,
    productName: "Dolutegravir 50 mg",
    strength: "50 mg",
    formulationType: "Tablet",
    packSize: "30",
    quantity: "10",
    currency,
    grossSalePriceCurrency: "2",
    usdExchangeRate: "1",
    grossSalePriceUsd: "2",
    totalGrossValue: "20",
    deductableExpenses: "0",
    totalValue: "20",
    royaltyPercent: "5",
    royaltyDue: "1",
    procurementEndCountry: "Global Fund / Kenya",
    comments: "",
  };
}

async function signedIn(account: keyof typeof ACCOUNTS): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL: BASE_URL });
  const { email, password } = ACCOUNTS[account];
  expect((await context.post("/login", { form: { email, password }, maxRedirects: 0 })).status()).toBe(302);
  return context;
}

test.beforeAll(async () => {
  const admin = await signedIn("admin");
  const created = await admin.post("/admin/add-partner", {
    form: {
      companyName: COMPANY,
      email: `consolidated-sales-${UNIQUE}@example.org`,
      contactPrefix: "+91",
      contactNumber: "9876543210",
      address: "",
      region: "Asia",
    },
    maxRedirects: 0,
  });
  expect(created.status(), await created.text()).toBe(302);
  const list = await (await admin.get(`/admin/partner-list?q=${encodeURIComponent(COMPANY)}`)).text();
  partnerId = /data-partner-id="(\d+)"/.exec(list)![1];

  // The administrator saves the partner's open-quarter Sales Report, as the grid posts it.
  const screen = await (await admin.get(`/admin/sales-report/${partnerId}`)).text();
  const quarterId = /name="quarterId" value="(\d+)"/.exec(screen)![1];
  const payload = {
    API: Array.from({ length: API_ROWS }, (_, i) => apiRow(i + 1)),
    FDF: [fdfRow(1, "USD"), fdfRow(2, "KES"), fdfRow(3, "USD")],
  };
  const saved = await admin.post(`/admin/sales-report/${partnerId}`, {
    form: { intent: "save", quarterId, version: "0", tab: "API", payload: JSON.stringify(payload) },
    maxRedirects: 0,
  });
  expect(saved.status(), await saved.text()).toBeLessThan(400);
  await admin.dispose();
});

test.describe("with JavaScript", () => {
  test("the admin opens the report from the Reports menu, filters, pages, sorts, downloads CSV and Excel, and changes tab and quarter", async ({
    page,
    open,
    signIn,
  }) => {
    test.setTimeout(60_000);
    await signIn("admin");
    await open("/admin/dashboard?nav-style=default");
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await sidebar.getByText("Reports", { exact: true }).click();
    await sidebar.getByRole("link", { name: "Sales Report" }).click();
    await expect(page).toHaveURL(PATH);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sales Report \(Q[1-4] \d{4}\)$/);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByRole("link", { name: "API", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(table(page).locator("thead th")).toHaveCount(2 + 7);

    // The spec's partner: 130 rows, two pages of 100.
    await filters(page).getByLabel("Partner").selectOption({ label: COMPANY });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}`);
    await expect(count(page)).toHaveText(`Rows: ${API_ROWS}`);
    await expect(bodyRows(page)).toHaveCount(100);
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    expect(new Set(await column(page, 1))).toEqual(new Set([COMPANY]));
    expect(new Set(await column(page, 2))).toEqual(new Set(["Saved"]));
    const firstPage = await column(page, 6);
    expect(firstPage[0]).toBe("Zz Buyer 001");

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}&page=2`);
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(API_ROWS - 100);
    await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();

    // Sorting by quantity, both ways; the filter is kept.
    await table(page).getByRole("link", { name: "Quantity (Kg)" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}&sort=quantity&dir=asc`);
    await expect(table(page).locator("thead th[aria-sort=ascending]")).toContainText("Quantity (Kg)");
    await expectColumnStart(page, 8, ["1.5", "2.5", "3.5"]);
    await table(page).getByRole("link", { name: "Quantity (Kg)" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}&sort=quantity&dir=desc`);
    await expectColumnStart(page, 8, [`${API_ROWS}.5`, `${API_ROWS - 1}.5`]);

    // Filters combined: the month and a part of the purchaser in another case; the sort is kept.
    await filters(page).getByLabel("Month").selectOption({ label: "February" });
    await filters(page).getByLabel("Purchaser").fill("zz BUYER");
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}&month=2&purchaser=zz+BUYER&sort=quantity&dir=desc`);
    // Rows n with n % 12 = 1: 1, 13, …, 121 (11 rows).
    await expect(count(page)).toHaveText("Rows: 11");
    await expectColumnStart(
      page,
      8,
      Array.from({ length: 11 }, (_, i) => `${121 - i * 12}.5`),
    );
    await page.reload();
    await expect(count(page)).toHaveText("Rows: 11");
    await expect(filters(page).getByLabel("Purchaser")).toHaveValue("zz BUYER");

    // The downloads carry the filters (not the page) and keep the company order.
    const csv = await csvOf(await downloadOf(page, "Download CSV"), "sales-report-api.csv");
    expect(csv.header).toEqual(["Company Name", "Report Status", "Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    expect(csv.rows).toHaveLength(11);
    expect(csv.rows.map((row) => row[7])).toEqual(Array.from({ length: 11 }, (_, i) => `${1 + i * 12}.5`));
    expect(csv.rows[0]).toEqual([COMPANY, "Saved", String(YEAR), "February", "Kenya", "Zz Buyer 001", "Dolutegravir API", "1.5", "100"]);
    const xlsx = await xlsxOf(await downloadOf(page, "Download Excel"), "sales-report-api.xlsx", "API");
    expect(xlsx.header).toEqual(csv.header);
    expect(xlsx.rows.map((row) => row[7])).toEqual(csv.rows.map((row) => Number(row[7])));
    expect(xlsx.rows.map((row) => row[5])).toEqual(csv.rows.map((row) => row[5]));

    // All the partner's rows in the CSV, the Chinese purchaser among them.
    await open(`${PATH}?partner=${partnerId}`);
    const all = await csvOf(await downloadOf(page, "Download CSV"), "sales-report-api.csv");
    expect(all.rows).toHaveLength(API_ROWS);
    expect(all.rows.slice(0, 100).map((row) => row[5])).toEqual(await column(page, 6));
    expect(all.rows.map((row) => row[5])).toContain(CHINESE_BUYER);

    // Nothing matches: an empty page.
    await filters(page).getByLabel("Purchaser").fill("no such buyer");
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(count(page)).toHaveText("Rows: 0");
    await expect(page.getByText("No data available!")).toBeVisible();

    // The FDF tab keeps the quarter and has its own columns and filters.
    await page.getByRole("link", { name: "FDF", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?tab=FDF`);
    await expect(table(page).locator("thead th")).toHaveCount(2 + 20);
    await filters(page).getByLabel("Partner").selectOption({ label: COMPANY });
    await filters(page).getByLabel("Currency").selectOption({ label: "USD" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(`${PATH}?tab=FDF&partner=${partnerId}&currency=USD`);
    await expect(count(page)).toHaveText("Rows: 2");
    await expectColumnStart(page, 6, ["Zz Ministry 1", "Zz Ministry 3"]);
    const fdf = await csvOf(await downloadOf(page, "Download CSV"), "sales-report-fdf.csv");
    expect(fdf.header).toHaveLength(22);
    expect(fdf.rows.map((row) => row[5])).toEqual(["Zz Ministry 1", "Zz Ministry 3"]);

    // Another quarter from the dropdown: the tab is kept; the spec's partner has no rows there.
    const quarter = filters(page).getByLabel("Quarter");
    const previous = (await quarter.locator("option").nth(1).textContent())!.trim();
    await quarter.selectOption({ label: previous });
    await filters(page).getByLabel("Partner").selectOption({ label: "All" });
    await filters(page).getByLabel("Currency").selectOption({ label: "All" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(`${PATH}?tab=FDF&quarter=${encodeURIComponent(previous).replace(/%20/g, "+")}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Sales Report (${previous})`);
    await expect(bodyRows(page).first()).toBeVisible();
    expect(await filters(page).getByLabel("Partner").locator("option").allTextContents()).not.toContain(COMPANY);
    await page.getByRole("link", { name: "API", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?quarter=${encodeURIComponent(previous).replace(/%20/g, "+")}`);
  });

  test("STAFF reads the report and its downloads", async ({ page, open, signIn }) => {
    await signIn("staff");
    const response = await open(`${PATH}?partner=${partnerId}`);
    expect(response?.status()).toBe(200);
    await expect(count(page)).toHaveText(`Rows: ${API_ROWS}`);
    const csv = await csvOf(await downloadOf(page, "Download CSV"), "sales-report-api.csv");
    expect(csv.rows).toHaveLength(API_ROWS);
  });

  test("a partner is refused", async ({ page, signIn }) => {
    await signIn("partner1");
    for (const path of [PATH, `${PATH}/csv`, `${PATH}/xlsx`]) expect((await page.request.get(path)).status(), path).toBe(403);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the same filter form, the sort links, the pager and a CSV download work", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(PATH);
    await filters(page).getByLabel("Partner").selectOption({ label: COMPANY });
    await filters(page).getByLabel("Country").selectOption({ label: "India" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?tab=API&quarter=&partner=${partnerId}&year=&month=&country=\\d+&purchaser=&product=&reportStatus=$`));
    // Even n: 65 rows.
    await expect(count(page)).toHaveText("Rows: 65");
    await expect(page.getByText("Page 1 of 1")).toBeVisible();
    await expect.poll(async () => new Set(await column(page, 5))).toEqual(new Set(["India"]));

    await table(page).getByRole("link", { name: "Total Value (USD)" }).click();
    await expect(page).toHaveURL(/sort=totalValue&dir=asc/);
    await expectColumnStart(page, 9, ["200", "400"]);
    await table(page).getByRole("link", { name: "Total Value (USD)" }).click();
    await expect(page).toHaveURL(/sort=totalValue&dir=desc/);
    // The page groups thousands the English way; the CSV keeps plain figures.
    await expectColumnStart(page, 9, ["13,000"]);

    const csv = await csvOf(await downloadOf(page, "Download CSV"), "sales-report-api.csv");
    expect(csv.rows).toHaveLength(65);
    expect(new Set(csv.rows.map((row) => row[4]))).toEqual(new Set(["India"]));

    // The pager without JavaScript: the partner's rows over two pages.
    await open(`${PATH}?partner=${partnerId}`);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`${PATH}?partner=${partnerId}&page=2`);
    await expect(bodyRows(page)).toHaveCount(API_ROWS - 100);
  });
});
