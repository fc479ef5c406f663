import { ACCOUNTS, expect, signInThroughForm, test } from "./support/fixtures";

test.describe("sign-in", () => {
  for (const account of ["admin", "staff", "partner1"] as const) {
    test(`${account} signs in through the form and lands on their dashboard`, async ({ page }) => {
      await signInThroughForm(page, account);
      await expect(page.getByRole("status")).toContainText("User logged in successfully");
      const heading = account === "partner1" ? "Welcome to MPP Data Portal" : "Dashboard";
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    });
  }

  test("shows the spec's validation messages and one message for bad credentials", async ({ page, open }) => {
    await open("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Please input your E-mail!")).toBeVisible();
    await expect(page.getByText("Please input your Password!")).toBeVisible();
    await page.getByLabel("E-mail").fill("not-an-email");
    await page.getByLabel("E-mail").blur();
    await expect(page.getByText("Please input a valid E-mail!")).toBeVisible();

    await page.getByLabel("E-mail").fill("admin@example.org");
    await page.getByLabel("Password").fill("wrong-password-1");
    await page.getByLabel("Password").press("Enter");
    await expect(page.getByRole("alert")).toContainText("Unable to log in with provided credentials.");
    await expect(page).toHaveURL("/login");
  });

  test("/ goes to /login, and a signed-in user on /login goes to their dashboard", async ({ page, open, signIn }) => {
    await open("/");
    await expect(page).toHaveURL("/login");
    await signIn("staff");
    await open("/login");
    await expect(page).toHaveURL(ACCOUNTS.staff.home);
  });

  test("a page of another role shows the refusal with status 403", async ({ page, open, signIn }) => {
    await signIn("partner1");
    const response = await open("/admin/dashboard");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "YOU ARE NOT AUTHORIZED TO USE THE PAGE" })).toBeVisible();
    // Still inside the shell: the partner can navigate back.
    await page.getByRole("link", { name: "Dashboard" }).first().click();
    await expect(page).toHaveURL("/partner/dashboard");
  });

  test("no session goes to /login; logout ends the session", async ({ page, open, signIn }) => {
    await open("/partner/dashboard");
    await expect(page).toHaveURL("/login");
    await signIn("partner1");
    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL("/login");
    await open("/partner/dashboard");
    await expect(page).toHaveURL("/login");
  });

  test("unknown paths show the not-found page", async ({ page, open }) => {
    await open("/no/such/page");
    await expect(page).toHaveURL("/error-404");
    await expect(page.getByRole("heading", { name: "Oops, an error has occurred. Page not found!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to Dashboard" })).toBeVisible();
  });

  test("the lock screen asks for the password again", async ({ page, open, signIn }) => {
    await signIn("admin");
    await page.locator("summary[aria-label^='Account']").click();
    await page.getByRole("button", { name: "Lock screen" }).click();
    await expect(page).toHaveURL("/lock-screen");
    await open("/admin/profile");
    await expect(page).toHaveURL("/lock-screen");
    await page.getByLabel("Password").fill("admin-pass-1");
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL("/admin/dashboard");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-in, a validation error and sign-out work as plain forms", async ({ page, open }) => {
    await open("/login");
    await page.getByLabel("E-mail").fill("partner1@example.org");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Please input your Password!")).toBeVisible();

    await page.getByLabel("Password").fill("partner-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL("/partner/dashboard");
    await expect(page.getByRole("heading", { name: "Welcome to MPP Data Portal" })).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).first().click();
    await expect(page).toHaveURL("/login");
  });
});
