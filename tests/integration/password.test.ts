import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, passwordTokens, sessions, users } from "~/db/schema";
import { createPasswordToken } from "~/models/password-token.server";
import { TOO_MANY_RESET_REQUESTS } from "~/models/rate-limit.server";
import { findUserByEmail, setUserLanguage } from "~/models/user.server";
import { action as changePasswordAction } from "~/routes/_shell.change-password";
import { action as loginAction } from "~/routes/login";
import { action as resetAction, loader as resetLoader } from "~/routes/reset-password";
import { action as setPasswordAction, loader as setPasswordLoader } from "~/routes/set-password.$token";
import { CHARACTERS_NOT_ALLOWED } from "~/utils/text-rules";
import { readToast } from "~/utils/toast.server";
import { apiToken, callApi } from "../support/api";
import { buildRequest, cookiesFrom, runRoute, sessionCookieFor } from "../support/remix";

const requestLink = (email: string) => runRoute(resetAction, buildRequest("/reset-password", { form: { email } }));
const tokenFromMail = (text: string) => /\/set-password\/([\w-]+)/.exec(text)![1];
const toastOf = async (result: { headers: Headers }) => (await readToast(buildRequest("/", { cookie: cookiesFrom(result as never) }))).toast;
const signInAt = async (email: string, password: string) => (await runRoute(loginAction, buildRequest("/login", { form: { email, password } }))).location;
const passwordHashOf = async (email: string) => (await db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email)))[0].hash;

describe("forgot password", () => {
  it("mails a reset link to a known e-mail and answers an unknown one the same way", async () => {
    const known = await requestLink(" Partner1@Example.org ");
    const unknown = await requestLink("stranger@example.org");
    for (const result of [known, unknown]) {
      expect(result.location).toBe("/login");
      expect(await toastOf(result)).toMatchObject({ message: "Email to change password has been sent to given email id!" });
    }
    const mails = await db.select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: "partner1@example.org", kind: "password-reset", status: "pending" });
    expect(mails[0].textBody).toMatch(/http:\/\/localhost:\d+\/set-password\/[\w-]{40,}/);
    // Only the hash of the token is stored.
    const [token] = await db.select().from(passwordTokens);
    expect(mails[0].textBody).not.toContain(token.tokenHash);
  });

  it("validates the e-mail", async () => {
    const result = await requestLink("nope");
    expect(result.status).toBe(400);
    expect(result.data.error.email).toEqual(["Please input a valid E-mail!"]);
  });

  it("limits link requests per e-mail", async () => {
    for (let i = 0; i < 3; i++) expect((await requestLink("partner2@example.org")).status).toBe(302);
    const fourth = await requestLink("partner2@example.org");
    expect(fourth.status).toBe(429);
    expect(fourth.data.error[""]).toEqual([TOO_MANY_RESET_REQUESTS]);
    expect(await db.select().from(outbox)).toHaveLength(3);
  });

  it("signs a signed-in user out and shows 'Access Denied!' on /reset-password and /set-password/{token}", async () => {
    const token = await createPasswordToken((await findUserByEmail("partner2@example.org"))!.id, "reset");
    const pages: { loader: typeof resetLoader | typeof setPasswordLoader; path: string; params: Record<string, string> }[] = [
      { loader: resetLoader, path: "/reset-password", params: {} },
      { loader: setPasswordLoader, path: `/set-password/${token}`, params: { token } },
    ];
    for (const { loader, path, params } of pages) {
      const cookie = await sessionCookieFor("partner1@example.org");
      const result = await runRoute(loader, buildRequest(path, { cookie }), { params });
      expect(result.status, path).toBe(403);
      expect(result.data, path).toEqual({ message: "Access Denied!" });
      expect(result.headers.get("Set-Cookie"), path).toMatch(/^__session=;.*Expires=Thu, 01 Jan 1970/);
      expect(await db.select().from(sessions), path).toHaveLength(0);
      // The old cookie opens nothing any more; signed out, the page is its form (the link was not spent).
      expect((await runRoute(changePasswordAction, buildRequest("/change-password", { cookie, form: {} }))).location, path).toBe("/login");
      expect((await runRoute(loader, buildRequest(path), { params })).status, path).toBe(200);
    }
  });
});

describe("set password with a token", () => {
  async function tokenFor(email: string, purpose: "set" | "reset" = "reset") {
    const [user] = await db.select().from(users).where(eq(users.email, email));
    return createPasswordToken(user.id, purpose);
  }
  const setPassword = (token: string, password: string, confirmPassword = password) =>
    runRoute(setPasswordAction, buildRequest(`/set-password/${token}`, { form: { password, confirmPassword } }), { params: { token } });

  const openLink = (token: string) => runRoute(setPasswordLoader, buildRequest(`/set-password/${token}`), { params: { token } });
  /** The page of a link that cannot set a password any more: its message and a form to ask for a new one. */
  const endedLink = { status: 404, location: null, data: { usable: false } };

  it("checks the token on load: unknown shows the 'already used or expired' page, expired goes to the resend form with 'Token expired'", async () => {
    const valid = await tokenFor("partner1@example.org");
    expect(await openLink(valid)).toMatchObject({ status: 200, data: { usable: true } });

    expect(await openLink("abc")).toMatchObject(endedLink);

    await db.update(passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await openLink(valid);
    expect(expired.location).toBe("/reset-password?token=reset");
    expect(await toastOf(expired)).toMatchObject({ message: "Token expired" });
  });

  it("enforces the password rules", async () => {
    const token = await tokenFor("partner1@example.org");
    expect((await setPassword(token, "short1")).data.error.password).toEqual(["Password must contain at least 8 characters"]);
    expect((await setPassword(token, "longenough")).data.error.password).toEqual(["Password must contain at least 1 numeric digit"]);
    expect((await setPassword(token, "NOLOWER123")).data.error.password).toEqual(["Password must contain at least 1 lowercase letter"]);
    expect((await setPassword(token, "good-pass-9", "other-pass-9")).data.error.confirmPassword).toEqual(["The two passwords that you entered do not match!"]);
    expect((await setPassword(token, "good-pass-9", "")).data.error.confirmPassword).toEqual(["Please confirm your password!"]);
  });

  it("refuses a new password with a control character (sign-in would refuse it) and writes nothing", async () => {
    const token = await tokenFor("partner1@example.org");
    const hashBefore = await passwordHashOf("partner1@example.org");
    for (const password of ["good\u0007pass-9", "good\u0000pass-9"]) {
      const result = await setPassword(token, password);
      expect(result.status).toBe(400);
      expect(result.data.error.password).toEqual([CHARACTERS_NOT_ALLOWED]);
    }
    expect(await passwordHashOf("partner1@example.org")).toBe(hashBefore);
    expect(await openLink(token)).toMatchObject({ status: 200, data: { usable: true } });
    expect(await signInAt("partner1@example.org", "partner-pass-1")).toBe("/partner/dashboard");
  });

  it("sets the password once: the new one signs in, the token cannot be used again", async () => {
    const token = await tokenFor("partner1@example.org");
    const result = await setPassword(token, "brand-new-pass-7");
    expect(result.location).toBe("/login");
    expect(await toastOf(result)).toMatchObject({ message: "Password set successfully" });

    const signIn = await runRoute(loginAction, buildRequest("/login", { form: { email: "partner1@example.org", password: "brand-new-pass-7" } }));
    expect(signIn.location).toBe("/partner/dashboard");
    const oldPassword = await runRoute(loginAction, buildRequest("/login", { form: { email: "partner1@example.org", password: "partner-pass-1" } }));
    expect(oldPassword.status).toBe(401);

    // Used: the link's page says so (a post, too, comes back to it) and the password stays.
    expect((await setPassword(token, "another-pass-8")).location).toBe(`/set-password/${token}`);
    expect(await openLink(token)).toMatchObject(endedLink);
    expect((await runRoute(loginAction, buildRequest("/login", { form: { email: "partner1@example.org", password: "brand-new-pass-7" } }))).location).toBe(
      "/partner/dashboard",
    );
  });

  it("trims a new password as sign-in trims the typed one: spaces around it neither count nor lock the user out", async () => {
    const token = await tokenFor("partner1@example.org");
    expect((await setPassword(token, "  short1  ")).data.error.password).toEqual(["Password must contain at least 8 characters"]);
    expect((await setPassword(token, "  spaced-pass-4 ", "spaced-pass-4")).location).toBe("/login");
    expect(await signInAt("partner1@example.org", "spaced-pass-4")).toBe("/partner/dashboard");
    expect(await signInAt("partner1@example.org", " spaced-pass-4  ")).toBe("/partner/dashboard");
  });

  it("a new link ends the older unused ones of the same user, not other users' links", async () => {
    await requestLink("partner1@example.org");
    const other = await tokenFor("partner2@example.org");
    await requestLink("partner1@example.org");
    const [first, second] = (await db.select().from(outbox).orderBy(asc(outbox.id))).map((mail) => tokenFromMail(mail.textBody));

    expect(await openLink(first)).toMatchObject(endedLink);
    expect((await setPassword(first, "older-link-pass-1")).location).toBe(`/set-password/${first}`);
    expect(await openLink(other)).toMatchObject({ status: 200, data: { usable: true } });
    expect((await setPassword(second, "newest-link-pass-1")).location).toBe("/login");
    const signIn = await runRoute(loginAction, buildRequest("/login", { form: { email: "partner1@example.org", password: "newest-link-pass-1" } }));
    expect(signIn.location).toBe("/partner/dashboard");
  });
});

describe("change password", () => {
  const change = (cookie: string, form: Record<string, string>) => runRoute(changePasswordAction, buildRequest("/change-password", { form, cookie }));

  it("needs the current password", async () => {
    const cookie = await sessionCookieFor("staff@example.org");
    const result = await change(cookie, { currentPassword: "wrong", password: "next-pass-1", confirmPassword: "next-pass-1" });
    expect(result.status).toBe(400);
    expect(result.data.error.currentPassword).toEqual(["Your current password is incorrect."]);
    expect(await db.select().from(outbox)).toHaveLength(0);
  });

  it("refuses a new password with a control character and keeps the old one and the sessions", async () => {
    const cookie = await sessionCookieFor("staff@example.org");
    const hashBefore = await passwordHashOf("staff@example.org");
    const result = await change(cookie, { currentPassword: "staff-pass-1", password: "next\u0001pass-1", confirmPassword: "next\u0001pass-1" });
    expect(result.status).toBe(400);
    expect(result.data.error.password).toEqual([CHARACTERS_NOT_ALLOWED]);
    expect(await passwordHashOf("staff@example.org")).toBe(hashBefore);
    expect(await db.select().from(sessions)).toHaveLength(1);
    expect(await signInAt("staff@example.org", "staff-pass-1")).toBe("/admin/dashboard");
    expect(await db.select().from(outbox)).toHaveLength(0);
  });

  it("changes it, ends every session and API token of the user (the spec's page signs out), mails the user in the user's language and goes to the login page", async () => {
    const staff = await findUserByEmail("staff@example.org");
    await setUserLanguage(staff!.id, "es");
    const cookie = await sessionCookieFor("staff@example.org");
    await sessionCookieFor("staff@example.org"); // a second device
    const token = await apiToken("staff@example.org", "staff-pass-1");
    const result = await change(cookie, { currentPassword: "staff-pass-1", password: "next-pass-1", confirmPassword: "next-pass-1" });
    expect(result.location).toBe("/login");
    expect(await toastOf(result)).toMatchObject({ message: "Password changed successfully" });
    expect(await db.select().from(sessions)).toHaveLength(0);
    expect((await callApi("GET", "/admin/cut_off_date/", { token })).status).toBe(401);
    const mails = await db.select().from(outbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: "password-changed",
      toAddress: "staff@example.org",
      subject: "Se ha cambiado su contraseña del Portal de datos del MPP",
    });
    expect(mails[0].textBody).toContain("Hola:");
    expect(mails[0].textBody).toContain("se han cerrado todas las demás sesiones de la cuenta");
    const signIn = await runRoute(loginAction, buildRequest("/login", { form: { email: "staff@example.org", password: "next-pass-1" } }));
    expect(signIn.location).toBe("/admin/dashboard");
  });
});
