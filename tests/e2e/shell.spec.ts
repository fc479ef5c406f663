import { expect, test } from "./support/fixtures";

test("Arabic sets dir=rtl and translates the page, and the choice is remembered", async ({ page, open }) => {
  await open("/login?lng=ar");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ar");
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Sign in");
  await open("/login");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await page.getByRole("link", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
});

test("the sidebar follows the role: admins see the reports and settings, partners no settings", async ({ page, open, signIn }) => {
  await signIn("admin");
  await open("/admin/dashboard?nav-style=default");
  const sidebar = page.getByRole("complementary", { name: "Main navigation" });
  for (const name of ["Dashboard", "Partner List", "Product List", "Reports", "User Profile", "Logout"]) {
    await expect(sidebar.getByText(name, { exact: true }).first()).toBeAttached();
  }
  await sidebar.getByText("User Profile").click();
  await expect(sidebar.getByRole("link", { name: "Settings" })).toBeAttached();
  await page.getByRole("button", { name: "Logout" }).first().click();

  await signIn("partner1");
  await expect(page.getByRole("complementary", { name: "Main navigation" }).getByRole("link", { name: "Settings" })).toHaveCount(0);
});

test("partner dashboard shows the three tiles from the reports table", async ({ page, signIn }) => {
  await signIn("partner1");
  await expect(page.getByRole("heading", { name: "Welcome to MPP Data Portal" })).toBeVisible();
  await expect(page.getByTestId("tile-pdt")).toContainText("Submitted");
  await expect(page.getByTestId("tile-filing")).toContainText("Rejected");
  await expect(page.getByTestId("tile-filing")).toContainText("Please check the quantities for the second month.");
  await expect(page.getByTestId("tile-sales")).toContainText("Saved");
  await expect(page.getByTestId("cut-off-date")).toContainText(/\d{2}-\d{2}-\d{4}/);
});

test("profiles show the spec's fields", async ({ page, open, signIn }) => {
  await signIn("partner3");
  await open("/partner/profile");
  const row = (label: string) => page.locator(".profile__row", { hasText: label }).locator("dd");
  await expect(row("Company Name")).toHaveText("Cedar Life Sciences");
  await expect(row("Region")).toHaveText("Africa");
  await expect(row("Address")).toHaveText("-");
  await page.getByRole("button", { name: "Logout" }).first().click();
  await signIn("staff");
  await open("/admin/profile");
  await expect(page.locator(".profile__row", { hasText: "E-mail" }).locator("dd")).toHaveText("staff@example.org");
});

test("display settings come from the query string and are remembered", async ({ page, open, signIn }) => {
  await signIn("staff");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "semi-dark");
  await expect(page.locator("html")).toHaveAttribute("data-nav-style", "mini-sidebar");
  await open("/admin/dashboard?theme=dark&layout-type=boxed");
  await open("/admin/profile");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.locator("html")).toHaveAttribute("data-layout-type", "boxed");
});

test("the report grids take the dark theme with the page, and the light one otherwise", async ({ page, open, signIn }) => {
  await signIn("partner1");
  for (const path of ["/partner/sales-report", "/partner/development-timeline", "/partner/filing-plans"]) {
    await open(path);
    await expect(page.locator(".report-grid__grid").first()).toHaveClass(/\brdg-light\b/);
  }
  await open("/partner/dashboard?theme=dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  for (const path of ["/partner/sales-report", "/partner/development-timeline", "/partner/filing-plans"]) {
    await open(path);
    await expect(page.locator(".report-grid__grid").first()).toHaveClass(/\brdg-dark\b/);
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the navigation is a drawer", async ({ page, signIn }) => {
    await signIn("partner1");
    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await expect(sidebar).not.toBeInViewport();
    await page.locator("label.header__drawer-button").click();
    await expect(sidebar).toBeInViewport();
    await sidebar.getByText("User Profile").click();
    await sidebar.getByRole("link", { name: "Profile" }).click();
    await expect(page).toHaveURL("/partner/profile");
  });
});

test("pages run under the content security policy without a violation", async ({ page, open, signIn }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") violations.push(message.text());
  });
  const response = await open("/login");
  expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
  await signIn("admin");
  await open("/admin/profile");
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  expect(violations).toEqual([]);
});
