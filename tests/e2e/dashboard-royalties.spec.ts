import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createPartner } from "./support/partners";
import { FDF_PRODUCT, fillFirstFdfRow } from "./support/sales";

/**
 * The dashboard's Royalties tab. A partner of this spec, licensed for Dolutegravir 50 mg at 4%, has
 * one saved FDF row: 400 packs at 2.50 USD (about the demo partners' price, so other specs' partners
 * see no peer-price finding from it), net value 1,000, Royalty Due 60 reported where the licence
 * expects 1,000 × 4% = 40, a difference of 20, every row with a rate. Its report is saved, not
 * approved: the line shows once unapproved reports count. The demo partners' reports stay as they are.
 */
test.describe.configure({ mode: "serial" });

const PRODUCT = FDF_PRODUCT;
const PATH = "/admin/dashboard";
let partnerName = "";
let partnerId = "";

const royaltiesCard = (page: Page) => page.locator('[data-table="royalties"]');
const lineOf = (page: Page) => royaltiesCard(page).locator("tbody tr", { has: page.getByRole("rowheader", { name: partnerName, exact: true }) });

/** The line's cells as the page shows them (English groups thousands), the quarter whatever the open one is. */
async function expectLine(page: Page) {
  await expect(lineOf(page).locator("th, td")).toHaveText([partnerName, /^Q[1-4] \d{4}$/, "1,000", "60", "40", "20", "0"]);
  return (await lineOf(page).locator("td").first().textContent())!.trim();
}

/** Downloads the tab's CSV and finds the partner's line in it. */
async function expectCsvLine(page: Page, quarter: string) {
  const [download] = await Promise.all([page.waitForEvent("download"), royaltiesCard(page).getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("royalties.csv");
  const lines = fs
    .readFileSync((await download.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  expect(lines[0]).toBe("Partner,Quarter,Net value (USD),Royalty reported,Royalty expected,Difference (reported − expected),Rows without a licence rate");
  expect(lines.filter((line) => line.startsWith(`${partnerName},`))).toEqual([`${partnerName},${quarter},1000,60,40,20,0`]);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the admin ticks 'Include unapproved reports', sees the partner's line worked out by hand, follows it to the report and downloads the CSV", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await page.goto("/admin/product-list?category=FDF");
    const productId = /\/(\d+)$/.exec((await page.getByRole("link", { name: `Edit ${PRODUCT}`, exact: true }).getAttribute("href")) ?? "")![1];
    const partner = await createPartner(page, "Royalties", { "products[0].productId": productId, "products[0].status": "APPROVED" });
    partnerName = partner.companyName;
    await page.goto(`/admin/partner-list?q=${encodeURIComponent(partner.email)}`);
    partnerId = (await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: partnerName, exact: true }) }).getAttribute("data-partner-id"))!;

    // The licence: Dolutegravir 50 mg at 4% everywhere.
    const terms = await page.request.post(`/admin/licence-terms/${partnerId}`, {
      form: { partnerId, "products[0].productId": productId, "products[0].royaltyRate": "4" },
      maxRedirects: 0,
    });
    expect(terms.status(), await terms.text()).toBe(302);

    await open(`/admin/sales-report/${partnerId}?tab=FDF`);
    await fillFirstFdfRow(page, { quantity: "400", price: "2.5", exchangeRate: "1", royaltyPercent: "4", royaltyDue: "60" });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator(".toast")).toContainText("Data successfully recorded.");

    await open(PATH);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Royalties", exact: true }).click();
    await expect(page).toHaveURL(`${PATH}?tab=royalties`);
    await expect(page.getByTestId("dashboard-royalties")).toBeVisible();
    await expect(page.getByTestId("counted-reports")).toHaveText("Figures count approved reports only.");
    await expect(lineOf(page)).toHaveCount(0);

    await page.getByRole("checkbox", { name: "Include unapproved reports" }).check();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]unapproved=1/);
    const quarter = await expectLine(page);
    await expectCsvLine(page, quarter);

    await lineOf(page).getByRole("link", { name: partnerName, exact: true }).click();
    await expect(page).toHaveURL(`/admin/sales-report/${partnerId}?quarter=${quarter.replace(" ", "+")}`);
    await expect(page.getByTestId("royalty-statement").locator("tfoot tr")).toHaveText(/^Total\s*1,000\s*60\s*40\s*20$/);
  });
});

test("with JavaScript the tab opens from the dashboard, the switch applies on change, and the CSV holds the line", async ({ page, open, signIn }) => {
  expect(partnerName, "the test before made the partner's report").not.toBe("");
  await signIn("admin");
  await open(PATH);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Royalties", exact: true }).click();
  await expect(page.getByTestId("dashboard-royalties")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Royalties: expected vs reported" })).toBeVisible();
  await page.getByRole("checkbox", { name: "Include unapproved reports" }).check();
  await expect(page).toHaveURL(/[?&]unapproved=1/);
  const quarter = await expectLine(page);
  await expectCsvLine(page, quarter);
});
