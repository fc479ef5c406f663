import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { partners, sessions } from "~/db/schema";
import { action as loginAction, loader as loginLoader } from "~/routes/login";
import { ACCOUNT_INACTIVE, endSessionHeaders, getSessionUser, INVALID_CREDENTIALS, setSessionLocked, TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

const login = (form: Record<string, string>) => runRoute(loginAction, buildRequest("/login", { form }));

describe("POST /login", () => {
  it("asks for the e-mail and the password with the spec's messages", async () => {
    const empty = await login({ email: "", password: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.error.email).toEqual(["Please input your E-mail!"]);
    expect(empty.data.error.password).toEqual(["Please input your Password!"]);

    const invalid = await login({ email: "not-an-email", password: "x" });
    expect(invalid.data.error.email).toEqual(["Please input a valid E-mail!"]);
  });

  it("signs an admin in to the admin dashboard, trimming and lower-casing the e-mail", async () => {
    const result = await login({ email: "  Admin@Example.ORG ", password: " admin-pass-1 " });
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/dashboard");
    const cookie = result.headers.getSetCookie().find((c) => c.startsWith("__session="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Max-Age/i);
    expect(await db.select().from(sessions)).toHaveLength(1);
  });

  it("sends staff to the admin dashboard and partners to the partner dashboard", async () => {
    expect((await login({ email: "staff@example.org", password: "staff-pass-1" })).location).toBe("/admin/dashboard");
    expect((await login({ email: "partner2@example.org", password: "partner-pass-2" })).location).toBe("/partner/dashboard");
  });

  it("remember me keeps the session for 30 days", async () => {
    const result = await login({ email: "partner1@example.org", password: "partner-pass-1", remember: "on" });
    const cookie = result.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
    expect(cookie).toMatch(/Max-Age=2592000/);
    const [row] = await db.select().from(sessions);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it("gives one answer for an unknown e-mail and a wrong password", async () => {
    const unknown = await login({ email: "nobody@example.org", password: "whatever-1" });
    const wrong = await login({ email: "admin@example.org", password: "wrong-pass-1" });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.data.error[""]).toEqual([INVALID_CREDENTIALS]);
    expect(wrong.data.error[""]).toEqual([INVALID_CREDENTIALS]);
    expect(await db.select().from(sessions)).toHaveLength(0);
  });

  it("tells a deactivated partner to contact the administrator", async () => {
    await db.update(partners).set({ isActive: false }).where(eq(partners.email, "partner3@example.org"));
    const result = await login({ email: "partner3@example.org", password: "partner-pass-3" });
    expect(result.status).toBe(401);
    expect(result.data.error[""]).toEqual([ACCOUNT_INACTIVE]);
  });

  it("stops an e-mail after five failed attempts, even with the right password", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login({ email: "partner1@example.org", password: "guess-number-" + attempt })).status).toBe(401);
    }
    const blocked = await login({ email: "partner1@example.org", password: "partner-pass-1" });
    expect(blocked.status).toBe(429);
    expect(blocked.data.error[""]).toEqual([TOO_MANY_ATTEMPTS]);
    // Another account from the same address is not blocked by these five.
    expect((await login({ email: "partner2@example.org", password: "partner-pass-2" })).status).toBe(302);
  });
});

describe("GET /login", () => {
  it("sends a signed-in user to the dashboard of their role", async () => {
    const admin = await runRoute(loginLoader, buildRequest("/login", { cookie: await sessionCookieFor("admin@example.org") }));
    expect(admin.location).toBe("/admin/dashboard");
    const partner = await runRoute(loginLoader, buildRequest("/login", { cookie: await sessionCookieFor("partner1@example.org") }));
    expect(partner.location).toBe("/partner/dashboard");
    const anonymous = await runRoute(loginLoader, buildRequest("/login"));
    expect(anonymous.status).toBe(200);
  });
});

describe("who is signed in", () => {
  it("the loaders of one page, running side by side, see the same user; a lock and a sign-out are seen by the next request", async () => {
    const cookie = await sessionCookieFor("admin@example.org");
    const request = () => buildRequest("/admin/dashboard", { cookie });
    const side = await Promise.all([getSessionUser(request()), getSessionUser(request()), getSessionUser(request())]);
    expect(side.map((lookup) => [lookup.current?.user.email, lookup.current?.locked])).toEqual(Array(3).fill(["admin@example.org", false]));

    await setSessionLocked(request(), true);
    expect((await getSessionUser(request())).current?.locked).toBe(true);

    await endSessionHeaders(request());
    expect(await getSessionUser(request())).toEqual({ current: null, hadSession: true });
  });
});
