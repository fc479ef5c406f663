/**
 * The product verifications that hold up a decision on a Sales Report (decisions.md section 4: no
 * approval or rejection while one is pending). Only database reads: the workflow runs them in its
 * transaction.
 */
import { and, count, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { db } from "~/db/client.server";
import { productVerifications, salesRows } from "~/db/schema";

/**
 * Pending product verifications that hold up a Sales Report: those raised by it, and those its
 * rows carry (a name already waiting since an earlier report is reused, not raised again).
 */
export async function pendingVerificationCount(executor: Pick<typeof db, "select">, reportId: number) {
  const carried = executor
    .select({ id: salesRows.productVerificationId })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reportId), isNotNull(salesRows.productVerificationId)));
  const [{ value }] = await executor
    .select({ value: count() })
    .from(productVerifications)
    .where(and(eq(productVerifications.status, "pending"), or(eq(productVerifications.reportId, reportId), inArray(productVerifications.id, carried))));
  return Number(value);
}
