import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, outbox, passwordTokens, users } from "~/db/schema";
import { SESSION_TIMEOUT } from "~/api/handle.server";
import { openApiDocument } from "~/api/openapi.server";
import { deactivatePartner } from "~/models/partner-list.server";
import { findUserByEmail } from "~/models/user.server";
import { ACCOUNT_INACTIVE, INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { apiToken, callApi, expectDocumented } from "../support/api";

const adminActor = async () => {
  const admin = await findUserByEmail("admin@example.org");
  return { actorId: admin!.id };
};

const PARTNER = { email: "partner1@example.org", password: "partner-pass-1" };

describe("JSON API: sign-in and the bearer token", () => {
  it("POST /login/ answers a token, the role, the open quarter and the partner; the token opens the partner's calls", async () => {
    const answer = await callApi("POST", "/login/", { body: PARTNER });
    expect(answer.status).toBe(200);
    expectDocumented("POST", "/login/", answer);
    expect(answer.body).toMatchObject({ role: "PARTNER", email: PARTNER.email, partner: { company_name: "Acme Generics Ltd" } });
    expect(answer.body.curr_quarter).toMatch(/^Q[1-4] \d{4}$/);
    // Only a hash is stored.
    const stored = await db.select().from(apiTokens);
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(answer.body.access);

    const own = await callApi("GET", "/template/pdt/", { token: answer.body.access });
    expect(own.status).toBe(200);
    expect(own.body.pdt_meta.partner_name).toBe("Acme Generics Ltd");

    // The token's last use is noted, at most once a minute (not a write per call).
    const [{ lastUsedAt: firstUse }] = await db.select().from(apiTokens);
    expect(firstUse).not.toBeNull();
    expect((await callApi("GET", "/template/sales/", { token: answer.body.access })).status).toBe(200);
    const [{ lastUsedAt: afterSecondCall }] = await db.select().from(apiTokens);
    expect(afterSecondCall).toEqual(firstUse);
    await db.update(apiTokens).set({ lastUsedAt: new Date(firstUse!.getTime() - 61_000) });
    expect((await callApi("GET", "/template/sales/", { token: answer.body.access })).status).toBe(200);
    const [{ lastUsedAt: aMinuteLater }] = await db.select().from(apiTokens);
    expect(aMinuteLater!.getTime()).toBeGreaterThan(firstUse!.getTime() - 61_000);
  });

  it("a wrong password or an unknown e-mail gets 401 with the sign-in page's text; a deactivated partner's login its own", async () => {
    for (const body of [{ ...PARTNER, password: "wrong-pass-1" }, { email: "nobody@example.org", password: "partner-pass-1" }]) {
      const answer = await callApi("POST", "/login/", { body });
      expect(answer.status).toBe(401);
      expectDocumented("POST", "/login/", answer);
      expect(answer.body).toEqual({ status: "unauthorized", detail: INVALID_CREDENTIALS });
    }
    const user = await findUserByEmail(PARTNER.email);
    await deactivatePartner(user!.partnerId!, await adminActor());
    const inactive = await callApi("POST", "/login/", { body: PARTNER });
    expect(inactive.status).toBe(401);
    expect(inactive.body.detail).toBe(ACCOUNT_INACTIVE);
  });

  it("the sign-in throttle answers 429 with Retry-After", async () => {
    let last = await callApi("POST", "/login/", { body: { ...PARTNER, password: "wrong-pass-1" } });
    for (let attempt = 0; attempt < 6 && last.status !== 429; attempt++) last = await callApi("POST", "/login/", { body: { ...PARTNER, password: "wrong-pass-1" } });
    expect(last.status).toBe(429);
    expectDocumented("POST", "/login/", last);
    expect(last.body.detail).toBe(TOO_MANY_ATTEMPTS);
    expect(Number(last.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("bad bodies: field errors (400), unknown fields (400), not JSON (415), too large (413); wrong method 405, unknown call 404", async () => {
    const empty = await callApi("POST", "/login/", { body: { email: "", password: "" } });
    expect(empty.status).toBe(400);
    expectDocumented("POST", "/login/", empty);
    expect(empty.body.errors).toEqual({ email: ["Please input your E-mail!"], password: ["Please input your Password!"] });

    const extra = await callApi("POST", "/login/", { body: { ...PARTNER, role: "ADMIN" } });
    expect(extra.status).toBe(400);
    expect(extra.body.errors).toEqual({ role: ["Unknown field."] });

    const form = await callApi("POST", "/login/", { rawBody: "email=a&password=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    expect(form.body.status).toBe("unsupported");

    const huge = await callApi("POST", "/login/", { rawBody: JSON.stringify({ email: "a".repeat(200_000), password: "x" }), headers: { "Content-Type": "application/json" } });
    expect(huge.status).toBe(413);
    expectDocumented("POST", "/login/", huge);

    const broken = await callApi("POST", "/login/", { rawBody: "{not json", headers: { "Content-Type": "application/json" } });
    expect(broken.status).toBe(400);

    expect((await callApi("GET", "/login/")).status).toBe(405);
    const unknown = await callApi("GET", "/no/such/call/");
    expect(unknown.status).toBe(404);
    expect(unknown.body.status).toBe("notfound");
  });

  it("no token, a made-up token or an expired one: 401 'Session timeout!'", async () => {
    const none = await callApi("GET", "/template/sales/");
    expect(none.status).toBe(401);
    expectDocumented("GET", "/template/sales/", none);
    expect(none.body).toEqual({ status: "unauthorized", detail: SESSION_TIMEOUT });
    expect((await callApi("GET", "/template/sales/", { token: "x".repeat(43) })).status).toBe(401);

    const token = await apiToken(PARTNER.email, PARTNER.password);
    await db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await callApi("GET", "/template/sales/", { token })).status).toBe(401);
  });

  it("a token ends at logout, at a password change and at deactivation; another token of the user lives on after its logout", async () => {
    const first = await apiToken(PARTNER.email, PARTNER.password);
    const second = await apiToken(PARTNER.email, PARTNER.password);
    const logout = await callApi("POST", "/logout/", { token: first });
    expect(logout.status).toBe(200);
    expectDocumented("POST", "/logout/", logout);
    expect((await callApi("GET", "/template/sales/", { token: first })).status).toBe(401);
    expect((await callApi("GET", "/template/sales/", { token: second })).status).toBe(200);

    const wrong = await callApi("POST", "/account/update_password/", { token: second, body: { currentPassword: "nope-pass-1", password: "fresh-pass-42", confirmPassword: "fresh-pass-42" } });
    expect(wrong.status).toBe(400);
    expectDocumented("POST", "/account/update_password/", wrong);
    expect(wrong.body.errors.currentPassword).toEqual(["Your current password is incorrect."]);
    const mismatch = await callApi("POST", "/account/update_password/", { token: second, body: { currentPassword: PARTNER.password, password: "fresh-pass-42", confirmPassword: "fresh-pass-24" } });
    expect(mismatch.body.errors.confirmPassword).toEqual(["The two passwords that you entered do not match!"]);

    const changed = await callApi("POST", "/account/update_password/", { token: second, body: { currentPassword: PARTNER.password, password: "fresh-pass-42", confirmPassword: "fresh-pass-42" } });
    expect(changed.status).toBe(200);
    expectDocumented("POST", "/account/update_password/", changed);
    expect(changed.body.detail).toBe("Password changed successfully");
    expect((await callApi("GET", "/template/sales/", { token: second })).status).toBe(401);
    expect((await callApi("POST", "/login/", { body: PARTNER })).status).toBe(401);

    const third = await apiToken(PARTNER.email, "fresh-pass-42");
    const user = await findUserByEmail(PARTNER.email);
    await deactivatePartner(user!.partnerId!, await adminActor());
    expect((await callApi("GET", "/template/sales/", { token: third })).status).toBe(401);
  });

  it("password reset: the mail goes out, the token validates once, confirm sets the password; an unknown or superseded token is notfound, an old one expired", async () => {
    const asked = await callApi("POST", "/password_reset/", { body: { email: "partner2@example.org" } });
    expect(asked.status).toBe(200);
    expectDocumented("POST", "/password_reset/", asked);
    expect(asked.body.detail).toBe("Email to change password has been sent to given email id!");
    const [mail] = await db.select().from(outbox).orderBy(asc(outbox.id));
    expect(mail.toAddress).toContain("partner2@example.org");
    const token = /set-password\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1];

    // An unknown account gets the same answer and no mail.
    expect((await callApi("POST", "/password_reset/", { body: { email: "nobody@example.org" } })).body).toEqual(asked.body);
    expect(await db.select().from(outbox)).toHaveLength(1);

    const valid = await callApi("POST", "/password_reset/validate_token/", { body: { token } });
    expect(valid.status).toBe(200);
    expectDocumented("POST", "/password_reset/validate_token/", valid);
    const unknown = await callApi("POST", "/password_reset/validate_token/", { body: { token: "unknown-token" } });
    expect(unknown.status).toBe(404);
    expectDocumented("POST", "/password_reset/validate_token/", unknown);
    expect(unknown.body.status).toBe("notfound");

    const weak = await callApi("POST", "/password_reset/confirm/", { body: { token, password: "short" } });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.password[0]).toBe("Password must contain at least 8 characters");
    const confirmed = await callApi("POST", "/password_reset/confirm/", { body: { token, password: "fresh-pass-77" } });
    expect(confirmed.status).toBe(200);
    expectDocumented("POST", "/password_reset/confirm/", confirmed);
    expect(confirmed.body.detail).toBe("Password set successfully");
    expect((await callApi("POST", "/login/", { body: { email: "partner2@example.org", password: "fresh-pass-77" } })).status).toBe(200);
    // Single use.
    expect((await callApi("POST", "/password_reset/confirm/", { body: { token, password: "fresh-pass-78" } })).body.status).toBe("notfound");

    await callApi("POST", "/password_reset/", { body: { email: "partner3@example.org" } });
    await callApi("POST", "/password_reset/", { body: { email: "partner3@example.org" } });
    const mails = await db.select().from(outbox).orderBy(asc(outbox.id));
    const [superseded, later] = mails.slice(-2).map((mail) => /set-password\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1]);
    // A newer link ends the older one.
    const ended = await callApi("POST", "/password_reset/validate_token/", { body: { token: superseded } });
    expect(ended.status).toBe(404);
    expect(ended.body.status).toBe("notfound");
    expect((await callApi("POST", "/password_reset/validate_token/", { body: { token: later } })).status).toBe(200);
    const partner3 = await findUserByEmail("partner3@example.org");
    await db.update(passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(and(eq(passwordTokens.userId, partner3!.id)));
    const expired = await callApi("POST", "/password_reset/confirm/", { body: { token: later, password: "fresh-pass-79" } });
    expect(expired.status).toBe(404);
    expect(expired.body.status).toBe("expired");
    expect((await db.select().from(users).where(eq(users.id, partner3!.id)))[0].passwordHash).toBeTruthy();
  });

  it("the OpenAPI document lists every call with its answers, and the documentation page renders them", async () => {
    const document = openApiDocument() as unknown as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/login/"].post.responses).toHaveProperty("401");
    expect(document.paths["/api/template/sales/{partnerId}/"].get.responses).toHaveProperty("403");
  });
});
