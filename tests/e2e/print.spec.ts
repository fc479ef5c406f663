import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Printing: a report screen prints landscape, without the sidebar or its controls, every row of its
 * grid as a table whose header repeats on each page, at 8 pt or more; a consolidated report prints
 * its table without the filters. Print media is emulated as the browser's print dialog would set it.
 */

/** The grid's rows as its accessibility tree counts them (the header row excluded). */
async function gridRowCount(page: Page, testId: string) {
  return Number(await page.getByTestId(testId).getByRole("grid").getAttribute("aria-rowcount")) - 1;
}

/** The computed font size of an element, in points. */
const fontPoints = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => (parseFloat(getComputedStyle(element).fontSize) * 72) / 96);

/** The PDF's first page is wider than it is high (a landscape page). */
function expectLandscape(pdf: Buffer) {
  const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf.toString("latin1"));
  expect(box, "the PDF names its page size").not.toBeNull();
  expect(Number(box![1])).toBeGreaterThan(Number(box![2]));
}

test("the Development Timeline prints every row of its grid with the headers, without the sidebar or the toolbar, landscape", async ({
  page,
  open,
  signIn,
}) => {
  await signIn("partner1");
  await page.setViewportSize({ width: 1280, height: 600 });
  await open("/partner/development-timeline");
  await expect(page.getByTestId("report-grid-PDT")).toBeVisible();
  const rows = await gridRowCount(page, "report-grid-PDT");
  // The grid draws the rows in view only: the printed table holds them all.
  expect(await page.getByTestId("report-grid-PDT").getByRole("row").count()).toBeLessThan(rows + 1);

  await page.emulateMedia({ media: "print" });
  const printed = page.locator(".report-grid__print");
  await expect(printed).toBeVisible();
  await expect(printed.locator("tbody tr")).toHaveCount(rows);
  await expect(printed.locator("thead th").first()).toHaveText("Product");
  await expect(page.locator(".report-grid__grid")).toBeHidden();
  await expect(page.locator(".sidebar")).toBeHidden();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeHidden();
  expect(await fontPoints(page, ".report-grid__print td")).toBeGreaterThanOrEqual(8);
  expect(await printed.locator("thead").evaluate((head) => getComputedStyle(head).display)).toBe("table-header-group");
  expectLandscape(await page.pdf({ preferCSSPageSize: true }));

  await page.emulateMedia({ media: "screen" });
  await expect(printed).toHaveCount(0);
  await expect(page.locator(".report-grid__grid")).toBeVisible();
});

test("the Sales Report prints its API table as the grid shows it, the row numbers in the first column", async ({ page, open, signIn }) => {
  await signIn("partner1");
  await open("/partner/sales-report");
  await expect(page.getByTestId("report-grid-API")).toBeVisible();
  const rows = await gridRowCount(page, "report-grid-API");
  const firstYear = await page.getByTestId("report-grid-API").getByRole("gridcell").nth(1).textContent();
  await page.emulateMedia({ media: "print" });
  const printed = page.getByTestId("report-grid-API").locator(".report-grid__print");
  await expect(printed.locator("tbody tr")).toHaveCount(rows);
  await expect(printed.locator("thead th").nth(1)).toHaveText("Year");
  await expect(printed.locator("tbody tr").first().locator("td").nth(0)).toHaveText("1");
  await expect(printed.locator("tbody tr").first().locator("td").nth(1)).toHaveText(firstYear!.trim());
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form prints without its buttons; a consolidated report prints its table without the filters", async ({ page, open, signIn }) => {
    await signIn("partner1");
    await open("/partner/filing-plans");
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".sidebar")).toBeHidden();
    await expect(page.getByRole("button", { name: "Save", exact: true })).toBeHidden();
    await expect(page.locator("table").first()).toBeVisible();

    await signIn("admin");
    await open("/admin/report/sales-report");
    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".filter-bar")).toBeHidden();
    await expect(page.locator("table.table").first()).toBeVisible();
    expect(await fontPoints(page, "table.table td")).toBeGreaterThanOrEqual(8);
    expectLandscape(await page.pdf({ preferCSSPageSize: true }));
  });
});
