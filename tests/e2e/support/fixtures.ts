import { test as base, expect, type Page } from "@playwright/test";

/**
 * The demo accounts. The browser tests share one seeded database: specs never deactivate these
 * partners or change their passwords, except partner2, whose password password-reset.spec.ts
 * changes (no other spec signs in as partner2). A spec that needs to mutate a partner creates its own.
 */
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
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(home);
}

type Open = (path: string) => ReturnType<Page["goto"]>;

export const test = base.extend<{ open: Open; signIn: (account: AccountName) => Promise<void> }>({
  /** Opens a page and, when JavaScript runs, waits until React has hydrated it (no clicks lost to hydration). */
  open: async ({ page, javaScriptEnabled }, use) => {
    await use(async (path) => {
      const response = await page.goto(path);
      if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      return response;
    });
  },
  /** Signs in over HTTP (the session cookie lands in the page's context), then opens the home page. */
  signIn: async ({ page, open }, use) => {
    await use(async (account) => {
      const { email, password, home } = ACCOUNTS[account];
      const response = await page.request.post("/login", { form: { email, password }, maxRedirects: 0 });
      expect(response.status()).toBe(302);
      await open(home);
    });
  },
});

export { expect };
