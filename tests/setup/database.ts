import { beforeEach } from "vitest";
import { initDatabase } from "~/db/client.server";
import { resetDatabase } from "../support/database";

// PostgreSQL when TEST_DATABASE_URL (or DATABASE_URL) is set, else an in-memory embedded PGlite.
process.env.NODE_ENV = "test";
process.env.SESSION_SECRET ||= "test-session-secret";
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || "";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
delete process.env.SMTP_URL;

await initDatabase();

beforeEach(async () => {
  await resetDatabase();
});
