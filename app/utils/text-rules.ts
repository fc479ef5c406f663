/**
 * What every text field of every form shares: a length limit (a megabyte in an indexed column
 * is refused by the database) and no control characters (PostgreSQL refuses NUL in text). Error
 * texts are English i18n keys. No zod here: the grids' rules use it in the browser without the form
 * schemas (app/schemas/fields.ts builds the zod field from it).
 */
export const TEXT_TOO_LONG = "This text is too long.";
export const CHARACTERS_NOT_ALLOWED = "This text contains characters that are not allowed.";

/** C0 control characters and DEL, except tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Half of a surrogate pair: JSON can carry one (`"\\ud800"`), no text column can keep it. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a text can be stored, and so matched: no control character, no half of a surrogate pair. */
export const isStorableText = (text: string) => !CONTROL_CHARACTERS.test(text) && !LONE_SURROGATE.test(text);

/**
 * A text from a page's query string (a filter, a quarter, a search): trimmed, or undefined when
 * it is empty or not storable. Nothing stored can match a control character, and PostgreSQL
 * refuses a NUL outright, so such a value counts as absent: the page answers as without it and
 * shows nothing of it back.
 */
export function queryText(value: string | null | undefined): string | undefined {
  if (value == null || !isStorableText(value)) return undefined;
  return value.trim() || undefined;
}

/** Lengths of the portal's text fields. */
export const TEXT_MAX = { email: 254, name: 200, line: 500, note: 2000, password: 1000 } as const;

/** Why a text cannot be stored (too long, control characters), or null: for texts that no form schema reads. */
export function textProblem(value: string, max: number): string | null {
  if (value.length > max) return TEXT_TOO_LONG;
  return CONTROL_CHARACTERS.test(value) ? CHARACTERS_NOT_ALLOWED : null;
}
