import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * What every report screen shares: the warning before unsaved edits are left behind, input typed
 * before the page's scripts arrive, a save that posts only what changed, and disabled buttons that
 * say why. The browser tests share one database: partner3's (Cedar's) timeline is only edited
 * without saving, Cedar's Filing Plans get one more saved cell, and the admin saves Borealis's
 * Sales Report (no other spec edits it).
 */
const toast = (page: Page) => page.locator(".toast");
const sidebar = (page: Page) => page.getByRole("complementary", { name: "Main navigation" });
const gridCell = (page: Page, testId: string, row: number, column: number) =>
  page.getByTestId(testId).locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);
const PDT_NOTES_COLUMN = 7;
const SALES_PURCHASER_COLUMN = 5;
const LEAVE_QUESTION = "You have unsaved changes. Leave this page and lose them?";

async function partnerIdOf(page: Page, companyName: string) {
  // The list is paged: the partner is looked up by its name.
  await page.goto(`/admin/partner-list?q=${encodeURIComponent(companyName)}`);
  const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: companyName, exact: true }) }).getAttribute("data-partner-id");
  expect(id).toBeTruthy();
  return id!;
}

test.describe("unsaved changes", () => {
  test("leaving the page with an unsaved edit asks first: Cancel stays with the edit, OK leaves", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/development-timeline");
    const notes = gridCell(page, "report-grid-PDT", 1, PDT_NOTES_COLUMN);
    const typed = `Not saved yet (${Date.now()})`;
    await notes.dblclick();
    await page.locator(".report-grid__editor").fill(typed);
    await page.locator(".report-grid__editor").press("Enter");
    await expect(notes).toHaveText(typed);
    await expect(page.getByRole("toolbar", { name: "Development Timeline" })).toContainText("Unsaved changes");

    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await sidebar(page).getByRole("link", { name: "Filing Plans" }).click();
    await expect.poll(() => asked).toBe(LEAVE_QUESTION);
    await expect(page).toHaveURL("/partner/development-timeline");
    await expect(notes).toHaveText(typed);
    await expect(page.getByRole("toolbar", { name: "Development Timeline" })).toContainText("Unsaved changes");

    page.once("dialog", (dialog) => void dialog.accept());
    await sidebar(page).getByRole("link", { name: "Filing Plans" }).click();
    await expect(page).toHaveURL("/partner/filing-plans");
    await expect(page.getByRole("heading", { name: /^Filing Plans for Cedar Life Sciences/ })).toBeVisible();

    // Nothing was saved.
    await open("/partner/development-timeline");
    await expect(gridCell(page, "report-grid-PDT", 1, PDT_NOTES_COLUMN)).not.toHaveText(typed);
  });
});

test.describe("a slow link", () => {
  test("a choice made in the plain form before the scripts arrive is kept by the grid, and saved", async ({ page, signIn }) => {
    test.setTimeout(90_000);
    await signIn("partner3");
    await page.route("**/build/**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      await route.continue();
    });
    // Not waiting for the page's scripts: the page is used as soon as the server's HTML is there.
    await page.goto("/partner/filing-plans", { waitUntil: "commit" });

    // The server's page: the plain form, before React takes over.
    const table = page.getByTestId("filing-table");
    await expect(table).toBeVisible();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    const firstCountry = (await table.locator("tbody tr").first().locator("th").textContent())!.trim();
    // A product's header: its name, then its type in small print.
    const product = (
      await table
        .locator("thead th")
        .nth(1)
        .evaluate((header) => header.firstChild?.textContent ?? "")
    ).trim();
    const select = table.getByLabel(`${product} in ${firstCountry}`, { exact: true });
    const before = await select.inputValue();
    const chosen = before === "Registered" ? "Filed" : "Registered";
    await select.selectOption({ label: chosen });
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);

    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
    await page.unrouteAll({ behavior: "ignoreErrors" });
    const cell = gridCell(page, "report-grid-Filing", 1, 2);
    await expect(gridCell(page, "report-grid-Filing", 1, 1)).toHaveText(firstCountry);
    await expect(cell).toHaveText(chosen);
    await expect(page.getByRole("toolbar", { name: "Filing Plans" })).toContainText("Unsaved changes");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("invalid-data-dialog"), "the save is refused for cells the partner did not change").toBeHidden();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(gridCell(page, "report-grid-Filing", 1, 2)).toHaveText(chosen);
  });
});

test.describe("a save posts only what changed", () => {
  test("a one-cell edit of a large Sales Report posts that one row", async ({ page, open, signIn }) => {
    test.setTimeout(120_000);
    const ROWS = 2000;
    // The admin may correct any report: Borealis's, which no other spec edits, made large by an upload.
    await signIn("admin");
    const borealisId = await partnerIdOf(page, "Borealis Pharma Pvt");
    const download = await page.request.get(`/admin/sales-report/${borealisId}/xlsx`);
    expect(download.status()).toBe(200);
    const downloaded = new ExcelJS.Workbook();
    await downloaded.xlsx.load((await download.body()) as unknown as ExcelJS.Buffer);
    const sheetRows = (name: string) =>
      downloaded
        .getWorksheet(name)!
        .getSheetValues()
        .filter(Boolean)
        .map((row) => (row as unknown[]).slice(1));
    const [apiHeader, template] = sheetRows("API");
    expect(template).toBeDefined();
    const purchaserAt = apiHeader.indexOf("Purchaser");
    expect(purchaserAt).toBeGreaterThanOrEqual(0);
    // The same workbook with the API sheet's rows replaced by many rows like its first.
    const workbook = new ExcelJS.Workbook();
    const api = workbook.addWorksheet("API");
    api.addRow(apiHeader);
    for (let index = 0; index < ROWS; index++) {
      const values = [...template];
      values[purchaserAt] = `Bulk Purchaser ${index + 1}`;
      api.addRow(values);
    }
    const fdf = workbook.addWorksheet("FDF");
    const [fdfHeader, ...fdfValues] = sheetRows("FDF");
    fdf.addRow(fdfHeader);
    for (const values of fdfValues) fdf.addRow(values);
    const fdfRows = fdfValues.length;

    await open(`/admin/sales-report/${borealisId}`);
    const upload = page.getByTestId("report-upload");
    await upload.getByLabel("Excel file (.xlsx, at most 10 MB)").setInputFiles({
      name: "sales-report.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
    });
    await upload.getByLabel("Replace the quarter's rows").check();
    await upload.getByRole("button", { name: "Upload" }).click();
    await page.getByTestId("replace-dialog").getByRole("button", { name: "Ok", exact: true }).click();
    await expect(toast(page)).toContainText(`Data successfully recorded. Total Rows: ${ROWS + fdfRows}`, { timeout: 30_000 });

    await open(`/admin/sales-report/${borealisId}`);
    const purchaser = gridCell(page, "report-grid-API", 1, SALES_PURCHASER_COLUMN);
    await expect(purchaser).toHaveText("Bulk Purchaser 1");
    await purchaser.dblclick();
    await page.locator(".report-grid__editor").fill("Purchaser corrected by the admin");
    await page.locator(".report-grid__editor").press("Enter");

    const posting = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/admin/sales-report/"));
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const request = await posting;
    const body = request.postDataBuffer()!;
    expect(body.length).toBeLessThan(10 * 1024);
    expect(request.headers()["content-type"]).toMatch(/^application\/json/);
    const { payload } = JSON.parse(body.toString("utf8"));
    expect(payload.API).toHaveLength(1);
    expect(payload.API[0]).toMatchObject({ purchaser: "Purchaser corrected by the admin" });
    expect(payload.FDF).toHaveLength(0);
    await expect(toast(page)).toContainText(`Data successfully recorded. Total Rows: ${ROWS + fdfRows}`);
    await expect(gridCell(page, "report-grid-API", 1, SALES_PURCHASER_COLUMN)).toHaveText("Purchaser corrected by the admin");
    await expect(gridCell(page, "report-grid-API", 2, SALES_PURCHASER_COLUMN)).toHaveText("Bulk Purchaser 2");
  });
});

test.describe("disabled buttons say why", () => {
  test("STAFF reads a timeline: Save, Approve and Reject are disabled with the reason", async ({ page, open, signIn }) => {
    await signIn("staff");
    const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
    await open(`/admin/development-timeline/${cedarId}`);
    await expect(page.getByText("You have read-only access to this report.")).toBeVisible();
    for (const name of ["Save", "Approve", "Reject"]) {
      const button = page.getByRole("toolbar", { name: "Development Timeline" }).getByRole("button", { name, exact: true });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute("title", "Staff members can read reports but cannot change them.");
    }
    // Nor can the grid be edited.
    await gridCell(page, "report-grid-PDT", 1, PDT_NOTES_COLUMN).dblclick();
    await expect(page.locator(".report-grid__editor")).toHaveCount(0);
  });
});
