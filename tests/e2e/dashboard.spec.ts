import fs from "node:fs/promises";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { Download, Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The admin dashboard's tabs. The browser tests share one seeded database that other specs
 * change, so the figures are checked against each other (a table against its downloads, a filter
 * against the view without it) rather than as fixed numbers; the integration suite checks them by hand.
 */
const PATH = "/admin/dashboard";
const TABS = [
  ["product", "Product / Project"],
  ["summary", "Summary"],
  ["filings", "Country Filings"],
  ["sales-product", "Sales by Product"],
  ["sales-company", "Sales by Company"],
  ["sales-country", "Sales by Country"],
  ["sales-time", "Sales over Time"],
  ["price", "Price"],
] as const;

const card = (page: Page, table: string) => page.locator(`[data-table="${table}"]`);
const tabNav = (page: Page) => page.getByRole("navigation", { name: "Dashboard" });

async function cellsOf(table: Locator): Promise<string[][]> {
  return table.locator("tbody tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent!.trim())));
}

/** The page's figures as the downloads hold them: the English page groups thousands with commas, a file does not. */
const plainFigures = (rows: string[][], firstFigure: number) =>
  rows.map((row) => row.map((cell, index) => (index >= firstFigure ? cell.replaceAll(",", "") : cell)));

async function download(page: Page, table: string, format: "CSV" | "Excel"): Promise<Download> {
  const downloading = page.waitForEvent("download");
  await card(page, table)
    .getByRole("link", { name: `Download ${format}` })
    .click();
  return downloading;
}

async function csvOf(file: Download, name: string) {
  expect(file.suggestedFilename()).toBe(`${name}.csv`);
  const bytes = await fs.readFile((await file.path())!);
  const records: string[][] = parse(bytes, { bom: true });
  return { header: records[0], rows: records.slice(1) };
}

async function xlsxOf(file: Download, name: string) {
  expect(file.suggestedFilename()).toBe(`${name}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await fs.readFile((await file.path())!)) as unknown as ExcelJS.Buffer);
  const rows = workbook.worksheets[0]
    .getSheetValues()
    .filter(Boolean)
    .map((row) => (row as unknown[]).slice(1));
  return { header: rows[0] as string[], rows: rows.slice(1) };
}

test.describe("with JavaScript", () => {
  test("the admin opens every tab; each shows its tables, and the pictures where there are some", async ({ page, open, signIn }) => {
    test.setTimeout(60_000);
    await signIn("admin");
    await open(PATH);
    for (const [tab, label] of TABS) {
      await tabNav(page).getByRole("link", { name: label, exact: true }).click();
      await expect(page.getByTestId(`dashboard-${tab}`)).toBeVisible();
      await expect(tabNav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
      if (tab !== "product") await expect(page).toHaveURL(`${PATH}?tab=${tab}`);
    }
    // The demo's open quarter has no approved filings yet: every report counts here.
    for (const tab of ["product", "filings", "sales-time", "price"]) {
      await open(`${PATH}?tab=${tab}&unapproved=1`);
      const chart = page.getByTestId(`dashboard-${tab}`).locator('svg[role="img"]').first();
      await expect(chart).toBeVisible();
      await expect(chart.locator("title").first()).not.toBeEmpty();
    }
    // The map draws one shaded country per country of the table of filings.
    await open(`${PATH}?tab=filings&unapproved=1`);
    const countries = new Set((await cellsOf(card(page, "country-product-count"))).map((row) => row[0]));
    expect(countries.size).toBeGreaterThan(0);
    await expect(page.locator('svg[role="img"] use[href*="#"]:not([href$="#land"])')).toHaveCount(countries.size);
    const geometry = await page.request.get(`${PATH}/world-map.svg`);
    expect(geometry.headers()["content-type"]).toContain("image/svg+xml");
  });

  test("filters switch the view and stay in the link: unapproved reports, the future quarters", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(`${PATH}?tab=filings`);
    await expect(page.getByTestId("counted-reports")).toHaveText("Figures count approved reports only.");
    const approvedRows = await cellsOf(card(page, "country-product-count"));

    await page.getByLabel("Include unapproved reports").check();
    await expect(page).toHaveURL(/unapproved=1/);
    await expect(page.getByTestId("counted-reports")).toHaveText("Figures count reports in every state, approved or not.");
    const allRows = await cellsOf(card(page, "country-product-count"));
    expect(allRows.length).toBeGreaterThanOrEqual(approvedRows.length);

    await page.getByRole("combobox", { name: "Product Wise Country Count" }).selectOption("Future-Quarters");
    await expect(page).toHaveURL(/filing=Future-Quarters/);
    // The address changes before the new table is rendered: wait for the table itself.
    const headerCells = card(page, "product-country-count").locator("thead th");
    await expect(headerCells).toHaveCount(5);
    const headers = (await headerCells.allTextContents()).map((text) => text.trim());
    for (const header of headers.slice(1)) expect(header).toMatch(/^Q[1-4] \d{4}$/);
    await page.reload();
    await expect(page.getByLabel("Include unapproved reports")).toBeChecked();
    await expect(page.getByRole("combobox", { name: "Product Wise Country Count" })).toHaveValue("Future-Quarters");
  });

  test("a table downloads as CSV and Excel with exactly its rows", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(`${PATH}?tab=sales-product&unapproved=1`);
    const shown = await cellsOf(card(page, "product-company-sales"));
    expect(shown.length).toBeGreaterThan(0);
    await expect(card(page, "product-company-sales").getByText(`Rows: ${shown.length}`)).toBeVisible();

    const csv = await csvOf(await download(page, "product-company-sales", "CSV"), "product-company-sales");
    expect(csv.header).toEqual(["Product", "Company Name", "Sales total", "Sales value (USD)"]);
    expect(csv.rows).toEqual(plainFigures(shown, 2));

    const xlsx = await xlsxOf(await download(page, "product-company-sales", "Excel"), "product-company-sales");
    expect(xlsx.header).toEqual(csv.header);
    expect(xlsx.rows.map((row) => row.map(String))).toEqual(plainFigures(shown, 2));
    expect(typeof xlsx.rows[0][2]).toBe("number");
  });

  test("the download of an unknown table is the not-found page", async ({ page, open, signIn }) => {
    await signIn("admin");
    for (const format of ["csv", "xlsx"]) {
      const response = await open(`${PATH}/nonsense/${format}`);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveURL("/error-404");
      await expect(page.getByRole("heading", { name: "Oops, an error has occurred. Page not found!" })).toBeVisible();
      await expect(page.getByText("Unexpected Server Error")).toHaveCount(0);
    }
  });

  test("the Summary lists the partners of a view; the administrator reminds them, STAFF cannot", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(`${PATH}?tab=summary`);
    await page.getByLabel("View").selectOption("not-submitted");
    await expect(page).toHaveURL(/view=not-submitted/);
    const reminder = page.getByTestId("bulk-reminder");
    await expect(reminder.getByRole("button", { name: /Send Reminder/ })).toBeEnabled();
    const rows = await cellsOf(card(page, "summary"));
    expect(rows.length).toBeGreaterThan(0);
    await reminder.getByLabel("Report").selectOption("pdt");
    await reminder.getByRole("button", { name: /Send Reminder/ }).click();
    await expect(page).toHaveURL(/tab=summary&view=not-submitted/);
    await expect(page.getByRole("status").or(page.getByRole("alert")).first()).toBeVisible();
    // The reminder form is a native post: a full page load, so wait for React before using the filter.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    await page.getByLabel("View").selectOption("awaiting-approval");
    await expect(page).toHaveURL(/view=awaiting-approval/);
    await expect(page.getByTestId("bulk-reminder")).toHaveCount(0);
    for (const state of await card(page, "summary")
      .locator("tbody [data-state]")
      .evaluateAll((icons) => icons.map((icon) => icon.getAttribute("data-state")))) {
      expect(["submitted", "resubmitted"]).toContain(state);
    }
  });

  test("the Summary shows each partner's open findings, linked to its Sales Report's checks, and sorts by them", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(`${PATH}?tab=summary&view=not-submitted`);
    // Borealis' Sales Report of the open quarter is approved in the demo seed: counted.
    const borealis = card(page, "summary").locator('tr[data-partner="Borealis Pharma Pvt"]');
    await expect(borealis.getByRole("link", { name: /^\d[\d,]*$/ })).toHaveAttribute("href", /^\/admin\/sales-report\/\d+#checks$/);
    await card(page, "summary").getByRole("link", { name: "Findings" }).click();
    await expect(page).toHaveURL(/tab=summary&view=not-submitted&sort=findings/);
    await expect(card(page, "summary").getByRole("columnheader", { name: "Findings" })).toHaveAttribute("aria-sort", "ascending");
    // Another view keeps the order.
    await page.getByLabel("View").selectOption("awaiting-approval");
    await expect(page).toHaveURL(/view=awaiting-approval&sort=findings/);
  });

  test("STAFF reads every tab but cannot send reminders; a partner is refused", async ({ page, open, signIn, browser }) => {
    await signIn("staff");
    expect((await open(`${PATH}?tab=summary&view=not-submitted`))?.status()).toBe(200);
    await expect(page.getByTestId("bulk-reminder").getByRole("button", { name: /Send Reminder/ })).toBeDisabled();
    expect((await page.request.get(`${PATH}/summary/csv`)).status()).toBe(200);

    const partner = await browser.newContext();
    const partnerPage = await partner.newPage();
    const login = await partnerPage.request.post("/login", { form: { email: "partner1@example.org", password: "partner-pass-1" }, maxRedirects: 0 });
    expect(login.status()).toBe(302);
    expect((await partnerPage.request.get(PATH)).status()).toBe(403);
    expect((await partnerPage.request.get(`${PATH}/sales-over-time/csv`)).status()).toBe(403);
    expect((await partnerPage.request.get(`${PATH}/world-map.svg`)).status()).toBe(403);
    await partner.close();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("tabs are links, Apply switches the period, the chart is drawn and a table downloads", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(PATH);
    await expect(page.getByTestId("dashboard-product").locator('svg[role="img"]')).toBeVisible();
    for (const [tab, label] of TABS) {
      await tabNav(page).getByRole("link", { name: label, exact: true }).click();
      await expect(page.getByTestId(`dashboard-${tab}`)).toBeVisible();
      await expect(page.getByTestId(`dashboard-${tab}`).locator("[data-table]").first()).toBeVisible();
    }
    await open(PATH);
    await tabNav(page).getByRole("link", { name: "Sales over Time", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?tab=sales-time`);
    await page.getByLabel("Period").selectOption("year");
    await page.getByLabel("Include unapproved reports").check();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/tab=sales-time&period=year&unapproved=1/);
    await expect(card(page, "sales-over-time").locator("tbody tr").first().locator("td, th").first()).toHaveText(/^\d{4}$/);
    await expect(page.getByTestId("dashboard-sales-time").locator('svg[role="img"]')).toBeVisible();
    const shown = await cellsOf(card(page, "sales-over-time"));
    expect(shown.length).toBeGreaterThan(0);
    for (const row of shown) expect(row[0]).toMatch(/^\d{4}$/);

    const csv = await csvOf(await download(page, "sales-over-time", "CSV"), "sales-over-time");
    expect(csv.header).toEqual(["Period", "Sales total", "Sales value (USD)"]);
    expect(csv.rows).toEqual(plainFigures(shown, 1));
  });
});
