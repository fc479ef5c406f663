import * as z from "zod";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";

/** POST /language: the language chosen in the signed-in menu, and the page to go back to. */
export const LanguageChoiceSchema = z.object({
  language: z.enum(SUPPORTED_LANGUAGES),
  redirectTo: z.string().max(2000).optional(),
});

/** A path of the portal's own; anything else (another site, `//host`, `/\host`) goes to the start page. */
export function samePortalPath(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) ? value : "/";
}
