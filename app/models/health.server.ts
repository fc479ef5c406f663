import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";

/** How long /healthz waits for the database before answering that it is unavailable. */
const HEALTH_CHECK_TIMEOUT_MS = 1000;

/** The check in flight: checks arriving meanwhile wait for it instead of queueing queries of their own. */
let inFlight: Promise<boolean> | null = null;

async function probe(): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the database answers within HEALTH_CHECK_TIMEOUT_MS. A check that has not answered by
 * then is left to finish on its own and the checks that follow share it, so a database that is
 * away holds neither the caller nor more than one query of the pool. The connection's own waits
 * are bounded in client.server.ts. No statement_timeout: `select 1` waits on no lock, and setting
 * one for a single statement takes a transaction, which postgres.js 3.4.9 cannot end when the
 * server goes away in the middle of it without taking the process down.
 */
export async function checkDatabase(): Promise<boolean> {
  inFlight ??= probe().finally(() => {
    inFlight = null;
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([inFlight, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
