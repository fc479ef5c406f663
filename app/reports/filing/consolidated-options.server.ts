/**
 * The product columns and the filter lists of the Filing Plans consolidated report: from what the
 * quarter's cells hold (kept under the quarter's reports fingerprint), the names read fresh; the
 * value a link selects is listed too, so that the form shows every filter in force.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, products, reports } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import type { FilterOption } from "~/reports/consolidated/paging";
import { quarterDropdown, REPORT_STATUS_OPTIONS, withSelected } from "~/reports/consolidated/filter-lists.server";
import { cachedUnder, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";
import { companyOrder, countryOrder, HAS_FILING, reportConditions } from "./consolidated-groups.server";
import type { FilingQuery } from "./consolidated.server";
import { listFilingStatuses } from "./statuses.server";

/**
 * What the quarter's cells hold: the partners with a filing (a probe per report, which stops at its
 * first filing), and in one pass over the cells the countries with a filing and the (product,
 * status) pairs stored. The partners were a third grouping set of that pass, its costliest.
 */
async function quarterCellFacets(quarterId: number) {
  const quarterReports = reportConditions({}, quarterId);
  const [partnerRows, rows] = await Promise.all([
    db
      .select({ partnerId: reports.partnerId })
      .from(reports)
      .where(and(quarterReports, sql`exists (select 1 from ${filingValues} where ${filingValues.reportId} = ${reports.id} and ${HAS_FILING})`)),
    db
      .select({ countryId: filingValues.countryId, productId: filingValues.productId, status: filingValues.status })
      .from(reports)
      .innerJoin(filingValues, eq(filingValues.reportId, reports.id))
      .where(and(quarterReports, HAS_FILING))
      .groupBy(sql`grouping sets ((${filingValues.countryId}), (${filingValues.productId}, ${filingValues.status}))`),
  ]);
  const pairs = rows.filter((row) => row.productId != null);
  return {
    partnerIds: partnerRows.map((row) => row.partnerId),
    countryIds: rows.flatMap((row) => (row.countryId == null ? [] : [row.countryId])),
    productIds: [...new Set(pairs.map((pair) => pair.productId))],
    statuses: [...new Set(pairs.map((pair) => pair.status))],
  };
}

/** The quarter's facets, kept under its reports' fingerprint. */
export function keptCellFacets(quarterId: number, fingerprint: Promise<string> = reportsFingerprint(quarterId, "filing")) {
  return cachedUnder(fingerprint, "filing-facets", () => quarterCellFacets(quarterId));
}

/** The product columns: the products with a filing in the quarter, by name. */
export async function productColumns(productIds: number[]): Promise<FilterOption[]> {
  if (!productIds.length) return [];
  return db
    .select({ id: products.id, name: products.name })
    .from(products)
    .where(idIn(products.id, productIds))
    .orderBy(asc(sql`lower(${products.name})`), asc(products.name), asc(products.id));
}

/** The names `read` gives for the ids, none read when there are no ids. */
const namesOf = (ids: number[], read: (ids: number[]) => Promise<FilterOption[]>) => (ids.length ? read(ids) : Promise.resolve([]));

/** The product filter: the quarter's products (the columns), and the selected one if it is not among them. */
async function productOptions(columns: FilterOption[], selected: number | undefined): Promise<FilterOption[]> {
  if (!selected || columns.some((product) => product.id === selected)) return columns;
  const [product] = await db.select({ id: products.id, name: products.name }).from(products).where(eq(products.id, selected));
  if (!product) return columns;
  const compare = (a: FilterOption, b: FilterOption) => a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return [...columns, product].sort(compare);
}

/** The statuses a cell of the quarter may hold (both categories' lists, in order), then any other status stored in it (or selected). */
async function quarterStatuses(
  quarter: { year: number; quarter: number },
  stored: readonly string[],
  selected: string | undefined,
): Promise<FilterOption<string>[]> {
  const lists = await listFilingStatuses({ year: quarter.year, quarter: quarter.quarter });
  const names = [...new Set([...lists.API, ...lists.FDF])];
  const known = new Set(names);
  const others = [...new Set([...stored, ...(selected ? [selected] : [])])].filter((status) => !known.has(status)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...names, ...others].map((name) => ({ id: name, name }));
}

/** The quarter dropdown: the open quarter first, then earlier quarters, newest first. */

/** The product columns and the filters' option lists. */
export async function filingFilters(query: FilingQuery, quarter: { id: number; year: number; quarter: number }, fingerprint: Promise<string>) {
  const [facets, quarterOptions] = await Promise.all([keptCellFacets(quarter.id, fingerprint), quarterDropdown()]);
  const [columns, partnerOptions, countryOptions, statusOptions] = await Promise.all([
    productColumns(facets.productIds),
    namesOf(withSelected(facets.partnerIds, query.partner), (ids) =>
      db
        .select({ id: partners.id, name: partners.companyName })
        .from(partners)
        .where(idIn(partners.id, ids))
        .orderBy(...companyOrder("asc")),
    ),
    namesOf(withSelected(facets.countryIds, query.country), (ids) =>
      db
        .select({ id: countries.id, name: countries.name })
        .from(countries)
        .where(idIn(countries.id, ids))
        .orderBy(...countryOrder("asc")),
    ),
    quarterStatuses(quarter, facets.statuses, query.productStatus),
  ]);
  const productFilter = await productOptions(columns, query.product);
  return {
    products: columns,
    options: {
      quarter_filter: quarterOptions,
      partner_filter: partnerOptions,
      country_filter: countryOptions,
      product_filter: productFilter,
      status_filter: statusOptions,
      report_status_filter: REPORT_STATUS_OPTIONS,
    },
  };
}
