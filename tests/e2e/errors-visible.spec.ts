import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { salesWorkbook } from "./support/workbooks";

/**
 * What a refusal says: why a button is disabled, as text the button is described by; the bad value
 * of an invalid cell beside its row and column; reference values in the page's language.
 */
const year = String(new Date().getUTCFullYear());

async function partnerIdOf(page: Page, companyName: string) {
  // The list is paged: the partner is looked up by its name.
  await page.goto(`/admin/partner-list?q=${encodeURIComponent(companyName)}`);
  const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: companyName, exact: true }) }).getAttribute("data-partner-id");
  expect(id).toBeTruthy();
  return id!;
}

/** The text a button's aria-describedby points to. */
async function descriptionOf(page: Page, name: string) {
  const button = page.getByRole("button", { name, exact: true });
  await expect(button).toBeDisabled();
  const id = await button.getAttribute("aria-describedby");
  expect(id).toBeTruthy();
  return page.locator(`[id="${id}"]`);
}

test.describe("disabled buttons say why, with JavaScript", () => {
  test("STAFF in French: one line under the toolbar for Save, Approve and Reject, which describes each", async ({ page, open, signIn }) => {
    await signIn("staff");
    const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
    await open(`/admin/development-timeline/${cedarId}?lng=fr`);
    const reasons = page.getByTestId("unavailable-reasons");
    await expect(reasons.locator("li")).toHaveCount(1);
    await expect(reasons).toHaveText(
      "Non disponible (Enregistrer, Approuver et Refuser) : Les membres du personnel peuvent consulter les rapports, mais pas les modifier.",
    );
    for (const name of ["Enregistrer", "Approuver", "Refuser"]) await expect(await descriptionOf(page, name)).toBeVisible();
  });
});

test.describe("disabled buttons say why, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("STAFF: the decision form's Approve and Reject are described by the reason shown under them", async ({ page, open, signIn }) => {
    await signIn("staff");
    const cedarId = await partnerIdOf(page, "Cedar Life Sciences");
    await open(`/admin/sales-report/${cedarId}`);
    const form = page.getByTestId("decision-form");
    await expect(form.getByTestId("unavailable-reasons")).toHaveText(
      "Approve and Reject not available: Staff members can read reports but cannot change them.",
    );
    await expect(await descriptionOf(page, "Approve")).toHaveText(/Staff members can read reports/);
  });
});

test.describe("the bad value beside its row and column", () => {
  test("with JavaScript, in Spanish: an uploaded workbook's invalid cells are listed with what they hold", async ({ page, open, signIn }) => {
    await signIn("partner1");
    await open("/partner/sales-report?lng=es");
    const file = test.info().outputPath("bad-value.xlsx");
    await fs.writeFile(file, await salesWorkbook({ API: [[Number(year), "March", "India", "Global Fund", "Abacavir API", "12,5x", 20]] }));
    const upload = page.getByTestId("report-upload");
    await upload.locator('input[type="file"]').setInputFiles(file);
    await upload.locator('input[name="mode"][value="append"]').check();
    await upload.locator('button[type="submit"]').click();
    await expect(page.getByTestId("upload-problems")).toContainText("Quantity (Kg): “12,5x”");
  });
});

test.describe("the bad value beside its row and column, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form's 'Invalid data!' shows the row, the column and the value typed; nothing is saved", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/sales-report");
    const index = await page
      .locator('input[name$="[year]"][name^="api["]')
      .evaluateAll((inputs) => inputs.findIndex((input) => !(input as HTMLInputElement).value));
    expect(index).toBeGreaterThanOrEqual(0);
    const field = (key: string) => page.locator(`[name="api[${index}][${key}]"]`);
    await field("year").fill(year);
    await field("month").fill("Smarch");
    await field("country").fill("India");
    await field("purchaser").fill("Global Fund");
    await field("productName").fill("Abacavir API");
    await field("quantity").fill("5");
    await page.locator('button[name="intent"][value="save"]').click();
    await expect(page.getByTestId("invalid-data")).toContainText(`Row No. ${index + 1}: Month: “Smarch”`);
  });
});

test.describe("reference values in the page's language", () => {
  test("the consolidated Sales Report in French names formulation types in French; its CSV keeps the English names", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/report/sales-report?tab=FDF&lng=fr");
    await expect(page.getByTestId("sales-report-table")).toContainText("Comprimé");
    await expect(page.locator("#sales-report-formulationType option", { hasText: "Comprimé" })).toHaveCount(1);
    const csvHref = await page.locator('a[download$=".csv"]').first().getAttribute("href");
    const csv = await (await page.request.get(csvHref!)).text();
    expect(csv).toContain("Tablet");
    expect(csv).not.toContain("Comprimé");
  });
});
