import { MONTHS } from "~/db/reference-data";

/**
 * Dates as the UI shows them, in the page's language (Intl), always in UTC. The spec fixes the
 * pattern per place (section 9); the language gives the month names, the day period and the digits.
 */

type DateValue = Date | string | null | undefined;
type DateKind = "date" | "dateTime" | "monthName" | "yearMonth";

const OPTIONS: Record<DateKind, Intl.DateTimeFormatOptions> = {
  date: { timeZone: "UTC", day: "2-digit", month: "2-digit", year: "numeric" },
  dateTime: { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h12" },
  monthName: { timeZone: "UTC", month: "long" },
  yearMonth: { timeZone: "UTC", month: "short", year: "numeric" },
};
const formats = new Map<string, Intl.DateTimeFormat>();

/** One cached formatter per language and kind. */
function dateFormat(locale: string, kind: DateKind): Intl.DateTimeFormat {
  const key = `${locale}:${kind}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, OPTIONS[kind])));
  return format;
}

function dateParts(value: Date | string, locale: string, kind: DateKind): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of dateFormat(locale, kind).formatToParts(new Date(value))) parts[part.type] = part.value;
  return parts;
}

const englishOrdinal = new Intl.PluralRules("en", { type: "ordinal" });
const ORDINAL_SUFFIX: Record<string, string> = { one: "st", two: "nd", few: "rd", other: "th" };

/**
 * Report status times. English: 'Do MMM YYYY, hh:mm A' exactly (spec section 9). Other languages:
 * the same fields (day, short month name, year, 12-hour time) in the order and words of the
 * language, since an ordinal day and a fixed order only make sense in English (a Chinese date
 * reads year, month, day).
 */
export function formatDateTime(value: DateValue, locale = "en"): string {
  if (!value) return "";
  if (locale !== "en") return dateFormat(locale, "dateTime").format(new Date(value));
  const { day, month, year, hour, minute, dayPeriod } = dateParts(value, locale, "dateTime");
  return `${day}${ORDINAL_SUFFIX[englishOrdinal.select(Number(day))]} ${month} ${year}, ${hour}:${minute} ${dayPeriod}`;
}

/** A month stored under its English name ('July'), named in the language ('juillet'); anything else as it is. */
export function formatMonthName(englishName: string, locale = "en"): string {
  const index = MONTHS.indexOf(englishName as (typeof MONTHS)[number]);
  if (index < 0 || locale === "en") return englishName;
  return dateFormat(locale, "monthName").format(Date.UTC(2000, index, 1));
}

/**
 * A sales period as the dashboard names it: a month ('2026-07') gets the language's month name
 * ('Jul 2026', 'juil. 2026', '2026年7月'); a year or a quarter name stays as it is.
 */
export function formatPeriod(label: string, locale = "en"): string {
  const month = /^(\d{4})-(\d{2})$/.exec(label);
  if (!month) return label;
  return dateFormat(locale, "yearMonth").format(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1));
}

/** Cut-off and other calendar dates: DD-MM-YYYY (spec section 9) in the language's digits. */
export function formatDate(value: DateValue, locale = "en"): string {
  if (!value) return "";
  const { day, month, year } = dateParts(value, locale, "date");
  return `${day}-${month}-${year}`;
}

const DAY_MS = 86_400_000;
const dayNumber = (isoDay: string) => Math.round(Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS);

/** Whole days from one calendar day to another (both YYYY-MM-DD): negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
