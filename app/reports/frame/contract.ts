/**
 * Client-safe shapes every report screen (PDT, Filing Plans, Sales) shares between its routes
 * (server) and its page (browser): the intents of the frame, what an action answers, and the
 * constants of the forms that work without JavaScript.
 */

import { THREAD_INTENTS, type ThreadProblem } from "./threads";

/** What every report's page posts; a report may add intents of its own (Sales: verify-product). */
export const FRAME_INTENTS = [
  "save",
  "submit",
  "submit-empty",
  "approve",
  "reject",
  "reopen",
  "read-messages",
  "explain",
  "upload",
  ...THREAD_INTENTS,
] as const;
export type FrameIntent = (typeof FRAME_INTENTS)[number];
export type DecisionIntent = "submit" | "submit-empty" | "approve" | "reject" | "reopen";

/** Save and submit carry the grid's changes; a decision carries them when there are any; "nothing to report" never. */
export function carriesRows(intent: string, dirty: boolean): boolean {
  return intent !== "submit-empty" && (intent === "save" || intent === "submit" || dirty);
}

/** Rows per page of the form without JavaScript. */
export const FORM_PAGE_SIZE = 50;
/** The grid's height: the window's height minus this (spec section 2). */
export const GRID_HEIGHT_OFFSET = 230;
/** Uploaded workbooks: at most 10 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

/** The toast after a save or an upload of PDT and Filing Plans (spec section 8). */
export const DATA_RECORDED = "Data recorded successfully!";
export const REPORT_SUBMITTED = "Report has been submitted to the admin!";
export const NOTHING_TO_REPORT_NEEDS_EMPTY = "Only a report without rows can be submitted as nothing to report.";
export const SAVE_CHANGES_FIRST = "Save your changes first.";
/** Said beside Save on a submitted report: a partner's save withdraws the submission (decisions.md section 4). */
export const SAVE_WITHDRAWS_SUBMISSION = "Saving withdraws your submission until you submit the report again.";
/** Said beside Submit on a submitted report without changes. */
export const NOTHING_NEW_TO_SUBMIT = "This report is already submitted. Change it to submit it again.";
export const UNSAVED_CHANGES = "Unsaved changes";
export const LEAVE_WITH_UNSAVED_CHANGES = "You have unsaved changes. Leave this page and lose them?";

/** The title of the message that lists invalid rows (grids, plain forms, uploads). */
export const VALIDATION_DIALOG_TITLE = "Invalid data!";

/** What a valid cell holds, as an i18n key and its values: the grids describe an invalid cell with it. */
export interface CellRule {
  text: string;
  values?: Record<string, number>;
}

/** One row of the 'Invalid data!' message: the row the user sees and its invalid columns. */
export interface RowProblem {
  /** 1-based position in the grid (or the form page) as the user sees the rows. */
  rowNumber: number;
  /** Labels of the invalid columns (translation keys). */
  columns: string[];
  /** Keys of the invalid columns, for highlighting cells. */
  keys: string[];
  /** What the invalid cells that are not empty hold, by key, as `echoedValue` shortens it. */
  entered?: Record<string, string>;
}

/** A cell may hold 32,767 characters: a problem shows the first 100 of it. */
const ECHOED_CHARS = 100;

/** A refused cell's text as a problem shows it: trimmed, its first 100 characters and "…" beyond. */
export function echoedValue(text: string): string {
  const characters = Array.from(text.trim());
  return characters.length > ECHOED_CHARS ? `${characters.slice(0, ECHOED_CHARS).join("")}…` : characters.join("");
}

/** The `entered` of a problem: the echoed text of each given cell that is not empty (undefined when all are). */
export function enteredValues(keys: readonly string[], valueOf: (key: string) => string | null | undefined): Record<string, string> | undefined {
  const entered: Record<string, string> = {};
  for (const key of keys) {
    const value = echoedValue(valueOf(key) ?? "");
    if (value) entered[key] = value;
  }
  return Object.keys(entered).length ? entered : undefined;
}

/** How a problem names an invalid cell: its column's label, and what it holds when it is not empty (an i18n key and its values). */
const INVALID_CELL_WITH_VALUE = "{{column}}: “{{value}}”";

/** The invalid cells of a problem, each as `name(column label)` or INVALID_CELL_WITH_VALUE, joined by ", ". */
export function invalidCellsText(
  problem: Pick<RowProblem, "columns" | "keys" | "entered">,
  say: (key: string, values?: Record<string, string>) => string,
): string {
  return problem.columns
    .map((column, index) => {
      const value = problem.entered?.[problem.keys[index]];
      return value === undefined ? say(column) : say(INVALID_CELL_WITH_VALUE, { column: say(column), value });
    })
    .join(", ");
}

/** Problems by table (Sales: API and FDF; PDT and Filing Plans: one table each). */
export type TableProblems = Record<string, RowProblem[]>;

/** The values a form without JavaScript posted, by row position (0-based), to show them again. */
export interface SubmittedForm {
  tab: string;
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

export type ReportActionData =
  | {
      kind: "problems";
      intent: string;
      problems: TableProblems;
      submitted?: SubmittedForm;
    }
  | {
      kind: "error";
      intent: string;
      /** An English message (a translation key) with its values. */
      message: string;
      values?: Record<string, string | number>;
      /** The comment field the message belongs to. */
      field?: "comment";
      /** True when someone else saved first: the editor keeps its unsaved input. */
      stale?: boolean;
      submitted?: SubmittedForm;
    }
  | {
      kind: "upload-problems";
      intent: "upload";
      problems: UploadProblem[];
      /** Problems beyond those listed. */
      more?: number;
    }
  | { kind: "verification-errors"; intent: "verify-product"; verificationId: number; errors: Record<string, string[]> }
  | { kind: "messages-read"; intent: "read-messages"; unreadMessageCount: number }
  /** Reasons refused (a problem by subject): nothing was saved; `posted` is what the form sent, shown again. */
  | { kind: "explanation-problems"; intent: "explain"; errors: Record<string, string>; posted: Record<string, string> }
  | ThreadProblem;

/** A refused post keeps the page as loaded (the editor keeps the user's input); anything else reloads. */
export function keepsPageAfter(result: ReportActionData | undefined): boolean {
  return Boolean(result && result.kind !== "messages-read");
}

/** A report page's data when it shows a refusal alone (no report rows loaded): the server's loader and the page share it. */
export const REFUSAL_PAGE = { refusalOnly: true } as const;
export type RefusalPageData = typeof REFUSAL_PAGE;

export const isRefusalPage = (data: object): data is RefusalPageData => "refusalOnly" in data;
