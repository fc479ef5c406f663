import { test as base, expect, type Page } from "@playwright/test";

export const ACCOUNTS = {
  admin: { email: "admin@example.org", password: "admin-pass-1", home: "/admin/dashboard" },
  staff: { email: "staff@example.org", password: "staff-pass-1", home: "/admin/dashboard" },
  partner1: { email: "partner1@example.org", password: "partner-pass-1", home: "/partner/dashboard" },
  partner2: { email: "partner2@example.org", password: "partner-pass-2", home: "/partner/dashboard" },
  partner3: { email: "partner3@example.org", password: "partner-pass-3", home: "/partner/dashboard" },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

/** Signs in through the real form, as a person would. */
export async function signInThroughForm(page: Page, account: AccountName) {
  const { email, password, home } = ACCOUNTS[account];
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(home);
}

export const test = base.extend<{ signIn: (account: AccountName) => Promise<void> }>({
  /** Signs in over HTTP (the session cookie lands in the page's context), then opens the home page. */
  signIn: async ({ page }, use) => {
    await use(async (account) => {
      const { email, password, home } = ACCOUNTS[account];
      const response = await page.request.post("/login", { form: { email, password }, maxRedirects: 0 });
      expect(response.status()).toBe(302);
      await page.goto(home);
    });
  },
});

export { expect };
