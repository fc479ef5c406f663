import * as z from "zod";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";

/** POST /language: the language chosen in the signed-in menu, and the page to go back to. */
export const LanguageChoiceSchema = z.object({
  language: z.enum(SUPPORTED_LANGUAGES),
  redirectTo: z.string().max(2000).optional(),
});

const OWN_ORIGIN = "http://portal.invalid";

/**
 * A path of the portal's own, as a header may carry it (other characters percent-encoded);
 * anything else (another site, `//host`, `/\host`) goes to the start page.
 */
export function samePortalPath(value: unknown): string {
  if (typeof value !== "string" || !/^\/(?![/\\])/.test(value)) return "/";
  const url = new URL(value, OWN_ORIGIN);
  return url.origin === OWN_ORIGIN ? `${url.pathname}${url.search}` : "/";
}
