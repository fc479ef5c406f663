import http from "node:http";
import { E2E_PORT } from "../../playwright.config";
import { expect, test } from "./support/fixtures";

/** A raw HTTP request, for what a browser would never send (a lying Content-Length). */
function rawRequest(options: http.RequestOptions, body = ""): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { "Content-Length": String(Buffer.byteLength(body)), ...options.headers };
    const request = http.request({ host: "localhost", port: E2E_PORT, ...options, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

test.describe("hostile requests against the running server", () => {
  test("the 56-byte sparse-index sign-in gets a small refusal and the server stays up", async ({ request }) => {
    const response = await request.post("/login", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: "email=bomb%40b.org&password=x&x%5B100000000%5D=1",
      maxRedirects: 0,
    });
    expect(response.status()).toBe(401);
    expect((await response.body()).length).toBeLessThan(100_000);
    expect((await request.get("/healthz")).status()).toBe(200);
  });

  test("bodies over the limits are refused: a declared 100 MB at once, a 1 MB sign-in by the route", async ({ request }) => {
    const declared = await rawRequest({
      method: "POST",
      path: "/login",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(100 * 1024 * 1024) },
    });
    expect(declared.status).toBe(413);
    const big = await request.post("/login", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: `email=a%40b.org&password=${"x".repeat(1024 * 1024)}`,
      maxRedirects: 0,
    });
    expect(big.status()).toBe(413);
  });

  test("a body that is not a form gets 415, not a crash", async ({ request }) => {
    for (const [contentType, data] of [
      ["application/json", JSON.stringify({ email: "a@b.org", password: "x" })],
      ["text/plain", "email=a@b.org"],
      ["multipart/form-data", "--x"],
    ]) {
      const response = await request.post("/login", { headers: { "Content-Type": contentType }, data, maxRedirects: 0 });
      expect(response.status(), contentType).toBe(415);
    }
  });

  test("the cross-site guard compares scheme, host and port, refuses what it cannot parse, and sees through /api/%2e%2e", async ({ request }) => {
    const own = `http://localhost:${E2E_PORT}`;
    const post = (origin: string, path = "/login", headers: Record<string, string> = {}) =>
      request.post(path, { headers: { Origin: origin, ...headers }, form: { email: "origin@b.org", password: "x" }, maxRedirects: 0 });
    expect((await post(own)).status()).toBe(401);
    for (const origin of [`https://localhost:${E2E_PORT}`, `http://localhost:${E2E_PORT + 1}`, "http://evil.example", "null", "::not a url::"]) {
      const response = await post(origin);
      expect(response.status(), origin).toBe(403);
      expect(await response.text()).toBe("Cross-site request refused.");
    }
    const sneaky = await rawRequest(
      {
        method: "POST",
        path: "/api/%2e%2e/login",
        headers: { Origin: "http://evil.example", Authorization: "Bearer x", "Content-Type": "application/x-www-form-urlencoded" },
      },
      "email=a%40b.org&password=x",
    );
    expect(sneaky.status).toBe(403);
  });

  test("signed-in pages and data answers are never stored", async ({ page, signIn }) => {
    await signIn("partner1");
    const pageResponse = await page.request.get("/partner/dashboard");
    expect(pageResponse.headers()["cache-control"]).toBe("private, no-store");
    const dataResponse = await page.request.get("/partner/dashboard.data");
    expect(dataResponse.status()).toBe(200);
    expect(dataResponse.headers()["cache-control"]).toBe("private, no-store");
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`signing out (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("opening /logout asks; the session lives until the button is pressed", async ({ page, open, signIn }) => {
      await signIn("partner1");
      await open("/logout");
      await expect(page.getByRole("heading", { name: "Logout" })).toBeVisible();
      await open("/partner/dashboard");
      await expect(page).toHaveURL("/partner/dashboard");
      await open("/logout");
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL("/login");
      await open("/partner/dashboard");
      await expect(page).toHaveURL("/login");
    });

    for (const path of ["/reset-password", "/set-password/a-link-token"]) {
      test(`a signed-in user who opens ${path.replace(/\/a-link-token$/, "/{token}")} sees 'Access Denied!' and is signed out`, async ({
        page,
        open,
        signIn,
      }) => {
        await signIn("partner3");
        const response = await open(path);
        expect(response?.status()).toBe(403);
        await expect(page.getByRole("heading", { name: "Access Denied!" })).toBeVisible();
        await expect(page.getByText("You have been signed out.")).toBeVisible();
        expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("__session");
        await page.getByRole("link", { name: "Sign in" }).click();
        await expect(page).toHaveURL("/login");
        await expect(page.getByLabel("E-mail")).toBeVisible();
        await open("/partner/dashboard");
        await expect(page).toHaveURL("/login");
        // Signed out, the page is what it is for signed-out visitors.
        await open(path);
        await expect(page.getByRole("heading", { name: "Access Denied!" })).toHaveCount(0);
        await expect(page.getByLabel("E-mail")).toBeVisible();
      });
    }
  });
}
