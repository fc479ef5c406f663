import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/** Products are shared by every spec of the run: each test makes its own, with a unique name. */
const uniqueName = (label: string) => `E2E ${label} ${Date.now()}-${Math.floor(Math.random() * 1000)}`;

const rowOf = (page: Page, name: string) => page.getByTestId("product-row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
const toast = (page: Page) => page.locator(".toast");

/** Adds a product over HTTP as the signed-in admin (for tests about something else than the form). */
async function addProductOverHttp(page: Page, name: string, category = "FDF", therapyArea = "HIV") {
  const response = await page.request.post("/admin/add-product", { form: { name, category, therapyArea }, maxRedirects: 0 });
  expect(response.status()).toBe(302);
}

async function listNames(page: Page) {
  return page.getByTestId("product-row").getByRole("rowheader").allTextContents();
}

test.describe("with JavaScript", () => {
  test("ADMIN adds a product (stages follow the category, instant errors, duplicate refused) and edits it", async ({ page, open, signIn }) => {
    const name = uniqueName("JS product");
    await signIn("admin");
    await open("/admin/product-list");
    await page.getByRole("link", { name: "Add Product" }).click();
    await expect(page).toHaveURL("/admin/add-product");
    await expect(page.getByRole("heading", { name: "Add Product" })).toBeVisible();
    // "Show stages" is only for browsers without JavaScript.
    await expect(page.getByRole("button", { name: "Show stages" })).toHaveCount(0);

    // Instant validation on blur, before any request.
    await page.getByLabel("Product Name").focus();
    await page.getByLabel("Product Name").blur();
    await expect(page.getByText("Please enter product name!")).toBeVisible();

    const stages = page.getByTestId("product-stages");
    await expect(stages.getByRole("heading", { name: "FDF" })).toBeVisible();
    await expect(stages.getByRole("heading", { name: "API" })).toBeVisible();
    await page.getByLabel("Category").selectOption("API");
    await expect(stages.getByText("Investigation and route selection")).toBeVisible();
    await expect(stages.getByText("Development set-up")).toHaveCount(0);
    await page.getByLabel("Category").selectOption("FDF");
    await expect(stages.getByText("Development set-up")).toBeVisible();
    await expect(stages.getByText("Investigation and route selection")).toHaveCount(0);

    await page.getByLabel("Product Name").fill(name);
    await expect(page.getByText("Please enter product name!")).toHaveCount(0);
    await page.getByLabel("Therapy Area").selectOption("HCV");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/product-list");
    await expect(toast(page)).toContainText("Product added succcessfully!");
    await expect(rowOf(page, name)).toContainText("FDF");
    await expect(rowOf(page, name)).toContainText("HCV");

    // The same name in another case is refused by the server, shown on the field.
    await open("/admin/add-product");
    await page.getByLabel("Product Name").fill(name.toUpperCase());
    await page.getByLabel("Category").selectOption("API");
    await page.getByLabel("Therapy Area").selectOption("HIV");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("A product with this name already exists.")).toBeVisible();
    await expect(page).toHaveURL("/admin/add-product");

    // Edit: the category is locked.
    await open("/admin/product-list");
    await page.getByRole("link", { name: `Edit ${name}` }).click();
    await expect(page.getByRole("heading", { name: "Edit Product" })).toBeVisible();
    await expect(page.getByLabel("Category")).toBeDisabled();
    await expect(page.getByLabel("Category")).toHaveValue("FDF");
    await expect(page.getByTestId("product-stages").getByText("Pivotal BE")).toBeVisible();
    await expect(page.getByLabel("Product Name")).toHaveValue(name);
    const edited = `${name} v2`;
    await page.getByLabel("Product Name").fill(edited);
    await page.getByLabel("Therapy Area").selectOption("HBV");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/product-list");
    await expect(toast(page)).toContainText("Product edited succcessfully!");
    await expect(rowOf(page, edited)).toContainText("HBV");
    await expect(rowOf(page, name)).toHaveCount(0);
  });

  test("sorts by name and filters by category through the query string", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open("/admin/product-list");
    const ascending = await listNames(page);
    expect(ascending.length).toBeGreaterThan(10);
    await expect(page.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");

    await page.getByRole("link", { name: "Name" }).click();
    await expect(page).toHaveURL("/admin/product-list?sort=name&dir=desc");
    await expect(page.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "descending");
    expect(await listNames(page)).toEqual([...ascending].reverse());
    await page.reload();
    expect(await listNames(page)).toEqual([...ascending].reverse());

    // The filter form keeps the sort and applies at once with JavaScript.
    await page.getByLabel("Category").selectOption("API");
    await expect(page).toHaveURL(/category=API/);
    await expect(page).toHaveURL(/dir=desc/);
    const categories = page.getByTestId("product-row").locator("td:nth-of-type(1)");
    await expect(categories.first()).toHaveText("API");
    expect(new Set(await categories.allTextContents())).toEqual(new Set(["API"]));

    await open("/admin/product-list?category=FDF");
    await expect(page.getByLabel("Category")).toHaveValue("FDF");
    expect(new Set(await categories.allTextContents())).toEqual(new Set(["FDF"]));
    await expect(rowOf(page, "Dolutegravir 50 mg")).toBeVisible();
    await expect(rowOf(page, "Dolutegravir API")).toHaveCount(0);
  });

  test("deactivates through the dialog (No keeps it, Yes removes it) and reactivates it", async ({ page, open, signIn }) => {
    const name = uniqueName("Dialog product");
    await signIn("admin");
    await addProductOverHttp(page, name, "API", "HBV");
    await open("/admin/product-list?category=API");

    const dialog = page.getByRole("dialog");
    await rowOf(page, name)
      .getByRole("link", { name: `Deactivate ${name}` })
      .click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Do you want to deactivate ${name} ?`);
    await expect(page).toHaveURL("/admin/product-list?category=API");
    await expect(dialog.getByRole("button")).toHaveText(["No", "Yes"]);
    await dialog.getByRole("button", { name: "No" }).click();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, name)).toBeVisible();

    await rowOf(page, name)
      .getByRole("link", { name: `Deactivate ${name}` })
      .click();
    await dialog.getByRole("button", { name: "Yes" }).click();
    await expect(toast(page)).toContainText("Product Deactivated!");
    await expect(page).toHaveURL("/admin/product-list?category=API");
    await expect(rowOf(page, name)).toHaveCount(0);

    await page.getByLabel("Show inactive").check();
    await expect(page).toHaveURL(/status=inactive/);
    await rowOf(page, name)
      .getByRole("button", { name: `Reactivate ${name}` })
      .click();
    await expect(toast(page)).toContainText("Product reactivated!");
    await expect(rowOf(page, name)).toHaveCount(0);
    await open("/admin/product-list?category=API");
    await expect(rowOf(page, name)).toBeVisible();
  });

  test("STAFF sees the product controls disabled", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open("/admin/product-list");
    await expect(page.getByRole("link", { name: "Add Product" })).toHaveCount(0);
    await expect(page.getByText("Add Product")).toHaveAttribute("aria-disabled", "true");
    const row = rowOf(page, "Dolutegravir 50 mg");
    await expect(row.getByRole("link")).toHaveCount(0);
    await expect(row.getByText("Edit")).toHaveAttribute("aria-disabled", "true");
    await expect(row.getByRole("button", { name: "Deactivate" })).toBeDisabled();

    await open("/admin/add-product");
    await expect(page.getByText("You have read-only access to products.")).toBeVisible();
    await expect(page.getByLabel("Product Name")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();

    // A forged post is refused by the server.
    const forged = await page.request.post("/admin/add-product", {
      form: { name: uniqueName("Staff"), category: "FDF", therapyArea: "HIV" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("ADMIN adds a product (server errors, 'Show stages') and edits it", async ({ page, open, signIn }) => {
    const name = uniqueName("No-JS product");
    await signIn("admin");
    await open("/admin/product-list");
    await page.getByRole("link", { name: "Add Product" }).click();
    await expect(page).toHaveURL("/admin/add-product");

    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Please enter product name!")).toBeVisible();
    await expect(page.getByText("Please select category!")).toBeVisible();
    await expect(page.getByText("Please select therapy area!")).toBeVisible();

    await page.getByLabel("Product Name").fill(name);
    await page.getByLabel("Category").selectOption("API");
    await page.getByRole("button", { name: "Show stages" }).click();
    await expect(page).toHaveURL(/\/admin\/add-product\?.*category=API/);
    await expect(page.getByLabel("Product Name")).toHaveValue(name);
    await expect(page.getByLabel("Category")).toHaveValue("API");
    const stages = page.getByTestId("product-stages");
    await expect(stages.getByText("DMF Compilation")).toBeVisible();
    await expect(stages.getByText("Dossier Compilation", { exact: true })).toHaveCount(0);

    await page.getByLabel("Therapy Area").selectOption("HIV");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/product-list");
    await expect(toast(page)).toContainText("Product added succcessfully!");
    await expect(rowOf(page, name)).toContainText("API");

    await rowOf(page, name)
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    await expect(page.getByLabel("Category")).toBeDisabled();
    await page.getByLabel("Product Name").fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Please enter product name!")).toBeVisible();
    const edited = `${name} edited`;
    await page.getByLabel("Product Name").fill(edited);
    await page.getByLabel("Therapy Area").selectOption("HCV");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/product-list");
    await expect(toast(page)).toContainText("Product edited succcessfully!");
    await expect(rowOf(page, edited)).toContainText("HCV");
  });

  test("deactivates through the confirmation page", async ({ page, open, signIn }) => {
    const name = uniqueName("Confirm page product");
    await signIn("admin");
    await addProductOverHttp(page, name, "FDF", "HCV");
    await open("/admin/product-list?sort=name&dir=desc&category=FDF");

    await rowOf(page, name)
      .getByRole("link", { name: `Deactivate ${name}` })
      .click();
    await expect(page).toHaveURL(/\/admin\/product-list\/deactivate\/\d+\?sort=name&dir=desc&category=FDF$/);
    await expect(page.getByText(`Do you want to deactivate ${name} ?`)).toBeVisible();
    await page.getByRole("link", { name: "No", exact: true }).click();
    await expect(page).toHaveURL("/admin/product-list?sort=name&dir=desc&category=FDF");
    await expect(rowOf(page, name)).toBeVisible();

    await rowOf(page, name)
      .getByRole("link", { name: `Deactivate ${name}` })
      .click();
    await page.getByRole("button", { name: "Yes", exact: true }).click();
    await expect(page).toHaveURL("/admin/product-list?sort=name&dir=desc&category=FDF");
    await expect(toast(page)).toContainText("Product Deactivated!");
    await expect(rowOf(page, name)).toHaveCount(0);

    // The filter form without JavaScript: tick and submit.
    await page.getByLabel("Show inactive").check();
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=inactive/);
    await expect(rowOf(page, name)).toBeVisible();
  });
});
