import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { pdtValues, reports } from "~/db/schema";
import type { ThreadRow } from "~/reports/frame/workflow.server";
import { PDT_TABLE } from "./contract";
import { pdtStructure } from "./model.server";

/**
 * Timeline rows as threads name them: the row's number in the grid (its product's stage among the
 * partner's active products' stages, as the screen lists them) and its product and stage. A stage
 * whose product left the partner's list is no longer a row.
 */
export async function pdtThreadRows(executor: Pick<Database, "select">, reportId: number, rowIds: readonly number[]): Promise<ThreadRow[]> {
  const stored = await executor
    .select({ id: pdtValues.id, productId: pdtValues.productId, stageId: pdtValues.stageId, partnerId: reports.partnerId })
    .from(pdtValues)
    .innerJoin(reports, eq(reports.id, pdtValues.reportId))
    .where(and(eq(pdtValues.reportId, reportId), inArray(pdtValues.id, [...rowIds])));
  if (stored.length === 0) return [];
  const structure = await pdtStructure(stored[0].partnerId, executor);
  const placeOf = new Map(
    structure.map((row, index) => [`${row.productId}:${row.stageId}`, { row: index + 1, label: `${row.productName} · ${row.stageName}` }]),
  );
  return stored.flatMap((value) => {
    const place = placeOf.get(`${value.productId}:${value.stageId}`);
    return place ? [{ id: value.id, table: PDT_TABLE, ...place }] : [];
  });
}
