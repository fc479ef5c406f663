/**
 * The paging and filter contract of the consolidated reports (spec section 2 "Admin consolidated
 * reports"): every filter, the page and the sort live in the query string, so a view works
 * without JavaScript, survives a reload and can be shared as a link. A report brings its own
 * filters as a zod object; a value a link cannot mean (a page of "x", an id of -1) falls back to
 * none rather than failing the page. Client-safe.
 */
import { z } from "zod";
import { MAX_ID } from "~/utils/ids";

/** Rows per page (spec section 9). */
export const CONSOLIDATED_PAGE_SIZES = { pdt: 50, filing: 50, sales: 100 } as const;

/** One page of a consolidated report, and where it stands in the whole. */
export interface Page<T> {
  rows: T[];
  /** Rows matching the filters, all pages. */
  total: number;
  /** 1-based; a page past the end is the last page. */
  page: number;
  pageSize: number;
  pages: number;
}

/** A record id filter: a positive int4, or no filter. */
export const idFilter = z.coerce.number().int().positive().max(MAX_ID).optional().catch(undefined);
/** A free-text or list filter: trimmed, bounded, empty means none. */
export const textFilter = z
  .string()
  .max(200)
  .transform((value) => value.trim() || undefined)
  .optional()
  .catch(undefined);
/** One value of a list (a status, a tab), or none. */
export const choiceFilter = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);

/** What every consolidated report's query holds besides its own filters. */
export const baseQuery = {
  /** A quarter name (`Q3 2026`); none: the open quarter. */
  quarter: textFilter,
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  sort: textFilter,
  dir: z.enum(["asc", "desc"]).catch("asc"),
};

/** The query string read by a report's schema: each parameter once (the first wins), unknown ones ignored. */
export function readQuery<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, url: URL): z.infer<z.ZodObject<Shape>> {
  const values: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = url.searchParams.get(key);
    if (value !== null) values[key] = value;
  }
  return schema.parse(values);
}

/** The page a request asks for, within the rows there are. */
export function pageWindow(requested: number, total: number, pageSize: number) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(requested, 1), pages);
  return { page, pages, offset: (page - 1) * pageSize, limit: pageSize };
}

/** A link to the report with these query values (empty and undefined values left out; page 1 too). */
export function queryHref(path: string, values: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "") continue;
    if (key === "page" && Number(value) === 1) continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
