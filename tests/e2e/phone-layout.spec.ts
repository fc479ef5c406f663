import type { Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, test } from "./support/fixtures";

const PHONE = { width: 390, height: 844 };

async function expectWithinViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** Opens a popup by its summary; Escape closes it and gives the focus back to the summary. */
async function expectEscapeCloses(page: Page, summary: Locator, panel: Locator) {
  await summary.click();
  await expect(panel).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(summary).toBeFocused();
}

/** Neither the page nor the partner list scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  for (const element of [page.locator("html"), page.getByTestId("partner-list").locator("..")]) {
    const { scrollWidth, clientWidth } = await element.evaluate(({ scrollWidth, clientWidth }) => ({ scrollWidth, clientWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }
}

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  for (const { locale, dir } of [
    { locale: "en-GB", dir: "ltr" },
    { locale: "ar", dir: "rtl" },
  ]) {
    test.describe(dir, () => {
      test.use({ locale });

      test(`the messages popover opens inside the screen and Escape closes it (${dir})`, async ({ page, open, signIn }) => {
        await signIn("partner1");
        await open("/partner/filing-plans");
        await expect(page.locator("html")).toHaveAttribute("dir", dir);
        const popover = page.getByTestId("report-messages");
        const panel = popover.locator(".messages-popover__panel");
        await expectEscapeCloses(page, popover.locator("summary"), panel);
        await popover.locator("summary").click();
        await expect(panel).toContainText("Please check the quantities for the second month.");
        await expectWithinViewport(page, panel);
        // Where the sidebar leaves the header's buttons too little room and they wrap below the title.
        await page.setViewportSize({ width: 992, height: 800 });
        await expectWithinViewport(page, panel);
      });
    });
  }

  test("the partner list fits the screen; Escape closes a row's menu and the drawer", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/partner-list");
    // Still a table to assistive technology: each card is a row headed by its company.
    const acme = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Acme Generics Ltd" }) });
    await expect(acme.getByRole("cell", { name: "partner1@example.org" })).toBeVisible();
    await expectWithinViewport(page, acme.getByRole("link", { name: /^Edit/ }));
    await expectWithinViewport(page, acme.locator(".partner-list__status").last());
    await expectNoSidewaysScroll(page);

    const reminder = acme.locator("details.partner-list__reminder");
    await expectEscapeCloses(page, reminder.locator("summary"), reminder.getByRole("button", { name: "Sales Report" }));

    const sidebar = page.getByRole("complementary", { name: "Main navigation" });
    await page.locator("label.header__drawer-button").click();
    await expect(sidebar).toBeInViewport();
    await page.keyboard.press("Escape");
    await expect(sidebar).not.toBeInViewport();
    await expect(page.getByRole("checkbox", { name: "Open navigation" })).toBeFocused();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the partner list fits the screen and its actions work", async ({ page, open, signIn }) => {
      await signIn("admin");
      await open("/admin/partner-list");
      await expectNoSidewaysScroll(page);
      const acme = page.getByTestId("partner-list").locator("tbody tr").filter({ hasText: "Acme Generics Ltd" });
      await acme.getByText("Send reminder").click();
      await expectWithinViewport(page, acme.getByRole("button", { name: "Sales Report" }));
      const deactivate = acme.getByRole("link", { name: /^Deactivate/ });
      await expectWithinViewport(page, deactivate);
      await deactivate.click();
      await expect(page.getByText("Do you want to deactivate Acme Generics Ltd ?")).toBeVisible();
    });
  });
});

test("Escape closes the header menus; the mini sidebar expands by its button and moves the content aside", async ({ page, open, signIn }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await signIn("admin");
  await open("/admin/partner-list?nav-style=mini-sidebar");
  const menus = page.locator("header details.menu");
  await expect(menus).toHaveCount(3);
  for (const menu of await menus.all()) await expectEscapeCloses(page, menu.locator("summary"), menu.locator(".menu__list"));

  const sidebar = page.getByRole("complementary", { name: "Main navigation" });
  const main = page.locator(".shell__main");
  const sidebarWidth = async () => (await sidebar.boundingBox())!.width;
  const contentStart = async () => (await main.boundingBox())!.x;

  await sidebar.getByRole("link", { name: "Partner List" }).hover();
  expect(await sidebarWidth()).toBeLessThan(100);
  expect(await contentStart()).toBeGreaterThanOrEqual(await sidebarWidth());

  await page.locator("label.header__drawer-button").click();
  await expect(sidebar.getByRole("link", { name: "Product List" })).toBeVisible();
  expect(await sidebarWidth()).toBeGreaterThan(200);
  expect(await contentStart()).toBeGreaterThanOrEqual(await sidebarWidth());
  await page.keyboard.press("Escape");
  await expect(page.getByRole("checkbox", { name: "Open navigation" })).toBeFocused();
  await expect.poll(sidebarWidth).toBeLessThan(100);

  // A group's links are hidden in the collapsed sidebar: opening the group expands it.
  await sidebar.getByTitle("Reports").click();
  await sidebar.getByRole("link", { name: "Sales Report" }).click();
  await expect(page).toHaveURL("/admin/report/sales-report");
  await expect.poll(sidebarWidth).toBeLessThan(100);
});

test("after a wrong password on the lock screen, the message stays and one click on Unlock unlocks", async ({ page, signIn }) => {
  await signIn("admin");
  await page.locator("summary[aria-label^='Account']").click();
  await page.getByRole("button", { name: "Lock screen" }).click();
  await expect(page).toHaveURL("/lock-screen");
  const password = page.getByLabel("Password");
  const unlock = page.getByRole("button", { name: "Unlock" });
  await password.fill("not-the-password");
  await unlock.click();
  const error = page.getByRole("alert").filter({ hasText: "Incorrect password. Please try again." });
  await expect(error).toBeVisible();
  const before = await unlock.boundingBox();

  await password.fill(ACCOUNTS.admin.password);
  await password.blur();
  await expect(error).toBeVisible();
  expect(await unlock.boundingBox()).toEqual(before);
  await unlock.click();
  await expect(page).toHaveURL(ACCOUNTS.admin.home);
});

test("an error toast stays until it is closed and leaves the header's controls free", async ({ page, open, signIn }) => {
  await page.clock.install();
  await signIn("admin");
  // A reminder without a report type: the server answers with an error toast.
  const response = await page.request.post("/admin/reminders", { form: { partnerId: "1", redirectTo: "/admin/partner-list" }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
  await open("/admin/partner-list");
  const toast = page.getByRole("alert").filter({ hasText: "Please select a report." });
  await expect(toast).toBeVisible();
  await page.clock.runFor(7000);
  await expect(toast).toBeVisible();

  const header = page.locator("header.header");
  for (const viewport of [PHONE, { width: 1280, height: 720 }]) {
    await page.setViewportSize(viewport);
    const headerBox = (await header.boundingBox())!;
    const toastBox = (await toast.boundingBox())!;
    expect(toastBox.y).toBeGreaterThan(headerBox.y + headerBox.height);
  }
  await toast.getByRole("button", { name: "Close" }).click();
  await expect(toast).toBeHidden();
});
