/**
 * The product verifications that hold up a decision on a report (decisions.md section 4: no
 * approval or rejection while one is pending). Only database reads: the workflow runs them in its
 * transaction.
 */
import { and, count, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { db } from "~/db/client.server";
import { productVerifications, salesRows } from "~/db/schema";

type Reader = Pick<typeof db, "select">;

async function pendingCount(executor: Reader, ofReport: SQL | undefined) {
  const [{ value }] = await executor
    .select({ value: count() })
    .from(productVerifications)
    .where(and(eq(productVerifications.status, "pending"), ofReport));
  return Number(value);
}

/** Pending verifications the report raised. */
export function pendingVerificationsRaisedBy(executor: Reader, reportId: number) {
  return pendingCount(executor, eq(productVerifications.reportId, reportId));
}

/**
 * Pending product verifications that hold up a Sales Report: those raised by it, and those its
 * rows carry (a name already waiting since an earlier report is reused, not raised again).
 */
export function pendingVerificationCount(executor: Reader, reportId: number) {
  const carried = executor
    .select({ id: salesRows.productVerificationId })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reportId), isNotNull(salesRows.productVerificationId)));
  return pendingCount(executor, or(eq(productVerifications.reportId, reportId), inArray(productVerifications.id, carried)));
}
