/**
 * What costs a pass over a quarter's rows (a count of the filtered rows, the filters' lists) is
 * kept in memory: `cached` for a minute under a fingerprint of the quarter's reports of one type,
 * and `keptMany`, with no time limit, under keys that name exactly what each value was read from
 * (the Sales Report's per-report values). The fingerprint is each report's id and row version
 * (xmin, new with every update of the report: every save of its rows and every decision bumps its
 * version in the same transaction, see performReportAction), the last row id of the type's table
 * (a row added by any path) and the last product verification decision (it rewrites the product
 * of the rows that named it). A new or deleted report changes the list. The next page after a
 * change computes the pass afresh; paging through a report, or sorting it, pays it once.
 */
import { and, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { productVerifications, reports } from "~/db/schema";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { minuteStore } from "~/utils/minute-cache.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";

/** `compute()` once per key for a minute (the 200 most recent keys). */
export const cached = minuteStore(200);

/** The same for values of megabytes (a quarter's row ids in a sorted order): the 16 most recent. */
export const cachedLarge = minuteStore(16);

/** `cached` under a fingerprint still being read: the key is `name` and the fingerprint. */
export function cachedUnder<T>(fingerprint: Promise<string>, name: string, compute: () => Promise<T>): Promise<T> {
  return fingerprint.then((key) => cached(`${name}|${key}`, compute));
}

const KEPT_MAX_ENTRIES = 50_000;
const kept = new Map<string, unknown>();

/**
 * The values of `keys` from a store with no time limit, the missing ones computed together by
 * `computeMissing` (a key it leaves out is kept as `absent`). For keys that name exactly what the
 * value was computed from (a report's row version, say), so a kept value is never out of date;
 * the store holds the most recently used 50,000.
 */
export async function keptMany<V>(keys: readonly string[], computeMissing: (missing: string[]) => Promise<Map<string, V>>, absent: V): Promise<Map<string, V>> {
  const found = new Map<string, V>();
  const missing: string[] = [];
  for (const key of keys) {
    if (kept.has(key)) {
      const value = kept.get(key) as V;
      // Used again: moved to the end of the store's order, the last to be dropped.
      kept.delete(key);
      kept.set(key, value);
      found.set(key, value);
    } else missing.push(key);
  }
  if (missing.length) {
    const computed = await computeMissing(missing);
    for (const key of missing) {
      const value = computed.has(key) ? computed.get(key)! : absent;
      kept.set(key, value);
      found.set(key, value);
    }
    while (kept.size > KEPT_MAX_ENTRIES) kept.delete(kept.keys().next().value!);
  }
  return found;
}

/** When the last product verification was decided, as text: it rewrites the product of the rows that named it without touching their report. */
export const LAST_VERIFICATION_DECISION = sql<string | null>`(select max(${productVerifications.decidedAt}) from ${productVerifications})::text`;

/** The fingerprint as one short text, computed by the database (one index probe for the last row). */
export async function reportsFingerprint(quarterId: number, type: ReportTypeKey): Promise<string> {
  const rows = REPORT_DECLARATIONS[type].rowTable;
  const [{ digest, lastRowId, lastDecision }] = await db
    .select({
      digest: sql<string>`md5(coalesce(string_agg(${reports.id} || ':' || ${reports}.xmin, ',' order by ${reports.id}), ''))`,
      lastRowId: sql<string | null>`(select max(${rows.id}) from ${rows})`,
      lastDecision: LAST_VERIFICATION_DECISION,
    })
    .from(reports)
    .where(and(eq(reports.quarterId, quarterId), eq(reports.type, type)));
  return `${type}|${quarterId}|${digest}|${lastRowId ?? ""}|${lastDecision ?? ""}`;
}
