/**
 * What every read of the consolidated Sales Report starts from: the quarter's sales reports (a few
 * hundred rows, reports_quarter_type_idx), narrowed by the partner and report-status filters before
 * any row is read, and the conditions the other filters put on each report's rows.
 *
 * A report's rows are read through sales_rows_report_kind_idx (report_id, kind, id) by a subquery
 * of their own per report, so the planner never trades the index for a scan of the whole table.
 */
import { and, asc, eq, ilike, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partners, reports, salesRows } from "~/db/schema";
import type { ReportStatus } from "~/reports/frame/workflow";
import { reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import type { SalesKind } from "~/reports/sales/columns";
import type { SalesConsolidatedQuery } from "./consolidated.server";

export interface QuarterReport {
  id: number;
  partnerId: number;
  companyName: string;
  status: ReportStatus;
}

export interface Scope {
  quarter: { id: number; name: string };
  kind: SalesKind;
  query: SalesConsolidatedQuery;
  /** Every sales report of the quarter, by company name then id. */
  reports: QuarterReport[];
  /** The reports the partner and report-status filters keep, in the same order. */
  selected: QuarterReport[];
  /** Changes whenever a report, its rows or a product verification changes. */
  fingerprint: string;
}

/** The filters of the FDF tab that the API tab does not have. */
const FDF_ONLY_FILTERS = ["strength", "formulationType", "currency", "procurementEndCountry", "comments"] as const;

/** The query as the report applies it: the FDF filters dropped on the API tab, the currency upper-cased. */
function normaliseSalesQuery(query: SalesConsolidatedQuery): SalesConsolidatedQuery {
  const normalised = { ...query, currency: query.currency?.toUpperCase() };
  if (normalised.tab === "API") for (const key of FDF_ONLY_FILTERS) normalised[key] = undefined;
  return normalised;
}

export async function loadScope(rawQuery: SalesConsolidatedQuery): Promise<Scope> {
  const query = normaliseSalesQuery(rawQuery);
  const kind = query.tab;
  const quarter = await resolveQuarter(query.quarter);
  const [reportRows, reportsKey] = await Promise.all([
    db
      .select({ id: reports.id, partnerId: reports.partnerId, companyName: partners.companyName, status: reports.status })
      .from(reports)
      .innerJoin(partners, eq(partners.id, reports.partnerId))
      .where(and(eq(reports.quarterId, quarter.id), eq(reports.type, "sales")))
      .orderBy(asc(partners.companyName), asc(reports.id)),
    reportsFingerprint(quarter.id, "sales"),
  ]);
  const fingerprint = `${reportsKey}|${kind}`;
  const selected = reportRows.filter(
    (report) =>
      (query.partner === undefined || report.partnerId === query.partner) && (query.reportStatus === undefined || report.status === query.reportStatus),
  );
  return { quarter: { id: quarter.id, name: quarter.name }, kind, query, reports: reportRows, selected, fingerprint };
}

/** `%`, `_` and `\` typed by a user are searched for literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The conditions on sales_rows besides its report and kind. */
function rowConditions(query: SalesConsolidatedQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.year !== undefined) conditions.push(eq(salesRows.year, query.year));
  if (query.month !== undefined) conditions.push(eq(salesRows.month, query.month));
  if (query.country !== undefined) conditions.push(eq(salesRows.countryId, query.country));
  if (query.product !== undefined) conditions.push(eq(salesRows.productId, query.product));
  if (query.purchaser) conditions.push(ilike(salesRows.purchaser, containsPattern(query.purchaser)));
  if (query.strength) conditions.push(ilike(salesRows.strength, containsPattern(query.strength)));
  if (query.formulationType !== undefined) conditions.push(eq(salesRows.formulationTypeId, query.formulationType));
  if (query.currency) conditions.push(eq(salesRows.currencyCode, query.currency));
  if (query.procurementEndCountry) conditions.push(ilike(salesRows.procurementEndCountry, containsPattern(query.procurementEndCountry)));
  if (query.comments) conditions.push(ilike(salesRows.comments, containsPattern(query.comments)));
  return conditions;
}

/** The rows of the scope's kind of one report (an id, or a column of the outer query) that the filters keep. */
export const reportRowConditions = (scope: Scope, report: SQL | number | typeof reports.id): SQL =>
  and(eq(salesRows.reportId, report), eq(salesRows.kind, scope.kind), ...rowConditions(scope.query))!;
