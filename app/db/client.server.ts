import fs from "node:fs";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { streamedReadsOn, type StreamedReads } from "./streamed-reads.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The `tx` of `db.transaction(async (tx) => …)`, for model functions that run inside one. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

interface DatabaseHandle {
  db: Database;
  driver: "postgres" | "pglite";
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: large reads streamed on connections of their own (downloads). */
  streamedReads?: StreamedReads;
  /**
   * Plain SQL text, for a library that brings its own statements (the job queue): with values one
   * parameterised statement, without values a script of several statements. Returns the (last) rows.
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const MIGRATIONS_FOLDER = path.resolve(process.cwd(), "drizzle");

type StatementListener = (sql: string) => void;
const statementListeners = new Set<StatementListener>();

/** Calls `listener` with the text of every statement the app's queries send, until the returned function is called (tests count a request's statements). */
export function onStatement(listener: StatementListener): () => void {
  statementListeners.add(listener);
  return () => statementListeners.delete(listener);
}

const statementLogger = { logQuery: (query: string) => statementListeners.forEach((listener) => listener(query)) };

/**
 * PGlite lets two processes open one folder and corrupts it when they do: a lock file
 * beside the folder makes the second one stop with a clear message instead.
 */
export function acquirePgliteLock(dataDir: string): () => void {
  const lockPath = `${path.resolve(dataDir)}.lock`;
  try {
    fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(fs.readFileSync(lockPath, "utf8"));
    if (holder && holder !== process.pid && isProcessAlive(holder)) {
      throw new Error(`The embedded database in ${dataDir} is in use by process ${holder}. Stop it, or set PGLITE_DIR to another folder.`);
    }
    fs.writeFileSync(lockPath, String(process.pid));
  }
  return () => fs.rmSync(lockPath, { force: true });
}

function isProcessAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Settings of every session the portal opens on PostgreSQL. The default random_page_cost (4)
 * prices a random read as a disk seek: the planner then scans the small lists (countries,
 * currencies) whole for each foreign key a saved row names, where the index lookup takes half
 * the time (a 10,000-row Sales Report: 245 -> 215 ms in the database). JIT compilation is off:
 * the passes over a quarter's rows (the consolidated Sales Report's counts, filters and
 * downloads) are estimated dear enough to trigger it, and compiling took longer than it saved
 * (the L FDF download's COPY: 20 ms of compiling before the first row, 540 -> 505 ms in all).
 */
export const POSTGRES_SESSION = { random_page_cost: "1.1", jit: "off" } as const;

/**
 * The sessions of streamed reads (downloads) join rows to the small lists by nested loops only. A
 * download writes each report's rows in the order of its index; with hash joins to the countries,
 * products and formulation types the planner lost that order and sorted the rows again, all of
 * them before the first (the largest partner's CSV at L: 89,100 rows, a 30 MB sort on disk, the
 * first byte after 224 ms). Nested loops over the index keep its order, with the lists' rows
 * memoized, and the whole COPY took no longer (0.43 -> 0.38 s).
 */
const STREAMED_READ_SESSION = { ...POSTGRES_SESSION, enable_hashjoin: "off", enable_mergejoin: "off" } as const;

/**
 * Bounds on the waits of the portal's PostgreSQL connections while the server is away (a restart,
 * a failover). The driver's defaults wait up to 30 s for a connection to open, and after each
 * failed attempt wait longer before the next (3^n / 100 s, up to 20 s, counted across the pool
 * and reset only by a success), while the queries queued meanwhile wait their turn: under steady
 * requests a 3 s restart held requests up to 14 s, and the portal answered again only 8-11 s
 * after PostgreSQL was back. Here an attempt gives up after 2 s and the next comes at most 0.5 s
 * after a failure: requests fail within half a second while the server is down and succeed again
 * well within 2 s of its return (tests/process/fault-database-restart.test.ts). A connection idle
 * for a minute is closed, so one the network dropped unnoticed is not handed out later.
 */
const POSTGRES_WAITS = {
  connect_timeout: 2,
  idle_timeout: 60,
  backoff: (failedAttempts: number) => Math.min(0.05 * 2 ** failedAttempts, 0.5),
};

export async function openDatabase(options: { url?: string; pgliteDir?: string }): Promise<DatabaseHandle> {
  if (options.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const sql = postgres(options.url, {
      max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
      ...POSTGRES_WAITS,
      onnotice: () => {},
      connection: POSTGRES_SESSION,
    });
    const db = drizzle(sql, { schema, logger: statementLogger });
    return {
      db: db as unknown as Database,
      driver: "postgres",
      migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
      close: () => sql.end({ timeout: 5 }),
      async executeSql(text, values = []) {
        if (values.length) return { rows: [...(await sql.unsafe(text, values as never[]))] };
        // A script may hold its own BEGIN … COMMIT: it needs a connection of its own for its length.
        const connection = await sql.reserve();
        try {
          const results = await connection.unsafe(text);
          // A script of several statements answers a list of results, one per statement.
          const last = Array.isArray(results[0]) ? (results.at(-1) as unknown as typeof results) : results;
          return { rows: [...last] };
        } finally {
          connection.release();
        }
      },
      streamedReads: streamedReadsOn(() =>
        postgres(options.url!, { max: 1, fetch_types: false, ...POSTGRES_WAITS, onnotice: () => {}, connection: STREAMED_READ_SESSION }),
      ),
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dataDir = options.pgliteDir ?? "./data";
  const inMemory = dataDir.startsWith("memory://");
  let releaseLock = () => {};
  if (!inMemory) {
    fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
    releaseLock = acquirePgliteLock(dataDir);
  }
  const client = new PGlite(dataDir);
  const db = drizzle(client, { schema, logger: statementLogger });
  return {
    db: db as unknown as Database,
    driver: "pglite",
    migrate: () => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await client.close();
      releaseLock();
    },
    async executeSql(text, values = []) {
      if (values.length) return { rows: (await client.query<Record<string, unknown>>(text, values)).rows };
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
  };
}

// The Remix server bundle and server.ts each load this module: the handle lives on
// globalThis so the process opens its database once.
const globalForDb = globalThis as unknown as {
  __portalDbOpening?: Promise<DatabaseHandle>;
  __portalDb?: DatabaseHandle;
};

/** Opens (once per process) the database named by the environment and applies the migrations. */
export async function initDatabase(): Promise<DatabaseHandle> {
  globalForDb.__portalDbOpening ??= (async () => {
    const handle = await openDatabase({
      url: process.env.DATABASE_URL || undefined,
      pgliteDir: process.env.PGLITE_DIR || "./data",
    });
    await handle.migrate();
    globalForDb.__portalDb = handle;
    return handle;
  })();
  return globalForDb.__portalDbOpening;
}

export async function closeDatabase() {
  const opening = globalForDb.__portalDbOpening;
  globalForDb.__portalDbOpening = undefined;
  globalForDb.__portalDb = undefined;
  if (opening) await (await opening).close();
}

/** Runs `work` with the process's database switched to `handle`, then back (a test comparing the two drivers). */
export async function usingDatabase<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  const own = globalForDb.__portalDb;
  globalForDb.__portalDb = handle;
  try {
    return await work();
  } finally {
    globalForDb.__portalDb = own;
  }
}

export function databaseDriver() {
  return globalForDb.__portalDb?.driver;
}

/** The open database's plain-SQL entry (see DatabaseHandle.executeSql). */
export function executeSql(text: string, values?: unknown[]) {
  const handle = globalForDb.__portalDb;
  if (!handle) throw new Error("The database is not open yet: call initDatabase() first.");
  return handle.executeSql(text, values);
}

/** Reads streamed on connections of their own; null on the embedded database, which reads in batches instead. */
export function streamedReads(): StreamedReads | null {
  return globalForDb.__portalDb?.streamedReads ?? null;
}

/**
 * The rows of a statement written in SQL, whichever driver runs it (postgres answers an array, the
 * embedded database `{ rows }`); `executor`: a transaction under way.
 */
export async function selectRows<Row extends Record<string, unknown>>(query: SQL, executor: Pick<Database, "execute"> = db): Promise<Row[]> {
  const result = (await executor.execute(query)) as unknown as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

/** The process's database; `initDatabase()` must have finished first (server start, test setup). */
export const db: Database = new Proxy({} as Database, {
  get(_target, property) {
    const handle = globalForDb.__portalDb;
    if (!handle) throw new Error("The database is not open yet: call initDatabase() first.");
    const value = Reflect.get(handle.db, property, handle.db);
    return typeof value === "function" ? value.bind(handle.db) : value;
  },
});
