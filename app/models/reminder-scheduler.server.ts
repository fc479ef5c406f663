import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import type { ReminderSchedule } from "~/schemas/settings";
import { logger } from "~/utils/logger.server";
import { daysBetween } from "~/utils/dates";
import { cutOffAppliesTo, quarterOf } from "~/utils/quarters";
import { portalNow } from "~/utils/today.server";
import { ensureQuarter } from "./quarter.server";
import { logReminders, owedReports, remindInTransaction, type SkippedReminder } from "./reminder.server";
import { getCutOffDate, getReminderSchedule } from "./settings.server";

/** Only one server instance decides a pass at a time (transaction-scoped advisory lock). */
const SCHEDULER_LOCK = 72015200;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The schedule keys due on `today` ("before-7", "after-1"…) for a cut-off date (both YYYY-MM-DD). */
export function dueScheduleKeys(cutOffDate: string, schedule: ReminderSchedule, today: string): string[] {
  const offset = daysBetween(cutOffDate, today);
  const keys: string[] = [];
  if (offset <= 0 && schedule.daysBefore.includes(-offset)) keys.push(`before-${-offset}`);
  if (offset >= 0 && schedule.daysAfter.includes(offset) && !(offset === 0 && keys.length)) keys.push(`after-${offset}`);
  return keys;
}

interface ScheduledBatch {
  scheduleKey: string;
  sent: number[];
  skipped: SkippedReminder[];
}

interface ScheduledRun {
  /** false: another instance was running a pass (nothing done here). */
  ran: boolean;
  today: string;
  due: string[];
  batches: ScheduledBatch[];
}

/**
 * One pass of the scheduled reminders: on a day of the schedule (cut-off date minus `daysBefore`
 * or plus `daysAfter`), every active partner that still owes reports of the open quarter is
 * reminded of them in one mail (the rule of `owedReports`, as for a reminder sent by hand). Each (partner, report type, quarter, schedule key) is claimed by inserting a
 * row under a unique index before its mail goes out, so it is sent once, whatever the number of
 * passes or servers; the claims of a pass are made under an advisory lock.
 */
export async function runScheduledReminders(now: Date = portalNow()): Promise<ScheduledRun> {
  const today = isoDay(now);
  const [cutOffDate, schedule] = await Promise.all([getCutOffDate(), getReminderSchedule()]);
  const idle = (due: string[] = []): ScheduledRun => ({ ran: true, today, due, batches: [] });
  if (!cutOffDate) return idle();
  const due = dueScheduleKeys(cutOffDate, schedule, today);
  if (!due.length) return idle();

  const openRef = quarterOf(now);
  if (!cutOffAppliesTo(cutOffDate, openRef)) {
    logger.warn({ cutOffDate, today }, "scheduled reminders: the cut-off date belongs to a closed quarter; nothing sent");
    return idle(due);
  }
  const quarter = await ensureQuarter(openRef);

  const batches = await db.transaction(async (tx) => {
    const [lock] = await tx.select({ locked: sql<boolean>`pg_try_advisory_xact_lock(${SCHEDULER_LOCK})` }).from(sql`(select 1) as lock_probe`);
    if (!lock?.locked) return null;
    const done: ScheduledBatch[] = [];
    for (const scheduleKey of due) {
      const owing = [...(await owedReports(quarter, { executor: tx })).keys()];
      if (!owing.length) continue;
      const options = { partnerIds: owing, actorId: null, kind: "scheduled" as const, scheduleKey, quarter };
      const result = await remindInTransaction(tx, { ...options, cutOffDate });
      logReminders(options, result);
      done.push({ scheduleKey, ...result });
    }
    return done;
  });
  if (!batches) {
    logger.info({ today }, "scheduled reminders: another instance is running this pass");
    return { ran: false, today, due, batches: [] };
  }
  return { ran: true, today, due, batches };
}
