/**
 * The paging and filter contract of the consolidated reports (spec section 2 "Admin consolidated
 * reports"): every filter, the page and the sort live in the query string, so a view works
 * without JavaScript, survives a reload and can be shared as a link. A report brings its own
 * filters as a zod object; a value a link cannot mean (a page of "x", an id of -1) falls back to
 * none rather than failing the page. Client-safe.
 */
import * as z from "zod";
import { MAX_ID } from "~/utils/ids";
import { queryText } from "~/utils/text-rules";

/** A record id filter: a positive int4, or no filter. */
export const idFilter = z.coerce.number().int().positive().max(MAX_ID).optional().catch(undefined);
/** A free-text or list filter: trimmed, bounded; empty, or a text no stored value can hold, means none. */
export const textFilter = z.string().max(200).transform(queryText).optional().catch(undefined);
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
