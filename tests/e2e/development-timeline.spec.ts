import fs from "node:fs/promises";
import ExcelJS from "exceljs";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * The Development Timeline screen. The browser tests share one database: this spec changes only
 * partner3's (Cedar's) timeline, which starts not started in the open quarter. With JavaScript it is
 * saved, submitted and approved; without JavaScript the admin reopens it, the partner corrects it and
 * submits it again, and the admin rejects it: Cedar's timeline is left Rejected. partner1's (Acme's)
 * submitted timeline is only read (the partner dashboard's spec expects it submitted).
 */
const toast = (page: Page) => page.locator(".toast");
const grid = (page: Page) => page.getByTestId("report-grid-PDT");
/** A grid cell by 1-based row number and column position (Product is column 1). */
const cell = (page: Page, row: number, column: number) =>
  grid(page).locator(`[role="row"][aria-rowindex="${row + 1}"] [role="gridcell"][aria-colindex="${column}"]`);
const COLUMN = { product: 1, stage: 2, status: 3, startDate: 4, endDate: 5, slip: 6, notes: 7 };
const CEDAR = "Cedar Life Sciences";
/** Cedar's first product in the grid's (alphabetical) order: an API with the API stages. */
const FIRST_PRODUCT = "Abacavir API";

/** A cell the grid has not rendered yet (it renders the columns in view): moves the selection there with the keyboard. */
async function scrollToCell(page: Page, row: number, column: number) {
  await cell(page, row, COLUMN.stage).click();
  for (let at = COLUMN.stage; at < column; at++) await page.keyboard.press("ArrowRight");
  const target = cell(page, row, column);
  await expect(target).toBeVisible();
  return target;
}

async function editCell(page: Page, row: number, column: number, text: string) {
  await (await scrollToCell(page, row, column)).dblclick();
  const editor = grid(page).locator(".report-grid__editor");
  await editor.fill(text);
  await editor.press("Enter");
  await expect(editor).toHaveCount(0);
}

const DAY_MS = 86_400_000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** A date as the grid shows it in English ("8 May 2025") as a UTC time. */
function parseGridDate(text: string): number {
  const match = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text.trim());
  expect(match && MONTHS.includes(match[2]), `a date like "8 May 2025", got "${text}"`).toBeTruthy();
  return Date.UTC(Number(match![3]), MONTHS.indexOf(match![2]), Number(match![1]));
}
const utc = (time: number) => new Date(time);
/** M/D/YYYY without leading zeros, as a person types it. */
const typed = (time: number) => `${utc(time).getUTCMonth() + 1}/${utc(time).getUTCDate()}/${utc(time).getUTCFullYear()}`;
/** "8 May 2025", as the grid shows a date. */
const shown = (time: number) => `${utc(time).getUTCDate()} ${MONTHS[utc(time).getUTCMonth()]} ${utc(time).getUTCFullYear()}`;
/** What the grid shows for a date just typed as M/D/YYYY: "read as …" when day and month could swap. */
const shownAfterTyping = (time: number) => {
  const [day, month] = [utc(time).getUTCDate(), utc(time).getUTCMonth() + 1];
  return day <= 12 && day !== month ? `read as ${shown(time)}` : shown(time);
};
/** YYYY-MM-DD, as a date input holds it. */
const iso = (time: number) => utc(time).toISOString().slice(0, 10);
const isoTime = (value: string) => Date.parse(`${value}T00:00:00Z`);

async function partnerIdOf(page: Page, companyName: string) {
  // The list is paged: the partner is looked up by its name.
  await page.goto(`/admin/partner-list?q=${encodeURIComponent(companyName)}`);
  const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: companyName, exact: true }) }).getAttribute("data-partner-id");
  expect(id).toBeTruthy();
  return id!;
}

type Account = "admin" | "partner1" | "partner3";
async function switchUser(page: Page, signIn: (account: Account) => Promise<void>, account: Account) {
  await page.context().clearCookies();
  await signIn(account);
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

test.describe.serial("with JavaScript (partner3 and the admin)", () => {
  /** What the first test changed, for the tests after it. */
  const edited = { endDate: 0, slip: 30, notes: `CRO slot moved by a month (${Date.now()})`, status: "On Hold" };

  test("edit dates, notes and the status; an invalid date is refused; save, submit; the admin sees the slip and approves", async ({ page, open, signIn }) => {
    test.setTimeout(120_000);
    await signIn("partner3");
    await open("/partner/development-timeline");
    await expect(page.getByRole("heading", { name: /^Development Timeline for Cedar Life Sciences \(Q[1-4] \d{4}\)$/ })).toBeVisible();
    await expect(page.getByTestId("report-status")).toHaveText("Report Status: Not started");

    // The products, each with its stages: the product's name on its first stage only.
    await expect(cell(page, 1, COLUMN.product)).toHaveText(FIRST_PRODUCT);
    await expect(cell(page, 1, COLUMN.stage)).toHaveText("Investigation and route selection");
    await expect(cell(page, 2, COLUMN.product)).toHaveText("");
    await expect(cell(page, 2, COLUMN.stage)).toHaveText("R&D Batch API");

    // The quarter starts from last quarter's plan: no slip yet.
    const endCell = await scrollToCell(page, 1, COLUMN.endDate);
    const plannedEnd = parseGridDate((await endCell.textContent())!);
    await expect(grid(page).locator(`[role="columnheader"][aria-colindex="${COLUMN.endDate}"]`)).toHaveText(/^End Date \(Q[1-4] \d{4}\)$/);
    await expect(grid(page).locator(`[role="columnheader"][aria-colindex="${COLUMN.slip}"]`)).toHaveText("Slip (days)");
    await expect(cell(page, 1, COLUMN.slip)).toHaveText("");

    // A later end date (typed M/D/YYYY): the slip shows at once.
    edited.endDate = plannedEnd + edited.slip * DAY_MS;
    await editCell(page, 1, COLUMN.endDate, typed(edited.endDate));
    await expect(cell(page, 1, COLUMN.endDate)).toHaveText(shownAfterTyping(edited.endDate));
    await expect(cell(page, 1, COLUMN.slip)).toHaveText(`+${edited.slip}`);
    await expect(page.getByText("Unsaved changes")).toBeVisible();

    await editCell(page, 1, COLUMN.notes, edited.notes);
    await expect(cell(page, 1, COLUMN.notes)).toHaveText(edited.notes);

    // The status is the product's: chosen on one stage, every stage of the product shows it.
    await expect(cell(page, 1, COLUMN.status)).toHaveText("Filed");
    await cell(page, 1, COLUMN.status).dblclick();
    await grid(page).locator("select.report-grid__editor").selectOption({ label: edited.status });
    await expect(cell(page, 1, COLUMN.status)).toHaveText(edited.status);
    await expect(cell(page, 2, COLUMN.status)).toHaveText(edited.status);

    // A date that does not exist: the cell is marked, and Save lists the row instead of posting.
    const startCell = await scrollToCell(page, 2, COLUMN.startDate);
    const secondStart = (await startCell.textContent())!.trim();
    const year = utc(parseGridDate(secondStart)).getUTCFullYear();
    await editCell(page, 2, COLUMN.startDate, `2/30/${year}`);
    await expect(cell(page, 2, COLUMN.startDate)).toHaveClass(/report-grid__cell--invalid/);
    await expect(cell(page, 1, COLUMN.startDate)).not.toHaveClass(/report-grid__cell--invalid/);
    let posted = false;
    page.on("request", (request) => {
      if (request.method() === "POST") posted = true;
    });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const invalid = page.getByTestId("invalid-data-dialog");
    await expect(invalid).toContainText("Invalid data!");
    await expect(invalid).toContainText("Please input valid entries!");
    await expect(invalid).toContainText(`Row No. 2: Start Date: “2/30/${year}”`);
    expect(posted).toBe(false);
    await invalid.getByRole("button", { name: "Ok" }).click();
    await expect(invalid).toBeHidden();

    await editCell(page, 2, COLUMN.startDate, iso(parseGridDate(secondStart)));
    await expect(grid(page).locator(".report-grid__cell--invalid")).toHaveCount(0);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await expect(page.getByText("Unsaved changes")).toHaveCount(0);

    // Kept after a reload; the status line says Saved.
    await open("/partner/development-timeline");
    await expect(page.getByTestId("report-status")).toContainText(/^Report Status: Saved on \d/);
    await expect(cell(page, 1, COLUMN.notes)).toHaveText(edited.notes);
    await expect(cell(page, 1, COLUMN.status)).toHaveText(edited.status);
    await expect(cell(page, 2, COLUMN.status)).toHaveText(edited.status);
    await expect(await scrollToCell(page, 1, COLUMN.endDate)).toHaveText(shown(edited.endDate));
    await expect(cell(page, 1, COLUMN.slip)).toHaveText(`+${edited.slip}`);
    await expect(await scrollToCell(page, 2, COLUMN.startDate)).toHaveText(secondStart);

    // Submit Report asks for the comment.
    await page.getByRole("button", { name: "Submit Report" }).click();
    const dialog = page.getByTestId("comment-dialog");
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expect(dialog).toContainText("Enter comments for admin");
    await dialog.getByLabel("Comment").fill("The API validation moved by a month.");
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText(/^Report Status: Submitted on \d/);
    // Nothing new to submit: the button says why it is disabled.
    const submit = page.getByRole("button", { name: "Submit Report" });
    await expect(submit).toBeDisabled();
    await expect(submit).toHaveAttribute("title", "This report is already submitted. Change it to submit it again.");
    await expect(page.getByTestId("save-withdraws")).toHaveText("Saving withdraws your submission until you submit the report again.");

    // The admin sees the slip and approves.
    await switchUser(page, signIn, "admin");
    const cedarId = await partnerIdOf(page, CEDAR);
    await open(`/admin/development-timeline/${cedarId}`);
    // The admin's heading starts with the back arrow to the partner list.
    await expect(page.getByRole("heading", { level: 1 })).toHaveAccessibleName(
      /^Back to the partner list Development Timeline for Cedar Life Sciences \(Q[1-4] \d{4}\)$/,
    );
    await expect(page.getByRole("link", { name: "Back to the partner list" })).toHaveAttribute("href", "/admin/partner-list");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Submitted on");
    await expect(await scrollToCell(page, 1, COLUMN.slip)).toHaveText(`+${edited.slip}`);
    await expect(cell(page, 1, COLUMN.endDate)).toHaveText(shown(edited.endDate));
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    const decision = page.getByTestId("comment-dialog");
    await decision.getByRole("button", { name: "Approve" }).click();
    await expect(decision).toContainText("Enter comments for partner");
    await decision.getByLabel("Comment").fill("Thank you, the new dates are noted.");
    await decision.getByRole("button", { name: "Approve" }).click();
    await expect(toast(page)).toContainText("Report Approved!");
    await expect(page.getByTestId("report-status")).toContainText(/^Report Status: Approved on \d/);
  });

  test("the timeline picture and the Excel download show the saved plan", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/development-timeline");
    const picture = page.getByTestId("report-page").locator('svg[role="img"]');
    await expect(picture).toBeVisible();
    await expect(picture).toHaveAccessibleName(/Development Timeline for Cedar Life Sciences/);

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download Excel" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^development-timeline_Cedar-Life-Sciences_\d{4}-Q[1-4]\.xlsx$/);
    const sheets = await sheetsOf(await fs.readFile((await download.path())!));
    expect(sheets.map((sheet) => sheet.name)).toEqual(["PDT", "Info"]);
    const [header, ...rows] = sheets[0].rows;
    expect(header.slice(0, 8)).toEqual(["Product", "Stage", "Status", "Notes", "Start Date", "End Date", "Start slip (days)", "End slip (days)"]);
    for (const label of header.slice(8)) expect(label).toMatch(/^(Start|End) Date \(Q[1-4] \d{4}\)$/);
    const first = rows.find((row) => row[0] === FIRST_PRODUCT && row[1] === "Investigation and route selection");
    expect(first).toBeDefined();
    expect(first![3]).toBe(edited.notes);
    expect(first![5]).toBeInstanceOf(Date);
    expect((first![5] as Date).toISOString()).toBe(utc(edited.endDate).toISOString());
    expect(first![4]).toBeInstanceOf(Date);
    expect(first![7]).toBe(edited.slip);
    // Every stage of the product is a row (the thirteen API stages).
    expect(rows.filter((row) => row[0] === FIRST_PRODUCT)).toHaveLength(13);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a submitted timeline says that saving withdraws the submission", async ({ page, open, signIn }) => {
    // partner1's timeline, submitted in the demo seed: only read here.
    await signIn("partner1");
    await open("/partner/development-timeline");
    await expect(page.getByRole("heading", { name: /^Development Timeline for Acme Generics Ltd \(Q[1-4] \d{4}\)$/ })).toBeVisible();
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Submitted on");
    await expect(page.getByTestId("pdt-table")).toBeVisible();
    await expect(page.locator(".report-form__actions")).toContainText("Saving withdraws your submission until you submit the report again.");
    await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
  });

  test("the admin reopens; the partner saves, gets the invalid cell back highlighted, submits; the admin rejects", async ({ page, open, signIn }) => {
    test.setTimeout(90_000);
    // Cedar's timeline, approved by the tests with JavaScript: the admin reopens it with the plain form.
    await signIn("admin");
    const cedarId = await partnerIdOf(page, CEDAR);
    await open(`/admin/development-timeline/${cedarId}`);
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Approved on");
    await expect(page.getByTestId("report-grid-PDT")).toHaveCount(0);
    await expect(page.getByTestId("pdt-table")).toBeVisible();
    await page.getByTestId("decision-form").getByRole("button", { name: "Reopen" }).click();
    await expect(page.getByTestId("decision-form")).toContainText("Enter comments for partner");
    await page.getByTestId("decision-form").getByLabel("Comment").fill("Reopened: please add the pilot dates.");
    await page.getByTestId("decision-form").getByRole("button", { name: "Reopen" }).click();
    await expect(toast(page)).toContainText("Report reopened!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Saved on");

    await switchUser(page, signIn, "partner3");
    await open("/partner/development-timeline");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Saved on");
    const table = page.getByTestId("pdt-table");
    const firstRow = table.locator("tbody tr").first();
    await expect(firstRow.locator("th")).toHaveText(FIRST_PRODUCT);
    // The stage cell's own text (its Comment link follows it).
    const stage = (await firstRow
      .locator("td")
      .first()
      .evaluate((cell) => cell.firstChild?.textContent ?? ""))!.trim();
    const field = (column: string) => table.getByLabel(`${column}, ${FIRST_PRODUCT}, ${stage}`, { exact: true });
    const end = await field("End Date").inputValue();
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const start = iso(isoTime(end) - 10 * DAY_MS);
    const notes = `Filled without JavaScript (${Date.now()})`;

    await field("Start Date").fill(start);
    await field("Notes").fill(notes);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Data recorded successfully!");
    await expect(field("Start Date")).toHaveValue(start);
    await expect(field("Notes")).toHaveValue(notes);
    await expect(field("End Date")).toHaveValue(end);

    // An end date before the start: 'Invalid data!' in the page, the cell highlighted, what was typed kept.
    const early = iso(isoTime(start) - DAY_MS);
    await field("End Date").fill(early);
    await field("Notes").fill(`${notes}, corrected`);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    const invalid = page.getByTestId("invalid-data");
    await expect(invalid).toContainText("Invalid data!");
    await expect(invalid).toContainText("Please input valid entries!");
    await expect(invalid).toContainText("Row No. 1: End Date");
    const cellOf = (column: string) => field(column).locator("xpath=ancestor::td[1]");
    await expect(cellOf("End Date")).toHaveClass(/report-form-table__cell--invalid/);
    await expect(cellOf("Start Date")).not.toHaveClass(/report-form-table__cell--invalid/);
    await expect(field("End Date")).toHaveAttribute("aria-invalid", "true");
    await expect(field("End Date")).toHaveValue(early);
    await expect(field("Start Date")).toHaveValue(start);
    await expect(field("Notes")).toHaveValue(`${notes}, corrected`);

    // Put right and submitted with the comment: submitted again.
    await field("End Date").fill(end);
    // The plain form's own submission (not the 'Nothing to report this quarter' form beside it).
    const submission = () => page.getByRole("group", { name: "Submit Report", exact: true });
    await submission().getByRole("button", { name: "Submit Report" }).click();
    await expect(submission()).toContainText("Enter comments for admin");
    await expect(field("End Date")).toHaveValue(end);
    await submission().getByRole("textbox", { name: "Comment" }).fill("Pilot dates added.");
    await submission().getByRole("button", { name: "Submit Report" }).click();
    await expect(toast(page)).toContainText("Report has been submitted to the admin!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Resubmitted on");
    await expect(field("Notes")).toHaveValue(`${notes}, corrected`);
    await expect(page.locator(".report-form__actions")).toContainText("Saving withdraws your submission until you submit the report again.");

    // The admin rejects with the plain form: the comment is required.
    await switchUser(page, signIn, "admin");
    await open(`/admin/development-timeline/${cedarId}`);
    await expect(field("Notes")).toHaveValue(`${notes}, corrected`);
    await expect(field("Start Date")).toHaveValue(start);
    const decision = page.getByTestId("decision-form");
    await decision.getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("decision-form")).toContainText("Enter comments for partner");
    await page.getByTestId("decision-form").getByLabel("Comment").fill("The pilot cannot start before the route is selected.");
    await page.getByTestId("decision-form").getByRole("button", { name: "Reject" }).click();
    await expect(toast(page)).toContainText("Report Rejected!");
    await expect(page.getByTestId("report-status")).toContainText("Report Status: Rejected on");
  });
});
