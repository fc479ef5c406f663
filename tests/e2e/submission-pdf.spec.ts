import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";
import { createPartner, mailTo, partnerSignsIn } from "./support/partners";

/**
 * The proof of a submission, downloaded from the report's history: by the partner that submitted
 * and by an administrator, with JavaScript and without. A partner of this spec submits its Sales
 * Report (through the API, the quickest way there), so no other spec's data changes.
 */
const PASSWORD = "proof-pass-42";

interface Submitter {
  companyName: string;
  email: string;
  id: string;
}

let submitter: Submitter | null = null;

/** The spec's partner, created once: one API product, its password set through the mailed link, its Sales Report submitted. */
async function partnerWithSubmission(page: Page, browser: Browser, baseURL: string): Promise<Submitter> {
  if (submitter) return submitter;
  const mailbox = await startMailbox();
  try {
    await page.goto("/admin/product-list?category=API");
    const edit = await page.getByRole("link", { name: "Edit Abacavir API", exact: true }).getAttribute("href");
    const productId = /\/(\d+)$/.exec(edit ?? "")![1];
    const partner = await createPartner(page, "Proof", { "products[0].productId": productId, "products[0].status": "PLANNED" });
    const link = linkFrom((await mailTo(mailbox.received, partner.email)).raw);
    const setUp = await partnerSignsIn(browser, baseURL, link!, partner.email, PASSWORD);
    await setUp.close();

    const login = await page.request.post("/api/login/", { data: { email: partner.email, password: PASSWORD } });
    expect(login.status()).toBe(200);
    const headers = { Authorization: `Bearer ${(await login.json()).access}` };
    const year = String(new Date().getUTCFullYear());
    const saved = await page.request.post("/api/template/sales/api", {
      headers,
      data: {
        sales_report_id: [],
        rows: [{ year, month: "May", country_name: "Kenya", purchaser: "Proof Purchaser", product_name: "Abacavir API", quantity: "3", total_value: "300" }],
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const submitted = await page.request.post("/api/template/sales/submit/", { headers, data: { message: "Proof of this quarter." } });
    expect(submitted.status(), await submitted.text()).toBe(200);

    await page.goto(`/admin/partner-list?q=${encodeURIComponent(partner.companyName)}`);
    const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: partner.companyName, exact: true }) }).getAttribute("data-partner-id");
    expect(id).toBeTruthy();
    submitter = { companyName: partner.companyName, email: partner.email, id: id! };
    return submitter;
  } finally {
    await mailbox.close();
  }
}

async function signInAs(page: Page, email: string, password: string) {
  await page.context().clearCookies();
  const response = await page.request.post("/login", { form: { email, password }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
}

/** Opens the history and downloads the submission's PDF from its row: a PDF named after the partner and the quarter. */
async function downloadFromHistory(page: Page, path: string, companyName: string) {
  await page.goto(path);
  const history = page.getByTestId("report-history");
  await history.locator("summary").click();
  const row = history.locator("tbody tr", { hasText: "Submitted" }).first();
  await expect(row).toContainText("Proof of this quarter.");
  const link = row.getByRole("link", { name: "Download the proof of this submission (PDF)" });
  await expect(link).toHaveAttribute("href", /^\/submissions\/\d+\/pdf$/);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const stem = companyName.replace(/[^A-Za-z0-9]+/g, "-");
  expect(download.suggestedFilename()).toMatch(new RegExp(`^sales-report_${stem}_\\d{4}-Q[1-4]_submission\\.pdf$`));
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(bytes.length).toBeGreaterThan(5_000);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled, acceptDownloads: true });

    test("the partner and an administrator download the submission's PDF from the history", async ({ page, browser, baseURL, signIn }) => {
      test.setTimeout(120_000);
      await signIn("admin");
      const partner = await partnerWithSubmission(page, browser, baseURL!);

      await signInAs(page, partner.email, PASSWORD);
      await downloadFromHistory(page, "/partner/sales-report", partner.companyName);

      await signInAs(page, "admin@example.org", "admin-pass-1");
      await downloadFromHistory(page, `/admin/sales-report/${partner.id}`, partner.companyName);
    });
  });
}
