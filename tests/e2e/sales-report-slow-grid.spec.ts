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
  // The field still had the focus: the typing carries on in its cell's editor, which Enter commits.
  await expect(grid.locator(".report-grid__editor")).toHaveValue("Typed before the grid arrived");
  await page.keyboard.press("Enter");
  await expect(grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="5"]')).toHaveText("Typed before the grid arrived");
  await expect(page.locator(".report-editor")).toHaveAttribute("data-dirty", "true");
  await expect(purchaser).toHaveCount(0);
});

test("typing on without a pause while the grid takes over from the plain form: every character arrives in the grid's cell", async ({ page, signIn }) => {
  await signIn("partner1");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/build\/_shared\/sales-grid-editor-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto("/partner/sales-report");
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const purchaser = page.locator('input[name="api[0][purchaser]"]');
  await purchaser.fill("");
  const text = "Typed on while the grid took over, every key";
  const grid = page.getByTestId("report-grid-API");
  const gridShownAt = grid.waitFor().then(() => Date.now());
  // The grid's code is let through after a few characters; typing goes on at 60 ms a key.
  const typing = page.keyboard.type(text, { delay: 60 });
  setTimeout(release, 400);
  await typing;
  const typedAt = Date.now();
  // The grid took over in the middle of the typing, not after it.
  expect(await gridShownAt).toBeLessThan(typedAt - 600);
  await expect(purchaser).toHaveCount(0);
  const editor = grid.locator(".report-grid__editor");
  await expect(editor).toHaveValue(text);
  await page.keyboard.press("Enter");
  await expect(grid.locator('[role="row"][aria-rowindex="2"] [role="gridcell"][aria-colindex="5"]')).toHaveText(text);
  await expect(page.locator(".report-editor")).toHaveAttribute("data-dirty", "true");
});
