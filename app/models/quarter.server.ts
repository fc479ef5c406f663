import { asc, eq, and } from "drizzle-orm";
import { db } from "~/db/client.server";
import { quarters } from "~/db/schema";
import { parseQuarterName, quarterBounds, quarterIndex, quarterName, quarterOf, type QuarterRef } from "~/utils/quarters";
import { portalNow } from "~/utils/today.server";

export type Quarter = typeof quarters.$inferSelect;

/** The quarter row for a calendar quarter, created on first use (a read finds it: no write once it exists). */
export async function ensureQuarter(ref: QuarterRef, executor: Pick<typeof db, "insert" | "select"> = db): Promise<Quarter> {
  const find = () =>
    executor
      .select()
      .from(quarters)
      .where(and(eq(quarters.year, ref.year), eq(quarters.quarter, ref.quarter)));
  const [existing] = await find();
  if (existing) return existing;
  await executor
    .insert(quarters)
    .values({ name: quarterName(ref), year: ref.year, quarter: ref.quarter, ...quarterBounds(ref) })
    .onConflictDoNothing();
  const [row] = await find();
  return row;
}

/** The open quarter: the calendar quarter that contains today (PORTAL_TODAY overrides today). */
export function openQuarterRef(): QuarterRef {
  return quarterOf(portalNow());
}

/** The open quarter's name and first and last days (YYYY-MM-DD), without a database round trip. */
export function openQuarterSpan(): { name: string; startDate: string; endDate: string } {
  const ref = openQuarterRef();
  return { name: quarterName(ref), ...quarterBounds(ref) };
}

/** A stored quarter's row from its id and name: its name gives its year, quarter and days, as ensureQuarter stored them. */
export function storedQuarterRow({ id, name }: { id: number; name: string }): Quarter {
  const ref = parseQuarterName(name);
  if (!ref) throw new Error(`Not a quarter's name: ${name}`);
  return { id, name, year: ref.year, quarter: ref.quarter, ...quarterBounds(ref) };
}

export function getOpenQuarter(): Promise<Quarter> {
  return ensureQuarter(openQuarterRef());
}

export function isHistoric(quarter: Pick<Quarter, "year" | "quarter">): boolean {
  return quarterIndex(quarter) < quarterIndex(openQuarterRef());
}

export async function listQuartersUpTo(ref: QuarterRef): Promise<Quarter[]> {
  const rows = await db.select().from(quarters).orderBy(asc(quarters.year), asc(quarters.quarter));
  return rows.filter((q) => quarterIndex(q) <= quarterIndex(ref));
}
