import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { partnerWithProduct } from "./support/partners";
import { FDF_PRODUCT, fillFirstFdfRow } from "./support/sales";

/**
 * Comments on the Sales Report's rows and cells, on a partner of this spec with one saved FDF row:
 * without JavaScript the row's "Comment" link opens the form, the thread is answered and resolved;
 * with JavaScript the cell's context menu and Ctrl+Alt+M open it on a cell, the cell is marked and
 * the thread's link selects it; STAFF reads without a form. The Development Timeline's stages take
 * comments the same way once the timeline is saved. The demo partners' reports stay as they are.
 */
test.describe.configure({ mode: "serial" });

const PRODUCT = FDF_PRODUCT;
let reportPath = "";

const panel = (page: Page) => page.getByTestId("threads-panel");
const toast = (page: Page) => page.locator(".toast");

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the row's Comment link opens the form; an empty comment is refused; the thread is written, answered and resolved", async ({ page, open, signIn }) => {
    // A partner made, a row saved, then five posts of the comments' forms.
    test.setTimeout(60_000);
    await signIn("admin");
    reportPath = `/admin/sales-report/${await partnerWithProduct(page, "Threads", { category: "FDF", product: PRODUCT, status: "APPROVED" })}`;

    await open(`${reportPath}?tab=FDF`);
    await expect(panel(page)).toHaveCount(0);
    await fillFirstFdfRow(page, { quantity: "800", price: "2.5", exchangeRate: "1", royaltyPercent: "5", royaltyDue: "100" });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data successfully recorded.");

    // A blank row has no link: only a saved row can be commented on.
    await expect(page.getByRole("link", { name: "Comment on row 2", exact: true })).toHaveCount(0);
    await page.getByRole("link", { name: "Comment on row 1", exact: true }).click();
    await expect(page).toHaveURL(/[?&]comment=FDF%3A\d+#threads$/);
    await expect(panel(page).getByRole("heading", { name: "New comment on FDF row 1 Dolutegravir 50 mg · Kenya · Central Medical Stores" })).toBeVisible();
    await panel(page).getByRole("button", { name: "Add comment" }).click();
    await expect(panel(page).getByText("Write a comment first.")).toBeVisible();

    await panel(page).getByRole("textbox", { name: "Comment", exact: true }).fill("Royalty Due 100 is not 5% of 2,000.");
    await panel(page).getByRole("button", { name: "Add comment" }).click();
    await expect(toast(page)).toContainText("Comment added.");
    await expect(page).toHaveURL(/#thread-\d+$/);
    await expect(panel(page).locator("summary")).toHaveText(/^Comments 1 1 open, 0 resolved$/);
    const thread = panel(page).locator("[data-thread]");
    await expect(thread.getByRole("link", { name: "FDF row 1" })).toHaveAttribute("href", /tab=FDF#row-fdf-1$/);
    await expect(thread.locator(".threads-panel__body")).toHaveText(["Royalty Due 100 is not 5% of 2,000."]);
    await expect(page.getByTestId("sales-table-FDF").locator("#row-fdf-1")).toContainText("Open comments: 1");

    await thread.getByRole("textbox", { name: "Comment", exact: true }).fill("The partner confirmed: 100 is right, a minimum royalty applies.");
    await thread.getByRole("button", { name: "Reply" }).click();
    await expect(toast(page)).toContainText("Reply added.");
    await expect(thread.locator(".threads-panel__body")).toHaveText([
      "Royalty Due 100 is not 5% of 2,000.",
      "The partner confirmed: 100 is right, a minimum royalty applies.",
    ]);

    await thread.getByRole("button", { name: "Resolve" }).click();
    await expect(toast(page)).toContainText("Comment resolved.");
    await expect(thread).toContainText("Resolved by Portal Administrator on");
    await expect(panel(page).locator("summary")).toHaveText(/^Comments 0 0 open, 1 resolved$/);
    await thread.getByRole("button", { name: "Reopen" }).click();
    await expect(toast(page)).toContainText("Comment reopened.");
    await expect(panel(page).locator("summary")).toHaveText(/^Comments 1 1 open, 0 resolved$/);
  });
});

test.describe("with JavaScript", () => {
  test("the cell's context menu and Ctrl+Alt+M open a comment on the cell; the cell is marked and the thread's link selects it", async ({
    page,
    open,
    signIn,
  }) => {
    expect(reportPath, "the test before made the partner's report").not.toBe("");
    // Wide enough for the grid to draw every column.
    await page.setViewportSize({ width: 3200, height: 900 });
    await signIn("admin");
    await open(`${reportPath}?tab=FDF`);
    const grid = page.getByTestId("report-grid-FDF");
    await expect(grid).toBeVisible();
    // The first row's cell under a column, by the header's column index.
    const cellUnder = async (header: string) => {
      const column = await grid.getByRole("columnheader", { name: header, exact: true }).getAttribute("aria-colindex");
      return grid.locator(`[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="${column}"]`);
    };
    const royaltyDue = await cellUnder("Royalty Due");

    await royaltyDue.click({ button: "right" });
    await page.getByRole("menuitem", { name: "Comment on this cell" }).click();
    const body = panel(page).getByRole("textbox", { name: "Comment", exact: true }).first();
    await expect(panel(page).getByRole("heading", { name: "New comment on FDF row 1, Royalty Due" })).toBeVisible();
    await expect(body).toBeFocused();
    await body.fill("Which minimum royalty?");
    await panel(page).getByRole("button", { name: "Add comment" }).click();
    await expect(toast(page)).toContainText("Comment added.");
    await expect(royaltyDue).toHaveClass(/report-grid__cell--discussed/);
    await expect(panel(page).locator("summary")).toHaveText(/^Comments 2 2 open, 0 resolved$/);

    await (await cellUnder("Quantity")).click();
    await page.keyboard.press("Control+Alt+KeyM");
    await expect(panel(page).getByRole("heading", { name: "New comment on FDF row 1, Quantity" })).toBeVisible();

    const before = page.url();
    await panel(page).getByRole("link", { name: "FDF row 1, Royalty Due" }).click();
    const selected = grid.locator('[role="gridcell"][aria-selected="true"]');
    await expect(selected).toHaveText("100");
    // The link did not navigate: the page is where it was.
    expect(page.url()).toBe(before);
  });

  test("STAFF reads the threads without a form or a link to comment", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open(reportPath);
    await expect(panel(page).locator("[data-thread]")).toHaveCount(2);
    await expect(panel(page).getByRole("button")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Comment on row 1" })).toHaveCount(0);
  });
});

test.describe("on the Development Timeline", () => {
  const PDT_PRODUCT = "Abacavir API";
  const STAGE = "R&D Batch API";
  let timelinePath = "";
  /** A grid cell by its 1-based row and column (End Date is the fifth). */
  const pdtCell = (page: Page, row: number, column: number) =>
    page.getByTestId("report-grid-PDT").locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("once the timeline is saved, a stage's Comment link opens the form; the comment is counted on its row", async ({ page, open, signIn }) => {
      await signIn("admin");
      timelinePath = `/admin/development-timeline/${await partnerWithProduct(page, "PdtThreads", { category: "API", product: PDT_PRODUCT, status: "PLANNED" })}`;
      await open(timelinePath);
      // Never saved: no stored row to comment on yet.
      await expect(page.getByRole("link", { name: "Comment on row 2", exact: true })).toHaveCount(0);
      await page.getByLabel(`Notes, ${PDT_PRODUCT}, ${STAGE}`, { exact: true }).fill("Batch planned with the new supplier.");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Data recorded successfully!");

      await page.getByRole("link", { name: "Comment on row 2", exact: true }).click();
      await expect(panel(page).getByRole("heading", { name: `New comment on PDT row 2 ${PDT_PRODUCT} · ${STAGE}` })).toBeVisible();
      await panel(page).getByRole("textbox", { name: "Comment", exact: true }).fill("Which supplier, and when does it qualify?");
      await panel(page).getByRole("button", { name: "Add comment" }).click();
      await expect(toast(page)).toContainText("Comment added.");
      await expect(panel(page).locator("[data-thread]").getByRole("link", { name: "PDT row 2" })).toHaveAttribute("href", /#row-pdt-2$/);
      await expect(page.getByTestId("pdt-table").locator("#row-pdt-2")).toContainText("Open comments: 1");
    });
  });

  test.describe("with JavaScript", () => {
    test.use({ viewport: { width: 1366, height: 768 } });

    test("the cell's menu opens a comment on a stage's end date; the cell is marked", async ({ page, open, signIn }) => {
      expect(timelinePath, "the test before saved the partner's timeline").not.toBe("");
      await signIn("admin");
      await open(timelinePath);
      const endDate = pdtCell(page, 2, 5);
      await endDate.click({ button: "right" });
      await page.getByRole("menuitem", { name: "Comment on this cell" }).click();
      await expect(panel(page).getByRole("heading", { name: "New comment on PDT row 2, End Date" })).toBeVisible();
      await panel(page).getByRole("textbox", { name: "Comment", exact: true }).first().fill("No end date yet: when is the batch due?");
      await panel(page).getByRole("button", { name: "Add comment" }).click();
      await expect(toast(page)).toContainText("Comment added.");
      await expect(endDate).toHaveClass(/report-grid__cell--discussed/);
      await expect(panel(page).locator("summary")).toHaveText(/^Comments 2 2 open, 0 resolved$/);
    });
  });
});

test.describe("on the Filing Plans", () => {
  /** Kenya is the 116th of the countries by name: its cells are on Filing row 116 (the third page of 50 in the plain form). */
  const KENYA = "Filing row 116";
  let filingPath = "";
  const filingCell = (page: Page, country: string) =>
    page
      .getByTestId("report-grid-Filing")
      .locator('[role="row"]')
      .filter({ has: page.locator('[aria-colindex="1"]', { hasText: new RegExp(`^${country}$`) }) })
      .locator('[role="gridcell"][aria-colindex="2"]');

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a stored cell's Comment link opens the form; the comment is counted in its cell; an empty cell has no link", async ({ page, open, signIn }) => {
      test.setTimeout(60_000);
      await signIn("admin");
      filingPath = `/admin/filing-plans/${await partnerWithProduct(page, "FilingThreads", { category: "FDF", product: PRODUCT, status: "APPROVED" })}`;
      await open(`${filingPath}?country=ken`);
      const table = page.getByTestId("filing-table");
      await expect(table.getByRole("link", { name: `Comment on ${PRODUCT} in Kenya`, exact: true }), "nothing stored yet").toHaveCount(0);
      await table.getByLabel(`${PRODUCT} in Kenya`, { exact: true }).selectOption({ label: "Filed" });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Data recorded successfully!");

      await table.getByRole("link", { name: `Comment on ${PRODUCT} in Kenya`, exact: true }).click();
      await expect(panel(page).getByRole("heading", { name: `New comment on ${KENYA} Kenya · ${PRODUCT}` })).toBeVisible();
      await panel(page).getByRole("textbox", { name: "Comment", exact: true }).fill("Filed with which agency, and when?");
      await panel(page).getByRole("button", { name: "Add comment" }).click();
      await expect(toast(page)).toContainText("Comment added.");
      await expect(panel(page).locator("[data-thread]").getByRole("link", { name: KENYA })).toHaveAttribute("href", /page=3#row-filing-116$/);

      await open(`${filingPath}?country=ken`);
      await expect(table.locator("#row-filing-116")).toContainText("Open comments: 1");
    });
  });

  test.describe("with JavaScript", () => {
    test.use({ viewport: { width: 1366, height: 768 } });

    test("the cell's menu opens a comment on a country's cell; the cell is marked; the thread's link selects it among the countries shown", async ({
      page,
      open,
      signIn,
    }) => {
      expect(filingPath, "the test before saved the partner's plan").not.toBe("");
      await signIn("admin");
      await open(filingPath);
      await page.getByLabel("Find a country").pressSequentially("ken");
      const kenya = filingCell(page, "Kenya");
      await expect(kenya).toHaveClass(/report-grid__cell--discussed/);
      await kenya.click({ button: "right" });
      await page.getByRole("menuitem", { name: "Comment on this cell" }).click();
      await expect(panel(page).getByRole("heading", { name: `New comment on ${KENYA}` })).toBeVisible();
      await panel(page).getByRole("textbox", { name: "Comment", exact: true }).first().fill("The agency's reference, please.");
      await panel(page).getByRole("button", { name: "Add comment" }).click();
      await expect(toast(page)).toContainText("Comment added.");
      await expect(panel(page).locator("summary")).toHaveText(/^Comments 2 2 open, 0 resolved$/);

      await page.getByLabel("Find a country").fill("ken");
      await panel(page).locator("[data-thread]").first().getByRole("link", { name: KENYA }).click();
      await expect(filingCell(page, "Kenya")).toHaveAttribute("aria-selected", "true");
    });
  });
});
