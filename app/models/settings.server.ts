import crypto from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { settings } from "~/db/schema";
import {
  CUT_OFF_DATE_KEY,
  DEFAULT_REMINDER_SCHEDULE,
  DEFAULT_SWING_THRESHOLDS,
  REMINDER_SCHEDULE_KEY,
  StoredReminderScheduleSchema,
  StoredSwingThresholdsSchema,
  SWING_THRESHOLDS_KEY,
  type ReminderSchedule,
  type SwingThresholds,
} from "~/schemas/settings";
import { logger } from "~/utils/logger.server";
import { writeAudit } from "./audit.server";

async function getSetting<T>(key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

/** When each setting last changed (ISO time), e.g. to start a form again from the stored value after a save. */
export async function settingVersions(keys: string[]): Promise<Record<string, string>> {
  const rows = await db.select({ key: settings.key, updatedAt: settings.updatedAt }).from(settings).where(inArray(settings.key, keys));
  return Object.fromEntries(rows.map((row) => [row.key, row.updatedAt.toISOString()]));
}

/** The report submission (cut-off) date of the open quarter, as YYYY-MM-DD. */
export async function getCutOffDate(): Promise<string | undefined> {
  return getSetting<string>(CUT_OFF_DATE_KEY);
}

interface Change {
  actorId: number;
  requestId?: string | null;
}

/** Stores a setting and its audit entry (before and after) in one transaction. */
async function changeSetting<T>(key: string, value: T, action: string, { actorId, requestId }: Change) {
  await db.transaction(async (tx) => {
    const [previous] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).for("update");
    await tx
      .insert(settings)
      .values({ key, value, updatedBy: actorId })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy: actorId, updatedAt: new Date() } });
    await writeAudit({ actorId, action, entity: "setting", entityId: key, before: previous?.value ?? null, after: value, requestId }, tx);
  });
}

/** `date` is YYYY-MM-DD (the schema normalises what the form sent). */
export function setCutOffDate(date: string, change: Change) {
  return changeSetting(CUT_OFF_DATE_KEY, date, "setting.cut_off_date", change);
}

/** When partners that still owe a report are reminded; the default until an administrator sets one. */
export async function getReminderSchedule(): Promise<ReminderSchedule> {
  const stored = await getSetting<unknown>(REMINDER_SCHEDULE_KEY);
  if (stored === undefined) return DEFAULT_REMINDER_SCHEDULE;
  const parsed = StoredReminderScheduleSchema.safeParse(stored);
  if (!parsed.success) {
    logger.error({ stored }, "malformed reminder_schedule setting: using the default schedule");
    return DEFAULT_REMINDER_SCHEDULE;
  }
  return parsed.data;
}

export function setReminderSchedule(schedule: ReminderSchedule, change: Change) {
  const value: ReminderSchedule = { daysBefore: [...schedule.daysBefore], daysAfter: [...schedule.daysAfter] };
  return changeSetting(REMINDER_SCHEDULE_KEY, value, "setting.reminder_schedule", change);
}

/** When a report's figure is a change to explain; the default until an administrator sets them. */
export async function getSwingThresholds(): Promise<SwingThresholds> {
  const stored = StoredSwingThresholdsSchema.safeParse(await getSetting<unknown>(SWING_THRESHOLDS_KEY));
  return stored.success ? stored.data : DEFAULT_SWING_THRESHOLDS;
}

/** The thresholds inside a report's statement (no statement of their own): stored, else the defaults. */
export const swingThresholdsSql = {
  percent: sql`coalesce((select (${settings.value} ->> 'percent')::numeric from ${settings} where ${settings.key} = ${SWING_THRESHOLDS_KEY}), ${DEFAULT_SWING_THRESHOLDS.percent}::numeric)`,
  floorUsd: sql`coalesce((select (${settings.value} ->> 'floorUsd')::numeric from ${settings} where ${settings.key} = ${SWING_THRESHOLDS_KEY}), ${DEFAULT_SWING_THRESHOLDS.floorUsd}::numeric)`,
};

export function setSwingThresholds(thresholds: SwingThresholds, change: Change) {
  return changeSetting(SWING_THRESHOLDS_KEY, { percent: thresholds.percent, floorUsd: thresholds.floorUsd }, "setting.swing_thresholds", change);
}

/**
 * `npm start` must work on a fresh machine with no configuration: without SESSION_SECRET the
 * server generates one once and keeps it in the database, shared by every instance.
 */
export async function ensureGeneratedSessionSecret(): Promise<string> {
  await db
    .insert(settings)
    .values({ key: "generated_session_secret", value: crypto.randomBytes(48).toString("base64url") })
    .onConflictDoNothing();
  return (await getSetting<string>("generated_session_secret"))!;
}
