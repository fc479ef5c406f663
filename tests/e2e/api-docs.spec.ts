import { expect, test } from "./support/fixtures";

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("the login page's 'API documentation' link lands on the documentation of every call; the OpenAPI document downloads", async ({ page, open }) => {
      await open("/login");
      await page.getByRole("link", { name: "API documentation" }).click();
      await expect(page).toHaveURL("/api/docs");
      await expect(page.getByRole("heading", { name: "API documentation", level: 1 })).toBeVisible();
      const login = page.locator("article", { has: page.getByRole("heading", { name: "POST /api/login/" }) });
      await expect(login.getByRole("heading", { name: "Request body" })).toBeVisible();
      await expect(login).toContainText('"email"');
      await expect(login).toContainText("401");
      // The page arrives in chunks: count once all of it is in.
      await expect.poll(() => page.locator("article").count()).toBeGreaterThan(40);

      const document = await page.request.get("/api/openapi.json");
      expect(document.status()).toBe(200);
      expect((await document.json()).openapi).toBe("3.1.0");
    });
  });
}

test("a bearer token from POST /api/login/ reads the partner's Sales Report over HTTP; without it, 401", async ({ request }) => {
  const login = await request.post("/api/login/", { data: { email: "partner1@example.org", password: "partner-pass-1" } });
  expect(login.status()).toBe(200);
  const { access } = await login.json();
  const sales = await request.get("/api/template/sales/api", { headers: { Authorization: `Bearer ${access}` } });
  expect(sales.status()).toBe(200);
  expect((await sales.json()).sales_meta.partner_name).toBe("Acme Generics Ltd");
  expect((await request.get("/api/template/sales/api")).status()).toBe(401);
});
