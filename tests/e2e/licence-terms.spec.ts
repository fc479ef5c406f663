import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { createPartner } from "./support/partners";

const PRODUCT = "Dolutegravir 50 mg";

/** A partner of this test with one product (the administrator is signed in): its row of the partner list, opened. */
async function partnerInList(page: Page, open: (path: string) => Promise<unknown>, label: string) {
  await open("/admin/product-list?category=FDF");
  const edit = await page.getByRole("link", { name: `Edit ${PRODUCT}`, exact: true }).getAttribute("href");
  const productId = /\/(\d+)$/.exec(edit ?? "")?.[1];
  expect(productId, "the product's id").toBeTruthy();
  const partner = await createPartner(page, label, { "products[0].productId": productId!, "products[0].status": "PLANNED" });
  await open(`/admin/partner-list?q=${encodeURIComponent(partner.email)}`);
  return { partner, row: page.locator("tbody tr", { has: page.getByRole("rowheader", { name: partner.companyName, exact: true }) }) };
}

const productSection = (page: Page, name = PRODUCT) => page.getByRole("region", { name: new RegExp(`^${name.replace(/[()/]/g, "\\$&")}`) });

/** Sets a default rate, a royalty-free country and a country outside the territory, saves, and finds them after a reload. */
async function setTerms(page: Page, companyName: string) {
  await expect(page.getByRole("heading", { name: "Licence Terms", level: 1 })).toBeVisible();
  await expect(page.getByTestId("licence-partner")).toContainText(companyName);
  const section = productSection(page);
  await expect(section.getByText("No country exceptions: the default rate applies in every country.")).toBeVisible();
  await section.getByLabel("Default royalty rate (%)").fill("4.5");
  await section.getByRole("button", { name: "Add a country" }).click();
  await section.getByLabel("Country 1", { exact: true }).selectOption({ label: "Kenya" });
  await section.getByLabel("Royalty rate (%), country 1").fill("0");
  await section.getByRole("button", { name: "Add a country" }).click();
  await section.getByLabel("Country 2", { exact: true }).selectOption({ label: "Germany" });
  await section.getByRole("checkbox", { name: "Not licensed, country 2" }).check();
  await page.getByRole("button", { name: "Save" }).last().click();
  await expect(page.getByRole("status")).toContainText("Licence terms saved successfully!");

  await page.reload();
  const saved = productSection(page);
  await expect(saved.getByLabel("Default royalty rate (%)")).toHaveValue("4.5");
  // Exceptions in the order of the countries' names.
  await expect(saved.getByLabel("Country 1", { exact: true })).toHaveValue(/\d+/);
  await expect(saved.getByLabel("Country 1", { exact: true }).locator("option:checked")).toHaveText("Germany");
  await expect(saved.getByRole("checkbox", { name: "Not licensed, country 1" })).toBeChecked();
  await expect(saved.getByLabel("Royalty rate (%), country 1")).toHaveValue("");
  await expect(saved.getByLabel("Country 2", { exact: true }).locator("option:checked")).toHaveText("Kenya");
  await expect(saved.getByLabel("Royalty rate (%), country 2")).toHaveValue("0");
  await expect(saved.getByRole("checkbox", { name: "Not licensed, country 2" })).not.toBeChecked();
}

test.describe("with JavaScript", () => {
  test("ADMIN opens a partner's terms from the partner list, sets a default rate and two countries, and sees them after a reload", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    const { partner, row } = await partnerInList(page, open, "LicenceJs");
    await row.getByRole("link", { name: /^Licence Terms/ }).click();
    await expect(page).toHaveURL(/\/admin\/licence-terms\/\d+$/);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await setTerms(page, partner.companyName);
  });

  test("a bad rate is named beside its field and nothing is saved", async ({ page, open, signIn }) => {
    await signIn("admin");
    const { row } = await partnerInList(page, open, "LicenceBad");
    const href = await row.getByRole("link", { name: /^Licence Terms/ }).getAttribute("href");
    await open(href!);
    const rate = productSection(page).getByLabel("Default royalty rate (%)");
    await rate.fill("150");
    await rate.blur();
    await expect(productSection(page).getByText("The rate must be between 0 and 100.")).toBeVisible();
    await expect(rate).toHaveAttribute("aria-invalid", "true");
    await page.getByRole("button", { name: "Save" }).last().click();
    await expect(productSection(page).getByText("The rate must be between 0 and 100.")).toBeVisible();
    await page.reload();
    await expect(productSection(page).getByLabel("Default royalty rate (%)")).toHaveValue("");
  });

  test("STAFF reads a partner's terms with every control disabled, from the list and from the edit page", async ({ page, open, signIn }) => {
    await signIn("staff");
    await open("/admin/partner-list");
    const acme = page.locator("tbody tr", { has: page.getByRole("rowheader", { name: "Acme Generics Ltd", exact: true }) });
    await acme.getByRole("link", { name: /^Licence Terms/ }).click();
    await expect(page.getByRole("heading", { name: "Licence Terms", level: 1 })).toBeVisible();
    await expect(page.getByRole("note")).toContainText("Only an administrator can change these licence terms.");
    const section = productSection(page);
    await expect(section.getByLabel("Default royalty rate (%)")).toHaveValue("5");
    await expect(section.getByLabel("Default royalty rate (%)")).toBeDisabled();
    await expect(section.getByRole("checkbox", { name: "Not licensed, country 1" })).toBeChecked();
    await expect(section.getByRole("button", { name: "Add a country" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Save" }).last()).toBeDisabled();

    const href = new URL(page.url()).pathname;
    const partnerId = href.split("/").pop();
    await open(`/admin/edit-partner/${partnerId}`);
    await page.getByRole("link", { name: "Licence Terms" }).click();
    await expect(page).toHaveURL(href);
  });

  test("a partner reads its own terms from the sidebar, without controls to change them", async ({ page, signIn }) => {
    await signIn("partner1");
    await page.getByRole("complementary", { name: "Main navigation" }).getByRole("link", { name: "Licence Terms" }).click();
    await expect(page).toHaveURL("/partner/licence-terms");
    await expect(page.getByTestId("licence-partner")).toContainText("Acme Generics Ltd");
    const section = productSection(page);
    await expect(section.getByLabel("Default royalty rate (%)")).toHaveValue("5");
    await expect(section.getByLabel("Default royalty rate (%)")).toBeDisabled();
    await expect(section.getByLabel("Country 1", { exact: true }).locator("option:checked")).toHaveText("Brazil");
    await expect(section.getByRole("checkbox", { name: "Not licensed, country 1" })).toBeChecked();
    await expect(section.getByLabel("Royalty rate (%), country 2")).toHaveValue("0");
    await expect(page.getByRole("button", { name: /^(Save|Add a country|Remove)/ })).toHaveCount(0);
    await expect(productSection(page, "Sofosbuvir/Daclatasvir").getByLabel("Default royalty rate (%)")).toHaveValue("4");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("ADMIN adds countries through the server, saves, and sees the terms after a reload; a bad rate is named beside its field", async ({
    page,
    open,
    signIn,
  }) => {
    await signIn("admin");
    const { partner, row } = await partnerInList(page, open, "LicencePlain");
    await row.getByRole("link", { name: /^Licence Terms/ }).click();
    await setTerms(page, partner.companyName);

    const rate = productSection(page).getByLabel("Royalty rate (%), country 2");
    await rate.fill("abc");
    await page.getByRole("button", { name: "Save" }).last().click();
    await expect(productSection(page).getByText("Enter the rate as a number, such as 5 or 3.25.")).toBeVisible();
    await expect(productSection(page).getByLabel("Royalty rate (%), country 2")).toHaveAttribute("aria-invalid", "true");
    // Opened afresh (a reload would post the refused form again).
    await open(new URL(page.url()).pathname);
    await expect(productSection(page).getByLabel("Royalty rate (%), country 2")).toHaveValue("0");
  });
});
