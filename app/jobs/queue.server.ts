/**
 * The job queue: pg-boss over the portal's own database (PostgreSQL, or the embedded one through
 * the same plain-SQL entry), so a job is a row written in the same transaction as the change that
 * causes it, and several instances on one database share the work (each job is fetched by one
 * instance: `FOR UPDATE SKIP LOCKED`; a recurring job is sent once per slot, whatever the number
 * of instances).
 */
import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import { executeSql, type Database, type Transaction } from "~/db/client.server";
/** Which reports' stored checks a job refreshes: a partner's in a quarter, a partner's in every quarter, a quarter's, or (neither) all. */
export interface ChecksScope {
  partnerId?: number;
  quarterId?: number;
}

/** The queues and what each job carries. */
export interface JobData {
  "mail-delivery": { mailId: number };
  "scheduled-reminders": Record<string, never>;
  "purge-expired": Record<string, never>;
  /** The partners' mean prices of the Sales Reports in scope (app/reports/sales/price-means.server.ts). */
  "sales-price-means": ChecksScope;
  /** The stored finding counts of the Sales Reports in scope (app/reports/sales/checks.server.ts). */
  "report-checks": ChecksScope;
  /** A submission's PDF drawn and kept (app/reports/frame/submission-pdf.server.ts). */
  "submission-pdf": { snapshotId: number };
}
export type QueueName = keyof JobData;

/** Retries of a mail: 5 s, then doubling (5, 10, 20 … 2,560 s: about 85 minutes in all) before it is given up. */
export const MAIL_RETRY = {
  retryLimit: Number(process.env.MAIL_RETRY_LIMIT ?? 10),
  retryDelay: Number(process.env.MAIL_RETRY_DELAY_SECONDS ?? 5),
  retryBackoff: true,
  // Longer than nodemailer's own time limits (connection, greeting, socket): a hung send is retried, not lost.
  expireInSeconds: 180,
};

const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, "name">> = {
  "mail-delivery": MAIL_RETRY,
  "scheduled-reminders": { retryLimit: 0, expireInSeconds: 600 },
  "purge-expired": { retryLimit: 0, expireInSeconds: 600 },
  // At most one job of a key waits ("short": a job sent while one waits is dropped, as the waiting
  // one will read the latest rows); one may wait while another of the key runs.
  "sales-price-means": { policy: "short", retryLimit: 3, retryDelay: 10, expireInSeconds: 600 },
  "report-checks": { policy: "short", retryLimit: 3, retryDelay: 10, expireInSeconds: 1800 },
  // A 12,000-row drawing takes tens of seconds; one that failed (Chromium gone) is tried again, and
  // whatever asks for the PDF meanwhile draws it itself.
  "submission-pdf": { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
};

/** pg-boss is written for node-postgres, which sends an object parameter as its JSON text and undefined as null. */
const asParameter = (value: unknown) => {
  if (value === undefined) return null;
  const plainObject = value !== null && typeof value === "object" && !(value instanceof Date) && !Array.isArray(value) && !Buffer.isBuffer(value);
  return plainObject ? JSON.stringify(value) : value;
};

/**
 * A statement of pg-boss's (`$1`… placeholders) as Drizzle SQL, so it runs on the connection of a
 * transaction under way. A placeholder used twice becomes two parameters of the same value.
 */
function drizzleSql(text: string, values: unknown[]): SQL {
  const pieces = text.split(/\$(\d+)/);
  return sql.join(
    pieces.map((piece, index) => (index % 2 ? sql.param(asParameter(values[Number(piece) - 1])) : sql.raw(piece))),
    sql.raw(""),
  );
}

/** pg-boss's executor on a Drizzle database or transaction (the two drivers answer rows differently). */
function queueExecutor(executor: Database | Transaction): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const result = (await executor.execute(drizzleSql(text, values))) as unknown as { rows?: unknown[] } | unknown[];
      return { rows: Array.isArray(result) ? [...result] : (result.rows ?? []) };
    },
  };
}

const globalForQueue = globalThis as unknown as { __portalQueue?: Promise<PgBoss> };

/**
 * The process's queue, opened once: creates or upgrades pg-boss's tables (under its own lock, so
 * instances starting together do not race) and the portal's queues. `maintain`: this instance
 * also runs pg-boss's upkeep (expiring and archiving jobs) and sends the recurring jobs when due.
 */
export function openJobQueue({ maintain }: { maintain: boolean }): Promise<PgBoss> {
  globalForQueue.__portalQueue ??= (async () => {
    const { default: PgBossClass } = await import("pg-boss");
    const boss = new PgBossClass({
      db: { executeSql: (text, values) => executeSql(text, values?.map(asParameter)) },
      supervise: maintain,
      schedule: maintain,
      migrate: true,
    });
    boss.on("error", (error) => void import("~/utils/logger.server").then(({ logger }) => logger.error({ err: error }, "job queue error")));
    await boss.start();
    for (const [name, options] of Object.entries(QUEUE_OPTIONS)) {
      if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, ...options });
    }
    return boss;
  })();
  return globalForQueue.__portalQueue;
}

export async function closeJobQueue() {
  const opening = globalForQueue.__portalQueue;
  globalForQueue.__portalQueue = undefined;
  if (opening) await (await opening).stop({ graceful: true, wait: true, timeout: 8000 });
}

/** The open queue (opening it here would wait for the connection a transaction holds: the embedded database has one). */
async function openedQueue(): Promise<PgBoss> {
  if (!globalForQueue.__portalQueue) throw new Error("The job queue is not open: call openJobQueue() at start.");
  return globalForQueue.__portalQueue;
}

/**
 * Adds a job in the caller's transaction: it exists only if the transaction commits, and a worker
 * picks it up only after that.
 */
export async function enqueueJob<Name extends QueueName>(tx: Transaction, name: Name, data: JobData[Name], options: PgBoss.SendOptions = {}): Promise<void> {
  const boss = await openedQueue();
  await boss.send(name, data, { ...options, db: queueExecutor(tx) });
}

/** A job for enqueueJobs: its queue, data and, for the "short" queues, the key of which one job waits at most. */
export type QueuedJob = { [Name in QueueName]: { name: Name; data: JobData[Name]; singletonKey?: string } }[QueueName];

/** Adds jobs in the caller's transaction (as enqueueJob), in one statement; none: nothing is sent. */
export async function enqueueJobs(tx: Transaction, jobs: readonly QueuedJob[]): Promise<void> {
  if (!jobs.length) return;
  const boss = await openedQueue();
  await boss.insert([...jobs], { db: queueExecutor(tx) });
}
