/**
 * Changes to explain (issue "Checks that catch what a reviewer would miss"): figures of a report
 * that moved further than the administrator's thresholds since an earlier quarter. The partner
 * writes a reason for each line before the report can be submitted; the administrator reads the
 * reasons beside the figures, and the submission's snapshot keeps them. Each report declares its
 * own lines (app/reports/<report>/…). Client-safe.
 */

/** A sentence as a translation key and its values (figures as decimal strings; `country` an English name, `measure` a key). */
export interface ExplanationText {
  message: string;
  values: Record<string, string>;
}

/** One line to explain: what it is about, and each change found on it. */
interface ChangeToExplain {
  /** Stable across saves within the report, e.g. "sales:FDF:12:45" (kind, product, country). */
  subject: string;
  line: ExplanationText;
  changes: ExplanationText[];
}

export interface ExplainedChange extends ChangeToExplain {
  reason: string | null;
}

/** The report's lines to explain, as its screen shows them. */
export interface ChangesToExplainView {
  lines: ExplainedChange[];
  /** Lines without a reason: the report cannot be submitted while there are some. */
  missing: number;
  /** The viewer may write the reasons now (the partner, while the report may be submitted). */
  canExplain: boolean;
}

/** The intent of the reasons' form, and the name of each reason's field. */
export const EXPLAIN_INTENT = "explain";
export const reasonField = (subject: string) => `reason:${subject}`;
export const REASON_FIELD_PREFIX = "reason:";

export const EXPLANATION_MESSAGES = {
  submitRefused: "Write a reason for each line under “Changes to explain” before submitting: {{count}} without a reason.",
  saved: "Reasons saved.",
  notAllowed: "The reasons can be written by the partner while the report can be submitted.",
  up: "{{measure}}: {{before}} in {{quarter}}, now {{now}} (up {{change}}%).",
  down: "{{measure}}: {{before}} in {{quarter}}, now {{now}} (down {{change}}%).",
  appeared: "{{measure}}: none in {{quarter}}, now {{now}}.",
} as const;
