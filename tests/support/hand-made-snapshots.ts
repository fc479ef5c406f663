/**
 * Reports and snapshots made by hand for the "Show changes since" tests (screens and API): a report
 * of the partner's, a snapshot of it with the audit entry its history finds it by, and Sales rows
 * as they are inserted and as a snapshot stores them.
 */
import { db } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { auditLog, countries, formulationTypes, pdtValues, products, reports, reportSnapshots, salesRows as salesRowsTable, stages } from "~/db/schema";
import type { ReportTypeKey } from "~/reports/frame/registry";

/** The reference rows these fixtures use, by name: two countries, two products, the Tablet form and the first two FDF stages. */
export async function fixtureIds() {
  const idOf = async (table: typeof countries | typeof products | typeof formulationTypes, name: string) =>
    (await db.select({ id: table.id }).from(table).where(eq(table.name, name)))[0].id;
  const fdfStages = await db.select().from(stages).where(eq(stages.category, "FDF")).orderBy(stages.sortOrder);
  return {
    india: await idOf(countries, "India"),
    kenya: await idOf(countries, "Kenya"),
    abacavir: await idOf(products, "Abacavir API"),
    dolutegravir: await idOf(products, "Dolutegravir 50 mg"),
    tablet: await idOf(formulationTypes, "Tablet"),
    firstStage: fdfStages[0].id,
    secondStage: fdfStages[1].id,
  };
}

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

type SalesRow = typeof salesRowsTable.$inferInsert;

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

/**
 * The Sales Report `reportId` with three API rows (Global Fund 20 in Kenya, UNICEF 15, WHO 5), and
 * the rows of a base they are compared with: Global Fund 10 in India (changed), UNICEF 15 (the
 * same), no WHO (added), and an FDF row of 7 packs of 30 to "Removed buyer" (removed).
 */
export async function salesRowsAndTheirBase(
  reportId: number,
  apiRow: ReturnType<typeof apiRowOf>,
  ids: { kenya: number; dolutegravir: number; tablet: number },
) {
  const [first, second, added] = await db
    .insert(salesRowsTable)
    .values([apiRow(reportId, "Global Fund", "20", { countryId: ids.kenya }), apiRow(reportId, "UNICEF", "15"), apiRow(reportId, "WHO", "5")])
    .returning();
  const base = [
    storedSalesRow(first.id, apiRow(reportId, "Global Fund", "10")),
    storedSalesRow(second.id, apiRow(reportId, "UNICEF", "15")),
    {
      ...storedSalesRow(
        added.id + 1000,
        apiRow(reportId, "Removed buyer", "7", { kind: "FDF", month: 2, productId: ids.dolutegravir, formulationTypeId: ids.tablet }),
      ),
      packSize: "30.000000",
      royaltyPercent: "4.5000",
    },
  ];
  return { first, added, base };
}

/**
 * The Development Timeline `reportId` with two stages of Dolutegravir (the first from 2026-02-01,
 * the second from 2026-07-01), and the rows of a base they are compared with: the first from
 * 2026-01-15 (changed), no second (added), and an Abacavir stage "Dropped" (removed).
 */
export async function timelineAndItsBase(reportId: number, ids: { dolutegravir: number; abacavir: number; firstStage: number; secondStage: number }) {
  const [first, second] = await db
    .insert(pdtValues)
    .values([
      { reportId, productId: ids.dolutegravir, stageId: ids.firstStage, startDate: "2026-02-01", endDate: "2026-06-30", notes: "On track" },
      { reportId, productId: ids.dolutegravir, stageId: ids.secondStage, startDate: "2026-07-01", endDate: "2026-12-31", notes: null },
    ])
    .returning();
  const base = [
    { id: first.id, reportId, productId: ids.dolutegravir, stageId: ids.firstStage, startDate: "2026-01-15", endDate: "2026-06-30", notes: "On track" },
    { id: second.id + 500, reportId, productId: ids.abacavir, stageId: ids.secondStage, startDate: "2025-10-01", endDate: null, notes: "Dropped" },
  ];
  return { first, second, base };
}
