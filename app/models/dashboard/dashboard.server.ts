/**
 * The admin dashboard (spec section 2 "Admin dashboard"): what each tab shows, and every table by
 * id for its downloads. A tab's page and a table's download are built by the same functions, so a
 * download holds exactly the table's rows (every page of them).
 */
import { readQuery } from "~/utils/query-string.server";
import { dashboardQuery, type DashboardQuery } from "~/reports/dashboard/query";
import { type DashboardTab } from "~/reports/dashboard/view";
import { isDashboardTableId, pagedTable, type DashboardCell, type DashboardTable, type DashboardTableId } from "~/reports/dashboard/tables";
import { PAGE_NOT_FOUND } from "~/utils/messages";
import { tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import { getOpenQuarter, listQuartersUpTo, openQuarterRef, type Quarter } from "../quarter.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import { countryProductCount, filingMap, filingScope, productCountryCount } from "./filings.server";
import { projectStatusCounts, projectStatusTable, statusCountTable } from "./projects.server";
import { royaltiesTable } from "./royalties.server";
import { priceByPeriod, pricedProducts, salesByPeriod, salesCrossTable, salesOverTimeTable, type PeriodFigure, type PriceFigure } from "./sales.server";
import { summaryPage, summaryTable } from "./summary.server";

type TableBuilder = (query: DashboardQuery, all: boolean) => Promise<DashboardTable>;

/** The Country Filings tab's quarter: the one the link names, else the open quarter (when the caller has it already). */
async function filingScopeOf(query: DashboardQuery, openQuarter?: Quarter) {
  return filingScope(!query.quarter && openQuarter ? openQuarter : await resolveQuarter(query.quarter));
}

/** The Royalties tab's quarter: the one the link names, else the open quarter. */
const royaltiesQuarterOf = async (query: DashboardQuery, openQuarter?: Quarter) =>
  !query.quarter && openQuarter ? openQuarter : resolveQuarter(query.quarter);

/** The quarters a tab's quarter list offers: the open one first, then earlier ones. */
const quarterChoices = async () => (await listQuartersUpTo(openQuarterRef())).map((quarter) => quarter.name).reverse();

/** Periods a chart shows: the latest ones. */
const CHART_PERIODS = 24;

/** A table of a period per row, with a column per figure (its key in the row, its label). */
function periodsTable<Figure extends string, Row extends { label: string } & Record<Figure, DashboardCell>>(
  id: DashboardTableId,
  title: string,
  figures: [Figure, string][],
  rows: Row[],
  query: DashboardQuery,
  all: boolean,
) {
  return pagedTable(
    id,
    title,
    [{ key: "period", label: "Period", period: true }, ...figures.map(([key, label]) => ({ key, label, numeric: true }))],
    rows.map((row) => [row.label, ...figures.map(([key]) => row[key])]),
    query,
    all,
  );
}

const salesPeriodsTable = (periods: PeriodFigure[], query: DashboardQuery, all: boolean) =>
  periodsTable(
    "sales-over-time",
    "Sales over Time",
    [
      ["units", "Sales total"],
      ["value", "Sales value (USD)"],
    ],
    periods,
    query,
    all,
  );

const pricePeriodsTable = (prices: PriceFigure[], query: DashboardQuery, all: boolean) =>
  periodsTable(
    "price-over-time",
    "Price by Period",
    [
      ["pricePerPack", "Price per pack (USD)"],
      ["pricePerTreatment", "Price per treatment (USD)"],
    ],
    prices,
    query,
    all,
  );

const TABLES: Record<DashboardTableId, TableBuilder> = {
  "project-status": async (query, all) => projectStatusTable(await projectStatusCounts(), query, all),
  "product-status-count": (query, all) => statusCountTable("product-status-count", query, all),
  "company-status-count": (query, all) => statusCountTable("company-status-count", query, all),
  summary: async (query, all) => summaryTable(await summaryPage(await getOpenQuarter(), query, all), "Summary"),
  "product-country-count": async (query, all) => productCountryCount(await filingScopeOf(query), query, all),
  "country-product-count": async (query, all) => countryProductCount(await filingScopeOf(query), query, all),
  "product-company-sales": (query, all) => salesCrossTable("product-company-sales", "Product Wise Company Sales", "product", "partner", query, all),
  "product-country-sales": (query, all) => salesCrossTable("product-country-sales", "Product Wise Country Sales", "product", "country", query, all),
  "product-time-sales": (query, all) => salesOverTimeTable("product-time-sales", "Product Wise Sales over Time", "product", query, all),
  "company-product-sales": (query, all) => salesCrossTable("company-product-sales", "Company Wise Product Sales", "partner", "product", query, all),
  "company-country-sales": (query, all) => salesCrossTable("company-country-sales", "Company Wise Country Sales", "partner", "country", query, all),
  "company-time-sales": (query, all) => salesOverTimeTable("company-time-sales", "Company Wise Sales over Time", "partner", query, all),
  "country-product-sales": (query, all) => salesCrossTable("country-product-sales", "Country Wise Product Sales", "country", "product", query, all),
  "country-company-sales": (query, all) => salesCrossTable("country-company-sales", "Country Wise Company Sales", "country", "partner", query, all),
  "country-time-sales": (query, all) => salesOverTimeTable("country-time-sales", "Country Wise Sales over Time", "country", query, all),
  "sales-over-time": async (query, all) => salesPeriodsTable(await salesByPeriod(query), query, all),
  "price-over-time": async (query, all) => pricePeriodsTable(await priceByPeriod(query), query, all),
  royalties: async (query, all) => royaltiesTable(await royaltiesQuarterOf(query), query, all),
};

/** One dashboard table under the query's filters: the page the query names, or every row (`all`). */
export function dashboardTable(tableId: DashboardTableId, query: DashboardQuery, all = false): Promise<DashboardTable> {
  return TABLES[tableId](query, all);
}

/** The dashboard view a link asks for (read here, on the server: the page does not ship the schema). */
export function readDashboardQuery(url: URL): DashboardQuery {
  return readQuery(dashboardQuery, url);
}

/** Characters a worksheet's name may not hold. */
const NOT_IN_SHEET_NAMES = /[*?:\\/[\]]/g;

/**
 * A table's download: every row under the link's filters. In a workbook the figures are numbers;
 * in a CSV they stay the exact decimals shown on the page, written as numbers when they are
 * exactly one (a negative figure is a number, not text to neutralise as a formula).
 */
export async function dashboardDownload(tableId: string | undefined, url: URL, format: DownloadFormat): Promise<Response> {
  if (!isDashboardTableId(tableId)) throw new WorkflowError(PAGE_NOT_FOUND, 404);
  const query = readDashboardQuery(url);
  const table = await TABLES[tableId](query, true);
  const numeric = table.columns.map((column) => Boolean(column.numeric));
  const figure = (cell: string) => {
    const value = Number(cell);
    return format === "xlsx" || String(value) === cell ? value : cell;
  };
  const rows = table.rows.map((row) => row.map((cell, index) => (numeric[index] && typeof cell === "string" ? figure(cell) : cell)));
  return tableDownload(
    format,
    { basename: tableId, sheet: table.title.replace(NOT_IN_SHEET_NAMES, "").slice(0, 31) },
    table.columns.map((column) => ({ key: column.key, label: column.label })),
    (async function* () {
      yield* rows;
    })(),
  );
}

const SALES_TABLES = {
  "sales-product": ["product-company-sales", "product-country-sales", "product-time-sales"],
  "sales-company": ["company-product-sales", "company-country-sales", "company-time-sales"],
  "sales-country": ["country-product-sales", "country-company-sales", "country-time-sales"],
} as const satisfies Partial<Record<DashboardTab, readonly DashboardTableId[]>>;

const tablesOf = (ids: readonly DashboardTableId[], query: DashboardQuery) => Promise.all(ids.map((id) => TABLES[id](query, false)));

/** What one tab shows: its tables (one page each) and what its charts and filters need. */
export async function loadDashboardTab(query: DashboardQuery, openQuarter: Quarter) {
  switch (query.tab) {
    case "product": {
      const [tiles, tables] = await Promise.all([projectStatusCounts(), tablesOf(["product-status-count", "company-status-count"], query)]);
      return { tab: query.tab, tiles, tables };
    }
    case "summary": {
      return { tab: query.tab, quarterName: openQuarter.name, summary: await summaryPage(openQuarter, query) };
    }
    case "filings": {
      const scope = await filingScopeOf(query, openQuarter);
      const [tables, map, quarters] = await Promise.all([
        Promise.all([productCountryCount(scope, query), countryProductCount(scope, query)]),
        filingMap(scope, query),
        quarterChoices(),
      ]);
      return {
        tab: query.tab,
        quarterName: scope.quarter.name,
        quarters,
        futureQuarters: scope.futureQuarters,
        tables,
        map,
      };
    }
    case "sales-product":
    case "sales-company":
    case "sales-country":
      return { tab: query.tab, tables: await tablesOf(SALES_TABLES[query.tab], query) };
    case "sales-time": {
      const periods = await salesByPeriod(query);
      return { tab: query.tab, chart: periods.slice(0, CHART_PERIODS).reverse(), tables: [salesPeriodsTable(periods, query, false)] };
    }
    case "price": {
      const [prices, products] = await Promise.all([priceByPeriod(query), pricedProducts(query)]);
      return { tab: query.tab, chart: prices.slice(0, CHART_PERIODS).reverse(), tables: [pricePeriodsTable(prices, query, false)], products };
    }
    case "royalties": {
      const quarter = await royaltiesQuarterOf(query, openQuarter);
      const [table, quarters] = await Promise.all([royaltiesTable(quarter, query), quarterChoices()]);
      return { tab: query.tab, quarterName: quarter.name, quarters, tables: [table] };
    }
  }
}

export type DashboardTabView = Awaited<ReturnType<typeof loadDashboardTab>>;
