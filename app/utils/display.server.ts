import { createCookie } from "@remix-run/node";
import { parseDisplaySettings, type DisplaySettings, DEFAULT_DISPLAY } from "./display";

const displayCookie = createCookie("display", { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 24 * 60 * 60 });

/**
 * Display settings come from `?theme=`, `?nav-style=` and `?layout-type=`, and are kept in a
 * cookie so that they survive the next page. Returns the Set-Cookie value when they changed.
 */
export async function resolveDisplaySettings(request: Request): Promise<{ display: DisplaySettings; setCookie: string | null }> {
  const stored = parseDisplaySettings((await displayCookie.parse(request.headers.get("Cookie"))) ?? {}, DEFAULT_DISPLAY);
  const params = new URL(request.url).searchParams;
  const requested = {
    theme: params.get("theme") ?? undefined,
    navStyle: params.get("nav-style") ?? undefined,
    layoutType: params.get("layout-type") ?? undefined,
  };
  if (!requested.theme && !requested.navStyle && !requested.layoutType) return { display: stored, setCookie: null };
  const display = parseDisplaySettings(requested, stored);
  return { display, setCookie: await displayCookie.serialize(display) };
}
