import { beforeEach } from "vitest";
import { initDatabase } from "~/db/client.server";
import { openJobQueue } from "~/jobs/queue.server";
import { databaseBeside, resetDatabase } from "../support/database";
import { runDatabasePrefix } from "./test-databases";

// PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set, else an in-memory embedded PGlite.
// Files run side by side, one per worker: each worker has a database of its own on that server (tests/setup/test-databases.ts).
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ||= "test-session-secret";
const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "";
process.env.DATABASE_URL =
  serverUrl && (await databaseBeside(serverUrl, `${runDatabasePrefix(serverUrl, process.env.TEST_RUN_ID!)}${process.env.VITEST_POOL_ID}`));
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
delete process.env.SMTP_URL;

await initDatabase();
// Mails are queued with the changes that cause them; no worker runs here unless a test starts one.
await openJobQueue({ maintain: false });

beforeEach(async () => {
  await resetDatabase();
});
