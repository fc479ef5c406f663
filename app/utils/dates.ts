import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat.js";
import utc from "dayjs/plugin/utc.js";

dayjs.extend(advancedFormat);
dayjs.extend(utc);

/** Report status times: 'Do MMM YYYY, hh:mm A' (spec section 9), shown in UTC on every screen. */
export function formatDateTime(value: Date | string | null | undefined): string {
  return value ? dayjs.utc(value).format("Do MMM YYYY, hh:mm A") : "";
}

/** Cut-off and other calendar dates: DD-MM-YYYY (spec section 9). */
export function formatDate(value: Date | string | null | undefined): string {
  return value ? dayjs.utc(value).format("DD-MM-YYYY") : "";
}

const DAY_MS = 86_400_000;
const dayNumber = (isoDay: string) => Math.round(Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS);

/** Whole days from one calendar day to another (both YYYY-MM-DD): negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}
