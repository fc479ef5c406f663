import fs from "node:fs/promises";
import ExcelJS from "exceljs";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { startMailbox } from "./support/mailbox";

/**
 * The Sales Report screen. The browser tests share one database: only partner1 (Acme, with
 * JavaScript) and partner3 (Cedar, without JavaScript) edit their sales, and the admin decides.
 * The tests of a describe run in order; the workflow leaves partner1's report a draft again (reopened),
 * and partner3's 'Nothing to report' rejected, which the test without JavaScript starts from.
 */
const year = String(new Date().getUTCFullYear());
const toast = (page: Page) => page.locator(".toast");
const grid = (page: Page, kind: "API" | "FDF" = "API") => page.getByTestId(`report-grid-${kind}`);
/** A grid cell by 1-based row number and column position (the Sr.No column is 1). */
const cell = (page: Page, row: number, column: number, kind: "API" | "FDF" = "API") =>
  grid(page, kind).locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);
const API_COLUMN = { year: 2, month: 3, country: 4, purchaser: 5, product: 6, quantity: 7, total: 8 };
const FDF_ROYALTY_DUE_COLUMN = 19;
const FDF_COLUMN = {
  year: 2,
  month: 3,
  country: 4,
  product: 6,
  quantity: 10,
  currency: 11,
  priceLocal: 12,
  rate: 13,
  priceUsd: 14,
  gross: 15,
  net: 17,
  royaltyPercent: 18,
  royaltyDue: FDF_ROYALTY_DUE_COLUMN,
};
/** The FDF product of partner1's demo draft that is not in its product list (see the seed). */
const SEEDED_UNVERIFIED = "Efavirenz/Lamivudine/TDF 600/300/300 mg";
/** The API name partner3 enters without JavaScript, which the admin then rejects. */
const UNKNOWN_NOJS_API = "Islatravir API (no-JS)";

/** Writes a reason for each line under "Changes to explain" and saves them (the same form with and without JavaScript). */
async function explainEveryChange(page: Page) {
  const changes = page.getByTestId("changes-to-explain");
  const reasons = changes.getByRole("textbox", { name: "Reason" });
  const count = await reasons.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) await reasons.nth(index).fill(`Reason ${index + 1} from the partner.`);
  await changes.getByRole("button", { name: "Save reasons" }).click();
  await expect(toast(page)).toContainText("Reasons saved.");
  await expect(changes).toContainText("Each line has a reason.");
}

async function partnerIdOf(page: Page, companyName: string) {
  // The list is paged: the partner is looked up by its name.
  await page.goto(`/admin/partner-list?q=${encodeURIComponent(companyName)}`);
  const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: companyName, exact: true }) }).getAttribute("data-partner-id");
  expect(id).toBeTruthy();
  return id!;
}

/** A cell the grid has not rendered yet (it renders the columns in view): moves the selection there with the keyboard. */
async function scrollToCell(page: Page, row: number, column: number, kind: "API" | "FDF") {
  await cell(page, row, 2, kind).click();
  for (let at = 2; at < column; at++) await page.keyboard.press("ArrowRight");
  return cell(page, row, column, kind);
}

/** The first grid row (1-based) with an empty Year cell. */
async function firstEmptyRow(page: Page, kind: "API" | "FDF" = "API") {
  for (let row = 1; row < 400; row++) {
    const text = (await cell(page, row, API_COLUMN.year, kind).textContent())?.trim();
    if (!text) return row;
  }
  throw new Error("no empty row");
}

/** Pastes tab-separated text into the selected cell as the browser does for Ctrl+V from a spreadsheet. */
async function pasteInto(target: Locator, text: string) {
  await target.click();
  await target.evaluate((element, clipboardText) => {
    const data = new DataTransfer();
    data.setData("text/plain", clipboardText);
    (document.activeElement ?? element).dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** The cell `columns` to the right of the selected one (after `scrollToCell` or a commit), moving there with the keyboard. */
async function moveRight(page: Page, row: number, from: number, columns: number, kind: "API" | "FDF") {
  for (let step = 0; step < columns; step++) await page.keyboard.press("ArrowRight");
  return cell(page, row, from + columns, kind);
}

/** Types a value into a grid cell through its editor (Enter commits). */
async function typeInto(page: Page, target: Locator, value: string) {
  await target.dblclick();
  await page.locator(".report-grid__editor").fill(value);
  await page.locator(".report-grid__editor").press("Enter");
}

async function switchUser(page: Page, signIn: (account: "admin" | "partner1" | "partner3") => Promise<void>, account: "admin" | "partner1" | "partner3") {
  await page.context().clearCookies();
  await signIn(account);
}

async function cellsOf(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  return workbook.worksheets.map((sheet) => ({
    name: sheet.name,
    rows: sheet
      .getSheetValues()
      .filter(Boolean)
      .map((row) => (row as unknown[]).slice(1)),
  }));
}

test.describe.serial("with JavaScript (partner1 and the admin)", () => {
  test("the Excel download, uploaded again in place of the rows, gives back the same rows", async ({ page, open, signIn }) => {
    await signIn("partner1");
    await open("/partner/sales-report");
    await expect(page.getByRole("heading", { name: /^Sales Report for Acme Generics Ltd \(Q\d \d{4}\)$/ })).toBeVisible();

    const first = await page.request.get("/partner/sales-report/xlsx");
    expect(first.status()).toBe(200);
    expect(first.headers()["content-disposition"]).toMatch(/^attachment; filename="sales-report_Acme-Generics-Ltd_\d{4}-Q[1-4]\.xlsx"$/);
    const before = await cellsOf(await first.body());
    expect(before.map((sheet) => sheet.name)).toEqual(["API", "FDF", "Info", "Lists"]);
    expect(before[0].rows[0]).toEqual(["Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    const total = before[0].rows.length - 1 + before[1].rows.length - 1;
    expect(total).toBeGreaterThan(0);

    const upload = page.getByTestId("report-upload");
    await upload.getByLabel("Excel file (.xlsx, at most 10 MB)").setInputFiles({
      name: "sales-report.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: await first.body(),
    });
    await upload.getByLabel("Replace the quarter's rows").check();
    await upload.getByRole("button", { name: "Upload" }).click();
    // Replacing saved rows asks first: Cancel leaves everything as it is, Ok uploads.
    const confirm = page.getByTestId("replace-dialog");
    await expect(confirm).toContainText(`Replace the ${total} rows saved for this quarter with the workbook's rows?`);
    await expect(confirm.getByRole("button")).toHaveText(["Cancel", "Ok"]);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(toast(page)).toHaveCount(0);
    await upload.getByRole("button", { name: "Upload" }).click();
    await confirm.getByRole("button", { name: "Ok", exact: true }).click();
    await expect(toast(page)).toContainText(`Data successfully recorded. Total Rows: ${total}`);
    await expect(toast(page)).not.toContainText("Deleted Rows");

    const after = await cellsOf(await (await page.request.get("/partner/sales-report/xlsx")).body());
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));

    // A failed upload right after takes the success message away and shows its problems.
    await upload
      .getByLabel("Excel file (.xlsx, at most 10 MB)")
      .setInputFiles({ name: "notes.xlsx", mimeType: "text/plain", buffer: Buffer.from("not a workbook") });
    await upload.getByLabel("Append to them").check();
    await upload.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByTestId("upload-problems")).toContainText("The file could not be read as an Excel workbook (.xlsx).");
    await expect(toast(page)).toHaveCount(0, { timeout: 1000 });
  });

  test("a save that started before someone else's is refused with who and when, and the unsaved grid stays", async ({ page, open, signIn, browser }) => {
    await signIn("admin");
    const acmeId = await partnerIdOf(page, "Acme Generics Ltd");
    await open(`/admin/sales-report/${acmeId}`);

    // Meanwhile partner1 saves a change in its own browser.
    const partnerContext = await browser.newContext();
    const partnerPage = await partnerContext.newPage();
    expect((await partnerPage.request.post("/login", { form: { email: "partner1@example.org", password: "partner-pass-1" }, maxRedirects: 0 })).status()).toBe(
      302,
    );
    await partnerPage.goto("/partner/sales-report");
    await partnerPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await cell(partnerPage, 1, API_COLUMN.purchaser).dblclick();
    await partnerPage.locator(".report-grid__editor").fill("Purchaser saved by the partner");
    await partnerPage.locator(".report-grid__editor").press("Enter");
    await partnerPage.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(partnerPage)).toContainText("Data successfully recorded.");
    await partnerContext.close();

    await cell(page, 1, API_COLUMN.purchaser).dblclick();
    await page.locator(".report-grid__editor").fill("Purchaser typed by the admin");
    await page.locator(".report-grid__editor").press("Enter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("report-error")).toContainText(/This report was saved by .+ on \d{1,2}\w\w \w{3} \d{4}, \d\d:\d\d [AP]M after you opened it/);
    await expect(cell(page, 1, API_COLUMN.purchaser)).toHaveText("Purchaser typed by the admin");

    await page.getByRole("link", { name: "Reload the report" }).click();
    await expect(cell(page, 1, API_COLUMN.purchaser)).toHaveText("Purchaser saved by the partner");
  });

  test("an FDF value off the calculated one is saved, and the page lists it after the save", async ({ page, open, signIn }) => {
    await signIn("partner1");
    await open("/partner/sales-report");
    await page.getByRole("tab", { name: "FDF" }).click();
    const royaltyDue = await scrollToCell(page, 1, FDF_ROYALTY_DUE_COLUMN, "FDF");
    const calculated = (await royaltyDue.textContent())!.trim();
    await royaltyDue.dblclick();
    await page.locator(".report-grid__editor").fill("1");
    await page.locator(".report-grid__editor").press("Enter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data successfully recorded.");
    await expect(page.getByTestId("report-warnings")).toContainText(`FDF row 1: Royalty Due differs from the calculated ${calculated} by more than 1 %.`);
    await expect(await scrollToCell(page, 1, FDF_ROYALTY_DUE_COLUMN, "FDF")).toHaveText("1");

    // Shown once: a reload no longer lists it; putting the value back saves without a warning.
    await open("/partner/sales-report");
    await expect(page.getByTestId("report-page")).toBeVisible();
    await expect(page.getByTestId("report-warnings")).toHaveCount(0);
    await page.getByRole("tab", { name: "FDF" }).click();
    await (await scrollToCell(page, 1, FDF_ROYALTY_DUE_COLUMN, "FDF")).dblclick();
    await page.locator(".report-grid__editor").fill(calculated);
    await page.locator(".report-grid__editor").press("Enter");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data successfully recorded.");
    await expect(page.getByTestId("report-warnings")).toHaveCount(0);

    // The very same message again, right after: it shows again.
    await toast(page).getByRole("button", { name: "Close" }).click();
    await expect(toast(page)).toHaveCount(0);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data successfully recorded.");
  });

  test("paste, fix an invalid cell, save, submit; the admin verifies a new product, rejects; resubmit; approve", async ({ page, open, signIn }) => {
    test.setTimeout(120_000);
    const newProduct = `E2E API ${Date.now()}`;
    await signIn("partner1");
    await open("/partner/sales-report");
    const start = await firstEmptyRow(page);

    // A block from a spreadsheet: two rows, the second with a month that does not exist.
    await pasteInto(
      cell(page, start, API_COLUMN.year),
      `${year}\tMarch\tIndia\tE2E Purchaser\tDolutegravir API\t1,000\t5000\n${year}\tSmarch\tKenya\tE2E Buyer\t${newProduct}\t10\t100\n`,
    );
    await expect(cell(page, start, API_COLUMN.purchaser)).toHaveText("E2E Purchaser");
    await expect(cell(page, start + 1, API_COLUMN.product)).toHaveText(newProduct);
    await expect(cell(page, start + 1, API_COLUMN.month)).toHaveClass(/report-grid__cell--invalid/);
    await expect(cell(page, start, API_COLUMN.month)).not.toHaveClass(/report-grid__cell--invalid/);

    // Saving with the invalid cell: 'Invalid data!' with the row and column, nothing posted.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const invalid = page.getByTestId("invalid-data-dialog");
    await expect(invalid).toContainText("Invalid data!");
    await expect(invalid).toContainText("Please Check API Table");
    await expect(invalid).toContainText(`Row No. ${start + 1}: Month`);
    await invalid.getByRole("button", { name: "Ok" }).click();

    // Fix it with the keyboard: double-click opens the editor, Enter commits.
    await cell(page, start + 1, API_COLUMN.month).dblclick();
    await page.locator(".report-grid__editor").fill("May");
    await page.locator(".report-grid__editor").press("Enter");
    await expect(cell(page, start + 1, API_COLUMN.month)).toHaveText("May");
    await expect(grid(page).locator(".report-grid__cell--invalid")).toHaveCount(0);

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText(/Data successfully recorded\. Total Rows: \d+, Newly Added Rows: 2/);
    await expect(cell(page, start, API_COLUMN.quantity)).toHaveText("1000");

    // Submit Report asks for the comment.
    await page.getByRole("button", { name: "Submit Report" }).click();
    const dialog = page.getByTestId("comment-dialog");
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expect(dialog).toContainText("Enter comments for admin");
    await dialog.getByLabel("Comment").fill("Sales of the quarter, one new API.");
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    // The demo draft sells in two countries new this quarter: Submit waits for a reason for each.
    await expect(page.getByTestId("report-error")).toContainText(
      "Write a reason for each line under “Changes to explain” before submitting: 2 without a reason.",
    );
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Saved");
    await explainEveryChange(page);
    await page.getByRole("button", { name: "Submit Report" }).click();
    await dialog.getByLabel("Comment").fill("Sales of the quarter, one new API.");
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText(/Report Status: (Submitted|Resubmitted) on \d/);
    // Submitted: the reasons are read, no longer written.
    await expect(page.getByTestId("changes-to-explain")).toContainText("Reason: Reason 1 from the partner.");
    await expect(page.getByTestId("changes-to-explain").locator("textarea")).toHaveCount(0);

    // The admin: the new product holds up the decision until it is verified.
    await switchUser(page, signIn, "admin");
    const acmeId = await partnerIdOf(page, "Acme Generics Ltd");
    await open(`/admin/sales-report/${acmeId}`);
    await expect(page.getByRole("link", { name: "Back to the partner list" })).toHaveAttribute("href", "/admin/partner-list");
    await expect(page.getByTestId("verification-warning")).toContainText("Product verification pending!");
    await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
    await page.getByRole("button", { name: "View Details" }).click();
    const verification = page.getByTestId("verification-dialog");
    const item = verification.getByTestId("pending-product").filter({ hasText: newProduct });
    await expect(item).toBeVisible();
    await verification.getByRole("button", { name: "Close" }).click();
    await expect(page.getByTestId("unverified-products")).toContainText("Unverified Products");

    await page.getByRole("button", { name: "View Details" }).click();
    await item.getByLabel("Therapy Area").selectOption("HIV");
    // Approving needs the product status: refused in the page, nothing posted.
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(item.getByText("Please select Product Status!")).toBeVisible();
    await expect(page.getByTestId("verification-warning")).toContainText("Product verification pending!");
    await item.getByLabel("Product Status").selectOption("UNDER_DEVELOPMENT");
    await expect(item.getByText("Please select Product Status!")).toHaveCount(0);
    await item.getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Product approved and assigned to the partner.");
    // The dialog stays open on what is left: the demo draft's own unknown FDF product, mapped to the product it is.
    await expect(page.getByTestId("verification-warning")).toContainText("Product verification pending!");
    await expect(item).toHaveCount(0);
    const seeded = verification.getByTestId("pending-product").filter({ hasText: SEEDED_UNVERIFIED });
    await seeded.getByLabel("Map to an existing product").selectOption({ label: "TLD (Tenofovir/Lamivudine/Dolutegravir)" });
    await seeded.getByLabel("Product Status").selectOption("FILED");
    await seeded.getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Product approved and assigned to the partner.");
    await expect(page.getByTestId("verification-warning")).toHaveCount(0);

    await page.getByRole("button", { name: "Reject", exact: true }).click();
    const decision = page.getByTestId("comment-dialog");
    await decision.getByRole("button", { name: "Reject" }).click();
    await expect(decision).toContainText("Enter comments for partner");
    await decision.getByLabel("Comment").fill("Please add the FDF sales of Kenya.");
    await decision.getByRole("button", { name: "Reject" }).click();
    await expect(toast(page)).toContainText("Report Rejected!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Rejected on");

    // The partner reads the comment (the unread badge goes to 0) and resubmits.
    await switchUser(page, signIn, "partner1");
    await open("/partner/sales-report");
    const messages = page.getByTestId("report-messages");
    await expect(messages.getByTestId("unread-count")).toHaveText("1");
    await messages.locator("summary").click();
    await expect(messages).toContainText("Please add the FDF sales of Kenya.");
    await expect(messages.getByTestId("unread-count")).toHaveText("0");
    // Read on the server too: the count stays 0 after a reload.
    await expect.poll(async () => (await page.request.get("/partner/sales-report")).ok()).toBe(true);
    await open("/partner/sales-report");
    await expect(page.getByTestId("report-messages").getByTestId("unread-count")).toHaveText("0");
    // The verification gave the Uganda row its product: a line new since the submission asks for its reason.
    await expect(page.getByTestId("changes-to-explain")).toContainText("Without a reason: 1.");
    await explainEveryChange(page);
    await page.getByRole("button", { name: "Submit Report" }).click();
    await page.getByTestId("comment-dialog").getByLabel("Comment").fill("Kenya added.");
    await page.getByTestId("comment-dialog").getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Resubmitted on");

    await switchUser(page, signIn, "admin");
    await open(`/admin/sales-report/${acmeId}`);
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByTestId("comment-dialog").getByLabel("Comment").fill("Thank you.");
    await page.getByTestId("comment-dialog").getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Report Approved!");

    // Approved: the partner can no longer edit, save or submit.
    await switchUser(page, signIn, "partner1");
    await open("/partner/sales-report");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Approved on");
    await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Submit Report" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Delete Selected Rows" })).toBeDisabled();
    await cell(page, 1, API_COLUMN.purchaser).dblclick();
    await expect(page.locator(".report-grid__editor")).toHaveCount(0);
    await expect(page.getByTestId("report-upload")).toHaveCount(0);

    // The admin reopens it (comment required): a draft again, as the other specs expect partner1's sales.
    await switchUser(page, signIn, "admin");
    await open(`/admin/sales-report/${acmeId}`);
    await page.getByRole("button", { name: "Reopen" }).click();
    await page.getByTestId("comment-dialog").getByLabel("Comment").fill("Reopened to correct the purchaser names.");
    await page.getByTestId("comment-dialog").getByRole("button", { name: "Reopen" }).click();
    await expect(toast(page)).toContainText("Report reopened!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Saved on");
  });

  test("partner3 has nothing to report this quarter; the admin rejects it and the partner is mailed", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      await signIn("partner3");
      await open("/partner/sales-report");
      await expect(page.getByTestId("report-status")).toContainText("Report Status: Not started");
      // Typing a row makes the report one with rows: the control waits for an empty grid.
      const nothing = page.getByRole("button", { name: "Nothing to report this quarter" });
      await cell(page, 1, API_COLUMN.purchaser).dblclick();
      await page.locator(".report-grid__editor").fill("Somebody");
      await page.locator(".report-grid__editor").press("Enter");
      await expect(nothing).toBeDisabled();
      await open("/partner/sales-report");
      await expect(nothing).toBeEnabled();

      await nothing.click();
      const dialog = page.getByTestId("comment-dialog");
      await expect(dialog).toContainText("Submits this quarter's Sales Report without rows: you had no API or FDF sales to report.");
      await dialog.getByRole("button", { name: "Submit Report" }).click();
      await expect(dialog).toContainText("Enter comments for admin");
      await dialog.getByLabel("Comment").fill("No sales in this quarter.");
      await dialog.getByRole("button", { name: "Submit Report" }).click();
      await expect(toast(page)).toContainText("Report has been submitted to the admin!");
      await expect(page.getByTestId("report-status")).toContainText("Report Status: Submitted on");
      await expect(page.getByTestId("report-status")).toContainText("Nothing to report this quarter");

      await switchUser(page, signIn, "admin");
      const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
      await open(`/admin/sales-report/${cedarId}`);
      await expect(page.getByTestId("report-status")).toContainText("Nothing to report this quarter");
      await page.getByRole("button", { name: "Reject", exact: true }).click();
      await page.getByTestId("comment-dialog").getByLabel("Comment").fill("Your shipments to Kenya are missing.");
      await page.getByTestId("comment-dialog").getByRole("button", { name: "Reject" }).click();
      await expect(toast(page)).toContainText("Report Rejected!");

      await expect.poll(() => mailbox.received.filter((mail) => mail.to.includes("partner3@example.org")).length).toBe(2);
      const mails = mailbox.received.filter((mail) => mail.to.includes("partner3@example.org")).map((mail) => mail.raw.replace(/=\r?\n/g, ""));
      expect(mails[0]).toContain("Nothing to report this quarter");
      expect(mails[1]).toMatch(/Subject: Your Sales Report for Q\d \d{4} was rejected/);
      expect(mails[1]).toContain("Your shipments to Kenya are missing.");
    } finally {
      await mailbox.close();
    }
  });
});

test.describe("forgiving input with JavaScript (partner1)", () => {
  test("'oct' and lower-case names are accepted, FDF values are calculated as they are typed, Add Row says when it clamps", async ({ page, open, signIn }) => {
    test.setTimeout(90_000);
    await signIn("partner1");
    await open("/partner/sales-report");
    await page.getByRole("tab", { name: "FDF" }).click();

    // FDF: month as a number, names in other cases; the derived values follow the typing.
    const row = await firstEmptyRow(page, "FDF");
    await typeInto(page, cell(page, row, FDF_COLUMN.year, "FDF"), year);
    await typeInto(page, cell(page, row, FDF_COLUMN.month, "FDF"), "10");
    await typeInto(page, cell(page, row, FDF_COLUMN.country, "FDF"), "KENYA");
    await typeInto(page, cell(page, row, FDF_COLUMN.product, "FDF"), "tld (tenofovir/lamivudine/dolutegravir)");
    await typeInto(page, await scrollToCell(page, row, FDF_COLUMN.quantity, "FDF"), "100");
    await typeInto(page, await scrollToCell(page, row, FDF_COLUMN.currency, "FDF"), "usd");
    await typeInto(page, await scrollToCell(page, row, FDF_COLUMN.priceLocal, "FDF"), "2.5");
    // Long column names wrap instead of being cut.
    const header = grid(page, "FDF").getByRole("columnheader", { name: "Gross Sale Price (per pack) (Local Currency)" }).locator("span");
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight)).toBe(true);
    await expect(cell(page, row, FDF_COLUMN.rate, "FDF")).toHaveText("1");
    const gross = await moveRight(page, row, FDF_COLUMN.priceLocal, FDF_COLUMN.gross - FDF_COLUMN.priceLocal, "FDF");
    await expect(gross).toHaveText("250");
    await expect(gross.locator("[data-derived]")).toHaveAttribute("title", "Calculated when saved");
    // Royalty % and Royalty Due are the partner's to type: an empty Royalty Due is flagged (spec section 5).
    await typeInto(page, await moveRight(page, row, FDF_COLUMN.gross, FDF_COLUMN.royaltyPercent - FDF_COLUMN.gross, "FDF"), "5");
    await expect(cell(page, row, FDF_COLUMN.royaltyDue, "FDF")).toHaveClass(/report-grid__cell--invalid/);
    await typeInto(page, cell(page, row, FDF_COLUMN.royaltyDue, "FDF"), "12.5");
    await expect(grid(page, "FDF").locator(".report-grid__cell--invalid")).toHaveCount(0);

    // API: 'oct', a lower-case country and product.
    await page.getByRole("tab", { name: "API" }).click();
    const apiRow = await firstEmptyRow(page);
    await typeInto(page, cell(page, apiRow, API_COLUMN.year), year);
    await typeInto(page, cell(page, apiRow, API_COLUMN.month), "oct");
    await typeInto(page, cell(page, apiRow, API_COLUMN.country), "india");
    await typeInto(page, cell(page, apiRow, API_COLUMN.product), "dolutegravir api");
    // A row that misses its quantity is flagged as it is typed.
    await expect(cell(page, apiRow, API_COLUMN.quantity)).toHaveClass(/report-grid__cell--invalid/);
    await typeInto(page, cell(page, apiRow, API_COLUMN.quantity), "7");
    await expect(grid(page).locator(".report-grid__cell--invalid")).toHaveCount(0);

    // Add Row adds at most 10,000 rows and says so.
    const addRow = page.getByRole("spinbutton", { name: "Add Row" });
    await addRow.fill("25000");
    await page.getByRole("button", { name: "Add rows" }).click();
    await expect(page.getByText("At most 10,000 rows can be added at a time: 10,000 rows were added.")).toBeVisible();
    await expect(addRow).toHaveValue("10000");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText(/Data successfully recorded\. Total Rows: \d+, Newly Added Rows: 2/);
    await expect(cell(page, apiRow, API_COLUMN.month)).toHaveText("October");
    await expect(cell(page, apiRow, API_COLUMN.country)).toHaveText("India");
    await expect(cell(page, apiRow, API_COLUMN.product)).toHaveText("Dolutegravir API");
    await page.getByRole("tab", { name: "FDF" }).click();
    await expect(cell(page, row, FDF_COLUMN.month, "FDF")).toHaveText("October");
    await expect(cell(page, row, FDF_COLUMN.country, "FDF")).toHaveText("Kenya");
    await expect(cell(page, row, FDF_COLUMN.product, "FDF")).toHaveText("TLD (Tenofovir/Lamivudine/Dolutegravir)");
    await expect(await scrollToCell(page, row, FDF_COLUMN.royaltyDue, "FDF")).toHaveText("12.5");
  });
});

test.describe("without JavaScript (partner3 and the admin)", () => {
  test.use({ javaScriptEnabled: false });

  test("the form saves, reports invalid cells in the page, submits; the admin approves with a plain form", async ({ page, open, signIn }) => {
    test.setTimeout(90_000);
    await signIn("partner3");
    await open("/partner/sales-report");
    await expect(page.getByRole("heading", { name: /^Sales Report for Cedar Life Sciences/ })).toBeVisible();
    // Rejected 'Nothing to report' (the test before): the plain form offers it again while the report has no rows.
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Rejected on");
    const nothing = page.getByTestId("nothing-to-report-form");
    await nothing.getByRole("button", { name: "Submit Report" }).click();
    await expect(page.getByTestId("nothing-to-report-form")).toContainText("Enter comments for admin");

    const table = page.getByTestId("sales-table-API");
    await table.getByLabel("Year, row 1", { exact: true }).fill(year);
    await table.getByLabel("Month, row 1", { exact: true }).fill("Oct");
    await table.getByLabel("Country, row 1", { exact: true }).fill("Atlantis");
    await table.getByLabel("Purchaser, row 1", { exact: true }).fill("No-JS Purchaser");
    await table.getByLabel("Api Name, row 1", { exact: true }).fill("abacavir api");
    await table.getByLabel("Quantity (Kg), row 1", { exact: true }).fill("12.5");
    await table.getByLabel("Total Value (USD), row 1", { exact: true }).fill("2,500");
    // A name that is not one of Cedar's products: kept, and it waits for the admin's verification.
    await table.getByLabel("Year, row 2", { exact: true }).fill(year);
    await table.getByLabel("Month, row 2", { exact: true }).fill("November");
    await table.getByLabel("Country, row 2", { exact: true }).fill("Kenya");
    await table.getByLabel("Purchaser, row 2", { exact: true }).fill("No-JS Purchaser");
    await table.getByLabel("Api Name, row 2", { exact: true }).fill(UNKNOWN_NOJS_API);
    await table.getByLabel("Quantity (Kg), row 2", { exact: true }).fill("1");
    await page.getByRole("button", { name: "Save", exact: true }).click();

    const invalid = page.getByTestId("invalid-data");
    await expect(invalid).toContainText("Invalid data!");
    await expect(invalid).toContainText("Row No. 1: Country");
    await expect(table.getByLabel("Country, row 1", { exact: true })).toHaveValue("Atlantis");
    await expect(table.getByLabel("Country, row 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(table.getByLabel("Purchaser, row 1", { exact: true })).toHaveValue("No-JS Purchaser");

    // Forgiving: the month's abbreviation and lower-case names are saved in their own spelling.
    await table.getByLabel("Country, row 1", { exact: true }).fill("south africa");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data successfully recorded. Total Rows: 2, Newly Added Rows: 2");
    await expect(table.getByLabel("Total Value (USD), row 1", { exact: true })).toHaveValue("2500");
    await expect(table.getByLabel("Month, row 1", { exact: true })).toHaveValue("October");
    await expect(table.getByLabel("Country, row 1", { exact: true })).toHaveValue("South Africa");
    await expect(table.getByLabel("Api Name, row 1", { exact: true })).toHaveValue("Abacavir API");

    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect(page.getByText("Enter comments for admin").first()).toBeVisible();
    await page.getByRole("textbox", { name: "Comment" }).fill("Our first sales.");
    await page.getByRole("button", { name: "Submit Report" }).click();
    // Last quarter's sales are gone from this one: Submit waits for a reason for each line.
    await expect(page.getByTestId("report-error")).toContainText("before submitting:");
    await explainEveryChange(page);
    await page.getByRole("textbox", { name: "Comment" }).fill("Our first sales.");
    await page.getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Resubmitted on");
    await expect(page.getByTestId("nothing-to-report-form")).toHaveCount(0);

    await switchUser(page, signIn, "admin");
    const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
    await open(`/admin/sales-report/${cedarId}`);
    // The unknown name first: approving it needs a product status (the server says so); it is rejected.
    await expect(page.getByTestId("verification-warning")).toContainText("Product verification pending!");
    await page.getByText("View Details").click();
    const pending = page.getByTestId("pending-product").filter({ hasText: UNKNOWN_NOJS_API });
    await pending.getByLabel("Therapy Area").selectOption("HIV");
    await pending.getByRole("button", { name: "Approve" }).click();
    await expect(pending.getByText("Please select Product Status!")).toBeVisible();
    await pending.getByRole("button", { name: "Reject" }).click();
    await expect(toast(page)).toContainText("Product rejected.");
    await expect(page.getByTestId("verification-warning")).toHaveCount(0);
    const decision = page.getByTestId("decision-form");
    await decision.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("decision-form")).toContainText("Enter comments for partner");
    await page.getByTestId("decision-form").getByLabel("Comment").fill("Approved, thank you.");
    await page.getByTestId("decision-form").getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Report Approved!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Approved on");

    await switchUser(page, signIn, "partner3");
    await open("/partner/sales-report");
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    await expect(page.getByTestId("sales-table-API")).toContainText("No-JS Purchaser");
    await expect(page.getByTestId("sales-table-API").locator("input")).toHaveCount(0);
  });

  test("the admin fills in the blank template offline; Replace over saved rows needs the confirmation box", async ({ page, open, signIn }) => {
    await signIn("admin");
    const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
    await open(`/admin/sales-report/${cedarId}`);
    const upload = page.getByTestId("report-upload");
    const downloading = page.waitForEvent("download");
    await upload.getByRole("link", { name: "Download a blank template" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^sales-report-template_Cedar-Life-Sciences_\d{4}-Q[1-4]\.xlsx$/);
    const template = new ExcelJS.Workbook();
    await template.xlsx.load((await fs.readFile((await download.path())!)) as unknown as ExcelJS.Buffer);
    expect(template.worksheets.map((sheet) => sheet.name)).toEqual(["API", "FDF", "Info", "Lists"]);
    const api = template.getWorksheet("API")!;
    expect(api.rowCount).toBe(1);
    api.addRow([Number(year), "May", "Kenya", "Template Purchaser", "Abacavir API", 3, 300]);
    const filled = {
      name: "filled.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from(await template.xlsx.writeBuffer()),
    };

    // Replace is the default; without the box ticked nothing is replaced (the test before saved two rows).
    await upload.getByLabel("Excel file (.xlsx, at most 10 MB)").setInputFiles(filled);
    await upload.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByTestId("upload-problems")).toContainText(
      "Nothing was replaced: confirm that the workbook replaces the 2 rows saved for this quarter.",
    );
    await expect(page.getByTestId("sales-table-API").getByLabel("Purchaser, row 1", { exact: true })).toHaveValue("No-JS Purchaser");

    await page.getByTestId("report-upload").getByLabel("Excel file (.xlsx, at most 10 MB)").setInputFiles(filled);
    await page.getByLabel("Yes, replace the 2 rows saved for this quarter").check();
    await page.getByTestId("report-upload").getByRole("button", { name: "Upload" }).click();
    await expect(toast(page)).toContainText("Data successfully recorded. Total Rows: 1");
    await expect(page.getByTestId("upload-problems")).toHaveCount(0);
    const table = page.getByTestId("sales-table-API");
    await expect(table.getByLabel("Purchaser, row 1", { exact: true })).toHaveValue("Template Purchaser");
    await expect(table.getByLabel("Purchaser, row 2", { exact: true })).toHaveValue("");
  });
});
