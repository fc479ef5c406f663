/**
 * Country Filings (dashboard tab 3), read from dashboard_filings: the Filing Plans cells of one
 * quarter's reports, counted per product, country and status by the database's triggers.
 * Only approved reports count unless the administrator asks for every report.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { countries, dashboardFilings, products } from "~/db/schema";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { pagedTable, tableWindow, type DashboardTable } from "~/reports/dashboard/tables";
import { plannedFilingQuarters } from "~/reports/filing/statuses";
import type { Quarter } from "../quarter.server";

const f = dashboardFilings;

interface FilingScope {
  quarter: Quarter;
  /** The four quarters after the selected one: the planned-filing statuses. */
  futureQuarters: string[];
}

export function filingScope(quarter: Quarter): FilingScope {
  return { quarter, futureQuarters: plannedFilingQuarters(quarter) };
}

const inScope = (scope: FilingScope, query: DashboardQuery) => and(eq(f.quarterId, scope.quarter.id), eq(f.approvedOnly, !query.unapproved));

/** 'Product Wise Country Count': per product, the countries with the status, or per future quarter. */
export async function productCountryCount(scope: FilingScope, query: DashboardQuery, all = false): Promise<DashboardTable> {
  const id = "product-country-count";
  const future = query.filing === "Future-Quarters";
  const statuses = future ? scope.futureQuarters : [query.filing];
  const rows = await db
    .select({
      name: products.name,
      counts: sql<number[]>`array[${sql.join(
        statuses.map((status) => sql`(count(distinct ${f.countryId}) filter (where ${f.status} = ${status}))::int`),
        sql`, `,
      )}]`,
    })
    .from(f)
    .innerJoin(products, eq(products.id, f.productId))
    .where(and(inScope(scope, query), inArray(f.status, statuses)))
    .groupBy(products.id, products.name)
    .orderBy(asc(sql`lower(${products.name})`), asc(products.id));
  return pagedTable(
    id,
    "Product Wise Country Count",
    [
      { key: "product", label: "Product" },
      ...(future
        ? statuses.map((status) => ({ key: status, label: status, raw: true, numeric: true }))
        : [{ key: "countries", label: "Number of countries", numeric: true }]),
    ],
    rows.map((row) => [row.name, ...row.counts.map(Number)]),
    query,
    all,
  );
}

/** 'Country Wise Product Count': per country and product, how many partners have the status (and which planned quarter). */
export async function countryProductCount(scope: FilingScope, query: DashboardQuery, all = false): Promise<DashboardTable> {
  const id = "country-product-count";
  const future = query.countryFiling === "Future Quarter Status";
  const statuses = future ? scope.futureQuarters : [query.countryFiling];
  const where = and(inScope(scope, query), inArray(f.status, statuses));
  const [{ value: total }] = await db
    .select({ value: sql<number>`count(distinct (${f.countryId}, ${f.productId}, ${f.status}))::int` })
    .from(f)
    .where(where);
  const window = tableWindow(query, id, Number(total), all);
  const quarterOrder = sql`array_position(array[${sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  )}]::text[], ${f.status})`;
  const rows = await db
    .select({ country: countries.name, product: products.name, status: f.status, partners: sql<number>`sum(${f.partners})::int` })
    .from(f)
    .innerJoin(countries, eq(countries.id, f.countryId))
    .innerJoin(products, eq(products.id, f.productId))
    .where(where)
    .groupBy(countries.id, countries.name, products.id, products.name, f.status)
    .orderBy(asc(countries.name), asc(countries.id), asc(sql`lower(${products.name})`), asc(products.id), asc(quarterOrder))
    .limit(window.limit)
    .offset(window.offset);
  return {
    id,
    title: "Country Wise Product Count",
    columns: [
      { key: "country", label: "Country", country: true },
      { key: "product", label: "Product" },
      ...(future ? [{ key: "status", label: "Status" }] : []),
      { key: "partners", label: "Number of partners", numeric: true },
    ],
    rows: rows.map((row) => [row.country, row.product, ...(future ? [row.status] : []), Number(row.partners)]),
    page: window.page,
  };
}

interface MapCountry {
  isoCode: string;
  name: string;
  value: number;
}

/** Per country, the products with the 'Product Wise Country Count' status (any planned quarter for Future-Quarters): the map's shading. */
export async function filingMap(scope: FilingScope, query: DashboardQuery): Promise<MapCountry[]> {
  const statuses = query.filing === "Future-Quarters" ? scope.futureQuarters : [query.filing];
  const rows = await db
    .select({ isoCode: countries.isoCode, name: countries.name, value: sql<number>`count(distinct ${f.productId})::int` })
    .from(f)
    .innerJoin(countries, eq(countries.id, f.countryId))
    .where(and(inScope(scope, query), inArray(f.status, statuses)))
    .groupBy(countries.id, countries.isoCode, countries.name)
    .orderBy(desc(sql`count(distinct ${f.productId})`), asc(countries.name));
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}
