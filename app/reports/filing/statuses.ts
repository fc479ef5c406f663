/**
 * The statuses a Filing Plans cell may hold (decisions.md section 5). The database holds the base
 * statuses of each category; the four planned-filing quarters roll with the open quarter and are
 * computed here, so that browser and server agree on them. No database access in this module.
 */
import { addQuarters, quarterName, type QuarterRef } from "~/utils/quarters";
import type { CellRule } from "~/reports/frame/contract";

/** What a partner types (or what an export writes) for an empty cell. */
export const FILING_EMPTY = "0";

/** The names of the four quarters after `open`: the planned filing quarters of its Filing Plans. */
export function plannedFilingQuarters(open: QuarterRef): string[] {
  return [1, 2, 3, 4].map((count) => quarterName(addQuarters(open, count)));
}

/** A category's list: its base statuses, then the four planned filing quarters after `open`. */
export function filingStatusOptions(base: readonly string[], open: QuarterRef): string[] {
  return [...base, ...plannedFilingQuarters(open)];
}

/** The rule of `normaliseFilingCell` in words: the grid describes an invalid cell with it. */
export const FILING_CELL_RULES: Record<"status", CellRule> = { status: { text: "Choose a status from the list" } };

/**
 * Reads one cell: blank or "0" is the empty cell ("0"); anything else must be one of `options`,
 * whatever its case, and comes back spelled as the option is.
 */
export function normaliseFilingCell(input: string, options: readonly string[]): { ok: true; value: string } | { ok: false } {
  const trimmed = input.trim();
  if (trimmed === "" || trimmed === FILING_EMPTY) return { ok: true, value: FILING_EMPTY };
  const wanted = trimmed.toLowerCase();
  const match = options.find((option) => option.toLowerCase() === wanted);
  return match === undefined ? { ok: false } : { ok: true, value: match };
}
