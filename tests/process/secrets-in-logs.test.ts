/**
 * The built portal, logging at debug level, is taken through everything that carries a secret
 * (a session cookie, a bearer token, a set-password link, passwords right and wrong, failures);
 * none of those secrets may appear in anything the process writes, nor on its 500 pages.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { SERVER_URL, freePort, freshDatabase, startPortal, type PortalProcess } from "./support/server";

const ADMIN = { email: "admin@example.org", password: "admin-pass-1" };
const WRONG_PASSWORD = "wrong-password-123";
const NEW_PASSWORD = "Never-logged-pass-77";

let portal: PortalProcess | undefined;
afterAll(async () => {
  await portal?.kill();
});

/** A request that names no origin: the cross-site guard lets it through, as it does curl. */
function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, { method: "POST", body: new URLSearchParams(form), headers, redirect: "manual" });
}

/** A raw request, for a Host header fetch would not send. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** Rows of a query on the portal's database; on PGlite the portal is stopped first (one process at a time). */
async function queryDatabase(env: Record<string, string | undefined>, text: string): Promise<Record<string, unknown>[]> {
  if (!env.DATABASE_URL) await portal!.stop();
  const handle = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR });
  try {
    return (await handle.executeSql(text)).rows as Record<string, unknown>[];
  } finally {
    await handle.close();
  }
}

describe("secrets never leave the process", () => {
  it("no cookie, bearer token, set-password token or password in the logs or on a 500 page", async () => {
    const env: Record<string, string | undefined> = SERVER_URL
      ? { DATABASE_URL: await freshDatabase("process_secrets_in_logs") }
      : { PGLITE_DIR: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-secrets-")), "data") };
    env.LOG_LEVEL = "debug";
    const written: string[] = [];
    const start = async () => {
      portal = startPortal(env, await freePort());
      // A first start seeds its database: slow on a busy machine.
      await portal.ready(110_000);
      return portal;
    };
    let server = await start();
    const pages: string[] = [];

    // A browser session: sign in through the form, open a page with the cookie.
    const signedIn = await post(`${server.baseUrl}/login`, ADMIN);
    expect(signedIn.status).toBe(302);
    const sessionCookie = signedIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("__session="))!
      .split(";")[0];
    const sessionValue = sessionCookie.slice("__session=".length);
    const sessionId = JSON.parse(Buffer.from(decodeURIComponent(sessionValue).split(".")[0], "base64").toString("utf8")) as string;
    expect((await fetch(`${server.baseUrl}/admin/dashboard`, { headers: { Cookie: sessionCookie } })).status).toBe(200);

    // An API client: sign in for a bearer token, call with it.
    const apiLogin = await fetch(`${server.baseUrl}/api/login/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const bearer = ((await apiLogin.json()) as { access: string }).access;
    expect((await fetch(`${server.baseUrl}/api/admin/partner/`, { headers: { Authorization: `Bearer ${bearer}` } })).status).toBe(200);

    // A wrong password, and a set-password link.
    expect((await post(`${server.baseUrl}/login`, { email: ADMIN.email, password: WRONG_PASSWORD })).status).toBe(401);
    expect((await post(`${server.baseUrl}/reset-password`, { email: "partner1@example.org" })).status).toBeLessThan(400);
    const [mail] = await queryDatabase(env, "select text_body from outbox where to_address = 'partner1@example.org' order by id desc limit 1");
    const linkToken = /\/set-password\/([\w-]+)/.exec(String(mail.text_body))![1];
    if (!env.DATABASE_URL) {
      written.push(server.output());
      server = await start();
    }
    const linkUrl = `${server.baseUrl}/set-password/${linkToken}`;
    expect((await fetch(linkUrl)).status).toBe(200);
    const mismatched = await post(linkUrl, { password: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}-not` }, { Referer: linkUrl, Origin: server.baseUrl });
    expect(mismatched.status).toBe(400);
    expect((await fetch(`${server.baseUrl}/reset-password?token=${linkToken}`, { headers: { Referer: linkUrl } })).status).toBe(200);

    // A 500 before Remix answers: a Host header no URL can be made of, with every secret in the request.
    const failed = await rawRequest(
      server.port,
      `GET /set-password/${linkToken}?token=${bearer} HTTP/1.1\r\nHost: bad host\r\nCookie: ${sessionCookie}\r\n` +
        `Authorization: Bearer ${bearer}\r\nReferer: ${linkUrl}\r\nConnection: close\r\n\r\n`,
    );
    expect(failed).toMatch(/^HTTP\/1\.1 500/);
    const requestId = /x-request-id: (\S+)/i.exec(failed)![1];
    expect(failed).toContain(`Reference for support: ${requestId}`);
    pages.push(failed);

    if (env.DATABASE_URL) {
      // A 500 of a page on PostgreSQL: the session table out of reach for a moment, so the
      // failed query names the session id; the log and the page must not.
      await queryDatabase(env, "alter table sessions rename to sessions_away");
      try {
        const page = await fetch(`${server.baseUrl}/admin/dashboard?token=${linkToken}`, { headers: { Cookie: sessionCookie, Referer: linkUrl } });
        expect(page.status).toBe(500);
        const html = await page.text();
        expect(html).toContain(page.headers.get("x-request-id")!);
        pages.push(html);
      } finally {
        await queryDatabase(env, "alter table sessions_away rename to sessions");
      }
    }

    await server.stop();
    written.push(server.output());
    const output = written.join("\n");

    const secrets = {
      "session cookie": sessionValue,
      "session cookie, decoded": decodeURIComponent(sessionValue),
      "session id": sessionId,
      "bearer token": bearer,
      "set-password token": linkToken,
      "wrong password": WRONG_PASSWORD,
      "real password": ADMIN.password,
      "new password": NEW_PASSWORD,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(output.includes(secret), `${name} in the output`).toBe(false);
      for (const page of pages) expect(page.includes(secret), `${name} on a 500 page`).toBe(false);
    }
    expect(output).not.toMatch(/"cookie"|"authorization"|"set-cookie"/i);

    // The log did record this traffic, with the link's token replaced.
    expect(output).toContain('"url":"/set-password/[redacted]"');
    expect(output).toContain(`"id":"${requestId}"`);
    if (env.DATABASE_URL) expect(output).toContain("request failed");
  }, 300_000);
});
