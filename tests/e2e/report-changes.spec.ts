import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";
import { createPartner, mailTo, partnerSignsIn } from "./support/partners";

/**
 * "Show changes since" (issue 33): a partner of this spec (one API product) submits a Sales Report of
 * two rows and a timeline date, then changes them: row 1's quantity 3 -> 5, row 2 deleted, a row
 * added; the timeline's first start date 15 January -> 20 February. Without JavaScript the plain form
 * strikes the old value under the field and the counts are at the top; with JavaScript the grid marks
 * the cell, whose old value shows on hover (title) and under the grid while the cell has the focus.
 * The demo partners' reports, which other specs read, stay as they are.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "changes-pass-42";
const year = new Date().getUTCFullYear();
let partner = { email: "", companyName: "" };

/** A browser context of the partner's own, with or without JavaScript, signed in over HTTP. */
async function partnerPage(browser: Browser, baseURL: string, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  const response = await page.request.post("/login", { form: { email: partner.email, password: PASSWORD }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  return { page, close: () => context.close() };
}

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

test("without JavaScript: the partner submits, changes its rows, and sees what changed since the submission", async ({ page, signIn, browser, baseURL }) => {
  test.setTimeout(120_000);
  const mailbox = await startMailbox();
  try {
    await signIn("admin");
    await page.goto("/admin/product-list?category=API");
    const edit = await page.getByRole("link", { name: "Edit Abacavir API", exact: true }).getAttribute("href");
    const created = await createPartner(page, "Changes", { "products[0].productId": /\/(\d+)$/.exec(edit ?? "")![1], "products[0].status": "PLANNED" });
    partner = created;
    const link = linkFrom((await mailTo(mailbox.received, created.email)).raw);
    const setUp = await partnerSignsIn(browser, baseURL!, link!, created.email, PASSWORD);
    await setUp.close();
  } finally {
    await mailbox.close();
  }

  const { page: plain, close } = await partnerPage(browser, baseURL!, false);
  try {
    // Two API rows, submitted.
    await plain.goto("/partner/sales-report");
    const table = plain.getByTestId("sales-table-API");
    const field = (label: string, row: number) => table.getByLabel(`${label}, row ${row}`, { exact: true });
    for (const [row, purchaser, quantity] of [
      [1, "Central Medical Stores", "3"],
      [2, "Gone Purchaser", "4"],
    ] as const) {
      await field("Year", row).fill(String(year));
      await field("Month", row).fill("February");
      await field("Country", row).fill("Kenya");
      await field("Purchaser", row).fill(purchaser);
      await field("Api Name", row).fill("Abacavir API");
      await field("Quantity (Kg)", row).fill(quantity);
      await field("Total Value (USD)", row).fill("30");
    }
    await plain.locator("#submit-comment-API").fill("Our first report.");
    await plain.getByRole("button", { name: "Submit Report" }).first().click();
    await expect(plain.getByTestId("report-status")).toContainText("Submitted");

    // Nothing changed yet.
    await plain.goto("/partner/sales-report?changes=submission");
    await expect(plain.getByTestId("changes-counts")).toContainText(": 0 added, 0 changed, 0 removed");

    // Row 1's quantity 3 -> 5, row 2 deleted, a third row added; saved.
    await plain.goto("/partner/sales-report");
    await field("Quantity (Kg)", 1).fill("5");
    await plain.getByLabel("Delete row 2", { exact: true }).check();
    await field("Year", 3).fill(String(year));
    await field("Month", 3).fill("March");
    await field("Country", 3).fill("Uganda");
    await field("Purchaser", 3).fill("New Purchaser");
    await field("Api Name", 3).fill("Abacavir API");
    await field("Quantity (Kg)", 3).fill("2");
    await field("Total Value (USD)", 3).fill("20");
    await plain.getByRole("button", { name: "Save", exact: true }).click();
    await expect(plain.getByTestId("report-status")).toContainText("Saved");

    // The picker is a GET form: the last submission.
    await plain.getByLabel("Show changes since").selectOption({ label: "the last submission" });
    await plain.getByRole("button", { name: "Compare", exact: true }).click();
    await expect(plain).toHaveURL(/[?&]changes=submission/);
    await expect(plain.getByTestId("changes-counts")).toContainText(": 1 added, 1 changed, 1 removed");
    // The changed field shows its old value, struck, under it; the other fields of the row none.
    const rowOne = plain.locator("#row-api-1");
    await expect(field("Quantity (Kg)", 1)).toHaveValue("5");
    await expect(rowOne.getByTestId("cell-was")).toHaveText(["Before: 3"]);
    await expect(rowOne.getByTestId("cell-was").locator("del")).toHaveText("3");
    // The added row is marked; the removed one is listed with what it held.
    await expect(plain.locator("#row-api-2")).toContainText("Added row");
    await expect(plain.locator("#row-api-2").getByTestId("cell-was")).toHaveCount(0);
    const removed = plain.getByTestId("changes-removed");
    await expect(removed.getByRole("heading")).toHaveText("Removed rows (1)");
    await expect(removed.locator("tbody tr")).toHaveCount(1);
    await expect(removed.locator("tbody tr")).toContainText("Gone Purchaser");
    await expect(removed.locator("tbody tr")).toContainText("February");

    // Never approved, and no report the quarter before: said so.
    await plain.getByLabel("Show changes since").selectOption({ label: "the last approval" });
    await plain.getByRole("button", { name: "Compare", exact: true }).click();
    await expect(plain.getByTestId("changes-none")).toHaveText("This report has not been approved yet: there is no approval to compare with.");
    await plain.goto("/partner/sales-report?changes=previous-quarter");
    await expect(plain.getByTestId("changes-none")).toContainText(/^There is no submitted report of the previous quarter \(Q[1-4] \d{4}\) to compare with\.$/);
    // Without the parameter the page is as it was.
    await plain.goto("/partner/sales-report");
    await expect(plain.getByTestId("changes-counts")).toHaveCount(0);
    await expect(plain.getByTestId("cell-was")).toHaveCount(0);

    // The timeline: the first stage's dates, submitted, then its start date moved.
    await plain.goto("/partner/development-timeline");
    await plain.locator('input[name="pdt[0][startDate]"]').fill(`${year}-01-15`);
    await plain.locator('input[name="pdt[0][endDate]"]').fill(`${year}-06-30`);
    await plain.getByRole("button", { name: "Save", exact: true }).click();
    await expect(plain.getByTestId("report-status")).toContainText("Saved");
    // A first plan is a change the partner explains before submitting it.
    const explain = plain.getByTestId("changes-to-explain");
    for (const reason of await explain.locator('[name^="reason:"]').all()) await reason.fill("Our first plan.");
    await explain.getByRole("button").click();
    await plain.locator('textarea[name="comment"], input[name="comment"]').first().fill("Our plan.");
    await plain.getByRole("button", { name: "Submit Report" }).first().click();
    await expect(plain.getByTestId("report-status")).toContainText("Submitted");
    await plain.locator('input[name="pdt[0][startDate]"]').fill(`${year}-02-20`);
    await plain.getByRole("button", { name: "Save", exact: true }).click();
    await expect(plain.getByTestId("report-status")).toContainText("Saved");
    await plain.goto("/partner/development-timeline?changes=submission");
    await expect(plain.getByTestId("changes-counts")).toContainText(": 0 added, 1 changed, 0 removed");
    // The old date as the page writes dates.
    await expect(plain.getByTestId("cell-was")).toHaveText([`Before: 15 January ${year}`]);
  } finally {
    await close();
  }
});

test("with JavaScript: the grid marks the changed cell, its old value on hover and on focus; the added row is marked", async ({ browser, baseURL }) => {
  expect(partner.email, "the test before made the partner and its report").not.toBe("");
  const { page, close } = await partnerPage(browser, baseURL!, true);
  try {
    await page.goto("/partner/sales-report?changes=submission");
    await hydrated(page);
    const grid = page.getByTestId("report-grid-API");
    await expect(grid).toBeVisible();
    await expect(page.getByTestId("changes-counts")).toContainText(": 1 added, 1 changed, 1 removed");
    const changed = grid.locator('[role="gridcell"][data-change="changed"]');
    await expect(changed).toHaveCount(1);
    // What shows in the cell is its value (its description is hidden text).
    await expect(changed.locator("span:not([hidden])")).toHaveText("5");
    // Hover: the cell's title; assistive technology: its description.
    await expect(changed).toHaveAttribute("title", "Before: 3");
    await expect(changed).toHaveAccessibleDescription("Before: 3");
    // Focus: the old value under the grid, while the cell has the focus.
    const hint = grid.getByTestId("changed-cell-hint");
    await expect(hint).toBeEmpty();
    await changed.click();
    await expect(changed).toBeFocused();
    await expect(hint).toHaveText("Before: 3");
    await page.keyboard.press("ArrowLeft");
    await expect(hint).toBeEmpty();
    await page.keyboard.press("ArrowRight");
    await expect(hint).toHaveText("Before: 3");
    // The added row's cells are marked as such.
    await expect(grid.locator('[role="gridcell"][data-change="added"]').first()).toHaveAttribute("title", "Added row");
    await expect(grid.locator('[role="gridcell"][data-change="added"]', { hasText: "New Purchaser" })).toHaveCount(1);

    // The timeline's grid marks its date cell with the old date as the page writes it.
    await page.goto("/partner/development-timeline?changes=submission");
    await hydrated(page);
    const pdt = page.getByTestId("report-grid-PDT");
    const date = pdt.locator('[role="gridcell"][data-change="changed"]');
    await expect(date).toHaveCount(1);
    await expect(date).toHaveAttribute("title", `Before: 15 January ${year}`);
    await date.click();
    await expect(pdt.getByTestId("changed-cell-hint")).toHaveText(`Before: 15 January ${year}`);

    // With JavaScript the picker loads a choice at once, without a button.
    await expect(page.getByTestId("changes-picker").getByRole("button")).toHaveCount(0);
    await page.getByLabel("Show changes since").selectOption({ label: "(no comparison)" });
    await expect(page).toHaveURL(/\/partner\/development-timeline$/);
    await expect(pdt.locator('[role="gridcell"][data-change]')).toHaveCount(0);
  } finally {
    await close();
  }
});
