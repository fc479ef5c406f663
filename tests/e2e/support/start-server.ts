/**
 * Starts the built portal for the browser tests on a database of its own, seeded from empty:
 * a fresh PostgreSQL database next to TEST_DATABASE_URL/DATABASE_URL when one is given,
 * else a new embedded PGlite folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

const port = process.env.E2E_PORT || "3300";
const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (serverUrl) {
  // One database per port, so that two runs side by side do not share one.
  const database = `portal_e2e_${port}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  process.env.DATABASE_URL = url.toString();
} else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-")), "data");
}

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: port,
  APP_URL: `http://localhost:${port}`,
  SESSION_SECRET: "e2e-session-secret",
  SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT || "2526"}`,
  LOG_LEVEL: "warn",
  // Scheduled reminders would mail on their own; the reminder specs send theirs explicitly.
  REMINDER_SCHEDULER: "off",
  // A mail is given up after one retry a second later, not after 85 minutes of them: a mail sent
  // while no spec's mailbox listens cannot reach a later spec's mailbox, and a spec can make a
  // mail that the administrators see as undelivered.
  MAIL_RETRY_LIMIT: "1",
  MAIL_RETRY_DELAY_SECONDS: "1",
});

await import("../../../server");
