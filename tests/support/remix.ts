import type { AppLoadContext } from "@remix-run/node";
import { sessionStorage } from "~/models/session.server";
import { findUserByEmail } from "~/models/user.server";

export const testContext = (overrides: Partial<AppLoadContext> = {}): AppLoadContext => ({
  requestId: "test-request",
  cspNonce: "",
  clientIp: "203.0.113.7",
  ...overrides,
});

/** Signs a user in the way the fixture of a real browser would: a session row and its cookie. */
export async function sessionCookieFor(email: string): Promise<string> {
  const user = await findUserByEmail(email);
  if (!user) throw new Error(`No user ${email}`);
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  const setCookie = await sessionStorage.commitSession(session);
  return setCookie.split(";")[0];
}

export function buildRequest(
  path: string,
  {
    method = "GET",
    form,
    json,
    cookie,
    headers,
  }: { method?: string; form?: Record<string, string>; json?: unknown; cookie?: string; headers?: Record<string, string> } = {},
) {
  const requestHeaders = new Headers(headers);
  if (cookie) requestHeaders.set("Cookie", cookie);
  const body = form ? new URLSearchParams(form) : json !== undefined ? JSON.stringify(json) : undefined;
  if (form) requestHeaders.set("Content-Type", "application/x-www-form-urlencoded");
  if (json !== undefined) requestHeaders.set("Content-Type", "application/json");
  return new Request(`http://localhost${path}`, { method: body !== undefined ? "POST" : method, headers: requestHeaders, body });
}

export interface RouteResult<T = unknown> {
  status: number;
  headers: Headers;
  data: T | undefined;
  location: string | null;
}

type DataWithInit = { type: "DataWithResponseInit"; data: unknown; init: ResponseInit | null };
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: string }).type === "DataWithResponseInit";

/** What a download answers for what does not exist (an unknown quarter, partner or table): the not-found page. */
export const NOT_FOUND_PAGE = { status: 302, location: "/error-404" } as const;

/** Runs a loader or action and describes what it answered, thrown or returned, as a browser would see it. */
export async function runRoute<T = any>(
  handler: (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown,
  request: Request,
  { params = {}, context = testContext() }: { params?: Record<string, string>; context?: AppLoadContext } = {},
): Promise<RouteResult<T>> {
  let outcome: unknown;
  try {
    outcome = await handler({ request, params, context });
  } catch (thrown) {
    outcome = thrown;
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
  }
  if (outcome instanceof Response) {
    const isJson = outcome.headers.get("Content-Type")?.includes("json");
    return {
      status: outcome.status,
      headers: outcome.headers,
      data: isJson ? ((await outcome.json()) as T) : undefined,
      location: outcome.headers.get("Location"),
    };
  }
  if (isDataWithInit(outcome)) {
    return {
      status: outcome.init?.status ?? 200,
      headers: new Headers(outcome.init?.headers),
      data: outcome.data as T,
      location: null,
    };
  }
  return { status: 200, headers: new Headers(), data: outcome as T, location: null };
}

/** The cookies a response sets, as one Cookie header for the next request. */
export function cookiesFrom(result: RouteResult, previous = ""): string {
  const split = (pair: string): [string, string] => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  const jar = new Map(previous.split("; ").filter(Boolean).map(split));
  for (const setCookie of result.headers.getSetCookie()) jar.set(...split(setCookie.split(";")[0]));
  return [...jar]
    .filter(([, value]) => value !== "")
    .map(([key, value]) => `${key}=${value}`)
    .join("; ");
}
