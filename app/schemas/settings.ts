import * as z from "zod";
import { boundedText } from "./fields";

/** Error texts are English i18n keys; the UI translates them. */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DMY_DATE = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/;

/** A real calendar date as YYYY-MM-DD, from the date picker (YYYY-MM-DD) or typed as DD-MM-YYYY; else null. */
function normaliseDate(value: string): string | null {
  const text = value.trim();
  let year: number, month: number, day: number;
  const iso = ISO_DATE.exec(text);
  const dmy = DMY_DATE.exec(text);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) [day, month, year] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
  else return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (year < 2000 || year > 2100) return null;
  return date.toISOString().slice(0, 10);
}

/** What the cut-off field shows and reads (spec section 9); YYYY-MM-DD is read too (API callers, older links). */
export const CUT_OFF_DATE_FORMAT = "DD-MM-YYYY";
export const CUT_OFF_DATE_PATTERN = "\\d{1,2}-\\d{1,2}-\\d{4}";
export const CUT_OFF_BEFORE_OPEN_QUARTER = "The report submission date cannot be before the open quarter starts.";

/**
 * The cut-off date, stored as YYYY-MM-DD. It is the open quarter's deadline, so it cannot fall
 * before `openQuarterStart` (YYYY-MM-DD, the first day of the open quarter); without it only the
 * format is checked (the API's documented body).
 */
export function cutOffDateField(openQuarterStart?: string) {
  return boundedText(40, { missing: "Please select date!" })
    .trim()
    .min(1, { error: "Please select date!" })
    .transform((value, ctx) => {
      const iso = normaliseDate(value);
      if (!iso) {
        ctx.addIssue({ code: "custom", message: "Please select a valid date!" });
        return z.NEVER;
      }
      if (openQuarterStart && iso < openQuarterStart) {
        ctx.addIssue({ code: "custom", message: CUT_OFF_BEFORE_OPEN_QUARTER });
        return z.NEVER;
      }
      return iso;
    });
}

/** The name of the date picker beside the DD-MM-YYYY field: it posts YYYY-MM-DD only without JavaScript (with it, picking fills the field). */
export const CUT_OFF_DATE_PICKER = "cutOffDatePicked";

/**
 * The settings form, in the browser and on the server (the loader passes the open quarter's start).
 * A date picked in the picker wins over the field, which holds the stored date until it is typed over.
 */
export function cutOffDateSchema(openQuarterStart: string) {
  return z
    .object({ cutOffDate: z.string().optional(), [CUT_OFF_DATE_PICKER]: z.string().optional() })
    .transform((form) => ({ cutOffDate: form[CUT_OFF_DATE_PICKER] || form.cutOffDate }))
    .pipe(z.object({ cutOffDate: cutOffDateField(openQuarterStart) }));
}

// ---------------------------------------------------------------- reminder schedule

export interface ReminderSchedule {
  /** Days before the cut-off date on which partners that still owe a report are reminded (0: the cut-off day). */
  daysBefore: number[];
  /** Days after the cut-off date on which they are reminded again. */
  daysAfter: number[];
}

export const DEFAULT_REMINDER_SCHEDULE: ReminderSchedule = { daysBefore: [7], daysAfter: [1, 7] };
const REMINDER_MAX_DAYS = 90;

export const DAY_LIST_ERROR = "Enter whole numbers of days from 0 to 90, separated by commas.";
export const CUT_OFF_DAY_TWICE_ERROR = "The cut-off day (0) can be in only one of the two lists.";

/** "7, 1,7" → [1, 7]; null when an entry is not a whole number from 0 to 90. Empty: no reminders. */
function parseDayList(value: string | undefined): number[] | null {
  const parts = (value ?? "")
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
  const days: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,2}$/.test(part)) return null;
    const day = Number(part);
    if (day > REMINDER_MAX_DAYS) return null;
    days.push(day);
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

export function formatDayList(days: readonly number[]): string {
  return days.join(", ");
}

const dayList = boundedText(400)
  .optional()
  .transform((value, ctx) => {
    const days = parseDayList(value);
    if (!days) {
      ctx.addIssue({ code: "custom", message: DAY_LIST_ERROR });
      return z.NEVER;
    }
    return days;
  });

export const ReminderScheduleSchema = z
  .object({ daysBefore: dayList, daysAfter: dayList })
  .refine((value) => !(value.daysBefore.includes(0) && value.daysAfter.includes(0)), {
    error: CUT_OFF_DAY_TWICE_ERROR,
    path: ["daysAfter"],
  });

/** A stored schedule (JSON) checked before use; anything malformed reads as null. */
export const StoredReminderScheduleSchema = z.object({
  daysBefore: z.array(z.number().int().min(0).max(REMINDER_MAX_DAYS)),
  daysAfter: z.array(z.number().int().min(0).max(REMINDER_MAX_DAYS)),
});

// ---------------------------------------------------------------- changes to explain

/**
 * When a report's figure counts as a change to explain (issue 32): a change beyond `percent` of
 * the earlier quarter's figure, on lines whose sales value reaches `floorUsd` in one of the two.
 */
export interface SwingThresholds {
  /** Whole percent, 1 to 1000. */
  percent: number;
  /** USD, a decimal string. */
  floorUsd: string;
}

export const DEFAULT_SWING_THRESHOLDS: SwingThresholds = { percent: 50, floorUsd: "10000" };
const SWING_PERCENT_ERROR = "Enter a whole percentage from 1 to 1000.";
const SWING_FLOOR_ERROR = "Enter an amount in USD of 0 or more, with at most two decimals.";

const SWING_FLOOR_PATTERN = /^\d{1,12}(\.\d{1,2})?$/;

/** The Settings form's fields, in the browser and on the server. */
export const SwingThresholdsSchema = z.object({
  percent: boundedText(10, { missing: SWING_PERCENT_ERROR })
    .trim()
    .regex(/^\d{1,4}$/, { error: SWING_PERCENT_ERROR })
    .transform(Number)
    .refine((value) => value >= 1 && value <= 1000, { error: SWING_PERCENT_ERROR }),
  floorUsd: boundedText(20, { missing: SWING_FLOOR_ERROR })
    .trim()
    .transform((value) => value.replace(/,/g, ""))
    .refine((value) => SWING_FLOOR_PATTERN.test(value), { error: SWING_FLOOR_ERROR })
    .transform((value) => value.replace(/^0+(?=\d)/, "")),
});

/** A stored value (JSON) checked before use. */
export const StoredSwingThresholdsSchema = z.object({
  percent: z.number().int().min(1).max(1000),
  floorUsd: z.string().regex(SWING_FLOOR_PATTERN),
});

// ---------------------------------------------------------------- settings page

/** Keys of the `settings` table. */
export const CUT_OFF_DATE_KEY = "cut_off_date";
export const REMINDER_SCHEDULE_KEY = "reminder_schedule";
export const SWING_THRESHOLDS_KEY = "swing_thresholds";

export const SETTINGS_INTENTS = ["cut-off", "schedule", "swings"] as const;
export type SettingsIntent = (typeof SETTINGS_INTENTS)[number];

/** The "Send again" button of an undelivered mail posts this `intent` with the `mailId` (a record id, nothing typed). */
export const RETRY_MAIL_INTENT = "retry-mail";
