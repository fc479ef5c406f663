import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { apiTokens, auditLog, outbox, passwordTokens, sessions, users } from "~/db/schema";
import { SESSION_TIMEOUT } from "~/api/handle.server";
import { openApiDocument } from "~/api/openapi.server";
import { deactivatePartner } from "~/models/partner-list.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { findUserByEmail, setUserLanguage } from "~/models/user.server";
import { ACCOUNT_INACTIVE, INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { apiToken, callApi, expectDocumented } from "../support/api";
import { sessionCookieFor } from "../support/remix";

const adminActor = async () => {
  const admin = await findUserByEmail("admin@example.org");
  return { actorId: admin!.id };
};

const PARTNER = { email: "partner1@example.org", password: "partner-pass-1" };

describe("JSON API: sign-in and the bearer token", () => {
  it("POST /login/ answers spec §3's session: token, role, open quarter, user name, e-mail and the partner; the token opens the partner's calls", async () => {
    const answer = await callApi("POST", "/login/", { body: PARTNER });
    expect(answer.status).toBe(200);
    expectDocumented("POST", "/login/", answer);
    const user = await findUserByEmail(PARTNER.email);
    expect(answer.body).toMatchObject({
      role: "PARTNER",
      curr_quarter: (await getOpenQuarter()).name,
      username: user!.name,
      email: PARTNER.email,
      partner: { partner_id: user!.partnerId, company_name: "Acme Generics Ltd", email: PARTNER.email, region: expect.any(String) },
    });
    expect(answer.body.access).toEqual(expect.any(String));
    expect(answer.body.partner.contact_number).toMatch(/^\+\d{1,4}\d{10}$/);
    expect(answer.body.partner.active_products.length).toBeGreaterThan(0);
    expect(answer.body.partner.template_data.map((report: { template_type: string }) => report.template_type)).toEqual(["pdt", "filing plan", "sales"]);
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
    expect((await callApi("GET", "/partner/dashboard/", { token: answer.body.access })).status).toBe(200);
    const [{ lastUsedAt: afterSecondCall }] = await db.select().from(apiTokens);
    expect(afterSecondCall).toEqual(firstUse);
    await db.update(apiTokens).set({ lastUsedAt: new Date(firstUse!.getTime() - 61_000) });
    expect((await callApi("GET", "/partner/dashboard/", { token: answer.body.access })).status).toBe(200);
    const [{ lastUsedAt: aMinuteLater }] = await db.select().from(apiTokens);
    expect(aMinuteLater!.getTime()).toBeGreaterThan(firstUse!.getTime() - 61_000);
  });

  it("ADMIN and STAFF sign in with their session and no partner object", async () => {
    for (const [email, password, role] of [
      ["admin@example.org", "admin-pass-1", "ADMIN"],
      ["staff@example.org", "staff-pass-1", "STAFF"],
    ]) {
      const answer = await callApi("POST", "/login/", { body: { email, password } });
      expect(answer.status).toBe(200);
      expectDocumented("POST", "/login/", answer);
      expect(answer.body).toMatchObject({ role, email, username: (await findUserByEmail(email))!.name });
      expect(answer.body).not.toHaveProperty("partner");
    }
  });

  it("a client written against the spec signs in with {email, password} and reads the session's spec fields", async () => {
    const answer = await callApi("POST", "/login/", { body: { email: " Partner1@Example.org ", password: " partner-pass-1 " } });
    expect(answer.status).toBe(200);
    const { access, role, curr_quarter, username, email, partner } = answer.body;
    expect([typeof access, role, typeof curr_quarter, typeof username, email]).toEqual(["string", "PARTNER", "string", "string", PARTNER.email]);
    expect(Object.keys(partner)).toEqual(
      expect.arrayContaining(["partner_id", "company_name", "email", "contact_number", "address", "region", "active_products", "employee", "template_data"]),
    );
    expect((await callApi("GET", "/partner/dashboard/", { token: access })).status).toBe(200);
  });

  it("a wrong password or an unknown e-mail gets 401 with the sign-in page's text; a deactivated partner's login its own", async () => {
    for (const body of [
      { ...PARTNER, password: "wrong-pass-1" },
      { email: "nobody@example.org", password: "partner-pass-1" },
    ]) {
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
    for (let attempt = 0; attempt < 6 && last.status !== 429; attempt++)
      last = await callApi("POST", "/login/", { body: { ...PARTNER, password: "wrong-pass-1" } });
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

    const huge = await callApi("POST", "/login/", {
      rawBody: JSON.stringify({ email: "a".repeat(200_000), password: "x" }),
      headers: { "Content-Type": "application/json" },
    });
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
    const none = await callApi("GET", "/partner/dashboard/");
    expect(none.status).toBe(401);
    expectDocumented("GET", "/partner/dashboard/", none);
    expect(none.body).toEqual({ status: "unauthorized", detail: SESSION_TIMEOUT });
    expect((await callApi("GET", "/partner/dashboard/", { token: "x".repeat(43) })).status).toBe(401);

    const token = await apiToken(PARTNER.email, PARTNER.password);
    await db.update(apiTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await callApi("GET", "/partner/dashboard/", { token })).status).toBe(401);
  });

  it("a token ends at logout, at a password change and at deactivation; another token of the user lives on after its logout", async () => {
    const first = await apiToken(PARTNER.email, PARTNER.password);
    const second = await apiToken(PARTNER.email, PARTNER.password);
    const logout = await callApi("POST", "/logout/", { token: first });
    expect(logout.status).toBe(200);
    expectDocumented("POST", "/logout/", logout);
    expect((await callApi("GET", "/partner/dashboard/", { token: first })).status).toBe(401);
    expect((await callApi("GET", "/partner/dashboard/", { token: second })).status).toBe(200);

    const changer = await apiToken(PARTNER.email, PARTNER.password);
    const changed = await callApi("POST", "/account/update_password/", { token: changer, body: { password: "fresh-pass-42" } });
    expect(changed.status).toBe(200);
    expect((await callApi("GET", "/partner/dashboard/", { token: second })).status).toBe(401);
    expect((await callApi("POST", "/login/", { body: PARTNER })).status).toBe(401);

    const third = await apiToken(PARTNER.email, "fresh-pass-42");
    const user = await findUserByEmail(PARTNER.email);
    await deactivatePartner(user!.partnerId!, await adminActor());
    expect((await callApi("GET", "/partner/dashboard/", { token: third })).status).toBe(401);
  });

  it("POST /account/update_password/ {password}: the bearer token is enough; the user's other tokens and sessions end and a mail tells the user", async () => {
    const caller = await apiToken(PARTNER.email, PARTNER.password);
    const other = await apiToken(PARTNER.email, PARTNER.password);
    const user = await findUserByEmail(PARTNER.email);
    await sessionCookieFor(PARTNER.email);
    const browserSessions = () => db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(await browserSessions()).toHaveLength(1);
    const admin = await apiToken("admin@example.org", "admin-pass-1");

    const changed = await callApi("POST", "/account/update_password/", { token: caller, body: { password: "fresh-pass-42" } });
    expect(changed.status).toBe(200);
    expectDocumented("POST", "/account/update_password/", changed);
    expect(changed.body).toEqual({ status: "OK", detail: "Password changed successfully" });

    expect((await callApi("GET", "/partner/dashboard/", { token: caller })).status).toBe(200);
    expect((await callApi("GET", "/partner/dashboard/", { token: other })).status).toBe(401);
    expect(await browserSessions()).toEqual([]);
    // Another user's token lives on.
    expect((await callApi("GET", "/admin/cut_off_date/", { token: admin })).status).toBe(200);
    expect((await callApi("POST", "/login/", { body: PARTNER })).status).toBe(401);
    expect((await callApi("POST", "/login/", { body: { ...PARTNER, password: "fresh-pass-42" } })).status).toBe(200);

    const mails = await db.select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "password-changed", toAddress: PARTNER.email, subject: "Your MPP Data Portal password was changed" });
    expect(mails[0].textBody).toContain("every other sign-in of the account has ended");
    expect(mails[0].textBody).toContain("If you did not change it");
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "password.change"), eq(auditLog.entityId, String(user!.id))));
    expect(audit).toBeDefined();
  });

  it("POST /account/update_password/ keeps the calling token valid for the next calls and mails the user in the user's language", async () => {
    const user = await findUserByEmail(PARTNER.email);
    await setUserLanguage(user!.id, "fr");
    const caller = await apiToken(PARTNER.email, PARTNER.password);
    const other = await apiToken(PARTNER.email, PARTNER.password);

    expect((await callApi("POST", "/account/update_password/", { token: caller, body: { password: "fresh-pass-42" } })).status).toBe(200);
    const own = await callApi("GET", "/template/pdt/", { token: caller });
    expect(own.status).toBe(200);
    expect(own.body.pdt_meta.partner_name).toBe("Acme Generics Ltd");
    expect((await callApi("GET", "/partner/dashboard/", { token: other })).status).toBe(401);
    // The kept token may change the password again, and still signs out.
    expect((await callApi("POST", "/account/update_password/", { token: caller, body: { password: "fresher-pass-43" } })).status).toBe(200);
    expect((await callApi("POST", "/logout/", { token: caller })).status).toBe(200);
    expect((await callApi("GET", "/partner/dashboard/", { token: caller })).status).toBe(401);
    expect((await callApi("POST", "/login/", { body: { ...PARTNER, password: "fresher-pass-43" } })).status).toBe(200);

    const mails = await db.select().from(outbox).orderBy(asc(outbox.id));
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail).toMatchObject({ kind: "password-changed", toAddress: PARTNER.email, subject: "Votre mot de passe du Portail de données MPP a été modifié" });
      expect(mail.textBody).toContain("Bonjour,");
      expect(mail.textBody).toContain("toutes les autres connexions de ce compte ont été fermées");
    }
  });

  it("POST /account/update_password/ refuses a weak password, the old body's fields and a missing token: nothing changes", async () => {
    const caller = await apiToken(PARTNER.email, PARTNER.password);
    const other = await apiToken(PARTNER.email, PARTNER.password);
    for (const [password, message] of [
      ["short1", "Password must contain at least 8 characters"],
      ["no-digits-here", "Password must contain at least 1 numeric digit"],
      ["ALLCAPS-123", "Password must contain at least 1 lowercase letter"],
    ]) {
      const weak = await callApi("POST", "/account/update_password/", { token: caller, body: { password } });
      expect(weak.status).toBe(400);
      expectDocumented("POST", "/account/update_password/", weak);
      expect(weak.body.errors.password).toEqual([message]);
    }
    const oldBody = await callApi("POST", "/account/update_password/", {
      token: caller,
      body: { currentPassword: PARTNER.password, password: "fresh-pass-42", confirmPassword: "fresh-pass-42" },
    });
    expect(oldBody.status).toBe(400);
    expect(oldBody.body.errors).toEqual({ currentPassword: ["Unknown field."], confirmPassword: ["Unknown field."] });
    const anonymous = await callApi("POST", "/account/update_password/", { body: { password: "fresh-pass-42" } });
    expect(anonymous.status).toBe(401);
    expectDocumented("POST", "/account/update_password/", anonymous);

    for (const token of [caller, other]) expect((await callApi("GET", "/partner/dashboard/", { token })).status).toBe(200);
    expect((await callApi("POST", "/login/", { body: PARTNER })).status).toBe(200);
    expect(await db.select().from(outbox)).toHaveLength(0);
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
    await db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(passwordTokens.userId, partner3!.id)));
    const expired = await callApi("POST", "/password_reset/confirm/", { body: { token: later, password: "fresh-pass-79" } });
    expect(expired.status).toBe(404);
    expect(expired.body.status).toBe("expired");
    expect((await db.select().from(users).where(eq(users.id, partner3!.id)))[0].passwordHash).toBeTruthy();
  });

  it("the OpenAPI document lists every call with its answers, and the documentation page renders them", async () => {
    const document = openApiDocument() as unknown as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/api/login/"].post.responses).toHaveProperty("401");
    expect(document.paths["/api/admin/partner/{id}/"].get.responses).toHaveProperty("403");
  });
});
