import * as z from "zod";
import { MAX_ID } from "~/utils/ids";
import type { ReportTypeKey } from "~/reports/frame/registry";

/** Partners one bulk reminder may name (the whole partner list fits many times over). */
export const REMINDER_PARTNERS_MAX = 2000;

/** POST /admin/reminders: one or several `partnerId` values, a report type and where to go back to. */
export const ReminderRequestSchema = z.object({
  partnerId: z
    .array(
      z.coerce
        .number({ error: "Please select a partner." })
        .int({ error: "Please select a partner." })
        .positive({ error: "Please select a partner." })
        .max(MAX_ID, { error: "Please select a partner." }),
    )
    .min(1, { error: "Please select a partner." })
    .max(REMINDER_PARTNERS_MAX, { error: "Too many partners in one reminder." }),
  reportType: z.enum(["pdt", "filing", "sales"] satisfies ReportTypeKey[], { error: "Please select a report." }),
  redirectTo: z.string().optional(),
});

/** POST /admin/reminders with `intent` set to this (and only `redirectTo`): every partner is reminded of what it owes. */
export const REMIND_EVERYONE_OWING = "remind-everyone-owing";

const DEFAULT_REMINDER_REDIRECT = "/admin/partner-list";

/** Only a local admin page: anything else (another site, a partner page) falls back to the partner list. */
export function safeAdminRedirect(value: unknown): string {
  if (typeof value !== "string") return DEFAULT_REMINDER_REDIRECT;
  const path = value.trim();
  // Printable ASCII only: the path goes into a Location header as it is.
  if (!path.startsWith("/admin/") || path.includes("\\") || !/^[\x21-\x7e]+$/.test(path)) return DEFAULT_REMINDER_REDIRECT;
  if (path.startsWith("/admin/reminders")) return DEFAULT_REMINDER_REDIRECT;
  return path;
}
