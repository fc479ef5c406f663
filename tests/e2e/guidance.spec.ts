import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";
import { createPartner, mailTo, partnerSignsIn } from "./support/partners";

/**
 * The guidance on both dashboards. The browser tests share one database: the workflow here runs on
 * a partner this spec creates; the demo partners are only read (Acme's rejected Filing Plan is the seed's).
 */
const list = (page: Page) => page.getByTestId("partner-list");
const listedNames = async (page: Page) => (await list(page).locator("tbody th[scope=row]").allTextContents()).map((name) => name.trim());

/** Clicks the admin dashboard's count of a report in a state; answers the count. */
async function openCount(page: Page, report: string, state: string) {
  const table = page.getByTestId("report-status-counts");
  const column = (await table.locator("thead th").allTextContents()).map((text) => text.trim()).indexOf(state);
  expect(column, state).toBeGreaterThan(0);
  const cell = table
    .locator("tbody tr")
    .filter({ has: page.getByRole("rowheader", { name: report, exact: true }) })
    .locator("th, td")
    .nth(column);
  const count = Number((await cell.textContent())!.trim());
  await cell.getByRole("link").click();
  return count;
}

test.describe("with JavaScript", () => {
  test("a new partner is led from Start to 'Fix the rejected report'; the admin's counts open the partners behind them", async ({
    page,
    open,
    signIn,
    browser,
    baseURL,
  }) => {
    const mailbox = await startMailbox();
    let partnerBrowser: Awaited<ReturnType<typeof partnerSignsIn>> | undefined;
    try {
      await signIn("admin");
      const partner = await createPartner(page, "Guided");
      const link = linkFrom((await mailTo(mailbox.received, partner.email)).raw);
      partnerBrowser = await partnerSignsIn(browser, baseURL!, link!, partner.email, "guided-pass-42");
      const partnerPage = partnerBrowser.page;

      // Nothing reported yet: the open quarter, the deadline and 'Start' on every report.
      await expect(partnerPage.getByTestId("cut-off-date")).toContainText(/Open quarter: Q[1-4] \d{4}/);
      await expect(partnerPage.getByTestId("cut-off-date")).toContainText(/Report submission date: \d{2}-\d{2}-\d{4} · (Days left: \d+|Overdue)/);
      const deadline = (await partnerPage.getByTestId("cut-off-date").textContent())!.match(/Report submission date: (\d{2}-\d{2}-\d{4})/)![1];
      await expect(partnerPage.getByTestId("reports-owed")).toHaveText(`Reports to submit by ${deadline}: 3`);
      const quarter = (await partnerPage.getByTestId("cut-off-date").textContent())!.match(/Q[1-4] \d{4}/)![0];
      for (const type of ["pdt", "filing", "sales"]) {
        await expect(partnerPage.getByTestId(`tile-${type}`)).toContainText("Not started");
        await expect(partnerPage.getByTestId(`tile-${type}`)).toContainText(`Quarter${quarter}`);
        await expect(partnerPage.getByTestId(`tile-${type}`)).toContainText("No data available!");
        await expect(partnerPage.getByTestId(`tile-${type}`).getByRole("link", { name: "Start" })).toBeVisible();
      }

      // Start leads to the report; the partner has no sales this quarter and submits it so.
      await partnerPage.getByTestId("tile-sales").getByRole("link", { name: "Start" }).click();
      await expect(partnerPage).toHaveURL("/partner/sales-report");
      await partnerPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await partnerPage.getByRole("button", { name: "Nothing to report this quarter" }).click();
      await partnerPage.getByTestId("comment-dialog").getByLabel("Comment").fill("No sales in this quarter.");
      await partnerPage.getByTestId("comment-dialog").getByRole("button", { name: "Submit Report" }).click();
      await expect(partnerPage.getByTestId("report-status")).toContainText("Report Status: Submitted on");
      await partnerPage.goto("/partner/dashboard");
      await expect(partnerPage.getByTestId("tile-sales")).toContainText("Submitted");
      await expect(partnerPage.getByTestId("tile-sales").locator(".tile__action")).toHaveCount(0);
      await expect(partnerPage.getByTestId("reports-owed")).toHaveText(`Reports to submit by ${deadline}: 2`);

      // The admin's count of submitted sales reports lists exactly the partners behind it, the new one among them.
      await open("/admin/dashboard");
      const submitted = await openCount(page, "Sales Report", "Submitted");
      await expect(page).toHaveURL("/admin/partner-list?sort=company&dir=asc&report=sales&state=Submitted");
      await expect(page.getByTestId("report-filter")).toContainText("Sales Report: Submitted");
      await expect(list(page).locator("tbody tr")).toHaveCount(submitted);
      expect(await listedNames(page)).toContain(partner.companyName);
      for (const state of await list(page)
        .locator('[data-report-type="sales"]')
        .evaluateAll((icons) => icons.map((icon) => icon.getAttribute("data-state")))) {
        expect(state).toBe("submitted");
      }
      const partnerId = await list(page)
        .locator("tbody tr", { has: page.getByRole("rowheader", { name: partner.companyName }) })
        .getAttribute("data-partner-id");

      // The administrator rejects it with a comment.
      await open(`/admin/sales-report/${partnerId}`);
      await page.getByRole("button", { name: "Reject", exact: true }).click();
      await page.getByTestId("comment-dialog").getByLabel("Comment").fill("Your shipments to Kenya are missing.");
      await page.getByTestId("comment-dialog").getByRole("button", { name: "Reject" }).click();
      await expect(page.getByTestId("report-status")).toContainText("Report Status: Rejected on");

      await open("/admin/dashboard");
      await openCount(page, "Sales Report", "Rejected");
      await expect(page).toHaveURL(/report=sales&state=Rejected/);
      // The address changes as the navigation starts: the list is read once it is drawn.
      await expect.poll(() => listedNames(page)).toContain(partner.companyName);
      await page.getByRole("link", { name: "Show every partner" }).click();
      await expect(page).toHaveURL("/admin/partner-list");
      await expect(page.getByTestId("report-filter")).toHaveCount(0);

      // The partner is asked to fix it, with the administrator's comment.
      await partnerPage.goto("/partner/dashboard");
      const tile = partnerPage.getByTestId("tile-sales");
      await expect(tile).toContainText("Rejected");
      await expect(tile.getByTestId("sent-back-sales")).toContainText("Rejected by the administrator");
      await expect(tile.getByTestId("rejection-sales")).toHaveText("Your shipments to Kenya are missing.");
      await expect(partnerPage.getByTestId("reports-owed")).toHaveText(`Reports to submit by ${deadline}: 3`);

      // The same in French.
      await partnerPage.goto("/partner/dashboard?lng=fr");
      await expect(partnerPage.getByTestId("reports-owed")).toHaveText(`Rapports à soumettre avant le ${deadline} : 3`);
      await expect(tile.getByTestId("sent-back-sales")).toContainText("Rejeté par l’administrateur");
      await partnerPage.goto("/partner/dashboard?lng=en");

      await tile.getByRole("link", { name: "Fix the rejected report" }).click();
      await expect(partnerPage).toHaveURL("/partner/sales-report");
    } finally {
      await partnerBrowser?.close();
      await mailbox.close();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a count opens the filtered partner list, a search keeps the filter; the partner's rejected report offers the fix", async ({ page, signIn }) => {
    await signIn("admin");
    // Borealis has no Filing Plan this quarter (the seed's; no spec gives it one).
    const notStarted = await openCount(page, "Filing Plan", "Not started");
    await expect(page).toHaveURL("/admin/partner-list?sort=company&dir=asc&report=filing&state=not+started");
    await expect(list(page).locator("tbody tr")).toHaveCount(notStarted);
    expect(await listedNames(page)).toContain("Borealis Pharma Pvt");
    expect(await listedNames(page)).not.toContain("Acme Generics Ltd");

    await page.getByRole("searchbox", { name: "Search" }).fill("borealis");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL("/admin/partner-list?q=borealis&sort=company&dir=asc&report=filing&state=not+started");
    expect(await listedNames(page)).toEqual(["Borealis Pharma Pvt"]);
    await page.getByRole("link", { name: "Show every partner" }).click();
    await expect(page).toHaveURL("/admin/partner-list?q=borealis&sort=company&dir=asc");

    await page.context().clearCookies();
    await signIn("partner1");
    const tile = page.getByTestId("tile-filing");
    await expect(tile).toContainText("Rejected");
    await expect(tile.getByTestId("rejection-filing")).toHaveText("Please check the quantities for the second month.");
    await expect(tile.getByTestId("sent-back-filing")).toContainText("Rejected by the administrator");
    await expect(page.getByTestId("reports-owed")).toContainText(/Reports to submit( by \d{2}-\d{2}-\d{4})?: [1-3]$/);
    await expect(page.getByTestId("tile-sales").getByRole("link", { name: "Continue" })).toBeVisible();
    await tile.getByRole("link", { name: "Fix the rejected report" }).click();
    await expect(page).toHaveURL("/partner/filing-plans");
  });
});
