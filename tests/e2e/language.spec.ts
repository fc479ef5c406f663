import fs from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, test } from "./support/fixtures";

/**
 * The chosen language reaches the page title, the figures (Intl) and the country names (CLDR) of
 * the dashboard and the consolidated reports; lists of countries follow the language's
 * alphabetical order. The data stays in English: the downloads keep plain figures and names.
 */

/** French writes 1 234 567,50: groups of three split by a narrow no-break space, a decimal comma. */
const FRENCH_FIGURE = /^-?\d{1,3}(\u202f\d{3})*(,\d+)?$/;

/** The signed-in user's language is stored with the account: put the admin back in English. */
test.afterEach(async ({ page }) => {
  await page.request.get("/admin/profile?lng=en");
});

/** The texts of a sortable column of a consolidated table, found by its header's sort link. */
async function columnTexts(table: Locator, sortKey: string): Promise<string[]> {
  const index = await table
    .locator("thead th")
    .evaluateAll((headers, key) => headers.findIndex((header) => header.querySelector(`a[data-sort="${key}"]`)), sortKey);
  expect(index).toBeGreaterThanOrEqual(0);
  return table.locator(`tbody tr > :nth-child(${index + 1})`).allTextContents();
}

async function countryChoices(page: Page, select: string): Promise<string[]> {
  return page.locator(`${select} option:not([value=""])`).allTextContents();
}

test.describe("with JavaScript", () => {
  test("French dashboard and Arabic Filing Plans report: titles, figures and country names in the language; downloads unchanged", async ({
    page,
    open,
    signIn,
  }) => {
    // The browser formats as the server did: hydration finds the same text.
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await signIn("admin");
    await open("/admin/dashboard?tab=sales-country&unapproved=1&lng=fr");
    await expect(page).toHaveTitle("Tableau de bord | Portail de données MPP");
    const table = page.locator('[data-table="country-product-sales"]');
    await expect(table.locator("tbody th", { hasText: "Afrique du Sud" }).first()).toBeVisible();
    await expect(table.locator("tbody th", { hasText: "South Africa" })).toHaveCount(0);
    const figures = await table.locator("td.table__number").allTextContents();
    expect(figures.length).toBeGreaterThan(0);
    for (const figure of figures) expect(figure).toMatch(FRENCH_FIGURE);
    expect(figures.some((figure) => figure.includes("\u202f"))).toBe(true);

    const downloading = page.waitForEvent("download");
    await table.getByRole("link", { name: "Télécharger le CSV" }).click();
    const rows: string[][] = parse(await fs.readFile((await (await downloading).path())!), { bom: true });
    expect(rows.some((row) => row[0] === "South Africa")).toBe(true);
    for (const row of rows.slice(1)) expect(row.slice(2).join(" ")).toMatch(/^[-\d. ]*$/);

    // Months of the sales periods are named in French in the table and on the chart's axis.
    await open("/admin/dashboard?tab=sales-time&period=month&unapproved=1");
    const months = await page.locator('[data-table="sales-over-time"] tbody th').allTextContents();
    expect(months.length).toBeGreaterThan(0);
    for (const month of months) expect(month).toMatch(/^\p{Ll}+\.? \d{4}$/u);
    await expect(page.locator(".chart__category-label", { hasText: months[0] }).first()).toBeAttached();

    await open("/admin/report/filing-plans?lng=ar");
    await expect(page).toHaveTitle("خطط التسجيل | بوابة بيانات MPP");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const report = page.getByTestId("filing-report");
    await expect(report.locator("td.filing-report__country", { hasText: "جنوب أفريقيا" }).first()).toBeVisible();
    const choices = await countryChoices(page, "#filing-report-country");
    expect(choices).toContain("كينيا");
    expect(choices).toEqual([...choices].sort(new Intl.Collator("ar").compare));

    await page.locator("#filing-report-country").selectOption({ label: "كينيا" });
    await page.getByRole("button", { name: "تصفية" }).click();
    await expect(page).toHaveURL(/country=\d+/);
    // The address can change before the filtered rows are drawn: wait until the other countries' rows are gone.
    const countryCells = report.locator("td.filing-report__country");
    await expect(countryCells.filter({ hasNotText: "كينيا" })).toHaveCount(0);
    const countries = await countryCells.allTextContents();
    expect(countries.length).toBeGreaterThan(0);
    expect(new Set(countries)).toEqual(new Set(["كينيا"]));
    expect(errors).toEqual([]);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the French Sales consolidated report: title, country names and figures come from the server; the country filter works", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await open("/admin/report/sales-report?lng=fr");
    await expect(page).toHaveTitle("Rapport de ventes | Portail de données MPP");
    const table = page.getByTestId("sales-report-table");
    const values = await columnTexts(table, "totalValue");
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).toMatch(FRENCH_FIGURE);
    expect(values.some((value) => value.includes("\u202f"))).toBe(true);

    const frenchMonths = Array.from({ length: 12 }, (_, month) =>
      new Intl.DateTimeFormat("fr", { month: "long", timeZone: "UTC" }).format(Date.UTC(2000, month, 1)),
    );
    const months = await columnTexts(table, "month");
    expect(months.length).toBeGreaterThan(0);
    for (const month of months) expect(frenchMonths).toContain(month);

    const choices = await countryChoices(page, "#sales-report-country");
    expect(choices).toContain("Afrique du Sud");
    expect(choices).toEqual([...choices].sort(new Intl.Collator("fr").compare));
    await page.locator("#sales-report-country").selectOption({ label: "Afrique du Sud" });
    await page.getByTestId("sales-report-filters").getByRole("button", { name: "Filtrer" }).click();
    const countries = await columnTexts(table, "country");
    expect(countries.length).toBeGreaterThan(0);
    expect(new Set(countries)).toEqual(new Set(["Afrique du Sud"]));
  });
});
