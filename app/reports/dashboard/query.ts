/**
 * The admin dashboard's query string: the tab and every filter live in the link, so each view can
 * be shared and works without JavaScript. A value a link cannot mean falls back to the default
 * rather than failing the page. Read on the server only (the page ships ./view, not zod).
 */
import * as z from "zod";
import { idFilter, textFilter } from "~/reports/consolidated/query";
import { COUNTRY_FILING_VIEWS, DASHBOARD_TABS, PERIODS, PRODUCT_FILING_VIEWS, SUMMARY_SORTS, SUMMARY_VIEWS } from "./view";

/** `?tab=filings&quarter=Q3 2026&filing=Future-Quarters&countryFiling=Registered&unapproved=1&table=…&page=2` */
export const dashboardQuery = z.object({
  tab: z.enum(DASHBOARD_TABS).catch("product"),
  /** Count reports in every state, not only approved ones (sales, price and filing figures). */
  unapproved: z
    .string()
    .optional()
    .transform((value) => value === "1")
    .catch(false),
  view: z.enum(SUMMARY_VIEWS).catch("submitted"),
  /** The Summary's order (partners without a count of findings last either way). */
  sort: z.enum(SUMMARY_SORTS).catch("company"),
  dir: z.enum(["asc", "desc"]).catch("asc"),
  filing: z.enum(PRODUCT_FILING_VIEWS).catch("Filed"),
  countryFiling: z.enum(COUNTRY_FILING_VIEWS).catch("Filed"),
  /** The Country Filings and Royalties tabs' quarter (a quarter name); none: the open quarter. */
  quarter: textFilter,
  period: z.enum(PERIODS).catch("quarter"),
  /** The Price tab's product; none: every FDF product together. */
  product: idFilter,
  /** The table whose page `page` names; every other table shows its first page. */
  table: textFilter,
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;
