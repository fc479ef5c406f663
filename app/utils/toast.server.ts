import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { sessionSecret, useSecureCookies } from "./env.server";

export interface Toast {
  type: "success" | "error" | "info";
  /** An English message, which is also its translation key. */
  message: string;
  values?: Record<string, string | number>;
}

/**
 * A value carried in a signed cookie across one redirect and read once by the next page:
 * how a post-redirect-get shows its outcome with or without JavaScript.
 */
export function flashCookie<T>(name: string) {
  const storage = createCookieSessionStorage<Record<string, never>, { value: T }>({
    cookie: {
      name,
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: useSecureCookies(),
      secrets: [sessionSecret()],
    },
  });
  return {
    /** The Set-Cookie header that carries `value` to the next request. */
    async header(value: T): Promise<string> {
      const session = await storage.getSession();
      session.flash("value", value);
      return storage.commitSession(session);
    },
    /** The value, and the Set-Cookie header that clears it (null when there was none). */
    async read(request: Request): Promise<{ value: T | null; setCookie: string | null }> {
      const session = await storage.getSession(request.headers.get("Cookie"));
      const value = (session.get("value") as T | undefined) ?? null;
      return { value, setCookie: value === null ? null : await storage.commitSession(session) };
    },
  };
}

const toastFlash = flashCookie<Toast>("__toast");

/** A redirect that shows a message on the next page, with or without JavaScript. */
export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastFlash.header(toast));
  return redirect(url, { ...init, headers });
}

export async function readToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const { value, setCookie } = await toastFlash.read(request);
  return { toast: value, setCookie };
}
