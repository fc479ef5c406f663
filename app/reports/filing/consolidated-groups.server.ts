/**
 * The rows of the Filing Plans consolidated report as (report, country) groups of the quarter's
 * cells with a filing: the filters on reports, cells and groups, and the orders the page and the
 * filter lists share.
 */
import { and, asc, desc, eq, notInArray, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, reports } from "~/db/schema";
import type { ReportStatus } from "~/reports/frame/workflow";
import type { FilingQuery } from "./consolidated.server";

/** A stored cell with a filing: "" and "0" are never written by the screens ("0" deletes a cell), but not counted if they were. */
export const HAS_FILING = notInArray(filingValues.status, ["", "0"]);

/** The quarter's Filing Plans reports that the partner and report-status filters keep. */
export function reportConditions(query: Pick<FilingQuery, "partner" | "reportStatus">, quarterId: number): SQL {
  return and(
    eq(reports.quarterId, quarterId),
    eq(reports.type, "filing"),
    query.partner ? eq(reports.partnerId, query.partner) : undefined,
    query.reportStatus ? eq(reports.status, query.reportStatus) : undefined,
  )!;
}

/** A report's cells with a filing that the country filter keeps. */
export function cellConditions(query: Pick<FilingQuery, "country">): SQL {
  return and(HAS_FILING, query.country ? eq(filingValues.countryId, query.country) : undefined)!;
}

/** The filters every query of the report shares: the quarter's Filing Plans reports and their cells with a filing. */
function whereOf(query: FilingQuery, quarterId: number): SQL {
  return and(reportConditions(query, quarterId), cellConditions(query))!;
}

/** The product-status condition on a (report, country) group, or none. */
export function havingOf(query: FilingQuery): SQL | undefined {
  const { product, productStatus } = query;
  if (product && productStatus) return sql`bool_or(${filingValues.productId} = ${product} and ${filingValues.status} = ${productStatus})`;
  if (product) return sql`bool_or(${filingValues.productId} = ${product})`;
  if (productStatus) return sql`bool_or(${filingValues.status} = ${productStatus})`;
  return undefined;
}

export type RowKey = { reportId: number; countryId: number };

/** A (report, country) group's key, the report's partner and its state. */
const groupKey = {
  reportId: sql<number>`${reports.id}`.as("report_id"),
  partnerId: sql<number>`${reports.partnerId}`.as("partner_id"),
  reportStatus: sql<ReportStatus>`${reports.status}`.as("report_status"),
  countryId: sql<number>`${filingValues.countryId}`.as("country_id"),
};

/** `select` (of reports) over the groups of the reports' cells that `where` and the product-status condition keep. */
const grouped = <Query extends PgSelect>(select: Query, query: FilingQuery, where: SQL) =>
  select.innerJoin(filingValues, eq(filingValues.reportId, reports.id)).where(where).groupBy(reports.id, filingValues.countryId).having(havingOf(query));

/**
 * The rows of the report, as (report, country) groups with the report's partner and state and the
 * cells; with `after`, only the groups after that key (the download's keyset: both conditions are
 * written on the indexed columns, so each batch starts where the last one ended).
 */
export function groupsOf(query: FilingQuery, quarterId: number, after?: RowKey | null) {
  const keyset = after
    ? and(sql`${reports.id} >= ${after.reportId}`, sql`(${filingValues.reportId}, ${filingValues.countryId}) > (${after.reportId}, ${after.countryId})`)
    : undefined;
  const cells = sql<Record<string, string>>`jsonb_object_agg(${filingValues.productId}::text, ${filingValues.status})`.as("cells");
  return grouped(
    db
      .select({ ...groupKey, cells })
      .from(reports)
      .$dynamic(),
    query,
    and(whereOf(query, quarterId), keyset)!,
  );
}

/** The (report, country) groups without their cells: what the count and the page's sort read. */
export function groupKeysOf(query: FilingQuery, quarterId: number) {
  return grouped(db.select(groupKey).from(reports).$dynamic(), query, whereOf(query, quarterId));
}

/** A row's key, partner and state from a subquery of groups, with its company's and country's names (joined by the caller). */
export const namedRow = (groups: {
  reportId: SQL.Aliased<number>;
  partnerId: SQL.Aliased<number>;
  countryId: SQL.Aliased<number>;
  reportStatus: SQL.Aliased<ReportStatus>;
}) => ({
  reportId: groups.reportId,
  partnerId: groups.partnerId,
  companyName: partners.companyName,
  countryId: groups.countryId,
  country: countries.name,
  reportStatus: groups.reportStatus,
});

export const companyOrder = (dir: "asc" | "desc") => {
  const order = dir === "desc" ? desc : asc;
  return [order(sql`lower(${partners.companyName})`), order(partners.companyName), order(partners.id)];
};
export const countryOrder = (dir: "asc" | "desc") => {
  const order = dir === "desc" ? desc : asc;
  return [order(countries.name), order(countries.id)];
};
