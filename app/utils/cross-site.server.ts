/** What the cross-site guard reads of a request. */
interface GuardedRequest {
  method: string;
  /** The path and query as sent (Express's `originalUrl`). */
  url: string;
  /** The scheme the portal was reached by (`http` or `https`). */
  protocol: string;
  header(name: string): string | undefined;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `scheme://host:port` of a URL, or null when it cannot be parsed. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Cross-site form posts are refused: cookies are SameSite=Lax, and a state-changing request from
 * another site never reaches an action. Where the request comes from is read from Origin, else
 * from Referer (a browser may leave Origin out), else from Sec-Fetch-Site; Sec-Fetch-Site saying
 * another site is refused whatever the others say. Origin and Referer must name the portal's own
 * scheme, host and port, and one that cannot be parsed is refused. A request with none of the
 * three (curl, a script) is accepted: it carries no browser's cookies unasked. API calls with a
 * bearer token are exempt, judged on the path as the router will see it (`/api/%2e%2e/login` is
 * `/login`).
 */
export function isCrossSiteRequest(request: GuardedRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const routedPath = new URL(request.url, "http://localhost").pathname;
  if (routedPath.startsWith("/api/") && request.header("authorization")?.startsWith("Bearer ")) return false;
  const fetchSite = request.header("sec-fetch-site");
  if (fetchSite === "cross-site" || fetchSite === "same-site") return true;
  const claimed = request.header("origin") ?? request.header("referer");
  if (claimed === undefined) return false;
  const ownOrigin = originOf(`${request.protocol}://${request.header("host") ?? ""}`);
  return ownOrigin === null || originOf(claimed) !== ownOrigin;
}
