/** Sign-in with a bearer token, sign-out, password change and the password-reset calls: the rules of the sign-in and password pages. */
import * as z from "zod";
import { issueApiToken, revokeApiToken } from "~/models/api-token.server";
import { writeAudit } from "~/models/audit.server";
import { checkPasswordToken, sendPasswordLink, setPasswordWithToken, type TokenCheck } from "~/models/password-token.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { clearPasswordAttempts, takePasswordAttempt, throttlePasswordLinkRequest, TOO_MANY_RESET_REQUESTS } from "~/models/rate-limit.server";
import { findUserByEmail, getAuthUser, setUserPassword, verifyLogin } from "~/models/user.server";
import { ForgotPasswordSchema, LoginSchema, newPasswordField } from "~/schemas/auth";
import { ACCOUNT_INACTIVE, INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { quarterName } from "~/utils/quarters";
import { ALL_ROLES, ApiError, publicCall, signedInCall } from "../call.server";
import { PartnerAnswer, readPartner } from "./admin.server";

const TAG = "Account";
/** Retry-After of the sign-in throttle (its window). */
const SIGN_IN_RETRY_SECONDS = 15 * 60;
const RESET_RETRY_SECONDS = 60 * 60;

const rateLimited = (detail: string, seconds: number) => new ApiError(429, { status: "rate_limited", detail }, { "Retry-After": String(seconds) });

const Done = z.object({ status: z.literal("OK"), detail: z.string() }).meta({ id: "Done" });

const LoginAnswer = z
  .object({
    access: z.string().meta({ description: "The bearer token: send it as `Authorization: Bearer <access>`. It lasts 12 hours." }),
    expires_at: z.iso.datetime(),
    role: z.enum(ALL_ROLES),
    curr_quarter: z.string().meta({ example: "Q4 2026" }),
    username: z.string(),
    email: z.string(),
    partner: PartnerAnswer.optional().meta({ description: "PARTNER accounts only." }),
  })
  .meta({ id: "LoginAnswer", description: "Spec §3's stored user session." });

const TokenBody = z.object({ token: z.string().min(1).max(200) });

/** The reset token's state as the set-password page reads it: 404 `notfound` or 404 `expired`. */
function refuseInvalidToken(check: TokenCheck) {
  if (check.status === "notfound") throw new ApiError(404, { status: "notfound", detail: "This link is not valid." });
  if (check.status === "expired") throw new ApiError(404, { status: "expired", detail: "Token expired" });
}

export const ACCOUNT_CALLS = [
  publicCall({
    method: "POST",
    path: "/login/",
    summary: "Sign in: answers a bearer token for the other calls.",
    tag: TAG,
    body: LoginSchema,
    answer: LoginAnswer,
    errors: [400, 401],
    example: { body: { email: "partner1@example.org", password: "partner-pass-1" } },
    async handle({ body, context }) {
      if (!(await takePasswordAttempt(body.email, context.clientIp))) throw rateLimited(TOO_MANY_ATTEMPTS, SIGN_IN_RETRY_SECONDS);
      const result = await verifyLogin(body.email, body.password);
      if (!result.ok) {
        throw new ApiError(401, { status: "unauthorized", detail: result.reason === "inactive" ? ACCOUNT_INACTIVE : INVALID_CREDENTIALS });
      }
      await clearPasswordAttempts(body.email, context.clientIp);
      const { user } = result;
      const [{ token, expiresAt }, quarter, partner] = await Promise.all([
        issueApiToken(user.id),
        getOpenQuarter(),
        user.partnerId ? readPartner(user.partnerId, user) : undefined,
      ]);
      return LoginAnswer.parse({
        access: token,
        expires_at: expiresAt.toISOString(),
        role: user.role,
        curr_quarter: quarterName(quarter),
        username: user.name,
        email: user.email,
        partner,
      });
    },
  }),
  signedInCall({
    method: "POST",
    path: "/logout/",
    summary: "Ends the bearer token the call is made with.",
    tag: TAG,
    access: ALL_ROLES,
    answer: Done,
    errors: [],
    async handle({ tokenId }) {
      await revokeApiToken(tokenId);
      return { status: "OK", detail: "Signed out." };
    },
  }),
  signedInCall({
    method: "POST",
    path: "/account/update_password/",
    summary:
      "Changes the caller's password (the bearer token is enough) and mails the account that it changed. Every other session and token of the account ends; this token stays valid.",
    tag: TAG,
    access: ALL_ROLES,
    body: z.object({ password: newPasswordField }),
    answer: Done,
    errors: [400],
    example: { body: { password: "new-pass-42" } },
    async handle({ user, tokenId, body, context }) {
      await setUserPassword(user.id, body.password, { keepApiTokenId: tokenId, tellUser: true });
      await writeAudit({ actorId: user.id, action: "password.change", entity: "user", entityId: user.id, requestId: context.requestId });
      return { status: "OK", detail: "Password changed successfully" };
    },
  }),
  publicCall({
    method: "POST",
    path: "/password_reset/",
    summary: "Mails a link to set a new password. The answer is the same whether or not the account exists.",
    tag: TAG,
    body: ForgotPasswordSchema,
    answer: Done,
    errors: [400],
    example: { body: { email: "partner1@example.org" } },
    async handle({ body, context }) {
      if (await throttlePasswordLinkRequest(body.email, context.clientIp)) throw rateLimited(TOO_MANY_RESET_REQUESTS, RESET_RETRY_SECONDS);
      const user = await findUserByEmail(body.email);
      if (user && (await getAuthUser(user.id))) {
        await sendPasswordLink({ id: user.id, email: user.email, language: user.language, hasPassword: Boolean(user.passwordHash) });
      }
      return { status: "OK", detail: "Email to change password has been sent to given email id!" };
    },
  }),
  publicCall({
    method: "POST",
    path: "/password_reset/validate_token/",
    summary: "Whether a mailed token may still set a password.",
    tag: TAG,
    body: TokenBody,
    answer: Done,
    errors: [400, 404],
    async handle({ body }) {
      refuseInvalidToken(await checkPasswordToken(body.token));
      return { status: "OK", detail: "The token is valid." };
    },
  }),
  publicCall({
    method: "POST",
    path: "/password_reset/confirm/",
    summary: "Sets the password with a mailed token (single use).",
    tag: TAG,
    body: TokenBody.extend({ password: newPasswordField }),
    answer: Done,
    errors: [400, 404],
    async handle({ body }) {
      refuseInvalidToken(await setPasswordWithToken(body.token, body.password));
      return { status: "OK", detail: "Password set successfully" };
    },
  }),
];
