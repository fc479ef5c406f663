/**
 * The proof of a submission as a document: what a report puts in it (its tables, drawn from the
 * snapshot's rows) and the labels the document adds around them. Client-safe: the history's
 * download link is named here too.
 */
import type { TFunction } from "i18next";
import type { DownloadName } from "~/utils/download-names";

/** One table of the document: its title, its column heads, its rows of shown text, and a totals row where the screen sums. */
export interface SubmissionTable {
  title: string;
  columns: { label: string; numeric?: boolean }[];
  rows: string[][];
  /** The totals row's cells (the first is its label), or null. */
  totals?: string[] | null;
  /** Said instead of an empty table. */
  empty?: string;
}

/** What a report gets to draw its tables: the snapshot's rows (as stored: Drizzle's camelCase keys) in the submitter's language. */
export interface SubmissionTablesInput {
  rows: readonly Record<string, unknown>[];
  partnerId: number;
  quarterName: string;
  language: string;
  t: TFunction;
}

/** The texts of the document, as translation keys (the locales hold them). */
export const SUBMISSION_TEXTS = {
  heading: "Proof of submission",
  partner: "Partner",
  quarter: "Quarter",
  report: "Report",
  submittedBy: "Submitted by",
  submittedAt: "Submitted on",
  comment: "Comment",
  rows: "Rows",
  sha256: "Snapshot SHA-256",
  hashNote: "The SHA-256 is computed over the rows exactly as stored at submission; this document is drawn from those rows.",
  explanations: "Reasons for the changes to explain",
  reason: "Reason",
  total: "Total",
  download: "PDF",
  downloadTitle: "Download the proof of this submission (PDF)",
  none: "None",
  noRows: "No rows were submitted in this table.",
} as const;

/** The file's name: `<report>_<partner>_<yyyy-Qn>_submission.pdf`, as the other downloads name theirs. */
export const submissionDownloadName = (name: Pick<DownloadName, "report" | "partner" | "quarter">): DownloadName => ({
  ...name,
  suffix: "submission",
  extension: "pdf",
});

/** Where a submission's PDF is downloaded (any role: the server decides who may). */
export const submissionPdfPath = (snapshotId: number) => `/submissions/${snapshotId}/pdf`;
