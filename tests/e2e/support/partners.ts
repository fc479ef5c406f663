import type { Browser, Page } from "@playwright/test";
import { expect } from "./fixtures";
import type { ReceivedMail } from "./mailbox";

/**
 * Adds a partner of this test (a unique name and e-mail) through the Add Partner form's endpoint; the
 * page is signed in as ADMIN. `fields` adds form fields (its active products: `products[0].productId`, …).
 */
export async function createPartner(page: Page, label: string, fields: Record<string, string> = {}) {
  const unique = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const partner = { companyName: `Zz ${label} ${unique}`, email: `${label.toLowerCase()}-${unique}@example.org`, unique };
  const response = await page.request.post("/admin/add-partner", {
    form: {
      companyName: partner.companyName,
      email: partner.email,
      contactPrefix: "+91",
      contactNumber: "9876543210",
      address: "",
      region: "Asia",
      ...fields,
    },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  expect(response.headers().location).toBe("/admin/partner-list");
  return partner;
}

/**
 * A partner of this test licensed for one product of the list (`category`: API or FDF) with a
 * project status, added by the administrator (the page is signed in as ADMIN): its id.
 */
export async function partnerWithProduct(
  page: Page,
  label: string,
  { category, product, status }: { category: "API" | "FDF"; product: string; status: string },
) {
  await page.goto(`/admin/product-list?category=${category}`);
  const edit = await page.getByRole("link", { name: `Edit ${product}`, exact: true }).getAttribute("href");
  const productId = /\/(\d+)$/.exec(edit ?? "")?.[1];
  expect(productId, "the product's id").toBeTruthy();
  const partner = await createPartner(page, label, { "products[0].productId": productId!, "products[0].status": status });
  // The list is paged: the partner is looked up by its name.
  await page.goto(`/admin/partner-list?q=${encodeURIComponent(partner.companyName)}`);
  const id = await page.locator("tbody tr", { has: page.getByRole("rowheader", { name: partner.companyName, exact: true }) }).getAttribute("data-partner-id");
  expect(id).toBeTruthy();
  return id!;
}

export async function mailTo(received: ReceivedMail[], email: string) {
  await expect.poll(() => received.some((mail) => mail.to.includes(email)), { timeout: 15_000 }).toBe(true);
  return received.find((mail) => mail.to.includes(email))!;
}

/** The new partner chooses a password through the mailed link and signs in, in a browser of its own. */
export async function partnerSignsIn(browser: Browser, baseURL: string, link: string, email: string, password: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByLabel("Confirm Password").press("Enter");
  await expect(page).toHaveURL("/login");
  await signInOnForm(page, email, password);
  await expect(page).toHaveURL("/partner/dashboard");
  return { page, close: () => context.close() };
}

export async function signInOnForm(page: Page, email: string, password: string) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
}
