import type { LoaderFunctionArgs } from "@remix-run/node";
import { worldMapSvg } from "~/models/dashboard/world-map.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

let etag: Promise<string> | null = null;

/**
 * GET /admin/dashboard/world-map.svg: the dashboard map's country shapes (ADMIN and STAFF). The
 * document never changes while the process runs, so the browser keeps it for a day and then
 * revalidates it with its ETag; the dashboard page itself only carries `<use>` references into it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const body = worldMapSvg();
  etag ??= sha1(body).then((hex) => `"${hex}"`);
  const tag = await etag;
  const headers = { "Cache-Control": "private, max-age=86400", ETag: tag };
  if (matches(request.headers.get("If-None-Match"), tag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "image/svg+xml; charset=utf-8" } });
}

/** Hex SHA-1 of a text (Web Crypto, so this route module imports nothing from Node). */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** If-None-Match holds `*` or a list of entity tags, compared weakly (RFC 9110 §13.1.2). */
function matches(header: string | null, tag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const value = candidate.trim();
    return value === "*" || value.replace(/^W\//, "") === tag;
  });
}
