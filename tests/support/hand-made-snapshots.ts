/**
 * Reports and snapshots made by hand for the "Show changes since" tests (screens and API): a report
 * of the partner's, a snapshot of it with the audit entry its history finds it by, and Sales rows
 * as they are inserted and as a snapshot stores them.
 */
import { db } from "~/db/client.server";
import { auditLog, reports, reportSnapshots, type salesRows } from "~/db/schema";
import type { ReportTypeKey } from "~/reports/frame/registry";

export async function makeReport(partnerId: number, type: ReportTypeKey, quarterId: number) {
  const [report] = await db.insert(reports).values({ partnerId, quarterId, type, status: "Saved", version: 3 }).returning();
  return report.id;
}

/** A snapshot of the report as `event` took it at `version`, with the audit entry the history finds it by (by `actorId`, when given). */
export async function snapshotWithEntry(input: {
  reportId: number;
  type: ReportTypeKey;
  event: "submit" | "approve";
  version: number;
  rows: Record<string, unknown>[];
  actorId?: number;
}) {
  const { reportId, type, event, version, rows, actorId } = input;
  const [snapshot] = await db
    .insert(reportSnapshots)
    .values({ reportId, event, version, rows, rowCount: rows.length, sha256: "0".repeat(64), createdBy: actorId })
    .returning();
  const [entry] = await db
    .insert(auditLog)
    .values({ actorId, action: `report.${event}`, entity: `report:${type}`, entityId: String(reportId), after: { version } })
    .returning();
  return { snapshot, entry };
}

type SalesRow = typeof salesRows.$inferInsert;

/** An API row of March of `year`, in the country and of the product given, worth 1,000; `extra` changes any cell. */
export const apiRowOf =
  (defaults: () => { year: number; countryId: number; productId: number }) =>
  (reportId: number, purchaser: string, quantity: string, extra: Partial<SalesRow> = {}): SalesRow => ({
    reportId,
    kind: "API",
    month: 3,
    ...defaults(),
    purchaser,
    quantity,
    totalValue: "1000",
    ...extra,
  });

/** A row as a snapshot stores it: camelCase keys, numbers as the database writes them. */
export const storedSalesRow = (id: number, row: SalesRow) => ({
  ...row,
  id,
  quantity: row.quantity == null ? null : `${row.quantity}.000000`,
  totalValue: row.totalValue == null ? null : `${row.totalValue}.000000`,
});
