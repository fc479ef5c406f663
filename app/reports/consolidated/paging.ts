/**
 * Paging and links of the consolidated reports and the dashboard, with no zod: the pages' components
 * import it, so the browser does not receive the query schemas. Client-safe.
 */
import type { ReportStatus } from "~/reports/frame/workflow";

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

/** The page a request asks for, within the rows there are. */
export function pageWindow(requested: number, total: number, pageSize: number) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(requested, 1), pages);
  return { page, pages, offset: (page - 1) * pageSize, limit: pageSize };
}

/** A link's query values by name (empty and undefined ones are left out of the link). */
export type QueryValues = Record<string, string | number | null | undefined>;

type SortDir = "asc" | "desc";

/** A link to the report with these query values (empty and undefined values left out; page 1 too). */
export function queryHref(path: string, values: QueryValues): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "") continue;
    if (key === "page" && Number(value) === 1) continue;
    search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** One choice of a filter list (a partner, a product, a quarter, a status). */
export interface FilterOption<Id extends string | number = number> {
  id: Id;
  name: string;
}

/** The filter lists every consolidated report has (spec section 3), by the names of the API's answer. */
export interface ReportFilterLists {
  /** Newest first: the open quarter first. */
  quarter_filter: FilterOption[];
  partner_filter: FilterOption[];
  product_filter: FilterOption[];
  report_status_filter: FilterOption<ReportStatus>[];
}

/** The values of `source` named in `keys`: the filters a report's links carry. */
export function pickValues<Key extends string>(source: Partial<Record<Key, string | number | null>>, keys: readonly Key[]): QueryValues {
  return Object.fromEntries(keys.map((key) => [key, source[key]]));
}

/** The sort as a link carries it: nothing for the default order, company A to Z. */
const sortValues = (sort: string | undefined, dir: SortDir | undefined): QueryValues =>
  (sort ?? "company") === "company" && (dir ?? "asc") === "asc" ? {} : { sort, dir };

/**
 * A report page's links at `path`: its pages and its sorted orders keep `filters` and the sort;
 * the downloads (`path`/csv and `path`/xlsx) carry the filters, and the sort when `downloadsKeepSort`.
 * A new sort starts at page 1.
 */
export function queryLinks(
  path: string,
  filters: QueryValues,
  at: { sort?: string; dir?: SortDir },
  { downloadsKeepSort = false }: { downloadsKeepSort?: boolean } = {},
) {
  const downloadValues = downloadsKeepSort ? { ...filters, ...sortValues(at.sort, at.dir) } : filters;
  return {
    page: (page: number) => queryHref(path, { ...filters, ...sortValues(at.sort, at.dir), page }),
    sorted: (sort: string, dir: SortDir) => queryHref(path, { ...filters, ...sortValues(sort, dir) }),
    csv: queryHref(`${path}/csv`, downloadValues),
    xlsx: queryHref(`${path}/xlsx`, downloadValues),
  };
}

/** A report page's links (see queryLinks). */
export type QueryLinks = ReturnType<typeof queryLinks>;
