import * as z from "zod";
import { CHARACTERS_NOT_ALLOWED, CONTROL_CHARACTERS, TEXT_TOO_LONG } from "~/utils/text-rules";

/** A string of at most `max` characters without control characters; `missing` is the error when it is absent. */
export function boundedText(max: number, { missing, tooLong = TEXT_TOO_LONG }: { missing?: string; tooLong?: string } = {}) {
  return z
    .string(missing ? { error: missing } : undefined)
    .max(max, { error: tooLong })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: CHARACTERS_NOT_ALLOWED });
}
