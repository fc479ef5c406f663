/**
 * `npm run worker`: the background worker alone (mail delivery, scheduled reminders, purges), for
 * an operator who serves pages from instances started with WORKER=off.
 */
import { closeDatabase, initDatabase } from "../app/db/client.server";
import { closeJobQueue } from "../app/jobs/queue.server";
import { ensureGeneratedSessionSecret } from "../app/models/settings.server";
import { logger } from "../app/utils/logger.server";
import { closePdfBrowser } from "../app/utils/html-to-pdf.server";

await initDatabase();
if (!process.env.SESSION_SECRET && process.env.NODE_ENV === "production") process.env.SESSION_SECRET = await ensureGeneratedSessionSecret();
const { startWorker } = await import("../app/jobs/worker.server");
const stopWorker = await startWorker();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "worker shutting down");
  const forceExit = setTimeout(() => process.exit(1), 10_000);
  forceExit.unref();
  await stopWorker();
  await closeJobQueue();
  await closePdfBrowser();
  await closeDatabase();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
