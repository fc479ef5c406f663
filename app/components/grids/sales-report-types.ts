/**
 * Client-safe shapes shared by the Sales Report routes (server) and the screen (browser):
 * what the actions answer, and the constants of the form that works without JavaScript.
 */
import type { SalesKind, SalesRowProblem } from "~/utils/sales-rows";

/** Rows per page of the form without JavaScript, and the blank rows it offers to add. */
export const FORM_PAGE_SIZE = 50;
export const FORM_BLANK_ROWS = 10;
/** The grid shows the saved rows followed by this many empty rows (spec section 9). */
export const GRID_PADDING_ROWS = 500;
/** Add Row: 0 to 10000, default 0 (spec section 9). */
export const ADD_ROWS_MAX = 10_000;
/** The grid's height: the window's height minus this (spec section 2). */
export const GRID_HEIGHT_OFFSET = 230;
/** Uploaded workbooks: at most 10 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Rows one save may carry per table (the grid allows adding 10000 at a time). */
export const SAVE_MAX_ROWS = 100_000;

export type SalesIntent =
  | "save"
  | "submit"
  | "approve"
  | "reject"
  | "reopen"
  | "submit-empty"
  | "read-messages"
  | "verify-product"
  | "upload";

/** "Nothing to report this quarter": what it does, and why it is not offered while the report has rows. */
export const NOTHING_TO_REPORT_DESCRIPTION = "Submits this quarter's Sales Report without rows: you had no API or FDF sales to report.";
export const NOTHING_TO_REPORT_NEEDS_EMPTY = "Only a report without rows can be submitted as nothing to report.";

/** The values a form without JavaScript posted, by grid position (0-based), to show them again. */
export interface SubmittedForm {
  tab: SalesKind;
  rows: Record<number, Record<string, string>>;
  deleteIds: number[];
  comment: string;
}

/** One problem of an uploaded workbook: by sheet, row and column where it has them. */
export interface UploadProblem {
  /** An English message (a translation key) with its values. */
  message: string;
  values?: Record<string, string | number>;
  sheet?: string;
  row?: number;
  columns?: string[];
}

export type SalesActionData =
  | {
      kind: "problems";
      intent: SalesIntent;
      /** Row numbers are grid positions (1-based). */
      problems: Record<SalesKind, SalesRowProblem[]>;
      submitted?: SubmittedForm;
    }
  | {
      kind: "error";
      intent: SalesIntent;
      /** An English message (a translation key) with its values. */
      message: string;
      values?: Record<string, string | number>;
      /** The comment field the message belongs to. */
      field?: "comment";
      /** True when someone else saved first: the editor keeps its unsaved input. */
      stale?: boolean;
      submitted?: SubmittedForm;
    }
  | { kind: "upload-problems"; intent: "upload"; problems: UploadProblem[] }
  | { kind: "verification-errors"; intent: "verify-product"; verificationId: number; errors: Record<string, string[]> }
  | { kind: "messages-read"; intent: "read-messages"; unreadMessageCount: number };

/**
 * After a save: the entered FDF values more than 1 % away from the derived ones (non-blocking),
 * carried across the save's redirect and shown once by the report's page.
 */
export interface SavedWarnings {
  reportId: number;
  /** Row numbers are grid positions ("grid") or rows of the uploaded workbook's FDF sheet ("workbook"). */
  source: "grid" | "workbook";
  /** `column` is the column's English label (a translation key). */
  items: { row: number; column: string; expected: string }[];
  /** Warnings beyond those listed. */
  more: number;
}

/** The save body the grid posts as JSON in the field `payload`. */
export interface SalesPayload {
  API: Record<string, unknown>[];
  FDF: Record<string, unknown>[];
  deletedIds: number[];
}

/** The name of a cell input in the form without JavaScript: `api[3][country]`. */
export function formFieldName(kind: SalesKind, index: number, key: string): string {
  return `${kind.toLowerCase()}[${index}][${key}]`;
}

export const FORM_FIELD_PATTERN = /^(api|fdf)\[(\d{1,7})\]\[([A-Za-z]+)\]$/;
