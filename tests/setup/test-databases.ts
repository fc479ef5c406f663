/**
 * Integration workers each use a database of their own, named after this run and the worker, so
 * that two runs side by side never share one: created by the first file of each worker
 * (tests/setup/database.ts), dropped here when the run ends, and left-overs of runs that
 * were killed are dropped at the next start.
 */
import postgres from "postgres";

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "";

export function runDatabasePrefix(url: string, runId: string) {
  return `${new URL(url).pathname.slice(1)}_run${runId}_`;
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function dropDatabases(keep: (runId: number) => boolean) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const prefix = runDatabasePrefix(serverUrl, "");
    const rows = await admin`select datname from pg_database where starts_with(datname, ${prefix})`;
    for (const { datname } of rows) {
      const runId = Number(/_run(\d+)_/.exec(datname)?.[1]);
      if (!keep(runId)) await admin.unsafe(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

export default async function setup() {
  process.env.TEST_RUN_ID = String(process.pid);
  if (!serverUrl) return;
  await dropDatabases((runId) => isAlive(runId));
  return () => dropDatabases((runId) => runId !== process.pid);
}
