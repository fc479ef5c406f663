import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { APIRequestContext, Download, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The Filing Plans consolidated report (/admin/report/filing-plans). The browser tests share one
 * database: this spec only reads the demo partners' plans; for paging it adds a partner of its own
 * (an accented and Chinese name) whose plan of the previous quarter the administrator fills with
 * one filing in each of 70 countries, left Saved.
 */
const PATH = "/admin/report/filing-plans";
const ROWS = 70;

function quarterNames() {
  const today = new Date();
  const index = today.getUTCFullYear() * 4 + Math.floor(today.getUTCMonth() / 3);
  const name = (at: number) => `Q${(at % 4) + 1} ${Math.floor(at / 4)}`;
  return { open: name(index), previous: name(index - 1) };
}
const quarters = quarterNames();

const table = (page: Page) => page.getByTestId("filing-report");
const bodyRows = (page: Page) => table(page).locator("tbody tr");
const count = (page: Page) => page.getByTestId("filing-report-count");
const columnTexts = async (page: Page, index: number) => (await bodyRows(page).locator(`> :nth-child(${index})`).allTextContents()).map((text) => text.trim());

async function readCsv(download: Download) {
  expect(download.suggestedFilename()).toBe("filing-plans.csv");
  const bytes = await fs.readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes, { bom: true }) as string[][];
}

async function readXlsx(download: Download) {
  expect(download.suggestedFilename()).toBe("filing-plans.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await fs.readFile((await download.path())!)) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("Filing Plans")!;
  expect(sheet).toBeDefined();
  // A row's trailing empty cells are not written: each row is read to the header's width.
  const width = sheet.columnCount;
  return sheet
    .getSheetValues()
    .filter(Boolean)
    .map((row) =>
      Array.from({ length: width }, (_, index) => {
        const value = (row as unknown[])[index + 1];
        return value === null || value === undefined ? "" : String(value);
      }),
    );
}

interface Fixture {
  companyName: string;
  partnerId: number;
  productId: number;
  productName: string;
}

/** A partner of this spec with one active product, its plan of the previous quarter saved by the administrator. */
async function createFixture(request: APIRequestContext): Promise<Fixture> {
  const unique = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const companyName = `Zz Éloïse Santé 上海医药 ${unique}`;

  const productList = await (await request.get("/admin/product-list")).text();
  const product = /href="\/admin\/edit-product\/(\d+)"/.exec(productList);
  expect(product, "a product to assign").not.toBeNull();
  const productId = Number(product![1]);

  const created = await request.post("/admin/add-partner", {
    form: {
      companyName,
      email: `filing-report-${unique}@example.org`,
      contactPrefix: "+91",
      contactNumber: "9876543210",
      address: "",
      region: "Asia",
      "products[0].productId": String(productId),
      "products[0].status": "PLANNED",
    },
    maxRedirects: 0,
  });
  expect(created.status(), await created.text()).toBe(302);

  const list = await (await request.get(`/admin/partner-list?q=${unique}`)).text();
  const partner = /data-partner-id="(\d+)"/.exec(list);
  expect(partner, "the new partner in the list").not.toBeNull();
  const partnerId = Number(partner![1]);

  // The plan's plain form names its cells `filing[country][product]`, 50 countries a page.
  const screens = await Promise.all(
    [1, 2].map(async (number) =>
      (await request.get(`/admin/filing-plans/${partnerId}?quarter=${encodeURIComponent(quarters.previous)}&page=${number}`)).text(),
    ),
  );
  const quarterId = /name="quarterId" value="(\d+)"/.exec(screens[0])![1];
  const countryIds = [...new Set(screens.flatMap((screen) => [...screen.matchAll(/filing\[(\d+)\]\[\d+\]/g)].map((match) => match[1])))];
  expect(countryIds.length).toBeGreaterThanOrEqual(ROWS);
  const cells = Object.fromEntries(countryIds.slice(0, ROWS).map((countryId, index) => [countryId, { [productId]: index % 2 ? "Filed" : "Registered" }]));
  const saved = await request.post(`/admin/filing-plans/${partnerId}?quarter=${encodeURIComponent(quarters.previous)}`, {
    form: { intent: "save", quarterId, version: "0", payload: JSON.stringify({ cells }) },
    maxRedirects: 0,
  });
  expect(saved.status(), await saved.text()).toBeLessThan(400);

  return { companyName, partnerId, productId, productName: "" };
}

/** The fixture's product name, as the report's product filter shows it. */
async function withProductName(page: Page) {
  if (!fixture.productName) fixture.productName = (await page.locator(`#filing-report-product option[value="${fixture.productId}"]`).textContent())!.trim();
  return fixture.productName;
}

let fixture: Fixture;

test.describe.serial("with JavaScript", () => {
  test("the admin opens the report from the Reports menu: the open quarter, the count, the columns", async ({ page, open, signIn }) => {
    await signIn("admin");
    fixture = await createFixture(page.request);
    await open("/admin/dashboard?nav-style=default");
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await sidebar.getByText("Reports", { exact: true }).click();
    await sidebar.getByRole("link", { name: "Filing Plans" }).click();
    await expect(page).toHaveURL(PATH);
    await expect(page.getByRole("heading", { level: 1, name: "Filing Plans" })).toBeVisible();
    await expect(page.getByLabel("Quarter")).toHaveValue("");
    await expect(page.getByLabel("Quarter").locator("option").first()).toHaveText(quarters.open);
    await expect(count(page)).toHaveText(/^Rows: \d+$/);
    const total = Number((await count(page).textContent())!.replace("Rows: ", ""));
    expect(total).toBeGreaterThan(0);
    await expect(bodyRows(page)).toHaveCount(Math.min(total, 50));
    const headers = (await table(page).locator("thead th").allTextContents()).map((text) => text.replace(/[▲▼]/g, "").trim());
    expect(headers.slice(0, 3)).toEqual(["Company Name", "Country", "Report Status"]);
    expect(headers.length).toBeGreaterThan(3);
    // Acme's plan of the open quarter was rejected (demo data); every report state is listed.
    expect(await columnTexts(page, 1)).toContain("Acme Generics Ltd");
  });

  test("filters by quarter and partner, pages by 50, sorts by a header; the filters live in the link", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(PATH);
    // The partner list is the quarter's: a new quarter loads at once.
    await page.getByLabel("Quarter").selectOption(quarters.previous);
    await expect.poll(() => new URL(page.url()).searchParams.get("quarter")).toBe(quarters.previous);
    await page.getByLabel("Partner").selectOption({ label: fixture.companyName });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`partner=${fixture.partnerId}`));
    expect(new URL(page.url()).searchParams.get("quarter")).toBe(quarters.previous);
    // With JavaScript the link holds only the filters in force.
    expect([...new URL(page.url()).searchParams.keys()].sort()).toEqual(["partner", "quarter"]);
    await expect(count(page)).toHaveText(`Rows: ${ROWS}`);
    await expect(bodyRows(page)).toHaveCount(50);
    expect(new Set(await columnTexts(page, 1))).toEqual(new Set([fixture.companyName]));
    expect(new Set(await columnTexts(page, 3))).toEqual(new Set(["Saved"]));
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    const firstPage = await columnTexts(page, 2);
    expect(firstPage).toEqual([...firstPage].sort());

    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(ROWS - 50);
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    const secondPage = await columnTexts(page, 2);
    expect(secondPage[0] >= firstPage[firstPage.length - 1]).toBe(true);
    await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);

    // A reload keeps the view.
    await page.reload();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(page.getByLabel("Partner")).toHaveValue(String(fixture.partnerId));

    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();

    await table(page).getByRole("link", { name: "Country" }).click();
    await expect(page).toHaveURL(/sort=country&dir=asc/);
    await table(page).getByRole("link", { name: "Country" }).click();
    await expect(page).toHaveURL(/sort=country&dir=desc/);
    await expect(table(page).locator("thead th", { hasText: "Country" })).toHaveAttribute("aria-sort", "descending");
    const descending = await columnTexts(page, 2);
    expect(descending).toEqual([...descending].sort().reverse());
    expect(descending[0] >= secondPage[secondPage.length - 1]).toBe(true);

    // One product's status: only the rows whose cell for that product is Filed.
    await page.getByLabel("Product").selectOption(String(fixture.productId));
    await page.getByLabel("Status", { exact: true }).selectOption("Filed");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(count(page)).toHaveText(`Rows: ${ROWS / 2}`);
    expect(new URL(page.url()).searchParams.get("productStatus")).toBe("Filed");
    const productName = await withProductName(page);
    const column = (await table(page).locator("thead th").allTextContents()).findIndex((text) => text.trim() === productName) + 1;
    expect(column).toBeGreaterThan(3);
    expect(new Set(await columnTexts(page, column))).toEqual(new Set(["Filed"]));

    // The report status filter finds the draft; another state, nothing.
    await page.getByLabel("Report Status").selectOption("Approved");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No data available!")).toBeVisible();
    await expect(count(page)).toHaveText("Rows: 0");
    await page.getByLabel("Report Status").selectOption("Saved");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(count(page)).toHaveText(`Rows: ${ROWS / 2}`);
  });

  test("Company Name and Country stay on the left when the table scrolls sideways", async ({ page, open, signIn }) => {
    await page.setViewportSize({ width: 900, height: 800 });
    await signIn("admin");
    await open(`${PATH}?quarter=${encodeURIComponent(quarters.previous)}`);
    const wrap = page.locator(".filing-report__wrap");
    const overflow = await wrap.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeGreaterThan(100);
    const company = bodyRows(page).first().locator("th");
    const country = bodyRows(page).first().locator("td").first();
    const product = bodyRows(page).first().locator("td").last();
    const before = { company: (await company.boundingBox())!, country: (await country.boundingBox())!, product: (await product.boundingBox())! };
    await wrap.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expect.poll(async () => (await product.boundingBox())!.x).toBeLessThan(before.product.x - 50);
    const after = { company: (await company.boundingBox())!, country: (await country.boundingBox())! };
    expect(Math.abs(after.company.x - before.company.x)).toBeLessThan(1);
    expect(Math.abs(after.country.x - before.country.x)).toBeLessThan(1);
    // The country column starts where the company column ends: nothing slides under it.
    expect(Math.abs(after.country.x - (after.company.x + after.company.width))).toBeLessThan(2);
  });

  test("downloads the filtered rows as CSV and as Excel, all pages", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(`${PATH}?quarter=${encodeURIComponent(quarters.previous)}&partner=${fixture.partnerId}&page=2`);
    const csvLink = page.getByRole("link", { name: "Download CSV" });
    const csvHref = new URL((await csvLink.getAttribute("href"))!, page.url());
    expect(csvHref.searchParams.get("partner")).toBe(String(fixture.partnerId));
    expect(csvHref.searchParams.get("page")).toBeNull();

    const csvDownload = page.waitForEvent("download");
    await csvLink.click();
    const csv = await readCsv(await csvDownload);
    const header = csv[0];
    expect(header.slice(0, 3)).toEqual(["Company Name", "Country", "Report Status"]);
    expect(csv.slice(1)).toHaveLength(ROWS);
    expect(new Set(csv.slice(1).map((row) => row[0]))).toEqual(new Set([fixture.companyName]));
    expect(new Set(csv.slice(1).map((row) => row[2]))).toEqual(new Set(["Saved"]));
    const productColumn = header.indexOf(await withProductName(page));
    expect(productColumn).toBeGreaterThan(2);
    expect(csv.slice(1).filter((row) => row[productColumn] === "Filed")).toHaveLength(ROWS / 2);

    const xlsxDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Excel" }).click();
    const sheet = await readXlsx(await xlsxDownload);
    expect(sheet[0]).toEqual(header);
    expect(
      sheet
        .slice(1)
        .map((row) => row.join("|"))
        .sort(),
    ).toEqual(
      csv
        .slice(1)
        .map((row) => row.join("|"))
        .sort(),
    );
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the same GET form filters, pages, and the CSV link downloads the filtered rows", async ({ page, open, signIn }) => {
    await signIn("admin");
    if (!fixture) fixture = await createFixture(page.request);
    await open(PATH);
    // The Filter button sends the quarter; the partner list is then the quarter's.
    await page.getByLabel("Quarter").selectOption(quarters.previous);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("quarter")).toBe(quarters.previous);
    await page.getByLabel("Partner").selectOption({ label: fixture.companyName });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`partner=${fixture.partnerId}`));
    expect(new URL(page.url()).searchParams.get("quarter")).toBe(quarters.previous);
    await expect(count(page)).toHaveText(`Rows: ${ROWS}`);
    await expect(bodyRows(page)).toHaveCount(50);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(ROWS - 50);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const csv = await readCsv(await download);
    expect(csv.slice(1)).toHaveLength(ROWS);
    expect(new Set(csv.slice(1).map((row) => row[0]))).toEqual(new Set([fixture.companyName]));
  });
});

test.describe("access", () => {
  test("STAFF reads the report and its downloads; a partner is refused", async ({ page, open, signIn }) => {
    await signIn("staff");
    const response = await open(`${PATH}?quarter=${encodeURIComponent(quarters.previous)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "Filing Plans" })).toBeVisible();
    await expect(bodyRows(page).first()).toBeVisible();
    expect((await page.request.get(`${PATH}/csv`)).status()).toBe(200);
    expect((await page.request.get(`${PATH}/xlsx`)).status()).toBe(200);

    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL("/login");
    await signIn("partner1");
    expect((await open(PATH))?.status()).toBe(403);
    expect((await page.request.get(`${PATH}/csv`)).status()).toBe(403);
  });
});
