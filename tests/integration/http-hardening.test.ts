import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { users } from "~/db/schema";
import { loader as rootLoader } from "~/root";
import { action as languageAction } from "~/routes/language";
import { isCrossSiteRequest } from "~/utils/cross-site.server";
import { redactSecrets, requestLogSerializers } from "~/utils/logger.server";
import { buildRequest, runRoute, sessionCookieFor } from "../support/remix";

const OWN = "http://portal.example:3000";

/** A request to the portal at OWN with these headers. */
function guarded(headers: Record<string, string>, { method = "POST", url = "/login" } = {}) {
  const all = new Headers({ host: "portal.example:3000", ...headers });
  return { method, url, protocol: "http", header: (name: string) => all.get(name) ?? undefined };
}

describe("the cross-site guard", () => {
  it("judges by Origin first: the portal's own scheme, host and port only", () => {
    expect(isCrossSiteRequest(guarded({ origin: OWN }))).toBe(false);
    for (const origin of ["https://portal.example:3000", "http://portal.example:3001", "http://evil.example", "null", "::not a url::", ""]) {
      expect(isCrossSiteRequest(guarded({ origin })), origin).toBe(true);
    }
    // Origin decides when both are sent.
    expect(isCrossSiteRequest(guarded({ origin: "http://evil.example", referer: `${OWN}/login` }))).toBe(true);
  });

  it("without Origin, falls back to Referer", () => {
    expect(isCrossSiteRequest(guarded({ referer: "http://evil.example/form.html" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ referer: "https://portal.example:3000/login" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ referer: "not a url" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ referer: `${OWN}/admin/add-partner?tab=1` }))).toBe(false);
  });

  it("without Origin and Referer, falls back to Sec-Fetch-Site, which refuses another site whatever the others say", () => {
    expect(isCrossSiteRequest(guarded({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ "sec-fetch-site": "cross-site", origin: OWN }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ "sec-fetch-site": "same-origin" }))).toBe(false);
  });

  it("accepts a request that names no origin at all (curl, a script), and every safe method", () => {
    expect(isCrossSiteRequest(guarded({}))).toBe(false);
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(isCrossSiteRequest(guarded({ origin: "http://evil.example" }, { method }))).toBe(false);
    }
  });

  it("exempts API calls with a bearer token, on the path the router will see", () => {
    const foreign = { origin: "http://evil.example", authorization: "Bearer abc" };
    expect(isCrossSiteRequest(guarded(foreign, { url: "/api/login/" }))).toBe(false);
    expect(isCrossSiteRequest(guarded(foreign, { url: "/api/%2e%2e/login" }))).toBe(true);
    expect(isCrossSiteRequest(guarded({ origin: "http://evil.example" }, { url: "/api/login/" }))).toBe(true);
  });
});

describe("secrets in logged text", () => {
  it("set-password tokens and token= values are redacted, in a path, a full URL and an encoded redirect", () => {
    expect(redactSecrets("/set-password/abcDEF_123-x")).toBe("/set-password/[redacted]");
    expect(redactSecrets("http://localhost:3000/set-password/abc.data?_data=x")).toBe("http://localhost:3000/set-password/[redacted]?_data=x");
    expect(redactSecrets("/login?redirectTo=%2Fset-password%2Fabc")).toBe("/login?redirectTo=%2Fset-password%2F[redacted]");
    expect(redactSecrets("/api/x/?token=abc&page=2")).toBe("/api/x/?token=[redacted]&page=2");
    expect(redactSecrets("/partner/dashboard?lng=fr")).toBe("/partner/dashboard?lng=fr");
  });

  it("the request log keeps method, URL and safe headers, never cookies, credentials or Set-Cookie", () => {
    const req = {
      id: "r1",
      method: "POST",
      url: "/set-password/secret-token",
      originalUrl: "/set-password/secret-token",
      headers: { host: "localhost", cookie: "__session=abc", authorization: "Bearer xyz", referer: "http://localhost/set-password/secret-token" },
      socket: { remoteAddress: "127.0.0.1" },
    };
    const logged = JSON.stringify(requestLogSerializers.req(req as never));
    expect(logged).toContain('"method":"POST"');
    expect(logged).toContain("/set-password/[redacted]");
    expect(logged).not.toMatch(/__session|abc|xyz|secret-token/);
    const res = { statusCode: 302, getHeaders: () => ({ "set-cookie": ["__session=abc"], location: "/set-password/secret-token" }) };
    expect(JSON.stringify(requestLogSerializers.res(res as never))).toBe('{"statusCode":302,"headers":{"location":"/set-password/[redacted]"}}');
  });

  it("an error is logged without its other properties or a failed query's parameters", () => {
    const failed = Object.assign(new Error('Failed query: select * from "sessions" where "id" = $1\nparams: the-session-id'), {
      request: { headers: { cookie: "__session=abc" } },
      form: { password: "hunter2-secret" },
    });
    const logged = JSON.stringify(requestLogSerializers.err(failed));
    expect(logged).toContain("Failed query: select");
    expect(logged).not.toMatch(/the-session-id|__session|hunter2/);
    expect(JSON.stringify(requestLogSerializers.err({ password: "hunter2-secret" }))).toBe('{"type":"Object"}');
  });
});

describe("?lng= on a GET", () => {
  it("renders the page in that language and keeps it in a cookie, without writing the account's mail language", async () => {
    const cookie = await sessionCookieFor("partner1@example.org");
    const before = await db.select({ language: users.language }).from(users).where(eq(users.email, "partner1@example.org"));
    const result = await runRoute(rootLoader, buildRequest("/partner/dashboard?lng=fr", { cookie }));
    expect(result.data).toMatchObject({ locale: "fr" });
    expect(result.headers.getSetCookie().some((setCookie) => setCookie.startsWith("lng="))).toBe(true);
    const after = await db.select({ language: users.language }).from(users).where(eq(users.email, "partner1@example.org"));
    expect(after).toEqual(before);
    expect(after[0].language).not.toBe("fr");
  });
});

describe("the language menu's POST /language", () => {
  const languageOf = async (email: string) => (await db.select({ language: users.language }).from(users).where(eq(users.email, email)))[0].language;

  it("sets the pages' language and the signed-in user's mail language, and goes back to the page", async () => {
    const cookie = await sessionCookieFor("partner1@example.org");
    const result = await runRoute(languageAction, buildRequest("/language", { cookie, form: { language: "es", redirectTo: "/partner/sales-report?tab=fdf" } }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/partner/sales-report?tab=fdf");
    expect(result.headers.getSetCookie().some((setCookie) => setCookie.startsWith("lng="))).toBe(true);
    expect(await languageOf("partner1@example.org")).toBe("es");
  });

  it("goes back only to a page of the portal, and refuses an unknown language without writing", async () => {
    const cookie = await sessionCookieFor("partner2@example.org");
    const before = await languageOf("partner2@example.org");
    for (const redirectTo of ["https://evil.example/", "//evil.example/", "/\\evil.example/"]) {
      const result = await runRoute(languageAction, buildRequest("/language", { cookie, form: { language: "fr", redirectTo } }));
      expect(result.location, redirectTo).toBe("/");
    }
    const unknown = await runRoute(languageAction, buildRequest("/language", { cookie, form: { language: "xx", redirectTo: "/partner/dashboard" } }));
    expect(unknown.location).toBe("/partner/dashboard");
    // Only the error's toast: no language cookie.
    expect(unknown.headers.getSetCookie().filter((setCookie) => setCookie.startsWith("lng="))).toEqual([]);
    expect(await languageOf("partner2@example.org")).toBe("fr");
    expect(before).not.toBe("fr");
  });

  it("signed out, it sets only the pages' language", async () => {
    const result = await runRoute(languageAction, buildRequest("/language", { form: { language: "ar", redirectTo: "/login" } }));
    expect(result.location).toBe("/login");
    expect(result.headers.getSetCookie().length).toBe(1);
  });
});
