/** The admin partner list's state, kept in the query string so it works without JavaScript and survives a reload. */
import { REPORT_STATES, REPORT_TYPES, type ReportState, type ReportTypeKey } from "~/reports/frame/registry";
import { queryText } from "./text-rules";

export type SortDirection = "asc" | "desc";
export type PartnerStatusFilter = "active" | "inactive";

/** Partners whose report of one type is in one state in the open quarter (the admin dashboard's counts link here). */
export interface ReportStateFilter {
  type: ReportTypeKey;
  state: ReportState;
}

/** The list's sortable columns: the company name, or the open findings of the open quarter's Sales Report. */
export type PartnerListSort = "company" | "findings";

/** `?q=acme&sort=company&dir=desc&status=inactive&report=pdt&state=Rejected&page=2` */
export interface PartnerListQuery {
  q: string;
  sort: PartnerListSort;
  dir: SortDirection;
  status: PartnerStatusFilter;
  report: ReportStateFilter | null;
  /** 1-based; past the last page, the last. */
  page: number;
}

/** Partners per page of the list. */
export const PARTNER_LIST_PAGE_SIZE = 50;

const FILTER_STATES: readonly ReportState[] = ["not started", ...REPORT_STATES];

function parseReportFilter(search: URLSearchParams): ReportStateFilter | null {
  const type = REPORT_TYPES.find((candidate) => candidate === search.get("report"));
  const state = FILTER_STATES.find((candidate) => candidate === search.get("state"));
  return type && state ? { type, state } : null;
}

export const PARTNER_LIST_PATH = "/admin/partner-list";
const MAX_SEARCH_LENGTH = 100;

/** Reads the list's query string; anything unknown falls back to the default (active partners, A to Z by company). */
export function parsePartnerListQuery(search: URLSearchParams): PartnerListQuery {
  return {
    q: (queryText(search.get("q")) ?? "").slice(0, MAX_SEARCH_LENGTH),
    sort: search.get("sort") === "findings" ? "findings" : "company",
    dir: search.get("dir") === "desc" ? "desc" : "asc",
    status: search.get("status") === "inactive" ? "inactive" : "active",
    report: parseReportFilter(search),
    page: Math.min(Math.max(Number.parseInt(search.get("page") ?? "", 10) || 1, 1), 1_000_000),
  };
}

/**
 * The query string of a list state, e.g. `?q=acme&sort=company&dir=desc` ("" for the default list);
 * another search, filter or order starts again at the first page.
 */
export function partnerListSearch(query: PartnerListQuery, changes: Partial<PartnerListQuery> = {}): string {
  const next = { ...query, ...(Object.keys(changes).length ? { page: 1 } : {}), ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  params.set("sort", next.sort);
  params.set("dir", next.dir);
  if (next.status !== "active") params.set("status", next.status);
  if (next.report) {
    params.set("report", next.report.type);
    params.set("state", next.report.state);
  }
  if (next.page > 1) params.set("page", String(next.page));
  if (!next.q && next.sort === "company" && next.dir === "asc" && next.status === "active" && !next.report && next.page === 1) return "";
  return `?${params}`;
}

/** The list's address for a state: where its actions send the admin back to. */
export function partnerListHref(query: PartnerListQuery, changes: Partial<PartnerListQuery> = {}): string {
  return `${PARTNER_LIST_PATH}${partnerListSearch(query, changes)}`;
}
