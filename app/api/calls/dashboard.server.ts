/**
 * The admin dashboard by machine (spec section 7 "Dashboard"), for administrators and staff. Each
 * call answers one or two of the dashboard page's tables, built by the page's own functions
 * (dashboardTable, projectStatusCounts, summaryPage, filingScope, salesByPeriod, priceByPeriod) on
 * the query the page reads: the API's parameters are written as the page's query string and read
 * by its schema, so `?unapproved=1`, the quarter and the page number mean what they mean on the
 * page. Cells are keyed by the spec's field names (section 3) where it names them.
 */
import * as z from "zod";
import { dashboardTable } from "~/models/dashboard/dashboard.server";
import { filingScope } from "~/models/dashboard/filings.server";
import { DASHBOARD_PROJECT_STATUSES, projectStatusCounts } from "~/models/dashboard/projects.server";
import { priceByPeriod, salesByPeriod } from "~/models/dashboard/sales.server";
import { summaryPage } from "~/models/dashboard/summary.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { dashboardQuery, type DashboardQuery } from "~/reports/dashboard/query";
import { tableWindow, type DashboardTable, type DashboardTableId } from "~/reports/dashboard/tables";
import { COUNTRY_FILING_VIEWS, PERIODS, SUMMARY_VIEWS, SUMMARY_VIEW_LABELS, type Period } from "~/reports/dashboard/view";
import { readQuery } from "~/utils/query-string.server";
import { REPORT_STATES } from "~/reports/frame/registry";
import { ADMIN_AND_STAFF, callsUnder, pageNumberQuery, pagedAnswer, pagedAnswerFields } from "../call.server";

/** Every dashboard call: ADMIN and STAFF, under one tag of the document. */
const dashboardCall = callsUnder("Dashboard", ADMIN_AND_STAFF);

// ---------------------------------------------------------------- the query, as the page reads it

/** The page's query for these values (written as its link, read by its schema). */
function pageQuery(values: Record<string, string | number | undefined>): DashboardQuery {
  const url = new URL("http://api.invalid/");
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== "") url.searchParams.set(key, String(value));
  return readQuery(dashboardQuery, url);
}

const common = {
  unapproved: z
    .enum(["0", "1"])
    .optional()
    .meta({ description: "1: count reports in every state, as the page's 'include unapproved' switch; else approved reports only." }),
  page_number: pageNumberQuery("The table's page (50 rows a page); a page past the end answers the last page."),
};
const quarterParam = z
  .string()
  .max(20)
  .optional()
  .meta({ description: "The Country Filings quarter, such as 'Q2 2026'; the open quarter when left out.", example: "Q2 2026" });

/** The page's query for one table: its filters, and the asked page of that table. */
const tableQuery = (
  table: DashboardTableId,
  tab: string,
  values: Record<string, string | number | undefined>,
  query: { unapproved?: string; page_number?: number },
) => pageQuery({ ...values, tab, unapproved: query.unapproved === "1" ? "1" : undefined, table, page: query.page_number });

// ---------------------------------------------------------------- answers

const Cell = z.union([z.string(), z.number(), z.null()]);
const tableFields = {
  table: z.string().meta({ description: "The dashboard table (its download is /admin/dashboard/{table}/csv)." }),
  title: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string(), numeric: z.boolean() })),
  rows: z.array(z.record(z.string(), Cell)).meta({
    description:
      "Each row's cells by column key: product_name, company_name, country_name, total_value (USD) as the spec names them, " +
      "the project statuses, units (packs sold), countries and partners (counts), or a quarter or period. Figures are exact decimal strings or counts.",
  }),
  ...pagedAnswerFields("Rows of the table, all pages."),
};
const DashboardTableAnswer = z.object(tableFields).meta({ id: "DashboardTable" });

/** The page's column keys the spec names otherwise (a sales table's company column is the page's `partner`). */
const SPEC_KEY: Record<string, string> = {
  product: "product_name",
  company: "company_name",
  partner: "company_name",
  country: "country_name",
  value: "total_value",
};
const specKey = (key: string) => SPEC_KEY[key] ?? key;

function tableAnswer(table: DashboardTable) {
  const keys = table.columns.map((column) => specKey(column.key));
  return {
    table: table.id,
    title: table.title,
    columns: table.columns.map((column, index) => ({ key: keys[index], label: column.label, numeric: Boolean(column.numeric) })),
    rows: table.rows.map((row) => Object.fromEntries(keys.map((key, index) => [key, row[index] ?? null]))),
    ...pagedAnswer(table.page),
  };
}

// ---------------------------------------------------------------- sales

const MAP_WITH = ["product", "company", "country"] as const;
const FOR = ["product", "company", "country", "time", "period"] as const;
type Dimension = (typeof MAP_WITH)[number];
const SALES_TABLE: Record<Dimension, Partial<Record<(typeof FOR)[number], DashboardTableId>>> = {
  product: { company: "product-company-sales", country: "product-country-sales", time: "product-time-sales" },
  company: { product: "company-product-sales", country: "company-country-sales", time: "company-time-sales" },
  country: { product: "country-product-sales", company: "country-company-sales", time: "country-time-sales" },
};
const SALES_TAB: Record<Dimension, string> = { product: "sales-product", company: "sales-company", country: "sales-country" };

const SalesQuery = z
  .object({
    map_with: z
      .enum(MAP_WITH)
      .optional()
      .meta({ description: "The rows: product, company or country (the Sales by Product, Company or Country tab); not used by for=period." }),
    for: z.enum(FOR).meta({
      description:
        "The second column: another of product, company or country; time (map_with by period, packs sold); " +
        "or period (a row per period of every sale: the Sales over Time and Price tabs).",
    }),
    period: z.enum(PERIODS).optional().meta({ description: "With for=time or for=period: by year, quarter (default) or month." }),
    ...common,
  })
  .strict()
  .refine((query) => query.for === "period" || query.map_with, { path: ["map_with"], message: "Choose product, company or country." })
  .refine((query) => query.map_with !== query.for, { path: ["for"], message: "Choose a dimension other than map_with." });

const SalesPeriodRow = z.object({
  year: z.number().int(),
  month: z.number().int().min(1).max(12).nullable().meta({ description: "1 to 12 by month; else null." }),
  quarter_name: z.string().nullable().meta({ description: "The period's quarter, such as 'Q2 2026' (by quarter or month); null by year.", example: "Q2 2026" }),
  units: z.string().meta({ description: "Packs sold (FDF pack size x quantity), an exact decimal." }),
  total_value: z.string().meta({ description: "Sales value in USD (FDF gross value plus API total value), an exact decimal." }),
  price_per_pack: z.string().nullable().meta({ description: "USD per FDF pack; null when no priced FDF sale." }),
  price_per_treatment: z.string().nullable().meta({ description: "USD per 30-day treatment; null when no priced FDF sale." }),
});
const SalesAnswer = z
  .union([
    DashboardTableAnswer,
    z.object({ period: z.enum(PERIODS), rows: z.array(SalesPeriodRow), ...pagedAnswerFields("Periods with sales.") }).meta({ id: "DashboardSalesPeriods" }),
  ])
  .meta({ id: "DashboardSales" });

/** A period key of the dashboard's sales (2026, 20263 for Q3 2026, 202607 for July 2026) as the spec's fields. */
function periodFields(period: Period, key: number) {
  const year = period === "year" ? key : period === "quarter" ? Math.floor(key / 10) : Math.floor(key / 100);
  const month = period === "month" ? key % 100 : null;
  const quarter = period === "quarter" ? key % 10 : month && Math.ceil(month / 3);
  return { year, month, quarter_name: quarter ? `Q${quarter} ${year}` : null };
}

/** Every sale by period, newest first: the Sales over Time tab's figures with the Price tab's prices (all products). */
async function salesPeriods(query: DashboardQuery) {
  const [sales, prices] = await Promise.all([salesByPeriod(query), priceByPeriod(query)]);
  const priceOf = new Map(prices.map((price) => [price.key, price]));
  const window = tableWindow(query, "sales-over-time", sales.length, false);
  return {
    period: query.period,
    rows: sales.slice(window.offset, window.offset + window.limit).map((row) => ({
      ...periodFields(query.period, row.key),
      units: row.units,
      total_value: row.value,
      price_per_pack: priceOf.get(row.key)?.pricePerPack ?? null,
      price_per_treatment: priceOf.get(row.key)?.pricePerTreatment ?? null,
    })),
    ...pagedAnswer(window.page),
  };
}

// ---------------------------------------------------------------- the calls

const ProjectCounts = z
  .object({
    rows: z.array(z.object({ status: z.enum(DASHBOARD_PROJECT_STATUSES), count: z.number().int() })).meta({ description: "Projects per status (the tiles)." }),
  })
  .meta({ id: "DashboardProjectCounts" });

const ProductCountryQuery = z
  .object({
    status: z
      .enum(["Filed", "Registered", "Filing-Planned"])
      .default("Filed")
      .meta({ description: "The filing status counted (Future-Quarters: /admin/dashboard/product/country/quarter/)." }),
    quarter: quarterParam,
    ...common,
  })
  .strict();
const FilingQuery = z.object({ quarter: quarterParam, ...common }).strict();
const CountryQuery = z
  .object({
    type: z.enum(COUNTRY_FILING_VIEWS).default("Filed").meta({ description: "Filed, Registered or Future Quarter Status." }),
    quarter: quarterParam,
    ...common,
  })
  .strict();
const TablesQuery = z.object(common).strict();

const FilingTableAnswer = z.object({ ...tableFields, quarter: z.string() }).meta({ id: "DashboardFilingTable" });
const FutureQuartersAnswer = z
  .object({
    ...tableFields,
    quarter: z.string(),
    quarter_list: z.array(z.string()).meta({ description: "The four quarters after `quarter`: the planned-filing columns." }),
  })
  .meta({ id: "DashboardFutureQuarters" });

const SummaryQuery = z
  .object({
    type: z
      .enum(SUMMARY_VIEWS)
      .default("submitted")
      .meta({
        description: Object.entries(SUMMARY_VIEW_LABELS)
          .map(([id, label]) => `${id}: ${label}`)
          .join("; "),
      }),
    page_number: common.page_number,
  })
  .strict();
const ReportState = z.enum(["not started", ...REPORT_STATES]);
const SummaryAnswer = z
  .object({
    quarter: z.string(),
    type: z.enum(SUMMARY_VIEWS),
    rows: z.array(
      z.object({
        partner_id: z.number().int(),
        partner: z.string().meta({ description: "The partner's company name." }),
        email: z.string(),
        pdt_status: ReportState,
        filing_status: ReportState,
        sales_status: ReportState,
      }),
    ),
    partner_ids: z.array(z.number().int()).meta({ description: "Every partner of the view (all pages): whom a bulk reminder names." }),
    ...pagedAnswerFields("Rows of the view, all pages."),
  })
  .meta({ id: "DashboardSummary" });

/** A Country Filings table of the query's quarter: the answer, which names the quarter, and the quarter. */
async function filingTable(
  table: DashboardTableId,
  values: Record<string, string | undefined>,
  query: { quarter?: string; unapproved?: string; page_number?: number },
) {
  const page = tableQuery(table, "filings", { ...values, quarter: query.quarter }, query);
  const [answer, quarter] = await Promise.all([dashboardTable(table, page), resolveQuarter(page.quarter)]);
  return { answer: { ...tableAnswer(answer), quarter: quarter.name }, quarter };
}

export const DASHBOARD_CALLS = [
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/sales/",
    summary:
      "A Sales by Product, Company or Country table: map_with x for with the packs sold and total_value (for=time: map_with by period); " +
      "for=period: a row per period with total_value and the prices per pack and per treatment.",
    query: SalesQuery,
    answer: SalesAnswer,
    errors: [400],
    async handle({ query }) {
      if (query.for === "period") return salesPeriods(tableQuery("sales-over-time", "sales-time", { period: query.period }, query));
      const mapWith = query.map_with!;
      const table = SALES_TABLE[mapWith][query.for]!;
      return tableAnswer(await dashboardTable(table, tableQuery(table, SALES_TAB[mapWith], { period: query.period }, query)));
    },
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/project/",
    summary: "Project counts per status (the Product / Project tab's tiles).",
    query: z.object({}).strict(),
    answer: ProjectCounts,
    errors: [400],
    handle: async () => ({ rows: await projectStatusCounts() }),
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/product/company/",
    summary: "'Product Wise Company Count': per product, how many partners have it in each project status.",
    query: TablesQuery,
    answer: DashboardTableAnswer,
    errors: [400],
    handle: async ({ query }) => tableAnswer(await dashboardTable("product-status-count", tableQuery("product-status-count", "product", {}, query))),
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/company/",
    summary: "'Company Wise Product Count': per partner, how many of its products are in each project status.",
    query: TablesQuery,
    answer: DashboardTableAnswer,
    errors: [400],
    handle: async ({ query }) => tableAnswer(await dashboardTable("company-status-count", tableQuery("company-status-count", "product", {}, query))),
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/product/country/",
    summary: "'Product Wise Country Count': per product, the countries with the filing status in the quarter's Filing Plans.",
    query: ProductCountryQuery,
    answer: FilingTableAnswer,
    errors: [400, 404],
    handle: async ({ query }) => (await filingTable("product-country-count", { filing: query.status }, query)).answer,
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/product/country/quarter/",
    summary: "'Product Wise Country Count' by planned filing quarter: per product, the countries planned for each of the four quarters after the quarter.",
    query: FilingQuery,
    answer: FutureQuartersAnswer,
    errors: [400, 404],
    async handle({ query }) {
      const { answer, quarter } = await filingTable("product-country-count", { filing: "Future-Quarters" }, query);
      return { ...answer, quarter_list: filingScope(quarter).futureQuarters };
    },
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/country/",
    summary: "'Country Wise Product Count': per country and product, how many partners have the filing status (type) in the quarter.",
    query: CountryQuery,
    answer: FilingTableAnswer,
    errors: [400, 404],
    handle: async ({ query }) => (await filingTable("country-product-count", { countryFiling: query.type }, query)).answer,
  }),
  dashboardCall({
    method: "GET",
    path: "/admin/dashboard/",
    summary: "The Summary tab: the active partners of the open quarter in one view (type), with their three reports' states.",
    query: SummaryQuery,
    answer: SummaryAnswer,
    errors: [400],
    async handle({ query }) {
      const quarter = await getOpenQuarter();
      const summary = await summaryPage(quarter, pageQuery({ tab: "summary", view: query.type, table: "summary", page: query.page_number }));
      return {
        quarter: quarter.name,
        type: query.type,
        rows: summary.rows.map((row) => ({
          partner_id: row.partnerId,
          partner: row.companyName,
          email: row.email,
          pdt_status: row.statuses.pdt,
          filing_status: row.statuses.filing,
          sales_status: row.statuses.sales,
        })),
        partner_ids: summary.partnerIds,
        ...pagedAnswer(summary.page),
      };
    },
  }),
];
