import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Finding a country on the Filing Plans screen: the country finder and the order of the list, with
 * JavaScript (as the user types) and without (a GET form), and product headers shown whole. The
 * browser tests share one database: this spec adds a product with a long name and a partner of
 * its own whose open-quarter plan the administrator saves (France, then Kenya); it only reads
 * partner3's (Cedar's) plan, in Spanish.
 */
const toast = (page: Page) => page.locator(".toast");
const grid = (page: Page) => page.getByTestId("report-grid-Filing");
const table = (page: Page) => page.getByTestId("filing-table");
const finderCount = (page: Page) => page.getByTestId("filing-finder-count");
const gridCountries = (page: Page) => grid(page).locator('[role="gridcell"][aria-colindex="1"]');
const tableCountries = (page: Page) => table(page).locator('tbody th[scope="row"]');

interface Fixture {
  partnerId: number;
  path: string;
  /** A product of the partner with a name too long for one line of its column. */
  longName: string;
  longId: number;
  otherName: string;
}

let fixture: Fixture | null = null;

/** The partner of this spec (made once per worker, as the signed-in administrator): two products, France's long-product cell 'Registered'. */
async function fixtureFor(page: Page): Promise<Fixture> {
  if (fixture) return fixture;
  const unique = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const longName = `Dolutegravir Lamivudine Tenofovir paediatric dispersible tablets for children from three kilograms ${unique}`;
  const added = await page.request.post("/admin/add-product", { form: { name: longName, category: "FDF", therapyArea: "HIV" }, maxRedirects: 0 });
  expect(added.status(), await added.text()).toBe(302);
  const productList = await (await page.request.get("/admin/product-list")).text();
  const longId = Number(new RegExp(`>${longName}</th>[\\s\\S]*?/admin/edit-product/(\\d+)"`).exec(productList)?.[1]);
  expect(longId, "the new product in the list").toBeGreaterThan(0);
  const other = /<th scope="row">([^<]+)<\/th>[\s\S]*?\/admin\/edit-product\/(\d+)"/.exec(productList)!;
  expect(Number(other[2])).not.toBe(longId);

  const created = await page.request.post("/admin/add-partner", {
    form: {
      companyName: `Zz Finder ${unique}`,
      email: `filing-finder-${unique}@example.org`,
      contactPrefix: "+91",
      contactNumber: "9876543210",
      address: "",
      region: "Africa",
      "products[0].productId": String(longId),
      "products[0].status": "PLANNED",
      "products[1].productId": other[2],
      "products[1].status": "PLANNED",
    },
    maxRedirects: 0,
  });
  expect(created.status(), await created.text()).toBe(302);
  const partnerList = await (await page.request.get(`/admin/partner-list?q=${unique}`)).text();
  const partnerId = Number(/data-partner-id="(\d+)"/.exec(partnerList)?.[1]);
  expect(partnerId, "the new partner in the list").toBeGreaterThan(0);
  const path = `/admin/filing-plans/${partnerId}`;

  // The page's form (drawn by the server, as without JavaScript) lists France alone for ?country=france.
  const screen = await (await page.request.get(`${path}?country=france`)).text();
  const quarterId = /name="quarterId" value="(\d+)"/.exec(screen)![1];
  const countryIds = [...new Set([...screen.matchAll(/filing\[(\d+)\]\[\d+\]/g)].map((match) => match[1]))];
  expect(countryIds).toHaveLength(1);
  const saved = await page.request.post(path, {
    form: { intent: "save", quarterId, version: "0", payload: JSON.stringify({ cells: { [countryIds[0]]: { [longId]: "Registered" } } }) },
    maxRedirects: 0,
  });
  expect(saved.status(), await saved.text()).toBe(302);
  fixture = { partnerId, path, longName, longId, otherName: other[1] };
  return fixture;
}

/** The grid's column (aria-colindex) of a product, by its header's title. */
async function gridColumnOf(page: Page, productName: string) {
  const header = grid(page)
    .getByRole("columnheader")
    .filter({ has: page.locator(`[title="${productName}"]`) });
  return Number(await header.getAttribute("aria-colindex"));
}

/** A grid cell by its row's country and its column. */
function gridCell(page: Page, country: string, column: number) {
  return grid(page)
    .locator('[role="row"]')
    .filter({ has: page.locator('[aria-colindex="1"]', { hasText: new RegExp(`^${country}$`) }) })
    .locator(`[role="gridcell"][aria-colindex="${column}"]`);
}

/** The grid row of a country: the grid renders the rows in view, so it scrolls down until the row is there. */
async function scrollToCountry(page: Page, country: string) {
  const scroller = grid(page).getByRole("grid");
  await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
  for (let step = 0; step < 200; step++) {
    if (
      await gridCountries(page)
        .filter({ hasText: new RegExp(`^${country}$`) })
        .count()
    )
      return;
    const moved = await scroller.evaluate((element) => {
      const before = element.scrollTop;
      element.scrollBy({ top: element.clientHeight / 2 });
      return element.scrollTop !== before;
    });
    if (!moved) break;
    await page.waitForTimeout(50);
  }
  throw new Error(`no row for ${country}`);
}

/** Where a text is laid out: the box around its characters and the number of its lines. */
function layoutOf(text: Locator) {
  return text.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const box = range.getBoundingClientRect();
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    return { left: box.left, top: box.top, right: box.right, bottom: box.bottom, lines };
  });
}

/** A header cell's text lies wholly inside the cell (nothing cut off at the side or at the bottom), wrapped on more than one line. */
async function expectWholeAndWrapped(cell: Locator, text: Locator) {
  const [box, layout] = await Promise.all([cell.boundingBox(), layoutOf(text)]);
  expect(layout.left).toBeGreaterThanOrEqual(box!.x - 0.5);
  expect(layout.top).toBeGreaterThanOrEqual(box!.y - 0.5);
  expect(layout.right).toBeLessThanOrEqual(box!.x + box!.width + 0.5);
  expect(layout.bottom).toBeLessThanOrEqual(box!.y + box!.height + 0.5);
  expect(await cell.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight)).toBe(true);
  expect(layout.lines).toBeGreaterThan(1);
}

test.describe.serial("the country finder (a partner of this spec)", () => {
  test.describe("with JavaScript", () => {
    test("typing 'ken' keeps Kenya without a round trip; a status saved with the finder on is kept, France's untouched", async ({ page, open, signIn }) => {
      await signIn("admin");
      const { path, longName } = await fixtureFor(page);
      await open(path);
      await expect(gridCountries(page).first()).toBeVisible();
      expect(await gridCountries(page).count()).toBeGreaterThan(5);
      await expect(page.getByRole("button", { name: "Show", exact: true }), "the list follows the typing").toHaveCount(0);

      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      await page.getByLabel("Find a country").pressSequentially("KEN");
      await expect(gridCountries(page)).toHaveText(["Kenya"]);
      await expect(finderCount(page)).toHaveText(/^Countries shown: 1 of \d{3}$/);
      expect(requests, "no request while typing").toEqual([]);
      expect(page.url()).toMatch(new RegExp(`${path}$`));

      const column = await gridColumnOf(page, longName);
      await gridCell(page, "Kenya", column).dblclick();
      await grid(page).locator("select.report-grid__editor").selectOption({ label: "Filed" });
      await expect(gridCell(page, "Kenya", column)).toHaveText("Filed");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Data recorded successfully!");
      await expect(gridCountries(page), "the finder stays on after the save").toHaveText(["Kenya"]);

      await open(path);
      await expect(page.getByLabel("Find a country")).toHaveValue("");
      await scrollToCountry(page, "Kenya");
      await expect(gridCell(page, "Kenya", column)).toHaveText("Filed");
      await scrollToCountry(page, "France");
      await expect(gridCell(page, "France", column)).toHaveText("Registered");

      await page.getByLabel("Find a country").fill("atlantis");
      await expect(gridCountries(page)).toHaveCount(0);
      await expect(finderCount(page)).toHaveText("No country matches “atlantis”.");
      await expect(grid(page)).toContainText("No country matches “atlantis”.");
    });

    test("'Countries with a filing first' lists France and Kenya first, then the others A to Z", async ({ page, open, signIn }) => {
      await signIn("admin");
      const { path, longName } = await fixtureFor(page);
      await open(path);
      await page.getByLabel("Order", { exact: true }).selectOption({ label: "Countries with a filing first" });
      await expect(gridCountries(page).first()).toHaveText("France");
      const countries = (await gridCountries(page).allTextContents()).map((text) => text.trim());
      expect(countries.slice(0, 2)).toEqual(["France", "Kenya"]);
      const rest = countries.slice(2, 7);
      await expect(gridCell(page, rest[0], await gridColumnOf(page, longName))).toHaveText("0");

      await page.getByLabel("Order", { exact: true }).selectOption({ label: "Countries A–Z" });
      await expect(gridCountries(page).first()).not.toHaveText("France");
      const byName = (await gridCountries(page).allTextContents()).map((text) => text.trim());
      expect(rest).toEqual(byName.filter((country) => country !== "France" && country !== "Kenya").slice(0, rest.length));
    });

    test("a long product name is shown whole in its header, and is the header's title", async ({ page, open, signIn }) => {
      await signIn("admin");
      const { path, longName } = await fixtureFor(page);
      await open(path);
      const header = grid(page)
        .getByRole("columnheader")
        .filter({ has: page.locator(`[title="${longName}"]`) });
      await expect(header).toHaveText(`${longName} FDF`);
      // Wrapped, not widened: the column keeps its width.
      await expectWholeAndWrapped(header, header.locator(`[title="${longName}"]`));
      expect((await header.boundingBox())!.width).toBeLessThan(200);
    });
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("?country=ken shows Kenya alone; a status saved there is kept, France's untouched; a filter matching nothing says so", async ({
      page,
      open,
      signIn,
    }) => {
      test.setTimeout(60_000);
      await signIn("admin");
      const { path, longName, otherName } = await fixtureFor(page);
      await open(path);
      await page.getByLabel("Find a country").fill("ken");
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?country=ken&order=$`));
      await expect(tableCountries(page)).toHaveText(["Kenya"]);
      await expect(finderCount(page)).toHaveText(/^Countries shown: 1 of \d{3}$/);

      const select = (product: string, country: string) => table(page).getByLabel(`${product} in ${country}`, { exact: true });
      await expect(select(longName, "Kenya")).toHaveValue("Filed");
      await select(otherName, "Kenya").selectOption({ label: "Filing-Planned" });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(toast(page)).toContainText("Data recorded successfully!");
      await expect(page, "back to the same list").toHaveURL(new RegExp(`${path}\\?country=ken$`));
      await expect(tableCountries(page)).toHaveText(["Kenya"]);
      await expect(select(otherName, "Kenya")).toHaveValue("Filing-Planned");

      // Without the finder: 50 countries a page, Next until each country's page.
      for (const [country, product, status] of [
        ["France", longName, "Registered"],
        ["Kenya", otherName, "Filing-Planned"],
        ["Kenya", longName, "Filed"],
      ]) {
        await open(path);
        for (let step = 0; step < 10 && !(await select(product, country).count()); step++) await page.getByRole("link", { name: "Next" }).click();
        await expect(select(product, country)).toHaveValue(status);
      }

      await open(`${path}?country=atlantis`);
      await expect(tableCountries(page)).toHaveCount(0);
      await expect(table(page)).toContainText("No country matches “atlantis”.");
    });

    test("'Countries with a filing first' from the form; the long product header wraps whole, with its title", async ({ page, open, signIn }) => {
      await signIn("admin");
      const { path, longName } = await fixtureFor(page);
      await open(path);
      await page.getByLabel("Order", { exact: true }).selectOption({ label: "Countries with a filing first" });
      await page.getByRole("button", { name: "Show", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?country=&order=filed$`));
      const countries = await tableCountries(page).allTextContents();
      expect(countries.slice(0, 2)).toEqual(["France", "Kenya"]);
      expect(countries).toHaveLength(50);

      // The pager keeps the order.
      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(new RegExp(`${path}\\?page=2&order=filed$`));
      await expect(tableCountries(page).first()).not.toHaveText("France");

      const header = table(page).locator(`thead th[title="${longName}"]`);
      await expect(header).toHaveText(`${longName} FDF`);
      await expectWholeAndWrapped(header, header);
    });
  });
});

test.describe("in Spanish (partner3, read only)", () => {
  test.afterEach(async ({ page }) => {
    await page.request.get("/partner/dashboard?lng=en");
  });

  test("the finder speaks Spanish and finds Kenya as 'kenia'", async ({ page, open, signIn }) => {
    await signIn("partner3");
    await open("/partner/filing-plans?lng=es");
    const finder = page.getByLabel("Buscar un país");
    await finder.fill("kenia");
    await expect(gridCountries(page)).toHaveText(["Kenia"]);
    await expect(finderCount(page)).toHaveText(/^Países mostrados: 1 de \d{3}$/);
    await finder.fill("xyz");
    await expect(finderCount(page)).toHaveText("Ningún país coincide con «xyz».");
  });
});
