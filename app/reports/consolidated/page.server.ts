import type * as z from "zod";
import { rethrowForPage } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { readQuery } from "~/utils/query-string.server";

/**
 * A consolidated page's query, read from its query string, and the view `list` makes of it (ADMIN
 * and STAFF only; an unknown or future quarter answers the page's 404).
 */
export async function loadConsolidatedPage<Shape extends z.ZodRawShape, View>(
  request: Request,
  schema: z.ZodObject<Shape>,
  list: (query: z.infer<z.ZodObject<Shape>>) => Promise<View>,
) {
  await requireAdminOrStaff(request);
  const query = readQuery(schema, new URL(request.url));
  return { query, view: await list(query).catch(rethrowForPage) };
}
