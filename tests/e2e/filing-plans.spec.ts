import fs from "node:fs/promises";
import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The Filing Plans screen. The browser tests share one database: this spec changes only partner3's
 * (Cedar's) plan of the open quarter, which starts from last quarter's plan (not started). With
 * JavaScript it is saved; without JavaScript it is saved again and submitted: Cedar's plan is left
 * Submitted. partner1's (Acme's) rejected plan is left as the seed has it (the partner dashboard's
 * spec reads it).
 */
const toast = (page: Page) => page.locator(".toast");
const grid = (page: Page) => page.getByTestId("report-grid-Filing");
/** A grid cell by 1-based row number and column position (Country is column 1). */
const cell = (page: Page, row: number, column: number) =>
  grid(page).locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);
const COUNTRY = "Kenya";
/** Cedar's products in the grid's (alphabetical) order. */
const PRODUCTS = ["Abacavir API", "Lopinavir/ritonavir pellets", "Paediatric Abacavir/Lamivudine/Dolutegravir", "Ravidasvir API"];

/** The open quarter is the calendar quarter of today; a Filing Plans cell may name one of the four after it. */
function quarterNames() {
  const today = new Date();
  const index = today.getUTCFullYear() * 4 + Math.floor(today.getUTCMonth() / 3);
  const name = (at: number) => `Q${(at % 4) + 1} ${Math.floor(at / 4)}`;
  return { open: name(index), previous: name(index - 1), planned: [1, 2, 3, 4].map((count) => name(index + count)) };
}

/** The grid row (1-based) of a country: the grid renders the rows in view, so it scrolls down until the row is there. */
async function rowOfCountry(page: Page, country: string) {
  const scroller = grid(page).getByRole("grid");
  await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
  for (let step = 0; step < 200; step++) {
    const row = scroller.locator('[role="row"]').filter({ has: page.locator('[aria-colindex="1"]', { hasText: new RegExp(`^${country}$`) }) });
    if (await row.count()) return Number(await row.getAttribute("aria-rowindex")) - 1;
    const moved = await scroller.evaluate((element) => {
      const before = element.scrollTop;
      element.scrollBy({ top: element.clientHeight / 2 });
      return element.scrollTop !== before;
    });
    if (!moved) break;
    await page.waitForTimeout(50);
  }
  throw new Error(`no row for ${country}`);
}

async function sheetsOf(buffer: Buffer) {
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

test.describe.serial("with JavaScript (partner3)", () => {
  const quarters = quarterNames();
  /** The cells the first test changed: the chosen one and the emptied one (grid columns). */
  const changed = { chosen: 2, chosenStatus: "Filing-Planned", emptied: 0 };

  test("choose a status, empty a cell, save: kept after a reload; the list offers the next four quarters", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/filing-plans");
    await expect(page.getByRole("heading", { name: `Filing Plans for Cedar Life Sciences (${quarters.open})`, exact: true })).toBeVisible();
    await expect(page.getByTestId("report-status")).toHaveText("Report Status: Not started");
    await expect(page.getByTestId("carried-over")).toHaveText(`This quarter starts from the plan of ${quarters.previous}: save to keep it.`);
    await expect(grid(page).getByRole("columnheader")).toHaveText([
      "Country",
      ...PRODUCTS.map((name) => new RegExp(`^${name.replace(/[/()]/g, "\\$&")} (API|FDF)$`)),
    ]);

    const row = await rowOfCountry(page, COUNTRY);
    await expect(cell(page, row, 1)).toHaveText(COUNTRY);

    // The status list: none, the base statuses, and the four quarters after the open one (no earlier quarter).
    await cell(page, row, changed.chosen).dblclick();
    const editor = grid(page).locator("select.report-grid__editor");
    await expect(editor).toBeVisible();
    const options = (await editor.locator("option").allTextContents()).map((text) => text.trim());
    expect(options[0]).toBe("0 (none)");
    expect(options).toContain(changed.chosenStatus);
    expect(options).toContain("Filed");
    expect(options).toContain("Registered");
    expect(options).toContain("Not Planned");
    expect(options.filter((option) => /^Q[1-4] \d{4}$/.test(option))).toEqual(quarters.planned);
    expect(options).not.toContain(quarters.open);
    await editor.selectOption({ label: changed.chosenStatus });
    await expect(editor).toHaveCount(0);
    await expect(cell(page, row, changed.chosen)).toHaveText(changed.chosenStatus);
    await expect(page.getByText("Unsaved changes")).toBeVisible();

    // Delete empties another cell of the row that holds a status: it shows '0'.
    for (let column = 3; column <= PRODUCTS.length + 1; column++) {
      if ((await cell(page, row, column).textContent())?.trim() !== "0") {
        changed.emptied = column;
        break;
      }
    }
    expect(changed.emptied, `a cell of ${COUNTRY} with a status`).toBeGreaterThan(0);
    await cell(page, row, changed.emptied).click();
    await page.keyboard.press("Delete");
    await expect(cell(page, row, changed.emptied)).toHaveText("0");

    // Only the two cells changed. Cells of last quarter's plan that name the now-open quarter (no
    // longer in the list) are marked, but they must not hold up the save of the cells the partner changed.
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("invalid-data-dialog"), "the save is refused for cells the partner did not change").toBeHidden();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await expect(page.getByText("Unsaved changes")).toHaveCount(0);

    await open("/partner/filing-plans");
    await expect(page.getByTestId("report-status")).toContainText(/^Report Status: Saved on \d/);
    await expect(page.getByTestId("carried-over")).toHaveCount(0);
    const again = await rowOfCountry(page, COUNTRY);
    await expect(cell(page, again, changed.chosen)).toHaveText(changed.chosenStatus);
    await expect(cell(page, again, changed.emptied)).toHaveText("0");
  });

  test("the Excel download has the plan: a row per country, a column per product", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/filing-plans");
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Excel" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^filing-plans_Cedar-Life-Sciences_\d{4}-Q[1-4]\.xlsx$/);
    const sheets = await sheetsOf(await fs.readFile((await download.path())!));
    expect(sheets.map((sheet) => sheet.name)).toEqual(["Filing Plans", "Info"]);
    const [header, ...rows] = sheets[0].rows;
    expect(header).toEqual(["Country", ...PRODUCTS]);
    const kenya = rows.find((row) => row[0] === COUNTRY);
    expect(kenya).toBeDefined();
    // Column n of the grid is column n of the sheet; an emptied cell is an empty cell.
    expect(kenya![changed.chosen - 1]).toBe(changed.chosenStatus);
    expect(kenya![changed.emptied - 1] ?? null).toBeNull();
    expect(rows.length).toBeGreaterThan(100);
  });
});

test.describe("without JavaScript (partner3)", () => {
  test.use({ javaScriptEnabled: false });

  test("choose a status in the form, save; '0 (none)' empties a cell; submit with a comment", async ({ page, open, signIn }) => {
    test.setTimeout(60_000);
    await signIn("partner3");
    await open("/partner/filing-plans");
    await expect(page.getByTestId("report-grid-Filing")).toHaveCount(0);
    const table = page.getByTestId("filing-table");
    await expect(table.getByRole("columnheader")).toHaveText([
      "Country",
      ...PRODUCTS.map((name) => new RegExp(`^${name.replace(/[/()]/g, "\\$&")} (API|FDF)$`)),
    ]);
    // 50 countries a page: Next until Kenya's.
    const select = (product: string) => page.getByTestId("filing-table").getByLabel(`${product} in ${COUNTRY}`, { exact: true });
    for (let step = 0; step < 10 && !(await select(PRODUCTS[1]).count()); step++) {
      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]page=${step + 2}(&|$)`));
    }
    await expect(select(PRODUCTS[1])).toBeVisible();
    const pageUrl = page.url();

    const planned = quarterNames().planned[3];
    await select(PRODUCTS[1]).selectOption({ label: planned });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    expect(page.url()).toBe(pageUrl);
    await expect(select(PRODUCTS[1])).toHaveValue(planned);
    await open(pageUrl);
    await expect(select(PRODUCTS[1])).toHaveValue(planned);

    // '0 (none)' empties another cell of the row that holds a status.
    let emptied: string | undefined;
    for (const product of PRODUCTS.filter((name) => name !== PRODUCTS[1])) {
      if ((await select(product).inputValue()) !== "0") {
        emptied = product;
        break;
      }
    }
    expect(emptied, `a cell of ${COUNTRY} with a status`).toBeDefined();
    await select(emptied!).selectOption({ label: "0 (none)" });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await expect(select(emptied!)).toHaveValue("0");
    await expect(select(PRODUCTS[1])).toHaveValue(planned);

    // The plain form's own submission (not the 'Nothing to report this quarter' form beside it).
    const submission = () => page.getByRole("group", { name: "Submit Report", exact: true });
    await submission().getByRole("button", { name: "Submit Report" }).click();
    await expect(submission()).toContainText("Enter comments for admin");
    await submission().getByRole("textbox", { name: "Comment" }).fill("Kenya: the pellets are filed in the last planned quarter.");
    await submission().getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText(/^Report Status: Submitted on \d/);
    await expect(page.locator(".report-form__actions")).toContainText("Saving withdraws your submission until you submit the report again.");
    await expect(select(PRODUCTS[1])).toHaveValue(planned);
  });
});
