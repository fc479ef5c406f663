/**
 * The jobs that keep the Sales Report's stored checks current (the partners' mean prices and each
 * report's finding counts: app/reports/sales/stored-checks.server.ts), queued in the transaction of
 * the change they follow, so a rolled-back change queues nothing.
 */
import type { Transaction } from "~/db/client.server";
import { enqueueJobs, type ChecksScope, type QueuedJob } from "./queue.server";

/** One waiting job per queue and scope: a burst of saves is counted once. */
const scopeKey = ({ partnerId, quarterId }: ChecksScope) => `partner:${partnerId ?? "all"}/quarter:${quarterId ?? "all"}`;
export const priceMeansJob = (scope: ChecksScope): QueuedJob => ({ name: "sales-price-means", data: scope, singletonKey: scopeKey(scope) });
export const reportChecksJob = (scope: ChecksScope): QueuedJob => ({ name: "report-checks", data: scope, singletonKey: scopeKey(scope) });

/**
 * After a Sales save or submission: the report's counts, and, when its rows changed, its partner's
 * means in the quarter (which recount the quarter when they moved).
 */
export function queueSalesReportChecks(tx: Transaction, { partnerId, quarterId }: Required<ChecksScope>, rowsChanged: boolean) {
  return enqueueJobs(tx, [...(rowsChanged ? [priceMeansJob({ partnerId, quarterId })] : []), reportChecksJob({ partnerId, quarterId })]);
}

/** After sales rows of the partner were given a product (a product verification): its means and counts in every quarter. */
export function queuePartnerSalesChecks(tx: Transaction, partnerId: number) {
  return enqueueJobs(tx, [priceMeansJob({ partnerId }), reportChecksJob({ partnerId })]);
}

/**
 * After a change that the partner's Sales Reports of every quarter are checked against: its licence
 * terms, its timeline and the project statuses it sets, its Filing Plans (read by later quarters too).
 */
export function queuePartnerChecks(tx: Transaction, partnerId: number) {
  return enqueueJobs(tx, [reportChecksJob({ partnerId })]);
}
