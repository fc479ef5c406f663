/**
 * What every text field of every form shares: a length limit (a megabyte in an indexed column
 * is refused by the database) and no control characters (PostgreSQL refuses NUL in text). Error
 * texts are English i18n keys. No zod here: the grids' rules use it in the browser without the form
 * schemas (app/schemas/fields.ts builds the zod field from it).
 */
export const TEXT_TOO_LONG = "This text is too long.";
export const CHARACTERS_NOT_ALLOWED = "This text contains characters that are not allowed.";

/** C0 control characters and DEL, except tab, line feed and carriage return. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Lengths of the portal's text fields. */
export const TEXT_MAX = { email: 254, name: 200, line: 500, note: 2000, password: 1000 } as const;

/** Why a text cannot be stored (too long, control characters), or null: for texts that no form schema reads. */
export function textProblem(value: string, max: number): string | null {
  if (value.length > max) return TEXT_TOO_LONG;
  return CONTROL_CHARACTERS.test(value) ? CHARACTERS_NOT_ALLOWED : null;
}
