import type { z } from "zod";

/**
 * Server-only, so that a route that reads its query string with a schema does not ship zod to the
 * browser (the compiler drops .server modules from the client build).
 */
/** The query string read by a report's schema: each parameter once (the first wins), unknown ones ignored. */
export function readQuery<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, url: URL): z.infer<z.ZodObject<Shape>> {
  const values: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = url.searchParams.get(key);
    if (value !== null) values[key] = value;
  }
  return schema.parse(values);
}
