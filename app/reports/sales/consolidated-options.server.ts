/**
 * The filter lists of the consolidated Sales Report (spec section 3 "Report filter options"): from
 * the quarter's rows of the tab, each report's distinct values kept under the version of its rows,
 * the names read fresh; except the fixed lists.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { MONTHS } from "~/db/reference-data";
import { countries, formulationTypes, products, reports, salesRows } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import type { FilterOption } from "~/reports/consolidated/paging";
import { cached } from "~/reports/consolidated/quarter-cache.server";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { ReportStatus } from "~/reports/frame/workflow";
import { listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { perReport, reportKeys } from "./consolidated-kept.server";
import type { Scope } from "./consolidated-scope.server";

/** The filter lists (spec section 3): from the quarter's rows of the tab, except the fixed lists. */
export interface SalesFilterOptions {
  /** quarter_filter: the open quarter first, then earlier ones. */
  quarters: string[];
  /** partner_filter: partners with rows of the tab in the quarter. */
  partners: FilterOption[];
  /** product_filter */
  products: FilterOption[];
  /** country_filter */
  countries: FilterOption[];
  /** year_filter */
  years: FilterOption[];
  /** month_filter */
  months: FilterOption[];
  /** purchaser_filter: the first PURCHASER_OPTIONS_MAX distinct purchasers in alphabetical order. */
  purchasers: string[];
  statuses: readonly ReportStatus[];
  /** FDF: formulation types and currency codes used. */
  formulationTypes: FilterOption[];
  currencies: string[];
}

const PURCHASER_OPTIONS_MAX = 200;

/** The distinct values of each filter column in a report's rows of the kind (purchasers: the first PURCHASER_OPTIONS_MAX in alphabetical order). */
interface OptionValues {
  products: number[];
  countries: number[];
  years: number[];
  months: number[];
  formulationTypes: number[];
  currencies: string[];
  purchasers: string[];
}

interface OptionIds extends OptionValues {
  /** The reports with rows of the kind. */
  reports: number[];
}

const noOptionValues = (): OptionValues => ({ products: [], countries: [], years: [], months: [], formulationTypes: [], currencies: [], purchasers: [] });

/**
 * One pass over the reports' rows of the kind: each report's distinct values of each filter column,
 * as arrays made by a subquery per report (sorting a few hundred rows of one report at a time,
 * where grouping sets over (report, column) sorted the whole quarter's rows twice).
 */
async function readOptionValues(scope: Scope, reportIds: number[]): Promise<Map<number, OptionValues>> {
  const distinct = <T>(column: AnyColumn, present: SQL = sql`${column} is not null`) =>
    sql<T[] | null>`array_agg(distinct ${column}) filter (where ${present})`;
  const reportValues = db
    .select({
      rows: sql<number>`count(*)`.as("rows"),
      products: distinct<number>(salesRows.productId).as("products"),
      countries: distinct<number>(salesRows.countryId).as("countries"),
      years: distinct<number>(salesRows.year).as("years"),
      months: distinct<number>(salesRows.month).as("months"),
      formulationTypes: distinct<number>(salesRows.formulationTypeId).as("formulation_types"),
      currencies: distinct<string>(salesRows.currencyCode).as("currencies"),
    })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind)))
    .as("values");
  const rows = await db
    .select({
      reportId: reports.id,
      products: reportValues.products,
      countries: reportValues.countries,
      years: reportValues.years,
      months: reportValues.months,
      formulationTypes: reportValues.formulationTypes,
      currencies: reportValues.currencies,
      // The quarter's first names are among each report's first names: a report of 100,000 rows
      // gives its first PURCHASER_OPTIONS_MAX, not all of its names. An empty purchaser is none.
      purchasers: sql<string[] | null>`(
        select array_agg(name order by name) from (
          select distinct ${salesRows.purchaser} as name from ${salesRows}
          where ${salesRows.reportId} = ${reports.id} and ${salesRows.kind} = ${scope.kind} and ${salesRows.purchaser} <> ''
          order by 1 limit ${PURCHASER_OPTIONS_MAX}
        ) first_purchasers
      )`,
    })
    .from(reports)
    .crossJoinLateral(reportValues)
    .where(and(idIn(reports.id, reportIds), sql`${reportValues.rows} > 0`));
  return new Map(
    rows.map((row) => [
      row.reportId,
      {
        products: row.products ?? [],
        countries: row.countries ?? [],
        years: row.years ?? [],
        months: row.months ?? [],
        formulationTypes: row.formulationTypes ?? [],
        currencies: row.currencies ?? [],
        purchasers: row.purchasers ?? [],
      },
    ]),
  );
}

/**
 * The quarter's filter values: each report's (kept by its key), together; the purchasers in the
 * database's alphabetical order, the first PURCHASER_OPTIONS_MAX. Kept under the reports' keys
 * rather than the quarter's fingerprint: a decision, or a save that leaves the rows as they were,
 * does not send the quarter's names to the database to be ordered again.
 */
async function optionIds(scope: Scope): Promise<OptionIds> {
  if (!scope.reports.length) return { reports: [], ...noOptionValues() };
  const ids = scope.reports.map((report) => report.id);
  const keys = await reportKeys(scope);
  const reportsDigest = createHash("sha1")
    .update(ids.map((id) => keys.get(id)).join(","))
    .digest("base64url");
  return cached(`sales-options|${reportsDigest}`, async () => {
    const byReport = await perReport(scope, ids, "options", (reportIds) => readOptionValues(scope, reportIds), null);
    const reported = [...byReport].flatMap(([reportId, values]) => (values ? [{ reportId, values }] : []));
    const union = <T>(pick: (values: OptionValues) => T[]) => [...new Set(reported.flatMap(({ values }) => pick(values)))];
    const purchasers = union((values) => values.purchasers);
    const firstPurchasers = purchasers.length
      ? await db
          .select({ name: sql<string>`name` })
          .from(sql`json_array_elements_text(${JSON.stringify(purchasers)}::json) as purchasers(name)`)
          .orderBy(sql`name`)
          .limit(PURCHASER_OPTIONS_MAX)
      : [];
    return {
      reports: reported.map(({ reportId }) => reportId),
      products: union((values) => values.products),
      countries: union((values) => values.countries),
      years: union((values) => values.years),
      months: union((values) => values.months),
      formulationTypes: union((values) => values.formulationTypes),
      currencies: union((values) => values.currencies),
      purchasers: firstPurchasers.map((row) => row.name),
    };
  });
}

const byName = (a: FilterOption, b: FilterOption) => a.name.localeCompare(b.name);

export async function filterOptions(scope: Scope): Promise<SalesFilterOptions> {
  const [ids, quarterRows] = await Promise.all([optionIds(scope), listQuartersUpTo(openQuarterRef())]);
  // Names are read fresh (small tables): a renamed product shows its new name at once.
  const [productRows, countryRows, formulationRows] = await Promise.all([
    ids.products.length ? db.select({ id: products.id, name: products.name }).from(products).where(idIn(products.id, ids.products)) : [],
    ids.countries.length ? db.select({ id: countries.id, name: countries.name }).from(countries).where(idIn(countries.id, ids.countries)) : [],
    ids.formulationTypes.length
      ? db
          .select({ id: formulationTypes.id, name: formulationTypes.name })
          .from(formulationTypes)
          .where(idIn(formulationTypes.id, ids.formulationTypes))
          .orderBy(asc(formulationTypes.sortOrder))
      : [],
  ]);
  const partnerOptions = new Map<number, string>();
  const withRows = new Set(ids.reports);
  for (const report of scope.reports) if (withRows.has(report.id)) partnerOptions.set(report.partnerId, report.companyName);
  return {
    quarters: quarterRows.map((quarter) => quarter.name).reverse(),
    partners: [...partnerOptions].map(([id, name]) => ({ id, name })),
    products: productRows.sort(byName),
    countries: countryRows.sort(byName),
    years: [...ids.years].sort((a, b) => b - a).map((year) => ({ id: year, name: String(year) })),
    months: [...ids.months].sort((a, b) => a - b).map((month) => ({ id: month, name: MONTHS[month - 1] ?? String(month) })),
    purchasers: ids.purchasers,
    statuses: REPORT_STATES,
    formulationTypes: scope.kind === "FDF" ? formulationRows : [],
    currencies: scope.kind === "FDF" ? [...ids.currencies].sort() : [],
  };
}
