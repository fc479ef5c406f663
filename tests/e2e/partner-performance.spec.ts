import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { Download, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Partner performance. The browser tests share one seeded database and other specs add partners
 * and move reports through the workflow, so this spec checks what holds whatever they did: a row
 * per active partner and quarter, the order of the sorted column, the filters, and downloads that
 * hold exactly the rows the page lists.
 */
const PATH = "/admin/partner-performance";
const BOREALIS = "Borealis Pharma Pvt";
const HEADER = ["Company Name", "Quarter", "Submitted", "On time", "Late", "Average days to approval", "Rejections", "Reminders"];

const table = (page: Page) => page.getByTestId("performance-table");
const bodyRows = (page: Page) => table(page).locator("tbody tr");
const filters = (page: Page) => page.getByTestId("performance-filters");
const column = async (page: Page, index: number) => (await bodyRows(page).locator(`> :nth-child(${index})`).allTextContents()).map((text) => text.trim());
/** The table's cells, as text, row by row. */
const tableCells = (page: Page) => bodyRows(page).evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent!.trim())));
/** `Q3 2026` as a number that orders quarters. */
const quarterNumber = (name: string) => {
  const match = /^Q([1-4]) (\d{4})$/.exec(name);
  expect(match, name).not.toBeNull();
  return Number(match![2]) * 4 + Number(match![1]);
};

async function rowCount(page: Page) {
  const text = (await page.getByTestId("performance-count").textContent()) ?? "";
  const match = /^Rows: (\d+)$/.exec(text.trim());
  expect(match, text).not.toBeNull();
  return Number(match![1]);
}

async function csvOf(download: Download) {
  expect(download.suggestedFilename()).toBe("partner-performance.csv");
  const bytes = await fs.readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}

async function xlsxOf(download: Download) {
  expect(download.suggestedFilename()).toBe("partner-performance.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await fs.readFile((await download.path())!)) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("Partner Performance")!;
  const rows = sheet
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

test.describe("with JavaScript", () => {
  test("the admin reads the chart and the table, sorts, filters a quarter and downloads CSV and Excel", async ({ page, open, signIn }) => {
    test.setTimeout(60_000);
    await signIn("admin");
    const response = await open(PATH);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Partner Performance");

    // The chart: one picture with a text alternative that gives the totals.
    const chart = page.getByTestId("performance-chart").locator("svg[role=img]");
    await expect(chart).toBeVisible();
    await expect(page.getByTestId("performance-chart")).toContainText(/\d+ submitted on time, \d+ late, \d+ not submitted/);

    // A row per active partner and quarter: at least the seed's 3 partners × 4 quarters.
    // The sorted column (the company, by default) carries an arrow after its name.
    await expect(table(page).locator("thead th")).toHaveText(HEADER.map((name) => new RegExp(`^${name}( ▲)?$`)));
    await expect(table(page).locator("thead th[aria-sort=ascending]")).toContainText("Company Name");
    const partnerCount = (await filters(page).getByLabel("Partner").locator("option").count()) - 1;
    const quarterNames = (await filters(page).getByLabel("Quarter").locator("option").allTextContents()).slice(1).map((text) => text.trim());
    expect(partnerCount).toBeGreaterThanOrEqual(3);
    expect(quarterNames.length).toBeGreaterThanOrEqual(4);
    expect(await rowCount(page)).toBe(partnerCount * quarterNames.length);
    // The quarters newest first, the first the open quarter.
    expect(quarterNames.map(quarterNumber)).toEqual([...quarterNames.map(quarterNumber)].sort((a, b) => b - a));
    for (const submitted of await column(page, 3)) expect(submitted).toMatch(/^[0-3] \/ 3$/);

    // Sorting: Late, ascending then descending.
    await table(page).getByRole("link", { name: "Late", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?sort=late&dir=asc`);
    await expect(table(page).locator("thead th[aria-sort=ascending]")).toContainText("Late");
    const ascending = (await column(page, 5)).map(Number);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await table(page).getByRole("link", { name: "Late", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?sort=late&dir=desc`);
    await expect(table(page).locator("thead th[aria-sort=descending]")).toContainText("Late");
    const descending = (await column(page, 5)).map(Number);
    expect(descending).toEqual([...descending].sort((a, b) => b - a));

    // A quarter: one row per active partner, the sort kept.
    const quarter = quarterNames[1];
    await filters(page).getByLabel("Quarter").selectOption({ label: quarter });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?quarter=${quarter.replace(" ", "\\+")}&sort=late&dir=desc$`));
    await expect(page.getByTestId("performance-count")).toHaveText(`Rows: ${partnerCount}`);
    expect(new Set(await column(page, 2))).toEqual(new Set([quarter]));
    // The chart still spans every quarter.
    await expect(chart).toBeVisible();
    // A reload keeps the view.
    await page.reload();
    await expect(filters(page).getByLabel("Quarter")).toHaveValue(quarter);

    // The downloads carry the filter and the sort: the rows of the page, in its order.
    const csv = await csvOf(await downloadOf(page, "Download CSV"));
    expect(csv.header).toEqual(HEADER);
    expect(csv.rows).toHaveLength(partnerCount);
    const cells = await tableCells(page);
    expect(csv.rows.slice(0, cells.length)).toEqual(cells);

    const xlsx = await xlsxOf(await downloadOf(page, "Download Excel"));
    expect(xlsx.header).toEqual(HEADER);
    expect(xlsx.rows.map((row) => [row[0], row[1], row[2], String(row[4])])).toEqual(csv.rows.map((row) => [row[0], row[1], row[2], row[4]]));
  });

  test("STAFF reads the page and the downloads", async ({ page, open, signIn }) => {
    await signIn("staff");
    expect((await open(PATH))?.status()).toBe(200);
    await expect(bodyRows(page).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
    expect((await page.request.get(`${PATH}/csv`)).status()).toBe(200);
    expect((await page.request.get(`${PATH}/xlsx`)).status()).toBe(200);
  });

  test("a partner is refused the page and the downloads", async ({ page, signIn }) => {
    await signIn("partner1");
    for (const path of [PATH, `${PATH}/csv`, `${PATH}/xlsx`]) expect((await page.request.get(path)).status()).toBe(403);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the chart is drawn on the server; the filter form, the sort links and a CSV download work", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(PATH);
    await expect(page.getByTestId("performance-chart").locator("svg[role=img]")).toBeVisible();

    await filters(page).getByLabel("Partner").selectOption({ label: BOREALIS });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\?quarter=&partner=\d+&sort=company&dir=asc$/);
    const quarters = await column(page, 2);
    expect(quarters.length).toBeGreaterThanOrEqual(4);
    await expect(page.getByTestId("performance-count")).toHaveText(`Rows: ${quarters.length}`);
    expect(new Set(await column(page, 1))).toEqual(new Set([BOREALIS]));
    // Company, then the quarter newest first.
    expect(quarters.map(quarterNumber)).toEqual([...quarters.map(quarterNumber)].sort((a, b) => b - a));

    // Sort by quarter: oldest first, then newest first.
    await table(page).getByRole("link", { name: "Quarter" }).click();
    await expect(page).toHaveURL(/partner=\d+&sort=quarter&dir=asc$/);
    expect(await column(page, 2)).toEqual([...quarters].reverse());
    await table(page).getByRole("link", { name: "Quarter" }).click();
    await expect(page).toHaveURL(/partner=\d+&sort=quarter&dir=desc$/);
    expect(await column(page, 2)).toEqual(quarters);

    const csv = await csvOf(await downloadOf(page, "Download CSV"));
    expect(csv.header).toEqual(HEADER);
    expect(csv.rows).toEqual(await tableCells(page));
  });
});
