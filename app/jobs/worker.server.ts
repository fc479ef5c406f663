/**
 * The background worker: delivers queued mails, keeps the Sales Report's stored checks current
 * (the partners' mean prices and each report's finding counts, queued by the changes they read),
 * draws and keeps each submission's PDF,
 * runs the scheduled reminders and the purge of ended sessions, spent password links and old
 * rate-limit counters as recurring jobs. It runs in the web process by default (`npm start`), alone
 * with `npm run worker`, and not at all in an instance started with WORKER=off.
 */
import { deliverMail } from "~/models/mail.server";
import { deleteSpentPasswordTokens } from "~/models/password-token.server";
import { deleteStaleRateLimits } from "~/models/rate-limit.server";
import { runScheduledReminders } from "~/models/reminder-scheduler.server";
import { deleteEndedSessions } from "~/models/session.server";
import { queueUncountedSalesChecks, workReportChecks, workSalesPriceMeans } from "~/reports/sales/stored-checks.server";
import { logger } from "~/utils/logger.server";
import { keepSubmissionPdf, submissionPdfAttachment } from "~/reports/frame/submission-pdf.server";
import { openJobQueue, type JobData, type QueueName } from "./queue.server";

/** Every 15 minutes the scheduler looks for reminders due today (each is sent once: see runScheduledReminders). */
const DEFAULT_REMINDER_CRON = "*/15 * * * *";
const PURGE_CRON = "17 * * * *";

export function workerEnabled() {
  return process.env.WORKER !== "off";
}

/** Ends sessions, links and counters whose time is over; returns what each purge removed. */
export async function purgeExpired() {
  const removed = {
    sessions: await deleteEndedSessions(),
    passwordTokens: await deleteSpentPasswordTokens(),
    rateLimits: await deleteStaleRateLimits(),
  };
  logger.info(removed, "purged expired records");
  return removed;
}

/**
 * Starts working the queues and puts the recurring jobs on the schedule (REMINDER_SCHEDULER=off
 * takes the reminders off it; REMINDER_CRON changes when they run). Returns the stop function: it
 * stops taking jobs and waits for those under way (the queue itself stays open for sending).
 */
export async function startWorker(): Promise<() => Promise<void>> {
  const boss = await openJobQueue({ maintain: true });
  // Known once work() answers; a job may run before it does.
  let mailWorker: string | null = null;
  mailWorker = await boss.work<JobData["mail-delivery"]>("mail-delivery", { pollingIntervalSeconds: 1, includeMetadata: true }, async ([job]) => {
    await deliverMail(job.data.mailId, { finalAttempt: job.retryCount >= job.retryLimit, attachmentOf: submissionPdfAttachment });
    // A mail was waiting: the next is fetched at once, not a polling interval later (reminding everyone queues one per partner).
    if (mailWorker) boss.notifyWorker(mailWorker);
  });
  await boss.work<JobData["sales-price-means"]>("sales-price-means", { pollingIntervalSeconds: 2 }, async ([job]) => {
    await workSalesPriceMeans(job.data);
  });
  await boss.work<JobData["report-checks"]>("report-checks", { pollingIntervalSeconds: 2 }, async ([job]) => {
    await workReportChecks(job.data);
  });
  // One at a time: a drawing already prints its parts on as many Chromium pages as it may (PDF_CONCURRENCY).
  await boss.work<JobData["submission-pdf"]>("submission-pdf", { pollingIntervalSeconds: 2 }, async ([job]) => {
    await keepSubmissionPdf(job.data.snapshotId);
  });
  await boss.work("scheduled-reminders", { pollingIntervalSeconds: 5 }, async () => {
    await runScheduledReminders();
  });
  await boss.work("purge-expired", { pollingIntervalSeconds: 30 }, async () => {
    await purgeExpired();
  });

  if (process.env.REMINDER_SCHEDULER === "off") {
    await boss.unschedule("scheduled-reminders");
    logger.info("scheduled reminders disabled (REMINDER_SCHEDULER=off)");
  } else {
    await boss.schedule("scheduled-reminders", process.env.REMINDER_CRON || DEFAULT_REMINDER_CRON);
  }
  await boss.schedule("purge-expired", PURGE_CRON);
  await queueUncountedSalesChecks();
  logger.info("worker started: mail delivery, stored checks, submission PDFs, scheduled reminders, purges");
  const worked: QueueName[] = ["mail-delivery", "sales-price-means", "report-checks", "submission-pdf", "scheduled-reminders", "purge-expired"];
  return async () => {
    await Promise.all(worked.map((name) => boss.offWork(name)));
  };
}
