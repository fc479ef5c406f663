import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createPartner } from "./support/partners";
import { FDF_PRODUCT, fillFirstFdfRow } from "./support/sales";

/**
 * The Sales Report's Checks panel: a partner of this spec (its product approved, no licence terms,
 * no filing plan) has one FDF row whose exchange rate is twice the currency table's. Without
 * JavaScript the panel lists it and its link opens the row; with JavaScript the link selects the
 * grid's cell. Its price per pack (2.50 USD) is the demo partners' (about 3 USD), so the peer-price
 * rule finds nothing whichever other specs' partners sell the product in the quarter. The demo
 * partners' reports, which other specs read, stay as they are.
 */
test.describe.configure({ mode: "serial" });

const PRODUCT = FDF_PRODUCT;
const FINDING = "FDF row 1, Applicable Currency Exchange Rate to USD: Exchange rate 2 for USD is more than 5% off the currency table's 1.";
let reportPath = "";

const panel = (page: Page) => page.getByTestId("checks-panel");

/** Downloads the royalty statement's CSV from the page and compares its lines after the header. */
async function expectStatementCsv(page: Page, lines: string[]) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("royalty-statement").getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^royalty-statement_Zz-Checks-\d+_\d{4}-Q[1-4]\.csv$/);
  const text = fs.readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  expect(text.trim().split(/\r?\n/).slice(1)).toEqual(lines);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a saved row with an exchange rate far from the currency table's is listed, in English and French, and its link opens the row", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await page.goto("/admin/product-list?category=FDF");
    const edit = await page.getByRole("link", { name: `Edit ${PRODUCT}`, exact: true }).getAttribute("href");
    const partner = await createPartner(page, "Checks", { "products[0].productId": /\/(\d+)$/.exec(edit ?? "")![1], "products[0].status": "APPROVED" });
    // The list is paged: the partner is looked up by its name.
    await page.goto(`/admin/partner-list?q=${encodeURIComponent(partner.companyName)}`);
    const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: partner.companyName, exact: true }) }).getAttribute("data-partner-id");
    reportPath = `/admin/sales-report/${id}`;

    await open(`${reportPath}?tab=FDF`);
    await expect(panel(page)).toHaveCount(0);
    await fillFirstFdfRow(page, { quantity: "800", price: "1.25", exchangeRate: "2", royaltyPercent: "5", royaltyDue: "100" });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator(".toast")).toContainText("Data successfully recorded.");

    // Folded, the panel says how many and of which kind; opened, what and where.
    await expect(panel(page).locator("summary")).toHaveText(/^Checks 1 Far from the usual figures: 1$/);
    await panel(page).locator("summary").click();
    await expect(panel(page).getByRole("listitem")).toHaveText([FINDING]);
    await panel(page).getByRole("link", { name: "FDF row 1, Applicable Currency Exchange Rate to USD" }).click();
    await expect(page).toHaveURL(/\?tab=FDF#row-fdf-1$/);
    await expect(page.locator("#row-fdf-1")).toBeInViewport();
    await expect(page.locator("#row-fdf-1").getByLabel("Applicable Currency Exchange Rate to USD, row 1", { exact: true })).toHaveValue("2");

    // The administrators' royalty statement: the partner has no licence terms, so nothing is expected.
    const statement = page.getByTestId("royalty-statement");
    await expect(statement.locator("tbody tr")).toHaveText([/^Dolutegravir 50 mg\s*Kenya\s*2,000\s*100\s*—\s*—\s*—$/]);
    await expect(statement.locator("tfoot tr")).toHaveText(/^Total\s*2,000\s*100\s*—\s*—$/);
    await expectStatementCsv(page, ["Dolutegravir 50 mg,Kenya,2000,100,,,", "Total,,2000,100,,,"]);

    await open(`${reportPath}?lng=fr`);
    await panel(page).locator("summary").click();
    await expect(panel(page).getByRole("listitem")).toHaveText([
      "FDF ligne 1, Taux de change applicable en USD : Le taux de change 2 pour USD s'écarte de plus de 5 % du taux 1 de la table des devises.",
    ]);
    await open(`${reportPath}?lng=en`);
  });
});

test("with JavaScript the finding's link opens the FDF tab and selects the cell in the grid; the royalty statement downloads", async ({
  page,
  open,
  signIn,
}) => {
  expect(reportPath, "the test before made the partner's report").not.toBe("");
  await signIn("admin");
  await open(reportPath);
  await expect(page.getByTestId("report-grid-API")).toBeVisible();
  await panel(page).locator("summary").click();
  await panel(page).getByRole("link", { name: "FDF row 1, Applicable Currency Exchange Rate to USD" }).click();
  await expect(page.getByRole("tab", { name: "FDF" })).toHaveAttribute("aria-selected", "true");
  const selected = page.getByTestId("report-grid-FDF").locator('[role="gridcell"][aria-selected="true"]');
  await expect(selected).toHaveText("2");
  await expect(selected).toBeFocused();
  // The link did not navigate: the page is where it was.
  await expect(page).toHaveURL(new RegExp(`${reportPath}$`));
  await expectStatementCsv(page, ["Dolutegravir 50 mg,Kenya,2000,100,,,", "Total,,2000,100,,,"]);
});
