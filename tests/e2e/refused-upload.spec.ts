import { expect, test } from "./support/fixtures";
import { salesWorkbook } from "./support/workbooks";

/**
 * Without JavaScript, a workbook refused for what its sheets hold is answered by its problems
 * alone: the page does not load and draw the report's rows again. partner1's refused upload saves
 * nothing, so the specs that edit its report are not disturbed.
 */
const workbookWithWrongYear = () => salesWorkbook({ API: [["not a year", "March", "India", "Refused Purchaser", "Abacavir API", 1, 100]] });

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a workbook with a wrong row is answered by its problems alone; the link loads the report again", async ({ page, open, signIn }) => {
    await signIn("partner1");
    await open("/partner/sales-report");
    const upload = page.getByTestId("report-upload");
    await upload.getByLabel("Excel file (.xlsx, at most 10 MB)").setInputFiles({
      name: "wrong-year.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: await workbookWithWrongYear(),
    });
    await upload.getByLabel("Append to them").check();
    await upload.getByRole("button", { name: "Upload" }).click();

    await expect(page.getByTestId("refusal-page")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Sales Report" })).toBeVisible();
    await expect(page.getByTestId("upload-problems")).toContainText("Nothing was saved.");
    await expect(page.getByTestId("upload-problems")).toContainText("Sheet API, row 2: Year");
    await expect(page.getByTestId("sales-table-API")).toHaveCount(0);

    await page.getByRole("link", { name: "Reload the report" }).click();
    await expect(page.getByTestId("sales-table-API")).toBeVisible();
    await expect(page.getByTestId("upload-problems")).toHaveCount(0);
  });
});
