import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { Download, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The Development Timeline consolidated report. The browser tests share one seeded database and
 * other specs may change the demo reports, so the counts checked here are those of Borealis
 * (partner2), whose timeline no spec changes: 2 FDF products (12 stages) and 2 API products (13).
 */
const PATH = "/admin/report/development-timeline";
const BOREALIS = "Borealis Pharma Pvt";

const table = (page: Page) => page.getByTestId("pdt-report");
const bodyRows = (page: Page) => table(page).locator("tbody tr");
const filters = (page: Page) => page.getByTestId("pdt-report-filters");
const column = async (page: Page, index: number) => (await bodyRows(page).locator(`> :nth-child(${index})`).allTextContents()).map((text) => text.trim());

async function rowCount(page: Page) {
  const text = (await page.getByTestId("pdt-report-count").textContent()) ?? "";
  const match = /^Rows: (\d+)$/.exec(text.trim());
  expect(match, text).not.toBeNull();
  return Number(match![1]);
}

async function csvOf(download: Download) {
  expect(download.suggestedFilename()).toBe("pdt-report.csv");
  const bytes = await fs.readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}

async function xlsxOf(download: Download) {
  expect(download.suggestedFilename()).toBe("pdt-report.xlsx");
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await fs.readFile((await download.path())!)) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet("PDT")!;
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
  test("the admin opens the report from the Reports menu, pages, sorts, filters and downloads CSV and Excel", async ({ page, open, signIn }) => {
    test.setTimeout(60_000);
    await signIn("admin");
    await open("/admin/dashboard?nav-style=default");
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await sidebar.getByText("Reports", { exact: true }).click();
    await sidebar.getByRole("link", { name: "Development Timeline" }).click();
    await expect(page).toHaveURL(PATH);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Development Timeline");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    // Four quarters of dates, the selected one last.
    await expect(table(page).locator("thead th")).toHaveCount(5 + 8);
    const total = await rowCount(page);
    expect(total).toBeGreaterThan(50);
    const pages = Math.ceil(total / 50);
    await expect(bodyRows(page)).toHaveCount(50);
    await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Previous" })).toHaveCount(0);

    // Paging: the next page, then a page past the end shows the last.
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`${PATH}?page=2`);
    await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible();
    await open(`${PATH}?page=999`);
    await expect(page.getByText(`Page ${pages} of ${pages}`)).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(total - (pages - 1) * 50);
    await expect(page.getByRole("link", { name: "Next" })).toHaveCount(0);

    // Sorting: the header links, both ways.
    await open(PATH);
    const ascending = await column(page, 1);
    expect(ascending[0]).toBe("Acme Generics Ltd");
    await table(page).getByRole("link", { name: "Company Name" }).click();
    await expect(page).toHaveURL(`${PATH}?sort=company&dir=desc`);
    await expect(table(page).locator("thead th[aria-sort=descending]")).toContainText("Company Name");
    const descending = await column(page, 1);
    expect(descending[0]).not.toBe(ascending[0]);
    await table(page).getByRole("link", { name: "Report Status" }).click();
    await expect(page).toHaveURL(`${PATH}?sort=reportStatus&dir=asc`);
    await expect(table(page).locator("thead th[aria-sort=ascending]")).toContainText("Report Status");

    // Filters: partner and project status; the sort is kept, the page starts again at 1.
    await filters(page).getByLabel("Partner").selectOption({ label: BOREALIS });
    await filters(page).getByLabel("Status", { exact: true }).selectOption({ label: "On Hold" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/partner=\d+&status=ON_HOLD&sort=reportStatus&dir=asc$/);
    await expect(page.getByTestId("pdt-report-count")).toHaveText("Rows: 12");
    await expect(bodyRows(page)).toHaveCount(12);
    expect(new Set(await column(page, 1))).toEqual(new Set([BOREALIS]));
    expect(new Set(await column(page, 2))).toEqual(new Set(["Tenofovir Alafenamide 25 mg"]));
    expect(new Set(await column(page, 4))).toEqual(new Set(["On Hold"]));
    // A reload keeps the view.
    await page.reload();
    await expect(page.getByTestId("pdt-report-count")).toHaveText("Rows: 12");
    await expect(filters(page).getByLabel("Partner")).toHaveValue(/\d+/);

    // The downloads carry the filters: the same 12 rows, every quarter's dates.
    const csv = await csvOf(await downloadOf(page, "Download CSV"));
    expect(csv.header.slice(0, 5)).toEqual(["Company Name", "Product", "Stage", "Status", "Report Status"]);
    expect(csv.header).toHaveLength(5 + 8);
    expect(csv.header[5]).toMatch(/^Start Date \(Q[1-4] \d{4}\)$/);
    expect(csv.rows).toHaveLength(12);
    expect(csv.rows.map((row) => row.slice(0, 3))).toEqual(
      await bodyRows(page).evaluateAll((rows) => rows.map((row) => [...row.children].slice(0, 3).map((cell) => cell.textContent!.trim()))),
    );
    expect(csv.rows[0][11]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(csv.rows[0][11]).toBe((await bodyRows(page).first().locator("> :nth-child(12)").textContent())!.trim());

    const xlsx = await xlsxOf(await downloadOf(page, "Download Excel"));
    expect(xlsx.header).toEqual(csv.header);
    expect(xlsx.rows).toHaveLength(12);
    expect(xlsx.rows.map((row) => row[0])).toEqual(csv.rows.map((row) => row[0]));
    expect(xlsx.rows[0][11]).toBeInstanceOf(Date);

    // An empty result.
    await filters(page).getByLabel("Report Status").selectOption({ label: "Saved" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("pdt-report-count")).toHaveText("Rows: 0");
    await expect(table(page).getByText("No data available!")).toBeVisible();

    // Another quarter from the dropdown.
    const quarter = filters(page).getByLabel("Quarter");
    const previous = (await quarter.locator("option").nth(1).textContent())!.trim();
    await quarter.selectOption({ label: previous });
    await filters(page).getByLabel("Report Status").selectOption({ label: "All" });
    await filters(page).getByLabel("Status", { exact: true }).selectOption({ label: "All" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`(${previous})`);
    await expect(page.getByTestId("pdt-report-count")).toHaveText("Rows: 50");
    await expect(table(page).locator("thead th").last()).toContainText(previous);
  });

  test("STAFF reads the report", async ({ page, open, signIn }) => {
    await signIn("staff");
    const response = await open(PATH);
    expect(response?.status()).toBe(200);
    await expect(bodyRows(page).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
  });

  test("a partner is refused", async ({ page, signIn }) => {
    await signIn("partner1");
    expect((await page.request.get(PATH)).status()).toBe(403);
    expect((await page.request.get(`${PATH}/csv`)).status()).toBe(403);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the same filter form, the pager and a CSV download work", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(PATH);
    const total = await rowCount(page);
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(`${PATH}?page=2`);
    await expect(page.getByText(`Page 2 of ${Math.ceil(total / 50)}`)).toBeVisible();

    await filters(page).getByLabel("Partner").selectOption({ label: BOREALIS });
    await filters(page).getByLabel("Product").selectOption({ label: "Sofosbuvir API" });
    await filters(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/partner=\d+&product=\d+&stage=&status=&reportStatus=&sort=company&dir=asc$/);
    await expect(page.getByTestId("pdt-report-count")).toHaveText("Rows: 13");
    expect(new Set(await column(page, 2))).toEqual(new Set(["Sofosbuvir API"]));

    await table(page).getByRole("link", { name: "Stage" }).click();
    await expect(page).toHaveURL(/sort=stage&dir=asc/);
    const stages = await column(page, 3);
    expect(new Set(stages).size).toBe(13);
    await table(page).getByRole("link", { name: "Stage" }).click();
    await expect(page).toHaveURL(/sort=stage&dir=desc/);
    expect(await column(page, 3)).toEqual([...stages].reverse());

    const csv = await csvOf(await downloadOf(page, "Download CSV"));
    expect(csv.rows).toHaveLength(13);
    expect(new Set(csv.rows.map((row) => `${row[0]} / ${row[1]}`))).toEqual(new Set([`${BOREALIS} / Sofosbuvir API`]));
  });
});
