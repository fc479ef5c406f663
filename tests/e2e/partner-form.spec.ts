import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { linkFrom, startMailbox } from "./support/mailbox";

/** A partner of this run only: the e2e database is shared by every spec file. */
function uniquePartner(tag: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  return { company: `E2E ${tag} Pharma ${stamp}`, email: `e2e-${tag}-${stamp}@example.org` };
}

const select = (page: Page, name: string) => page.locator(`select[name="${name}"]`);
const input = (page: Page, name: string) => page.locator(`input[name="${name}"]`);

async function fillMainFields(page: Page, partner: { company: string; email: string }) {
  await page.getByLabel("Company Name").fill(partner.company);
  await page.getByLabel("E-mail").fill(partner.email);
  await input(page, "contactNumber").fill("9876501234");
  await page.getByLabel("Address").fill("7 Test Street, Pune");
  await page.getByLabel("Region").selectOption("Asia");
}

async function fillProduct(page: Page, index: number, product: string, status: string) {
  await select(page, `products[${index}].productId`).selectOption({ label: product });
  await select(page, `products[${index}].status`).selectOption(status);
}

async function fillPerson(page: Page, index: number, first: string, last: string, prefix: string, number: string) {
  await input(page, `people[${index}].firstName`).fill(first);
  await input(page, `people[${index}].lastName`).fill(last);
  await select(page, `people[${index}].contactPrefix`).selectOption(prefix);
  await input(page, `people[${index}].contactNumber`).fill(number);
}

/** Opens the partner's edit page from the partner list (searched by e-mail). */
async function openEditFromList(page: Page, open: (path: string) => Promise<unknown>, partner: { company: string; email: string }) {
  await open(`/admin/partner-list?q=${encodeURIComponent(partner.email)}`);
  await expect(page.getByText(partner.company).first()).toBeVisible();
  const href = await page.locator('a[href^="/admin/edit-partner/"]', { hasText: partner.company }).getAttribute("href");
  expect(href).toMatch(/^\/admin\/edit-partner\/\d+$/);
  await open(href!);
  await expect(page.getByRole("heading", { name: "Edit Partner" })).toBeVisible();
}

test.describe("with JavaScript", () => {
  test("add a partner with two products and two people, edit it, and its mailed link sets a password that signs in", async ({ page, open, signIn }) => {
    const mailbox = await startMailbox();
    try {
      const partner = uniquePartner("js");
      await signIn("admin");
      await open("/admin/add-partner");
      await expect(page.getByRole("heading", { name: "Add Partner" })).toBeVisible();
      // A new partner starts with one product row and one person row; the default prefix is +91.
      await expect(select(page, "contactPrefix")).toHaveValue("+91");
      await expect(select(page, "products[1].productId")).toHaveCount(0);

      await fillMainFields(page, partner);
      await fillProduct(page, 0, "Dolutegravir 50 mg", "PLANNED");
      await page.getByRole("button", { name: "Add a product" }).click();
      await fillProduct(page, 1, "Sofosbuvir API", "UNDER_DEVELOPMENT");
      await fillPerson(page, 0, "Asha", "Patel", "+91", "9811100011");
      await page.getByRole("button", { name: "Add a person" }).click();
      await expect(select(page, "people[1].contactPrefix")).toHaveValue("+91");
      await fillPerson(page, 1, "Lena", "Meyer", "+49", "1511234567");
      await page.getByRole("button", { name: "Save" }).click();

      await expect(page).toHaveURL("/admin/partner-list");
      await expect(page.getByRole("status")).toContainText("Partner added succcessfully!");

      await openEditFromList(page, open, partner);
      await expect(page.getByLabel("Company Name")).toHaveValue(partner.company);
      await expect(input(page, "contactNumber")).toHaveValue("9876501234");
      await expect(input(page, "people[1].firstName")).toHaveValue("Lena");
      await expect(select(page, "people[1].contactPrefix")).toHaveValue("+49");
      await select(page, "products[1].status").selectOption("ON_HOLD");
      await page.getByRole("button", { name: "Remove person 1" }).click();
      await expect(input(page, "people[1].firstName")).toHaveCount(0);
      await expect(input(page, "people[0].firstName")).toHaveValue("Lena");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page).toHaveURL("/admin/partner-list");
      await expect(page.getByRole("status")).toContainText("Partner edited succcessfully!");

      await openEditFromList(page, open, partner);
      await expect(select(page, "products[1].status")).toHaveValue("ON_HOLD");
      await expect(input(page, "people[0].firstName")).toHaveValue("Lena");
      await expect(input(page, "people[1].firstName")).toHaveCount(0);

      // Adding the partner created its login and mailed it the set-password link.
      await expect.poll(() => mailbox.received.filter((mail) => mail.to.includes(partner.email)).length).toBe(1);
      const link = linkFrom(mailbox.received.find((mail) => mail.to.includes(partner.email))!.raw);
      expect(link).toBeDefined();
      await page.context().clearCookies();
      await open(new URL(link!).pathname);
      await page.getByLabel("Password", { exact: true }).fill("partner-e2e-7");
      await page.getByLabel("Confirm Password").fill("partner-e2e-7");
      await page.getByLabel("Confirm Password").press("Enter");
      await expect(page).toHaveURL("/login");
      await expect(page.getByRole("status")).toContainText("Password set successfully");
      await page.getByLabel("E-mail").fill(partner.email);
      await page.getByLabel("Password").fill("partner-e2e-7");
      await page.getByLabel("Password").press("Enter");
      await expect(page).toHaveURL("/partner/dashboard");
    } finally {
      await mailbox.close();
    }
  });

  test("validation messages appear at once, including in list rows and for a taken e-mail", async ({ page, open, signIn }) => {
    await signIn("admin");
    await open("/admin/add-partner");
    await page.getByRole("button", { name: "Save" }).click();
    for (const message of [
      "Please input Company name!",
      "Please input your E-mail!",
      "Please select a Region!",
      "Please select product.",
      "Please enter status.",
      "Please enter first name.",
      "Please enter last name.",
    ]) {
      await expect(page.getByText(message).first()).toBeVisible();
    }
    await expect(page.getByText("Please input your Contact number!")).toHaveCount(2);

    await input(page, "contactNumber").fill("98765abcde");
    await expect(page.getByText("Contact should have only numbers!")).toBeVisible();
    await input(page, "contactNumber").fill("98765");
    await expect(page.getByText("Contact number too short!")).toBeVisible();
    await input(page, "contactNumber").fill("98765432101");
    await expect(page.getByText("Contact number too long!")).toBeVisible();
    await expect(page.getByText("Contact number too short!")).toHaveCount(0);
    await input(page, "people[0].contactNumber").fill("123");
    await expect(page.getByText("Contact number too short!")).toBeVisible();
    await page.getByLabel("E-mail").fill("not-an-email");
    await expect(page.getByText("Please input a valid E-mail!")).toBeVisible();

    // The server's own checks: a taken e-mail (another case) and a product listed twice.
    await fillMainFields(page, { company: uniquePartner("dup").company, email: "Admin@Example.org" });
    await fillProduct(page, 0, "Abacavir API", "FILED");
    await page.getByRole("button", { name: "Add a product" }).click();
    await fillProduct(page, 1, "Abacavir API", "PLANNED");
    await fillPerson(page, 0, "Omar", "Haddad", "+20", "1001234567");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("This product is already listed.")).toBeVisible();
    await fillProduct(page, 1, "Ravidasvir API", "PLANNED");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("A partner or user with this e-mail already exists.")).toBeVisible();
    await expect(page).toHaveURL("/admin/add-partner");
    await expect(page.getByLabel("Company Name")).not.toHaveValue("");
  });

  test("STAFF sees the add and edit forms read-only", async ({ page, open, signIn }) => {
    await signIn("staff");
    for (const path of ["/admin/add-partner", "/admin/edit-partner/1"]) {
      await open(path);
      await expect(page.getByText("You can view this partner but only an administrator can change it.")).toBeVisible();
      await expect(page.getByLabel("Company Name")).toBeDisabled();
      await expect(page.getByLabel("Region")).toBeDisabled();
      await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Add a product" })).toBeDisabled();
      await expect(page.getByRole("button", { name: "Add a person" })).toBeDisabled();
    }
    await expect(page.getByLabel("Company Name")).toHaveValue("Acme Generics Ltd");
    await expect(page.getByRole("button", { name: "Remove product 1" })).toBeDisabled();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("add a partner with two products and two people through the row buttons, then edit it", async ({ page, open, signIn }) => {
    const partner = uniquePartner("nojs");
    await signIn("admin");
    await open("/admin/add-partner");

    // Saving an empty form: the server answers with the messages.
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Please input Company name!")).toBeVisible();
    await expect(page.getByText("Please select product.")).toBeVisible();
    await expect(page.getByText("Please enter first name.")).toBeVisible();

    await fillMainFields(page, partner);
    await fillProduct(page, 0, "Daclatasvir 60 mg", "FILED");
    await input(page, "contactNumber").fill("98765432101");
    await fillPerson(page, 0, "Kofi", "Mensah", "+233", "24412");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Contact number too long!")).toBeVisible();
    await expect(page.getByText("Contact number too short!")).toBeVisible();
    await input(page, "contactNumber").fill("9876501234");
    await page.getByRole("button", { name: "Add a product" }).click();
    // The server returned the form with a second row and the values typed so far.
    await expect(select(page, "products[1].productId")).toBeVisible();
    await expect(page.getByLabel("Company Name")).toHaveValue(partner.company);
    await expect(select(page, "products[0].productId")).toHaveValue(/\d+/);
    await fillProduct(page, 1, "Tenofovir Alafenamide API", "PLANNED");
    await fillPerson(page, 0, "Kofi", "Mensah", "+233", "2441234567");
    await page.getByRole("button", { name: "Add a person" }).click();
    await expect(input(page, "people[1].firstName")).toBeVisible();
    await expect(input(page, "people[0].firstName")).toHaveValue("Kofi");
    await fillPerson(page, 1, "Ama", "Owusu", "+233", "2447654321");
    await page.getByRole("button", { name: "Save" }).click();

    await expect(page).toHaveURL("/admin/partner-list");
    await expect(page.getByRole("status")).toContainText("Partner added succcessfully!");

    await openEditFromList(page, open, partner);
    await expect(input(page, "people[1].firstName")).toHaveValue("Ama");
    await select(page, "products[0].status").selectOption("APPROVED");
    await page.getByRole("button", { name: "Remove person 2" }).click();
    await expect(input(page, "people[1].firstName")).toHaveCount(0);
    await expect(select(page, "products[0].status")).toHaveValue("APPROVED");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL("/admin/partner-list");
    await expect(page.getByRole("status")).toContainText("Partner edited succcessfully!");

    await openEditFromList(page, open, partner);
    await expect(select(page, "products[0].status")).toHaveValue("APPROVED");
    await expect(input(page, "people[0].firstName")).toHaveValue("Kofi");
    await expect(input(page, "people[1].firstName")).toHaveCount(0);
  });
});
