/**
 * A report deleted takes its sales rows and Filing Plans cells out of the dashboard's sums
 * (migration 0008): they go by the foreign keys' cascade, after the report row, where the aggregate
 * triggers could no longer tell whose rows they were. Every grain is compared with a GROUP BY over
 * the rows that remain.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { dashboardFilings, dashboardSales, filingValues, partners, reports, salesRows } from "~/db/schema";
import { ensureQuarter, openQuarterRef } from "~/models/quarter.server";
import { addQuarters } from "~/utils/quarters";
import { expectAggregatesMatchRows } from "../support/dashboard-aggregates";

let acme: number;
let borealis: number;
let cedar: number;
let open: number;
let previous: number;

async function partnerIdOf(email: string) {
  const [partner] = await db.select().from(partners).where(eq(partners.email, email));
  return partner.id;
}
async function reportOf(partnerId: number, quarterId: number, type: "filing" | "sales") {
  const [report] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.partnerId, partnerId), eq(reports.quarterId, quarterId), eq(reports.type, type)));
  return report;
}
/** The kinds of a sales report's rows that count on the dashboard (a known product). */
async function countedKindsOf(reportId: number) {
  const rows = await db
    .selectDistinct({ kind: salesRows.kind })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, reportId), sql`${salesRows.productId} is not null`));
  return rows.map((row) => row.kind).sort();
}
/** Rows a partner has in the sums over every report (approved_only false). */
async function summedRowsOf(partnerId: number) {
  const [row] = await db
    .select({ rows: sql<string>`coalesce(sum(${dashboardSales.rowCount}), 0)` })
    .from(dashboardSales)
    .where(and(eq(dashboardSales.grain, "product_partner"), eq(dashboardSales.partnerId, partnerId), eq(dashboardSales.approvedOnly, false)));
  return Number(row.rows);
}
const filingCellsCounted = async () =>
  Number((await db.select({ partners: sql<string>`coalesce(sum(${dashboardFilings.partners}), 0)` }).from(dashboardFilings))[0].partners);

beforeEach(async () => {
  [acme, borealis, cedar] = await Promise.all(["partner1", "partner2", "partner3"].map((name) => partnerIdOf(`${name}@example.org`)));
  open = (await ensureQuarter(openQuarterRef())).id;
  previous = (await ensureQuarter(addQuarters(openQuarterRef(), -1))).id;
});

describe("a report deleted leaves the dashboard's sums", () => {
  it("Sales reports with API and FDF rows, approved and not, and Filing Plans reports: every grain equals a GROUP BY over the rows left", async () => {
    await expectAggregatesMatchRows();
    const saved = await reportOf(acme, open, "sales");
    const approved = await reportOf(acme, previous, "sales");
    const approvedFiling = await reportOf(acme, previous, "filing");
    const submittedFiling = await reportOf(borealis, previous, "filing");
    expect([saved.status, approved.status, approvedFiling.status, submittedFiling.status]).toEqual(["Saved", "Approved", "Approved", "Submitted"]);
    expect(await countedKindsOf(saved.id)).toEqual(["API", "FDF"]);
    expect(await countedKindsOf(approved.id)).toEqual(["API", "FDF"]);
    const filledCells = await db
      .select({ reportId: filingValues.reportId })
      .from(filingValues)
      .where(and(inArray(filingValues.reportId, [approvedFiling.id, submittedFiling.id]), ne(filingValues.status, "0")));
    expect(new Set(filledCells.map((cell) => cell.reportId))).toEqual(new Set([approvedFiling.id, submittedFiling.id]));

    const acmeRowsBefore = await summedRowsOf(acme);
    const filingsBefore = await filingCellsCounted();
    const [{ rows: deletedSalesRows }] = await db
      .select({ rows: sql<string>`count(*)` })
      .from(salesRows)
      .where(and(inArray(salesRows.reportId, [saved.id, approved.id]), sql`${salesRows.productId} is not null`));

    // One statement, four reports.
    await db.delete(reports).where(inArray(reports.id, [saved.id, approved.id, approvedFiling.id, submittedFiling.id]));

    expect(await summedRowsOf(acme)).toBe(acmeRowsBefore - Number(deletedSalesRows));
    // Each filled cell counted once over every report; the approved report's once more over approved reports.
    const approvedCells = filledCells.filter((cell) => cell.reportId === approvedFiling.id).length;
    expect(await filingCellsCounted()).toBe(filingsBefore - filledCells.length - approvedCells);
    await expectAggregatesMatchRows();
  });

  it("a deactivated partner's report (not counted) deleted, then the partner back; and every report of a partner deleted at once", async () => {
    const cedarApproved = await reportOf(cedar, (await ensureQuarter(addQuarters(openQuarterRef(), -2))).id, "sales");
    expect(cedarApproved.status).toBe("Approved");
    expect(await countedKindsOf(cedarApproved.id)).not.toEqual([]);
    await db.update(partners).set({ isActive: false }).where(eq(partners.id, cedar));
    await db.delete(reports).where(eq(reports.id, cedarApproved.id));
    await db.update(partners).set({ isActive: true }).where(eq(partners.id, cedar));
    await expectAggregatesMatchRows();

    expect(await summedRowsOf(borealis)).toBeGreaterThan(0);
    await db.delete(reports).where(eq(reports.partnerId, borealis));
    expect(await summedRowsOf(borealis)).toBe(0);
    await expectAggregatesMatchRows();
  });

  it("a report deleted in a transaction that rolls back leaves the sums as they were", async () => {
    const before = await summedRowsOf(acme);
    const rollback = new Error("rolled back");
    await expect(
      db.transaction(async (tx) => {
        await tx.delete(reports).where(eq(reports.partnerId, acme));
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await summedRowsOf(acme)).toBe(before);
    await expectAggregatesMatchRows();
  });
});
