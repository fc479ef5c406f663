import { data, redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { REMEMBER_ME_TTL_MS, sessionCookie, sessionStorage } from "~/models/session.server";
import { getAuthUser, verifyLogin, type AuthUser, type Role } from "~/models/user.server";
import { redirectWithToast } from "./toast.server";
import { ACCESS_DENIED, NOT_AUTHORIZED } from "./messages";

/** One wording for an unknown email and a wrong password: sign-in never reveals who has an account. */
export const INVALID_CREDENTIALS = "Unable to log in with provided credentials.";
export const ACCOUNT_INACTIVE = "Your account is deactivated. Please contact the administrator.";
export const TOO_MANY_ATTEMPTS = "Too many sign-in attempts. Please wait 15 minutes and try again.";

export class LoginError extends Error {
  constructor(public readonly reason: "invalid" | "inactive") {
    super(reason);
  }
}

const authenticator = new Authenticator<AuthUser>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const result = await verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? "").trim());
    if (!result.ok) throw new LoginError(result.reason);
    return result.user;
  }),
  "form",
);

/** Signs in through the form strategy with credentials already read and checked from the request's body. */
export function authenticateWithPassword(request: Request, credentials: { email: string; password: string }) {
  const checked = new Request(request.url, { method: "POST", body: new URLSearchParams(credentials) });
  return authenticator.authenticate("form", checked);
}

export function homePathFor(role: Role) {
  return role === "PARTNER" ? "/partner/dashboard" : "/admin/dashboard";
}

async function readSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

interface SessionUser {
  user: AuthUser;
  locked: boolean;
}

type SessionLookup = { current: SessionUser | null; hadSession: boolean };

async function lookUpSession(cookie: string | null): Promise<SessionLookup> {
  const cookieValue = await sessionCookie.parse(cookie);
  if (!cookieValue) return { current: null, hadSession: false };
  const session = await sessionStorage.getSession(cookie);
  const userId = session.get("userId");
  const user = userId ? await getAuthUser(userId) : undefined;
  if (!user) return { current: null, hadSession: true };
  return { current: { user, locked: Boolean(session.get("locked")) }, hadSession: true };
}

/**
 * Lookups under way, by cookie. A page's root, shell and screen loaders run side by side and each
 * asks who is signed in; they share one read. A lookup is dropped as soon as it ends, so a later
 * request (after a sign-out or a lock, say) always reads afresh.
 */
const lookupsUnderWay = new Map<string, Promise<SessionLookup>>();

/** The signed-in user, or null. `hadSession` tells an expired or ended session from no session. */
export function getSessionUser(request: Request): Promise<SessionLookup> {
  const cookie = request.headers.get("Cookie");
  const key = cookie ?? "";
  const underWay = lookupsUnderWay.get(key);
  if (underWay) return underWay;
  const lookup = lookUpSession(cookie).finally(() => lookupsUnderWay.delete(key));
  lookupsUnderWay.set(key, lookup);
  return lookup;
}

export async function getOptionalUser(request: Request): Promise<AuthUser | null> {
  return (await getSessionUser(request)).current?.user ?? null;
}

/** First line of every protected loader and action. No session: to /login; ended session: 'Session timeout!'. */
export async function requireUser(request: Request, { allowLocked = false } = {}): Promise<AuthUser> {
  const { current, hadSession } = await getSessionUser(request);
  if (!current) {
    const headers = new Headers();
    if (hadSession) {
      headers.append("Set-Cookie", await sessionCookie.serialize("", { maxAge: 0 }));
      throw await redirectWithToast("/login", { type: "info", message: "Session timeout!" }, { headers });
    }
    throw redirect("/login");
  }
  if (current.locked && !allowLocked) throw redirect("/lock-screen");
  return current.user;
}

export function forbidden() {
  return data({ message: NOT_AUTHORIZED }, { status: 403 });
}

export async function requireRole(request: Request, ...roles: Role[]): Promise<AuthUser> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) throw forbidden();
  return user;
}

/** ADMIN or STAFF: the admin screens, read-only for STAFF. */
export function requireAdminOrStaff(request: Request) {
  return requireRole(request, "ADMIN", "STAFF");
}

export async function requirePartner(request: Request): Promise<AuthUser & { partnerId: number }> {
  const user = await requireRole(request, "PARTNER");
  if (user.partnerId == null) throw forbidden();
  return { ...user, partnerId: user.partnerId };
}

export async function createUserSession(user: AuthUser, { remember, redirectTo }: { remember: boolean; redirectTo: string }) {
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  // Without "remember me" the cookie ends with the browser and the row expires after SESSION_TTL_MS.
  const setCookie = await sessionStorage.commitSession(session, remember ? { maxAge: REMEMBER_ME_TTL_MS / 1000 } : undefined);
  return redirectWithToast(
    redirectTo,
    { type: "success", message: "User logged in successfully" },
    {
      headers: { "Set-Cookie": setCookie },
    },
  );
}

/** Ends the session on the server and clears the cookie. */
export async function endSessionHeaders(request: Request): Promise<Headers> {
  const session = await readSession(request);
  return new Headers({ "Set-Cookie": await sessionStorage.destroySession(session) });
}

/**
 * The password-link pages are for signed-out users (spec section 2): a signed-in user who opens one
 * is signed out and gets the 'Access Denied!' page. The only GET that ends a session: it ends the
 * session the page was opened in, and a cross-site image or frame sends no SameSite=Lax cookie.
 */
export async function signOutSignedInUser(request: Request) {
  if (await getOptionalUser(request)) throw data({ message: ACCESS_DENIED }, { status: 403, headers: await endSessionHeaders(request) });
}

export async function setSessionLocked(request: Request, locked: boolean): Promise<string> {
  const session = await readSession(request);
  session.set("locked", locked);
  return sessionStorage.commitSession(session);
}
