import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { partnerWithProduct } from "./support/partners";

/**
 * Typing the Development Timeline's dates (decisions.md section 10) and finding its columns: dates
 * typed M/D/YYYY or ISO are shown with the month's name, a day and month that could swap say what
 * they were read as, this quarter's columns come first and look editable, and a phone edits the
 * timeline as one card per product. Each test adds a partner of its own with one API product
 * (thirteen stages, no plan yet) and edits its timeline as the administrator: the demo partners'
 * timelines, which other specs read, stay as they are.
 */
const toast = (page: Page) => page.locator(".toast");
const grid = (page: Page) => page.getByTestId("report-grid-PDT");
const PRODUCT = "Abacavir API";
const FIRST_STAGE = "Investigation and route selection";
const SECOND_STAGE = "R&D Batch API";
const COLUMN = { product: 1, stage: 2, status: 3, startDate: 4, endDate: 5, slip: 6, notes: 7, firstHistory: 8 };
const QUARTER = /\(Q[1-4] \d{4}\)$/;

/** A grid cell by 1-based row number and column position. */
const cell = (page: Page, row: number, column: number) =>
  grid(page).locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);
const header = (page: Page, column: number) => grid(page).locator(`[role="columnheader"][aria-colindex="${column}"]`);

/** A new partner with the API product, and its timeline's address for the administrator (signed in). */
async function partnerWithTimeline(page: Page, label: string) {
  return `/admin/development-timeline/${await partnerWithProduct(page, label, { category: "API", product: PRODUCT, status: "PLANNED" })}`;
}

/** The quarter the page is about, from its title: "Q3 2026". */
async function quarterOf(page: Page) {
  const title = (await page.getByRole("heading", { level: 1 }).textContent()) ?? "";
  const quarter = /\((Q[1-4] \d{4})\)$/.exec(title.trim())?.[1];
  expect(quarter, title).toBeTruthy();
  return quarter!;
}

async function editCell(page: Page, row: number, column: number, text: string) {
  await cell(page, row, column).dblclick();
  const editor = grid(page).locator(".report-grid__editor");
  await editor.fill(text);
  await editor.press("Enter");
  await expect(editor).toHaveCount(0);
}

test.describe("with JavaScript", () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test("this quarter's columns come first at 1366 px, headed with the quarter and marked editable; earlier quarters follow", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open(await partnerWithTimeline(page, "Pdt-columns"));
    const quarter = await quarterOf(page);
    await expect(cell(page, 1, COLUMN.product)).toHaveText(PRODUCT);
    await expect(header(page, COLUMN.status)).toHaveText("Status");
    await expect(header(page, COLUMN.startDate)).toHaveText(`Start Date (${quarter})`);
    await expect(header(page, COLUMN.endDate)).toHaveText(`End Date (${quarter})`);
    await expect(header(page, COLUMN.slip)).toHaveText("Slip (days)");
    await expect(header(page, COLUMN.notes)).toHaveText("Notes");
    // Earlier quarters after them, the newest first.
    await expect(header(page, COLUMN.firstHistory)).toHaveText(QUARTER);
    await expect(header(page, COLUMN.firstHistory)).not.toHaveText(`Start Date (${quarter})`);

    // Both of this quarter's dates are on screen without scrolling: inside the grid's box and the window.
    const gridBox = (await grid(page).boundingBox())!;
    expect(
      await grid(page)
        .getByRole("grid")
        .evaluate((element) => element.scrollLeft),
    ).toBe(0);
    for (const column of [COLUMN.startDate, COLUMN.endDate]) {
      const box = (await header(page, column).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(gridBox.x + gridBox.width, 1366));
    }
    // Editable: a pencil in the header and a field-like cell; this quarter's cells look unlike the history's.
    await expect(header(page, COLUMN.startDate).locator("svg.pdt-grid__pencil")).toHaveCount(1);
    await expect(header(page, COLUMN.stage).locator("svg")).toHaveCount(0);
    const looks = (column: number) =>
      cell(page, 2, column).evaluate((element) => {
        const style = getComputedStyle(element);
        return `${style.backgroundColor} ${style.boxShadow}`;
      });
    const editable = await looks(COLUMN.startDate);
    expect(editable).not.toBe(await looks(COLUMN.stage));
    // The history, once scrolled to (the grid draws the columns in view), looks read-only.
    await cell(page, 2, COLUMN.stage).click();
    for (let at = COLUMN.stage; at < COLUMN.firstHistory; at++) await page.keyboard.press("ArrowRight");
    await expect(cell(page, 2, COLUMN.firstHistory)).toBeVisible();
    await page.keyboard.press("ArrowDown");
    expect(await looks(COLUMN.firstHistory)).not.toBe(editable);
  });

  test("an ISO date shows as '11 May 2026', a day and month that could swap say what they were read as; the calendar picks a date; saved, and in French", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    const path = await partnerWithTimeline(page, "Pdt-dates");
    await open(path);
    await expect(cell(page, 2, COLUMN.stage)).toHaveText(SECOND_STAGE);

    await editCell(page, 1, COLUMN.startDate, "2026-05-11");
    await expect(cell(page, 1, COLUMN.startDate)).toHaveText("11 May 2026");
    // Typed month first, as the spec reads it: 05/11 could be 5 November, so the cell says how it was read before anything is saved.
    await editCell(page, 2, COLUMN.startDate, "05/11/2026");
    await expect(cell(page, 2, COLUMN.startDate)).toHaveText("read as 11 May 2026");
    await editCell(page, 1, COLUMN.endDate, "5/13/2026");
    await expect(cell(page, 1, COLUMN.endDate)).toHaveText("13 May 2026");

    // The calendar beside the typed text.
    await cell(page, 2, COLUMN.endDate).dblclick();
    await expect(grid(page).getByRole("button", { name: "Choose a date" })).toBeVisible();
    await grid(page).locator(".pdt-date-picker__input").fill("2026-11-05");
    await expect(grid(page).locator(".report-grid__editor")).toHaveCount(0);
    await expect(cell(page, 2, COLUMN.endDate)).toHaveText("5 November 2026");

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await open(path);
    await expect(cell(page, 1, COLUMN.startDate)).toHaveText("11 May 2026");
    await expect(cell(page, 1, COLUMN.endDate)).toHaveText("13 May 2026");
    await expect(cell(page, 2, COLUMN.startDate)).toHaveText("11 May 2026");
    await expect(cell(page, 2, COLUMN.endDate)).toHaveText("5 November 2026");
    // The editor offers the stored date as ISO, never in an order that could be misread.
    await cell(page, 2, COLUMN.startDate).dblclick();
    await expect(grid(page).locator(".report-grid__editor")).toHaveValue("2026-05-11");
    await page.keyboard.press("Escape");

    // The month is named in the page's language.
    await open(`${path}?lng=fr`);
    await expect(header(page, COLUMN.startDate)).toHaveText(/^Date de début \(Q[1-4] \d{4}\)$/);
    await expect(cell(page, 1, COLUMN.startDate)).toHaveText("11 mai 2026");
    await expect(cell(page, 2, COLUMN.endDate)).toHaveText("5 novembre 2026");
    await editCell(page, 3, COLUMN.startDate, "12/1/2026");
    await expect(cell(page, 3, COLUMN.startDate)).toHaveText("lu comme 1 décembre 2026");
  });

  test("typing on without a pause while the grid takes over from the plain form (a slow link): every character arrives in the grid's cell", async ({
    page,
    signIn,
  }) => {
    await signIn("admin");
    const path = await partnerWithTimeline(page, "Pdt-takeover");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The page's own code is held back: the plain form is what the partner types into until it arrives.
    await page.route(/\/build\/routes\/_shell\.admin\.development-timeline\.(\$|%24)id-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // The page's load waits for its code: only the document is awaited.
    await page.goto(path, { waitUntil: "commit" });
    const notes = page.locator('input[name="pdt[0][notes]"]');
    await notes.click();
    const text = "Typed on while the grid took over";
    const gridShownAt = grid(page)
      .waitFor()
      .then(() => Date.now());
    const typing = page.keyboard.type(text, { delay: 60 });
    setTimeout(release, 400);
    await typing;
    const typedAt = Date.now();
    expect(await gridShownAt, "the grid took over in the middle of the typing").toBeLessThan(typedAt - 600);
    await expect(notes).toHaveCount(0);
    await expect(grid(page).locator(".report-grid__editor")).toHaveValue(text);
    await page.keyboard.press("Enter");
    await expect(cell(page, 1, COLUMN.notes)).toHaveText(text);
    await expect(page.locator(".report-editor")).toHaveAttribute("data-dirty", "true");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form: this quarter's columns first; an ISO date saved and named; a date that could swap says what it was read as after the save", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    const path = await partnerWithTimeline(page, "Pdt-plain");
    await open(path);
    const quarter = await quarterOf(page);
    const table = page.getByTestId("pdt-table");
    const heads = await table.locator("thead th").allTextContents();
    expect(heads.slice(0, 7)).toEqual(["Product", "Stage", "Status", `Start Date (${quarter})`, `End Date (${quarter})`, "Slip (days)", "Notes"]);
    for (const head of heads.slice(7)) expect(head).toMatch(/^(Start|End) Date \(Q[1-4] \d{4}\)$/);
    expect(heads.slice(7)).not.toContain(`Start Date (${quarter})`);

    const field = (column: string, stage: string) => table.getByLabel(`${column}, ${PRODUCT}, ${stage}`, { exact: true });
    await field("Start Date", FIRST_STAGE).fill("2026-05-11");
    await field("End Date", FIRST_STAGE).fill("5/13/2026");
    await field("Start Date", SECOND_STAGE).fill("05/11/2026");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");

    // Saved as ISO, each date named; the one typed 05/11 says what it was read as.
    await expect(field("Start Date", FIRST_STAGE)).toHaveValue("2026-05-11");
    await expect(field("Start Date", FIRST_STAGE)).toHaveAccessibleDescription("11 May 2026");
    await expect(field("End Date", FIRST_STAGE)).toHaveValue("2026-05-13");
    await expect(field("End Date", FIRST_STAGE)).toHaveAccessibleDescription("13 May 2026");
    await expect(field("Start Date", SECOND_STAGE)).toHaveValue("2026-05-11");
    await expect(field("Start Date", SECOND_STAGE)).toHaveAccessibleDescription("read as 11 May 2026");
    await expect(table.getByText("read as 11 May 2026")).toBeVisible();

    // Said once: the next visit shows the date named.
    await open(path);
    await expect(field("Start Date", SECOND_STAGE)).toHaveAccessibleDescription("11 May 2026");

    // A refused post keeps what was typed, and says how it reads.
    await field("End Date", SECOND_STAGE).fill("03/04/2026");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByTestId("invalid-data")).toContainText("Row No. 2: End Date");
    await expect(field("End Date", SECOND_STAGE)).toHaveValue("03/04/2026");
    await expect(field("End Date", SECOND_STAGE)).toHaveAccessibleDescription("read as 4 March 2026");
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`on a phone, ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled });

    test("one card per product, its stages with status, dates and notes, saved by the page's form", async ({ page, open, signIn }) => {
      await signIn("admin");
      const path = await partnerWithTimeline(page, javaScriptEnabled ? "Pdt-phone-js" : "Pdt-phone");
      await open(path);

      // No grid: the form, as cards that fit the screen.
      const table = page.getByTestId("pdt-table");
      await expect(table).toBeVisible();
      await expect(page.getByTestId("report-grid-PDT")).toHaveCount(0);
      const product = table.getByRole("rowheader", { name: PRODUCT });
      const status = table.getByLabel(`Status of ${PRODUCT}`);
      const start = table.getByLabel(`Start Date, ${PRODUCT}, ${FIRST_STAGE}`, { exact: true });
      const notes = table.getByLabel(`Notes, ${PRODUCT}, ${FIRST_STAGE}`, { exact: true });
      for (const control of [product, status, start, notes]) {
        await expect(control).toBeVisible();
        const box = (await control.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      // The stages one under the other, below the product's name; each field named beside it.
      const productBox = (await product.boundingBox())!;
      const startBox = (await start.boundingBox())!;
      const secondStart = (await table.getByLabel(`Start Date, ${PRODUCT}, ${SECOND_STAGE}`, { exact: true }).boundingBox())!;
      expect(startBox.y).toBeGreaterThan(productBox.y);
      expect(secondStart.y).toBeGreaterThan(startBox.y + startBox.height);
      await expect(start.locator("xpath=ancestor::td[1]")).toHaveAttribute("data-label", /^Start Date \(Q[1-4] \d{4}\)$/);
      const { scrollWidth, clientWidth } = await page.locator("html").evaluate(({ scrollWidth, clientWidth }) => ({ scrollWidth, clientWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await expect(table.getByRole("button", { name: "Choose a date" })).toHaveCount(javaScriptEnabled ? 26 : 0);

      await start.fill("2026-05-11");
      await notes.fill("Planned on the phone");
      await status.selectOption({ label: "Under Development" });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Data recorded successfully!");

      await open(path);
      await expect(start).toHaveValue("2026-05-11");
      await expect(start).toHaveAccessibleDescription("11 May 2026");
      await expect(notes).toHaveValue("Planned on the phone");
      await expect(status).toHaveValue("UNDER_DEVELOPMENT");
    });
  });
}
