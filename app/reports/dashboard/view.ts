/**
 * The admin dashboard's tabs, views and filters (spec section 2 "Admin dashboard"), and the link to
 * a view. No zod: the page's components import this, the query string's schema is in ./query.
 * Client-safe.
 */
import type { DashboardQuery } from "./query";

export const DASHBOARD_PATH = "/admin/dashboard";
export const DASHBOARD_PAGE_SIZE = 50;

export const DASHBOARD_TABS = ["product", "summary", "filings", "sales-product", "sales-company", "sales-country", "sales-time", "price", "royalties"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export const DASHBOARD_TAB_LABELS: Record<DashboardTab, string> = {
  product: "Product / Project",
  summary: "Summary",
  filings: "Country Filings",
  "sales-product": "Sales by Product",
  "sales-company": "Sales by Company",
  "sales-country": "Sales by Country",
  "sales-time": "Sales over Time",
  price: "Price",
  royalties: "Royalties",
};

/** The Summary tab's views of the open quarter, each a set of partners. */
export const SUMMARY_VIEWS = ["submitted", "not-submitted", "saved", "awaiting-approval"] as const;
export type SummaryView = (typeof SUMMARY_VIEWS)[number];
export const SUMMARY_VIEW_LABELS: Record<SummaryView, string> = {
  submitted: "All data submitted",
  "not-submitted": "Yet to submit data",
  saved: "Saved but not submitted data",
  "awaiting-approval": "Submitted but not approved",
};
/** The Summary's sortable columns: the company name, or the open findings of the partner's Sales Report ("review the riskiest first"). */
export const SUMMARY_SORTS = ["company", "findings"] as const;
export type SummarySort = (typeof SUMMARY_SORTS)[number];
/** The views in which partners still owe a report: they offer Send Reminder. */
export const REMINDER_VIEWS: readonly SummaryView[] = ["not-submitted", "saved"];

/** 'Product Wise Country Count' filter; Future-Quarters shows the four quarters after the selected one. */
export const PRODUCT_FILING_VIEWS = ["Filed", "Registered", "Filing-Planned", "Future-Quarters"] as const;
/** 'Country Wise Product Count' filter. */
export const COUNTRY_FILING_VIEWS = ["Filed", "Registered", "Future Quarter Status"] as const;

export const PERIODS = ["year", "quarter", "month"] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<Period, string> = { year: "Year", quarter: "Quarter", month: "Month" };
/** Columns of an over-time table: the latest periods with sales. */
export const PERIOD_COLUMNS: Record<Period, number> = { year: 6, quarter: 8, month: 12 };

/** The query values a link to this view carries (defaults left out). */
export function dashboardLinkValues(query: DashboardQuery): Record<string, string | undefined> {
  return {
    tab: query.tab === "product" ? undefined : query.tab,
    unapproved: query.unapproved ? "1" : undefined,
    view: query.tab === "summary" && query.view !== "submitted" ? query.view : undefined,
    sort: query.tab === "summary" && query.sort !== "company" ? query.sort : undefined,
    dir: query.tab === "summary" && query.dir !== "asc" ? query.dir : undefined,
    filing: query.tab === "filings" && query.filing !== "Filed" ? query.filing : undefined,
    countryFiling: query.tab === "filings" && query.countryFiling !== "Filed" ? query.countryFiling : undefined,
    quarter: query.tab === "filings" || query.tab === "royalties" ? query.quarter : undefined,
    period: query.tab.startsWith("sales-") || query.tab === "price" ? (query.period === "quarter" ? undefined : query.period) : undefined,
    product: query.tab === "price" && query.product ? String(query.product) : undefined,
  };
}
