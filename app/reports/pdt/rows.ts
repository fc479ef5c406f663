/**
 * Development timeline (PDT) row rules, shared by the browser grid (instant cell checks) and the
 * server (checked again before saving). Client-safe: no `.server` imports, no Node APIs.
 *
 * Spec: portal-spec.md section 2 "Development timeline (PDT) screen" (columns: status, notes,
 * start and end date per quarter) and section 5 "PDT": the status must be in the allowed list,
 * dates are M/D/YYYY or MM/DD/YYYY, invalid entries show 'Invalid data!' / 'Please input valid
 * entries!' and block saving, and a single space clears a date. decisions.md section 10: ISO
 * YYYY-MM-DD is read too, and a date is shown with its month's name.
 *
 * Dates travel as ISO `YYYY-MM-DD` strings; arithmetic on them is done in UTC so that no time
 * zone can move a date by a day.
 */
import { PROJECT_STATUSES, PROJECT_STATUS_LABELS, type ProjectStatus } from "~/utils/project-status";
import type { CellRule } from "~/reports/frame/contract";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";

export { PROJECT_STATUSES as PDT_STATUSES } from "~/utils/project-status";
export type { ProjectStatus as PdtStatus } from "~/utils/project-status";
/** 'Invalid data!': the same dialog title as the Sales Report grids. */
export { VALIDATION_DIALOG_TITLE as INVALID_DATA_TITLE } from "~/reports/frame/contract";
/** The line under 'Invalid data!' on the PDT grid (spec section 5). */
export const INVALID_DATA_HINT = "Please input valid entries!";

// ---------------------------------------------------------------- dates

/** Years a PDT date may fall in: wider than any plausible plan, narrow enough to catch typos. */
const PDT_YEAR_MIN = 1900;
const PDT_YEAR_MAX = 2200;

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** Days of a month (1..12) in a year, leap years included. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoFromParts(year: number, month: number, day: number): string | null {
  if (year < PDT_YEAR_MIN || year > PDT_YEAR_MAX) return null;
  if (month < 1 || month > 12) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/**
 * A date as typed in the grid or posted by a date input: M/D/YYYY, MM/DD/YYYY or YYYY-MM-DD.
 * Empty or only spaces clears the date (`value: null`); anything else must be a real calendar
 * date between 1900 and 2200.
 */
export function parsePdtDate(input: string): { ok: true; value: string | null } | { ok: false } {
  const text = input.trim();
  if (text === "") return { ok: true, value: null };
  const us = US_DATE.exec(text);
  const iso = us ? null : ISO_DATE.exec(text);
  const value = us ? isoFromParts(Number(us[3]), Number(us[1]), Number(us[2])) : iso ? isoFromParts(Number(iso[1]), Number(iso[2]), Number(iso[3])) : null;
  return value === null ? { ok: false } : { ok: true, value };
}

/**
 * Whether a date typed as M/D/YYYY could be meant either way round: day and month both 12 or less
 * and different ("05/11/2026": 11 May, or 5 November to someone who writes the day first). It is
 * read month first, as the spec says; the screen says what it was read as.
 */
export function isAmbiguousPdtDate(input: string): boolean {
  const us = US_DATE.exec(input.trim());
  if (!us) return false;
  const [month, day] = [Number(us[1]), Number(us[2])];
  return month <= 12 && day <= 12 && month !== day && isoFromParts(Number(us[3]), month, day) !== null;
}

/** Milliseconds since the epoch of an ISO date at midnight UTC, or null when it is not one. */
function utcTime(iso: string | null | undefined): number | null {
  const match = typeof iso === "string" ? /^(\d{4})-(\d{2})-(\d{2})/.exec(iso) : null;
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isoFromParts(year, month, day) === null ? null : Date.UTC(year, month - 1, day);
}

/** `MM/DD/YYYY` of an ISO date (a timestamp's date part is used), or "" when there is none. */
export function formatPdtDate(iso: string | null | undefined): string {
  const time = utcTime(iso);
  if (time === null) return "";
  const date = new Date(time);
  return `${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${pad(date.getUTCFullYear(), 4)}`;
}

/** English names the day first ("11 May 2026"), as the portal's other English dates do (spec: 'Do MMM YYYY'). */
const NAMED_DATE_LOCALES: Record<string, string> = { en: "en-GB" };
const namedDateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An ISO date with its month's name in the page's language ("11 May 2026", "11 mai 2026",
 * "2026年5月11日"), so that a misread day and month show at once; "" when there is none.
 */
export function namedPdtDate(iso: string | null | undefined, locale: string): string {
  const time = utcTime(iso);
  if (time === null) return "";
  let format = namedDateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(NAMED_DATE_LOCALES[locale] ?? locale, { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
    namedDateFormats.set(locale, format);
  }
  return format.format(time);
}

/** Whole days from the previous date to the current one (positive: moved later), or null. */
export function slipDays(previousIso: string | null, currentIso: string | null): number | null {
  const previous = utcTime(previousIso);
  const current = utcTime(currentIso);
  if (previous === null || current === null) return null;
  return Math.round((current - previous) / DAY_MS);
}

// ---------------------------------------------------------------- status

const STATUS_BY_KEY = new Map<string, ProjectStatus>();
const statusKey = (text: string) =>
  text
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, "_");
for (const status of PROJECT_STATUSES) {
  STATUS_BY_KEY.set(statusKey(status), status);
  STATUS_BY_KEY.set(statusKey(PROJECT_STATUS_LABELS[status]), status);
}

/**
 * A project status from what a person typed: the code ("UNDER_DEVELOPMENT") or its English label
 * ("Under Development"), in any case, with spaces or hyphens for underscores. Null otherwise.
 */
export function normalisePdtStatus(input: string): ProjectStatus | null {
  return STATUS_BY_KEY.get(statusKey(input)) ?? null;
}

// ---------------------------------------------------------------- rows

/** One PDT grid row as typed: every cell a string, dates in M/D/YYYY, ISO or empty. */
export interface PdtCells {
  status: string;
  notes: string;
  startDate: string;
  endDate: string;
}

export type PdtColumnKey = "status" | "notes" | "startDate" | "endDate";

/** Column names as the grid and the 'Invalid data!' dialog show them (English i18n keys). */
export const PDT_COLUMN_LABELS: Record<PdtColumnKey, string> = {
  status: "Status",
  notes: "Notes",
  startDate: "Start Date",
  endDate: "End Date",
};

/** A grid column's label by key, as comments name a cell ("PDT row 3, End Date"); the key itself for any other. */
export function pdtColumnLabel(_table: string, key: string): string {
  if (key === "productName") return "Product";
  if (key === "stageName") return "Stage";
  return PDT_COLUMN_LABELS[key as PdtColumnKey] ?? key;
}

/** How a date is typed: said beside the plain form's dates too. */
export const PDT_DATE_RULE = "Dates as M/D/YYYY or YYYY-MM-DD, the end not before the start";

/** What a valid cell holds (the rules of `normalisePdtRow` in words): the grid describes an invalid cell with it. */
export const PDT_CELL_RULES: Record<PdtColumnKey, CellRule> = {
  status: { text: "Choose a status from the list" },
  notes: { text: "Text of at most {{max}} characters", values: { max: TEXT_MAX.note } },
  startDate: { text: PDT_DATE_RULE },
  endDate: { text: PDT_DATE_RULE },
};

interface PdtRow {
  status: ProjectStatus | null;
  notes: string | null;
  startDate: string | null;
  endDate: string | null;
}

/**
 * A grid row made ready to store, or the columns that are wrong (in column order). The status is
 * required and must be one of the allowed ones; notes are trimmed (empty: null) and bounded; dates
 * are parsed, and an end date before its start date makes the end date invalid.
 */
export function normalisePdtRow(cells: PdtCells): { ok: true; row: PdtRow } | { ok: false; invalid: PdtColumnKey[] } {
  const invalid: PdtColumnKey[] = [];

  const status = normalisePdtStatus(cells.status ?? "");
  if (status === null) invalid.push("status");

  const noteText = (cells.notes ?? "").trim();
  if (textProblem(noteText, TEXT_MAX.note) !== null) invalid.push("notes");

  const start = parsePdtDate(cells.startDate ?? "");
  if (!start.ok) invalid.push("startDate");
  const end = parsePdtDate(cells.endDate ?? "");
  if (!end.ok) invalid.push("endDate");
  else if (start.ok && start.value !== null && end.value !== null && end.value < start.value) invalid.push("endDate");

  if (invalid.length || !start.ok || !end.ok) return { ok: false, invalid };
  return { ok: true, row: { status, notes: noteText === "" ? null : noteText, startDate: start.value, endDate: end.value } };
}
