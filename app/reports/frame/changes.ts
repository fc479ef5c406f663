/**
 * "Show changes since" on every report screen (issue "Review conversation and proof", part "What
 * changed"): the report's saved rows against a base, a snapshot of the report's last submission,
 * its last approval, or the previous quarter's report. Compared in the database
 * (./changes.server.ts); this module is what the screens share. Client-safe.
 */

/** The bases a report's rows can be compared with, as the page's `?changes=` names them. */
export const CHANGE_BASES = ["submission", "approval", "previous-quarter"] as const;
export type ChangeBase = (typeof CHANGE_BASES)[number];

/** The query parameter of the comparison. */
export const CHANGES_PARAM = "changes";

/** The base the parameter names, or null (no comparison: the page as it is). */
export function parseChangeBase(value: string | null | undefined): ChangeBase | null {
  return (CHANGE_BASES as readonly string[]).includes(value ?? "") ? (value as ChangeBase) : null;
}

/** Each base as the picker names it (translation keys). */
export const CHANGE_BASE_LABELS: Record<ChangeBase, string> = {
  submission: "the last submission",
  approval: "the last approval",
  "previous-quarter": "the previous quarter",
};

/** Why there is nothing to compare with (translation keys; `quarter` the previous quarter's name). */
export const NO_CHANGE_BASE: Record<ChangeBase | "unsaved", string> = {
  submission: "This report has not been submitted yet: there is no submission to compare with.",
  approval: "This report has not been approved yet: there is no approval to compare with.",
  "previous-quarter": "There is no submitted report of the previous quarter ({{quarter}}) to compare with.",
  unsaved: "This report has not been saved yet: there is nothing to compare.",
};

/** Changed and added rows marked at most (the counts count them all). */
export const CHANGES_MARKED = 2000;
/** Removed rows listed at most. */
export const REMOVED_LISTED = 100;

/** A removed row: its table (Sales: API or FDF; "" for a report of one table) and its cells as they were shown. */
export interface RemovedRow {
  table: string;
  cells: Record<string, string>;
}

/** The rows now against a base: counts, the changed cells' old values, the added rows and the removed ones. */
export type RowChanges =
  | {
      base: ChangeBase;
      found: false;
      /** Why not (NO_CHANGE_BASE's key) and the previous quarter's name. */
      reason: ChangeBase | "unsaved";
      quarter: string | null;
    }
  | {
      base: ChangeBase;
      found: true;
      /** The base: when it was taken, and (previous quarter) which quarter it is of. */
      takenAt: string;
      quarter: string | null;
      counts: { added: number; changed: number; removed: number };
      /**
       * The changed rows by the report's row key (Sales: the row's id): each changed cell's value as
       * the base showed it (names, not ids; dates as stored, YYYY-MM-DD). The first CHANGES_MARKED rows.
       */
      changed: Record<string, Record<string, string>>;
      /** The row keys of the added rows (the first CHANGES_MARKED). */
      added: string[];
      /** The removed rows, the first REMOVED_LISTED, with their cells as they were shown. */
      removed: RemovedRow[];
    };

/** A cell's change as a grid or plain form marks it: its old value, or its row added since the base. */
export interface CellChange {
  was?: string;
  added?: boolean;
}

const addedSets = new WeakMap<object, Set<string>>();

/** Whether a row was added since the base. */
export function isAddedRow(changes: RowChanges | null, rowKey: string | number | undefined): boolean {
  if (!changes?.found || rowKey === undefined) return false;
  let added = addedSets.get(changes);
  if (!added) addedSets.set(changes, (added = new Set(changes.added)));
  return added.has(String(rowKey));
}

/** How a screen asks about a cell: the row's key, the cell's key. */
export function cellChangeOf(changes: RowChanges | null, rowKey: string | number | undefined, cell: string): CellChange | null {
  if (!changes?.found || rowKey === undefined) return null;
  const old = changes.changed[String(rowKey)]?.[cell];
  if (old !== undefined) return { was: old };
  return isAddedRow(changes, rowKey) ? { added: true } : null;
}
