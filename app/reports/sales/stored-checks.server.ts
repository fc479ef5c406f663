/**
 * What the stored-checks jobs do (queued by app/jobs/checks-jobs.server.ts, worked in
 * app/jobs/worker.server.ts), and the backfill of a whole database: the seed, the benchmark data,
 * and a database whose reports were written before the stored checks.
 */
import { eq, sql } from "drizzle-orm";
import { db, type Database, type Transaction } from "~/db/client.server";
import { reportCheckCounts, reports } from "~/db/schema";
import { priceMeansJob, reportChecksJob } from "~/jobs/checks-jobs.server";
import { enqueueJobs, type ChecksScope } from "~/jobs/queue.server";
import { refreshSalesCheckCounts } from "./checks.server";
import { refreshSalesPriceMeans } from "./price-means.server";

/** The "sales-price-means" job: refreshes the scope's means and, in the same transaction, queues the counts of each quarter whose means changed. */
export function workSalesPriceMeans(scope: ChecksScope) {
  return db.transaction(async (tx) => {
    const changed = await refreshSalesPriceMeans(scope, tx);
    await enqueueJobs(
      tx,
      changed.map((quarterId) => reportChecksJob({ quarterId })),
    );
  });
}

/** The "report-checks" job. */
export function workReportChecks(scope: ChecksScope) {
  return refreshSalesCheckCounts(scope, db);
}

/** Every quarter's means, then its counts, quarter by quarter (each statement reads one quarter's rows); answers the quarters refreshed. */
export async function refreshAllSalesChecks(executor: Database | Transaction): Promise<number> {
  const quarterIds = await executor.selectDistinct({ id: reports.quarterId }).from(reports).where(eq(reports.type, "sales")).orderBy(reports.quarterId);
  for (const { id } of quarterIds) {
    await refreshSalesPriceMeans({ quarterId: id }, executor);
    await refreshSalesCheckCounts({ quarterId: id }, executor);
  }
  return quarterIds.length;
}

/** When a worker starts: the quarters with a Sales Report not counted yet (written before the stored checks, or by hand) are queued, means and counts. */
export async function queueUncountedSalesChecks() {
  await db.transaction(async (tx) => {
    const uncounted = await tx
      .selectDistinct({ id: reports.quarterId })
      .from(reports)
      .where(sql`${reports.type} = 'sales' and not exists (select 1 from ${reportCheckCounts} where ${reportCheckCounts.reportId} = ${reports.id})`);
    await enqueueJobs(
      tx,
      uncounted.flatMap(({ id }) => [priceMeansJob({ quarterId: id }), reportChecksJob({ quarterId: id })]),
    );
  });
}
