import { asc } from "drizzle-orm";
import { db } from "~/db/client.server";
import { filingStatuses } from "~/db/schema";
import { plannedFilingQuarters } from "~/reports/filing/statuses";
import { parseQuarterName, type QuarterRef } from "~/utils/quarters";
import { openQuarterRef } from "~/models/quarter.server";

export type FilingCategory = "API" | "FDF";

/**
 * A quarter's Filing Plans lists (the open quarter's by default), per product category: the base
 * statuses of the `filing_statuses` table in their order, then the four quarters after it.
 */
export async function listFilingStatuses(quarter: QuarterRef = openQuarterRef()): Promise<Record<FilingCategory, string[]>> {
  const rows = await db
    .select({ category: filingStatuses.category, name: filingStatuses.name })
    .from(filingStatuses)
    .orderBy(asc(filingStatuses.sortOrder), asc(filingStatuses.id));
  const planned = plannedFilingQuarters(quarter);
  const lists: Record<FilingCategory, string[]> = { API: [], FDF: [] };
  // A quarter-named row left in the table would stand still while the quarters roll: skip it.
  for (const row of rows) if (!parseQuarterName(row.name)) lists[row.category].push(row.name);
  return { API: [...lists.API, ...planned], FDF: [...lists.FDF, ...planned] };
}
