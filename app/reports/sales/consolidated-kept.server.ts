/**
 * What the consolidated Sales Report keeps of each report, under the version of that report's rows
 * (reportKeys): after a save or a decision only the reports that changed are read again. The
 * counts of the filtered rows per report are kept this way, and the filter lists
 * (consolidated-options.server.ts).
 */
import { and, eq, max, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { reports, salesRows } from "~/db/schema";
import { idIn, OFFSET_ZERO } from "~/db/sql-pieces";
import { cached, keptMany, LAST_VERIFICATION_DECISION } from "~/reports/consolidated/quarter-cache.server";
import type { SalesConsolidatedQuery } from "./consolidated.server";
import { reportRowConditions, type Scope } from "./consolidated-scope.server";

/**
 * Each report's key for what its rows of the kind hold: the version of its rows (rows_version: every
 * change that writes them moves it, a decision does not), its last row of the kind (a row added by
 * any path) and the last product verification decision (it rewrites the product of rows without
 * touching their report). Read when the quarter's fingerprint changes, by a probe per report (about 5 ms at L), so
 * that only the reports that changed are read again.
 */
export function reportKeys(scope: Scope): Promise<Map<number, string>> {
  return cached(`sales-report-keys|${scope.fingerprint}`, async () => {
    const lastRow = db
      .select({ id: max(salesRows.id) })
      .from(salesRows)
      .where(and(eq(salesRows.reportId, reports.id), eq(salesRows.kind, scope.kind)));
    const rows = await db
      .select({
        id: reports.id,
        version: sql<string>`${reports.rowsVersion}::text || ':' || coalesce((${lastRow})::text, '') || ':' || coalesce(${LAST_VERIFICATION_DECISION}, '')`,
      })
      .from(reports)
      .where(
        idIn(
          reports.id,
          scope.reports.map((report) => report.id),
        ),
      );
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    // A report deleted since the scope was read has no rows left: its key says so.
    return new Map(scope.reports.map((report) => [report.id, `sales|${scope.kind}|${report.id}|${versions.get(report.id) ?? "deleted"}`]));
  });
}

/** What `read` gives for each report, kept under the report's key and `what`; only the reports without a kept value are read (together). */

export async function perReport<V>(
  scope: Scope,
  reportIds: readonly number[],
  what: string,
  read: (reportIds: number[]) => Promise<Map<number, V>>,
  absent: V,
) {
  const keys = await reportKeys(scope);
  const keyOf = (reportId: number) => `${keys.get(reportId)}|${what}`;
  const reportOf = new Map(reportIds.map((reportId) => [keyOf(reportId), reportId]));
  const values = await keptMany(
    [...reportOf.keys()],
    async (missing) => {
      const found = await read(missing.map((key) => reportOf.get(key)!));
      return new Map([...found].map(([reportId, value]) => [keyOf(reportId), value]));
    },
    absent,
  );
  return new Map([...values].map(([key, value]) => [reportOf.get(key)!, value]));
}

/** The query's filters (partner and report status too), without its paging, order, quarter and tab: what a count or an order is kept under. */
export const filterKey = (query: SalesConsolidatedQuery) =>
  JSON.stringify({ ...query, page: undefined, sort: undefined, dir: undefined, quarter: undefined, tab: undefined });

/** Filtered rows per report (selected reports only); the sum is the total. */
export function countsPerReport(scope: Scope): Promise<Map<number, number>> {
  if (!scope.selected.length) return Promise.resolve(new Map());
  const { query } = scope;
  const filters = filterKey(query);
  const ids = scope.selected.map((report) => report.id);
  return cached(`sales-count|${scope.fingerprint}|${filters}`, () =>
    perReport(
      scope,
      ids,
      `count|${filters}`,
      async (reportIds) => {
        // Counted through the index alone when no row filter is set; OFFSET 0 keeps it a per-report index scan.
        const s = db
          .select({ one: sql<number>`1`.as("one") })
          .from(salesRows)
          .where(reportRowConditions(scope, reports.id))
          .offset(OFFSET_ZERO)
          .as("s");
        const rows = await db
          .select({ reportId: reports.id, count: sql<number>`count(*)`.mapWith(Number) })
          .from(reports)
          .crossJoinLateral(s)
          .where(idIn(reports.id, reportIds))
          .groupBy(reports.id);
        return new Map(rows.map((row) => [row.reportId, row.count]));
      },
      0,
    ),
  );
}
