import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";
import { createPartner, mailTo, partnerSignsIn, signInOnForm } from "./support/partners";

/**
 * The browser tests share one seeded database: the demo partners are only read here. Every
 * deactivation is done on a partner this spec creates through the Add Partner form's endpoint.
 */
const DEMO = ["Acme Generics Ltd", "Borealis Pharma Pvt", "Cedar Life Sciences"];

const table = (page: Page) => page.getByTestId("partner-list");
const rowOf = (page: Page, companyName: string) =>
  table(page)
    .locator("tbody tr")
    .filter({ has: page.getByRole("rowheader", { name: companyName, exact: true }) });

/** The demo partners' names in the order the list shows them (other specs may add partners of their own). */
async function demoOrder(page: Page) {
  const names = await table(page).locator("tbody th[scope=row]").allTextContents();
  return names.map((name) => name.trim()).filter((name) => DEMO.includes(name));
}

async function statusLabels(row: Locator) {
  return row.locator(".report-status .visually-hidden").allTextContents();
}

test.describe("partner list with JavaScript", () => {
  test("search and sort live in the query string and survive a reload", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    await expect(page.getByRole("heading", { level: 1, name: "Partner List" })).toBeVisible();
    expect(await demoOrder(page)).toEqual(DEMO);

    await page.getByRole("searchbox", { name: "Search" }).fill("borealis");
    await page.getByRole("searchbox", { name: "Search" }).press("Enter");
    await expect(page).toHaveURL("/admin/partner-list?q=borealis&sort=company&dir=asc");
    await expect(table(page).locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, "Borealis Pharma Pvt")).toBeVisible();

    await page.reload();
    await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("borealis");
    await expect(table(page).locator("tbody tr")).toHaveCount(1);

    // Searching an e-mail, then sorting Z to A keeps the search.
    await open("/admin/partner-list?q=%40EXAMPLE.ORG");
    expect(await demoOrder(page)).toEqual(DEMO);
    await page.getByRole("link", { name: "Company Name" }).click();
    await expect(page).toHaveURL("/admin/partner-list?q=%40EXAMPLE.ORG&sort=company&dir=desc");
    await expect(page.getByRole("columnheader", { name: "Company Name" })).toHaveAttribute("aria-sort", "descending");
    await expect.poll(() => demoOrder(page)).toEqual([...DEMO].reverse());
    await page.reload();
    expect(await demoOrder(page)).toEqual([...DEMO].reverse());
    await page.getByRole("link", { name: "Company Name" }).click();
    await expect(page).toHaveURL("/admin/partner-list?q=%40EXAMPLE.ORG&sort=company&dir=asc");
    await expect.poll(() => demoOrder(page)).toEqual(DEMO);
  });

  test("products as tags and one labelled icon per report state of the open quarter", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    const borealis = rowOf(page, "Borealis Pharma Pvt");
    await expect(borealis.getByRole("listitem")).toHaveText([
      "Daclatasvir 60 mg",
      "Sofosbuvir API",
      "Tenofovir Alafenamide 25 mg",
      "Tenofovir Alafenamide API",
    ]);
    // The demo seed's open quarter for Borealis: three different states.
    const pdt = borealis.getByRole("link", { name: "PDT: Resubmitted" });
    await expect(pdt).toHaveAttribute("title", "PDT: Resubmitted");
    await expect(pdt).toHaveAttribute("href", /^\/admin\/development-timeline\/\d+$/);
    await expect(borealis.getByRole("link", { name: "Filing Plans: Not started" })).toHaveAttribute("href", /^\/admin\/filing-plans\/\d+$/);
    await expect(borealis.getByRole("link", { name: "Sales Report: Approved" })).toHaveAttribute("href", /^\/admin\/sales-report\/\d+$/);

    // Every icon of every row says which report and which state, for screen readers and as a tooltip.
    const pattern = /^(PDT|Filing Plans|Sales Report): (Not started|Saved|Submitted|Resubmitted|Approved|Rejected)$/;
    for (const name of DEMO) {
      const labels = await statusLabels(rowOf(page, name));
      expect(labels.map((label) => label.split(":")[0])).toEqual(["PDT", "Filing Plans", "Sales Report"]);
      for (const label of labels) expect(label).toMatch(pattern);
    }
    // Each state has its own icon.
    const shapes = new Map<string, string>();
    for (const icon of await table(page).locator(".report-status").all()) {
      shapes.set((await icon.getAttribute("data-state"))!, await icon.locator("svg").innerHTML());
    }
    expect(new Set(shapes.values()).size).toBe(shapes.size);
  });

  test("the Findings column: the open Sales Report's open findings, linked to its checks, sorted both ways, empty ones last", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    const acme = rowOf(page, "Acme Generics Ltd").getByTestId("findings");
    await expect(acme).toHaveText(/^\d[\d,]*$/);
    await expect(acme).toHaveAttribute("href", /^\/admin\/sales-report\/\d+#checks$/);
    // Cedar has no Sales Report this quarter: nothing to count.
    await expect(rowOf(page, "Cedar Life Sciences").getByTestId("findings")).toHaveCount(0);

    /** The Findings cells top to bottom: a number, or null when empty. */
    const counts = () =>
      table(page)
        .locator("tbody tr")
        .evaluateAll((rows) =>
          rows.map((row) => {
            const text = row.querySelector('[data-testid="findings"]')?.textContent;
            return text ? Number(text.replace(/,/g, "")) : null;
          }),
        );
    const inOrder = (values: (number | null)[], dir: "asc" | "desc") => {
      const numbers = values.filter((value): value is number => value !== null);
      const sorted = [...numbers].sort((a, b) => (dir === "asc" ? a - b : b - a));
      return values.slice(0, numbers.length).every((value, index) => value === sorted[index]);
    };
    await page.getByRole("link", { name: "Findings" }).click();
    await expect(page).toHaveURL("/admin/partner-list?sort=findings&dir=asc");
    await expect(page.getByRole("columnheader", { name: "Findings" })).toHaveAttribute("aria-sort", "ascending");
    await expect.poll(async () => inOrder(await counts(), "asc")).toBe(true);
    await page.getByRole("link", { name: "Findings" }).click();
    await expect(page).toHaveURL("/admin/partner-list?sort=findings&dir=desc");
    await expect(page.getByRole("columnheader", { name: "Company Name" })).not.toHaveAttribute("aria-sort");
    await expect.poll(async () => inOrder(await counts(), "desc")).toBe(true);
    expect((await demoOrder(page)).at(-1)).toBe("Cedar Life Sciences");
  });

  test("deactivate through the dialog: the partner is signed out, cannot sign in, and comes back with Reactivate", async ({
    page,
    open,
    signIn,
    browser,
    baseURL,
  }) => {
    const mailbox = await startMailbox();
    let partnerBrowser: { page: Page; close: () => Promise<void> } | undefined;
    try {
      await signIn("admin");
      const partner = await createPartner(page, "DialogJs");
      const link = linkFrom((await mailTo(mailbox.received, partner.email)).raw);
      expect(link).toBeDefined();
      partnerBrowser = await partnerSignsIn(browser, baseURL!, link!, partner.email, "fresh-pass-42");

      await open(`/admin/partner-list?q=${partner.unique}`);
      const row = rowOf(page, partner.companyName);
      await expect(row).toBeVisible();
      await expect(statusLabels(row)).resolves.toEqual(["PDT: Not started", "Filing Plans: Not started", "Sales Report: Not started"]);

      // A reminder per report type, back to the same list.
      await row.getByText("Send reminder").click();
      await row.getByRole("button", { name: "PDT", exact: true }).click();
      await expect(page.getByRole("status")).toContainText("Reminder sent!");
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc`);
      // That was a full page load: wait for React before using the dialog.
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

      // No keeps the partner.
      const dialog = page.getByRole("dialog");
      await rowOf(page, partner.companyName)
        .getByRole("link", { name: /^Deactivate/ })
        .click();
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(`Do you want to deactivate ${partner.companyName} ?`);
      await expect(dialog.getByRole("button")).toHaveText(["No", "Yes"]);
      await dialog.getByRole("button", { name: "No" }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc`);
      await expect(rowOf(page, partner.companyName)).toBeVisible();

      // Yes deactivates it.
      await rowOf(page, partner.companyName)
        .getByRole("link", { name: /^Deactivate/ })
        .click();
      await dialog.getByRole("button", { name: "Yes" }).click();
      await expect(page.getByRole("status")).toContainText("Partner successfully removed!");
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc`);
      await expect(rowOf(page, partner.companyName)).toHaveCount(0);

      // Its open session has ended, and signing in again is refused.
      const partnerPage = partnerBrowser.page;
      await partnerPage.goto("/partner/dashboard");
      await expect(partnerPage).toHaveURL("/login");
      await expect(partnerPage.getByRole("status")).toContainText("Session timeout!");
      await signInOnForm(partnerPage, partner.email, "fresh-pass-42");
      await expect(partnerPage.getByRole("alert")).toContainText("Your account is deactivated. Please contact the administrator.");
      await expect(partnerPage).toHaveURL("/login");

      // "Show inactive" lists it, with Reactivate.
      await page.getByLabel("Show inactive").check();
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc&status=inactive`);
      await rowOf(page, partner.companyName)
        .getByRole("button", { name: /^Reactivate/ })
        .click();
      await expect(page.getByRole("status")).toContainText("Partner reactivated!");
      await expect(rowOf(page, partner.companyName)).toHaveCount(0);
      await page.getByLabel("Show inactive").uncheck();
      await expect(rowOf(page, partner.companyName)).toBeVisible();

      await signInOnForm(partnerPage, partner.email, "fresh-pass-42");
      await expect(partnerPage).toHaveURL("/partner/dashboard");
    } finally {
      await partnerBrowser?.close();
      await mailbox.close();
    }
  });

  test("STAFF sees every control disabled, and its posts are refused", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open("/admin/partner-list");
    await expect(page.getByRole("button", { name: "Add Partner" })).toBeDisabled();
    const acme = rowOf(page, "Acme Generics Ltd");
    for (const name of [/^Edit/, /^Deactivate/, /^Send reminder/]) await expect(acme.getByRole("button", { name })).toBeDisabled();
    await expect(acme.getByRole("link", { name: /^(Edit|Deactivate)/ })).toHaveCount(0);
    // Reading the reports stays possible.
    await expect(acme.getByRole("link", { name: /^PDT: / })).toBeVisible();

    const partnerId = await acme.getAttribute("data-partner-id");
    const refused = await page.request.post("/admin/partner-list", { form: { intent: "deactivate", partnerId: partnerId! }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    const confirmation = await open(`/admin/partner-list/deactivate/${partnerId}`);
    expect(confirmation?.status()).toBe(403);
    await open("/admin/partner-list");
    await expect(rowOf(page, "Acme Generics Ltd")).toBeVisible();
  });
});

test.describe("partner list without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search and sort through the query string", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    expect(await demoOrder(page)).toEqual(DEMO);
    await page.getByRole("searchbox", { name: "Search" }).fill("CEDAR");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL("/admin/partner-list?q=CEDAR&sort=company&dir=asc");
    await expect(table(page).locator("tbody tr")).toHaveCount(1);
    await expect(rowOf(page, "Cedar Life Sciences")).toBeVisible();

    await open("/admin/partner-list");
    await page.getByRole("link", { name: "Company Name" }).click();
    await expect(page).toHaveURL("/admin/partner-list?sort=company&dir=desc");
    expect(await demoOrder(page)).toEqual([...DEMO].reverse());
    await page.reload();
    expect(await demoOrder(page)).toEqual([...DEMO].reverse());
  });

  test("deactivate through the confirmation page, then reactivate", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      await signIn("admin");
      const partner = await createPartner(page, "PageNoJs");
      await open(`/admin/partner-list?q=${partner.unique}`);

      await rowOf(page, partner.companyName)
        .getByRole("link", { name: /^Deactivate/ })
        .click();
      await expect(page).toHaveURL(new RegExp(`/admin/partner-list/deactivate/\\d+\\?q=${partner.unique}&sort=company&dir=asc$`));
      await expect(page.getByText(`Do you want to deactivate ${partner.companyName} ?`)).toBeVisible();
      await page.getByRole("link", { name: "No", exact: true }).click();
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc`);
      await expect(rowOf(page, partner.companyName)).toBeVisible();

      await rowOf(page, partner.companyName)
        .getByRole("link", { name: /^Deactivate/ })
        .click();
      await page.getByRole("button", { name: "Yes", exact: true }).click();
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc`);
      await expect(page.getByRole("status")).toContainText("Partner successfully removed!");
      await expect(rowOf(page, partner.companyName)).toHaveCount(0);

      await page.getByLabel("Show inactive").check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(`/admin/partner-list?q=${partner.unique}&sort=company&dir=asc&status=inactive`);
      await rowOf(page, partner.companyName)
        .getByRole("button", { name: /^Reactivate/ })
        .click();
      await expect(page.getByRole("status")).toContainText("Partner reactivated!");
      await open(`/admin/partner-list?q=${partner.unique}`);
      await expect(rowOf(page, partner.companyName)).toBeVisible();
    } finally {
      await mailbox.close();
    }
  });
});
