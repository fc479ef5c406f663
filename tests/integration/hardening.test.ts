import argon2 from "argon2";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/db/client.server";
import { outbox, partners, products, rateLimits, reports, salesRows, sessions } from "~/db/schema";
import { getOpenQuarter } from "~/models/quarter.server";
import { action as addPartnerAction } from "~/routes/_shell.admin.add-partner";
import { action as addProductAction } from "~/routes/_shell.admin.add-product";
import { loader as editPartnerLoader } from "~/routes/_shell.admin.edit-partner.$id";
import { action as partnerListAction } from "~/routes/_shell.admin.partner-list";
import { action as changePasswordAction } from "~/routes/_shell.change-password";
import { action as partnerSalesAction } from "~/routes/_shell.partner.sales-report";
import { action as loginAction } from "~/routes/login";
import { action as logoutAction, loader as logoutLoader } from "~/routes/logout";
import { action as resetAction } from "~/routes/reset-password";
import { CHARACTERS_NOT_ALLOWED, TEXT_TOO_LONG } from "~/utils/text-rules";
import { PARTNER_MESSAGES } from "~/schemas/partner";
import { TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { REQUEST_REFUSALS } from "~/utils/form-data.server";
import { logger } from "~/utils/logger.server";
import { buildRequest, runRoute, sessionCookieFor, type RouteResult } from "../support/remix";

const ADMIN = "admin@example.org";
const ACME = "partner1@example.org";
const CEDAR = "partner3@example.org";

/** A POST with a raw body, as a hostile client would send it. */
function rawPost(path: string, body: BodyInit | null, { contentType, cookie }: { contentType?: string; cookie?: string } = {}) {
  const headers = new Headers();
  if (contentType) headers.set("Content-Type", contentType);
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://localhost${path}`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}
const FORM = "application/x-www-form-urlencoded";
const replySize = (result: RouteResult) => JSON.stringify(result.data ?? null).length;

describe("a request costs no more than its size warrants", () => {
  it("the 56-byte sparse-index login is refused without building or echoing the array", async () => {
    for (const index of ["100000000", "10000000"]) {
      const result = await runRoute(loginAction, rawPost("/login", `email=a%40b.org&password=x&x%5B${index}%5D=1`, { contentType: FORM }));
      expect(result.status).toBe(401);
      expect(replySize(result)).toBeLessThan(2000);
      expect(JSON.stringify(result.data)).not.toContain('"x"');
    }
  });

  it("fields the form does not have are never echoed back", async () => {
    const result = await runRoute(resetAction, rawPost("/reset-password", "email=not-an-email&evil=%3Cscript%3E&deep%5Ba%5D%5Bb%5D=1", { contentType: FORM }));
    expect(result.status).toBe(400);
    expect(result.data.error.email).toEqual(["Please input a valid E-mail!"]);
    expect(result.data.fields).toEqual(["email"]);
    expect(JSON.stringify(result.data)).not.toMatch(/evil|script|deep/);
  });

  it("a partner form with products[8000] or people[99999] is refused by the schema's maximum, quickly and small", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    for (const field of ["products%5B8000%5D.productId=1", "products%5B99999%5D.status=FILED", "people%5B99999%5D.firstName=a"]) {
      const body = `companyName=Zeta&email=zeta%40example.org&contactPrefix=%2B91&contactNumber=9876543210&region=Asia&${field}`;
      const result = await runRoute(addPartnerAction, rawPost("/admin/add-partner", body, { contentType: FORM, cookie }));
      expect(result.status).toBe(400);
      expect(replySize(result)).toBeLessThan(20_000);
      const list = field.startsWith("products") ? "products" : "people";
      expect(result.data.error[list]).toEqual([list === "products" ? PARTNER_MESSAGES.tooManyProducts : PARTNER_MESSAGES.tooManyPeople]);
    }
    expect(await db.select().from(partners).where(eq(partners.email, "zeta@example.org"))).toHaveLength(0);
  });

  it("a list one row past its maximum gets the schema's own message", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    const people = Array.from(
      { length: 51 },
      (_, index) =>
        `people%5B${index}%5D.firstName=A&people%5B${index}%5D.lastName=B&people%5B${index}%5D.contactPrefix=%2B91&people%5B${index}%5D.contactNumber=9876543210`,
    ).join("&");
    const body = `companyName=Zeta&email=zeta%40example.org&contactPrefix=%2B91&contactNumber=9876543210&region=Asia&${people}`;
    const result = await runRoute(addPartnerAction, rawPost("/admin/add-partner", body, { contentType: FORM, cookie }));
    expect(result.status).toBe(400);
    expect(result.data.error.people).toEqual([PARTNER_MESSAGES.tooManyPeople]);
  });

  it("conform's row buttons cannot be turned into a huge list or a crash", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    const intents = [
      JSON.stringify({ type: "insert", payload: { name: "products", index: 99999 } }),
      JSON.stringify({ type: "update", payload: { name: "companyName", value: "x" } }),
      "{not json",
    ];
    const brokenState = await runRoute(addPartnerAction, rawPost("/admin/add-partner", "companyName=Zeta&__state__=%7Bbroken", { contentType: FORM, cookie }));
    expect(brokenState.status).toBe(400);
    for (const intent of intents) {
      const body = `companyName=Zeta&__intent__=${encodeURIComponent(intent)}`;
      const result = await runRoute(addPartnerAction, rawPost("/admin/add-partner", body, { contentType: FORM, cookie }));
      expect(result.status, intent).toBe(400);
    }
    const addRow = JSON.stringify({ type: "insert", payload: { name: "products" } });
    const added = await runRoute(
      addPartnerAction,
      rawPost("/admin/add-partner", `companyName=Zeta&__intent__=${encodeURIComponent(addRow)}`, { contentType: FORM, cookie }),
    );
    expect(added.status).toBe(200);
    expect(added.data.initialValue.products).toHaveLength(1);
  });

  it("a body over the form's limit is refused with 413, also when it streams without a length", async () => {
    const big = `email=a%40b.org&password=${"x".repeat(200 * 1024)}`;
    const declared = await runRoute(loginAction, rawPost("/login", big, { contentType: FORM }));
    expect(declared.status).toBe(413);
    expect(declared.data).toEqual({ message: REQUEST_REFUSALS.tooLarge });
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 1000) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await runRoute(loginAction, rawPost("/login", stream, { contentType: FORM }));
    expect(streamed.status).toBe(413);
    // The reader stopped soon after the limit, not after 64 MB.
    expect(sent).toBeLessThan(10);
  });

  it("bodies that are not forms get 415, on /login too", async () => {
    const cases: [BodyInit | null, string | undefined][] = [
      [JSON.stringify({ email: "a@b.org", password: "x" }), "application/json"],
      ["email=a@b.org&password=x", "text/plain"],
      ["email=a@b.org&password=x", undefined],
      [null, undefined],
      ["--x\r\n", "multipart/form-data"],
    ];
    for (const [body, contentType] of cases) {
      const result = await runRoute(loginAction, rawPost("/login", body, { contentType }));
      expect(result.status, `${contentType}`).toBe(415);
      expect(result.data).toEqual({ message: REQUEST_REFUSALS.notAForm });
    }
  });

  it("an upload without a multipart boundary, or with parts beyond the total, is refused", async () => {
    const cookie = await sessionCookieFor(ACME);
    const noBoundary = await runRoute(partnerSalesAction, rawPost("/partner/sales-report", "x", { contentType: "multipart/form-data", cookie }));
    expect(noBoundary.status).toBe(415);

    const boundary = "----hostile";
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    // Unknown parts are skipped unread; their bytes still count toward the total.
    const body = part("intent", "upload") + part("junk", "j".repeat(11 * 1024 * 1024)) + `--${boundary}--\r\n`;
    const tooLarge = await runRoute(
      partnerSalesAction,
      rawPost("/partner/sales-report", body, { contentType: `multipart/form-data; boundary=${boundary}`, cookie }),
    );
    expect(tooLarge.status).toBe(413);
  });
});

describe("text and ids the database would refuse are refused first, with the field named", () => {
  it("a NUL byte or a megabyte in a text field", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    const nul = await runRoute(
      addProductAction,
      buildRequest("/admin/add-product", { cookie, form: { name: "Abc\u0000def", category: "FDF", therapyArea: "HIV" } }),
    );
    expect(nul.status).toBe(400);
    expect(nul.data.error.name).toEqual([CHARACTERS_NOT_ALLOWED]);
    const huge = await runRoute(
      addPartnerAction,
      buildRequest("/admin/add-partner", { cookie, form: { companyName: "x".repeat(1024 * 100), email: `${"a".repeat(300)}@example.org` } }),
    );
    expect(huge.status).toBe(400);
    expect(huge.data.error.companyName).toEqual([TEXT_TOO_LONG]);
    expect(huge.data.error.email).toEqual([TEXT_TOO_LONG]);
    expect((await db.select().from(products)).filter((product) => product.name.startsWith("Abc"))).toHaveLength(0);
  });

  it("ids above int4 in a path or a form are not found or refused, never a database error", async () => {
    const cookie = await sessionCookieFor(ADMIN);
    const page = await runRoute(editPartnerLoader, buildRequest("/admin/edit-partner/2147483648", { cookie }), { params: { id: "2147483648" } });
    expect(page.status).toBe(404);
    for (const partnerId of ["2147483648", "99999999999999999999", "1e3", "NaN"]) {
      const result = await runRoute(partnerListAction, buildRequest("/admin/partner-list", { cookie, form: { intent: "deactivate", partnerId } }));
      expect(result.status, partnerId).toBe(400);
    }
  });
});

describe("Sales Report saves", () => {
  let quarterId: number;
  beforeEach(async () => {
    quarterId = (await getOpenQuarter()).id;
  });
  const year = String(new Date().getUTCFullYear());
  const row = { year, month: "March", country: "India", purchaser: "Global Fund", productName: "Abacavir API", quantity: "10", totalValue: "100" };
  const save = async (email: string, extra: Record<string, string>, api: object[] = [row]) =>
    runRoute(
      partnerSalesAction,
      buildRequest("/partner/sales-report", {
        cookie: await sessionCookieFor(email),
        form: { intent: "save", quarterId: String(quarterId), payload: JSON.stringify({ API: api, FDF: [], deletedIds: [] }), ...extra },
      }),
    );
  const cedarReport = async () => {
    const [cedar] = await db.select().from(partners).where(eq(partners.email, CEDAR));
    const [report] = await db
      .select()
      .from(reports)
      .where(and(eq(reports.partnerId, cedar.id), eq(reports.quarterId, quarterId), eq(reports.type, "sales")));
    return report;
  };

  it("a version that is not a whole number is refused and nothing is written", async () => {
    for (const version of ["x", "NaN", "1e309", "-1", "2147483648000"]) {
      const result = await save(CEDAR, { version });
      expect(result.status, version).toBe(400);
    }
    expect(await cedarReport()).toBeUndefined();
  });

  it("two first saves of a report not yet started: the second conflicts instead of merging", async () => {
    expect(await cedarReport()).toBeUndefined();
    const [first, second] = await Promise.all([save(CEDAR, { version: "0" }), save(CEDAR, { version: "0" })]);
    expect([first.status, second.status].sort()).toEqual([302, 409]);
    const report = await cedarReport();
    expect(await db.select().from(salesRows).where(eq(salesRows.reportId, report.id))).toHaveLength(1);
  });

  it("a row id above int4, a NUL in a text cell or a comment: refused, nothing written", async () => {
    const badId = await save(CEDAR, { version: "0" }, [{ ...row, id: 99999999999 }]);
    expect(badId.status).toBe(400);
    const nulCell = await save(CEDAR, { version: "0" }, [{ ...row, purchaser: "Global\u0000Fund" }]);
    expect(nulCell.status).toBe(400);
    expect(nulCell.data.problems.API[0].keys).toEqual(["purchaser"]);
    const nulComment = await save(CEDAR, { version: "0", intent: "submit", comment: "Sent\u0000" });
    expect(nulComment.status).toBe(400);
    expect(nulComment.data).toMatchObject({ field: "comment", message: CHARACTERS_NOT_ALLOWED });
    expect(await cedarReport()).toBeUndefined();
  });
});

describe("rate limits are counted before the work, in one statement", () => {
  afterEach(() => vi.restoreAllMocks());

  it("30 parallel guesses on one e-mail: only 5 passwords are checked", async () => {
    const verify = vi.spyOn(argon2, "verify");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, attempt) => runRoute(loginAction, buildRequest("/login", { form: { email: ACME, password: `guess-${attempt}` } }))),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    expect(verify).toHaveBeenCalledTimes(5);
  });

  it("successful sign-ins give their attempt back: an office behind one address is not locked out", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await runRoute(loginAction, buildRequest("/login", { form: { email: ADMIN, password: "admin-pass-1" } }))).status).toBe(302);
    }
    expect((await runRoute(loginAction, buildRequest("/login", { form: { email: ACME, password: "wrong-pass-1" } }))).status).toBe(401);
    const counts = Object.fromEntries((await db.select().from(rateLimits)).map((row) => [row.key, row.count]));
    expect(counts).toEqual({ [`login:email:${ACME}`]: 1, "login:ip:203.0.113.7": 1 });
  });

  it("20 parallel password-link requests queue 3 mails", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => runRoute(resetAction, buildRequest("/reset-password", { form: { email: "partner2@example.org" } }))),
    );
    expect(results.filter((result) => result.status === 302)).toHaveLength(3);
    expect(results.filter((result) => result.status === 429)).toHaveLength(17);
    expect(await db.select().from(outbox)).toHaveLength(3);
  });

  it("an unknown e-mail costs a password hash check like a known one", async () => {
    const verify = vi.spyOn(argon2, "verify");
    const unknown = await runRoute(loginAction, buildRequest("/login", { form: { email: "nobody@example.org", password: "whatever-1" } }));
    expect(unknown.status).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it("the current password on /change-password is throttled like a sign-in", async () => {
    const cookie = await sessionCookieFor(ACME);
    const change = (currentPassword: string) =>
      runRoute(
        changePasswordAction,
        buildRequest("/change-password", { cookie, form: { currentPassword, password: "new-pass-12", confirmPassword: "new-pass-12" } }),
      );
    for (let attempt = 0; attempt < 5; attempt++) expect((await change(`guess-${attempt}`)).status).toBe(400);
    const blocked = await change("partner-pass-1");
    expect(blocked.status).toBe(429);
    expect(blocked.data.error[""]).toEqual([TOO_MANY_ATTEMPTS]);
  });
});

describe("state changes only on POST", () => {
  it("GET /logout asks and keeps the session; POST ends it", async () => {
    const cookie = await sessionCookieFor(ACME);
    const page = await runRoute(logoutLoader, buildRequest("/logout", { cookie }));
    expect(page.status).toBe(200);
    expect(page.headers.get("Set-Cookie")).toBeNull();
    expect(await db.select().from(sessions)).toHaveLength(1);
    const posted = await runRoute(logoutAction, buildRequest("/logout", { cookie, form: {} }));
    expect(posted.location).toBe("/login");
    expect(await db.select().from(sessions)).toHaveLength(0);
  });
});

describe("mails without SMTP", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the log of a queued mail names recipient and subject, never the body or its set-password link", async () => {
    const info = vi.spyOn(logger, "info");
    await runRoute(resetAction, buildRequest("/reset-password", { form: { email: "partner2@example.org" } }));
    const logged = info.mock.calls.find((call) => call[1] === "mail queued");
    expect(logged?.[0]).toMatchObject({ to: "partner2@example.org" });
    expect(JSON.stringify(logged?.[0])).not.toMatch(/set-password|https?:\/\//);
    expect(logged?.[0]).not.toHaveProperty("text");
  });
});
