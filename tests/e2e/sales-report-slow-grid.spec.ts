import { expect, test } from "./support/fixtures";

/**
 * The Sales Report's grid is not part of the page's first load (the page stays under its
 * JavaScript budget for partners on slow links): the plain form is usable until the grid's code
 * arrives, and what was typed into it is carried into the grid as unsaved changes. partner1's
 * report is left as it was (nothing is saved).
 */
test("on a slow link the plain form is usable until the grid arrives, and what was typed into it is kept", async ({ page, signIn }) => {
  await signIn("partner1");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let gridRequested = false;
  await page.route(/\/build\/_shared\/sales-grid-editor-[^/]+\.js$/, async (route) => {
    gridRequested = true;
    await held;
    await route.continue();
  });

  await page.goto("/partner/sales-report");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  // The grid's code is fetched after the page is interactive, not with it.
  await expect.poll(() => gridRequested).toBe(true);
  await expect(page.getByTestId("report-grid-API")).toHaveCount(0);
  const purchaser = page.locator('input[name="api[0][purchaser]"]');
  await purchaser.fill("Typed before the grid arrived");

  release();
  const grid = page.getByTestId("report-grid-API");
  await expect(grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="5"]')).toHaveText("Typed before the grid arrived");
  await expect(page.locator(".report-editor")).toHaveAttribute("data-dirty", "true");
  await expect(purchaser).toHaveCount(0);
});
