import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { sessionSecret, useSecureCookies } from "./env.server";

export interface Toast {
  type: "success" | "error" | "info";
  /** An English message, which is also its translation key. */
  message: string;
  values?: Record<string, string | number>;
}

const toastStorage = createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
  cookie: {
    name: "__toast",
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: useSecureCookies(),
    secrets: [sessionSecret()],
  },
});

export async function toastHeader(toast: Toast): Promise<string> {
  const session = await toastStorage.getSession();
  session.flash("toast", toast);
  return toastStorage.commitSession(session);
}

/** A redirect that shows a message on the next page, with or without JavaScript. */
export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

export async function readToast(request: Request): Promise<{ toast: Toast | null; setCookie: string | null }> {
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const toast = (session.get("toast") as Toast | undefined) ?? null;
  return { toast, setCookie: toast ? await toastStorage.commitSession(session) : null };
}
