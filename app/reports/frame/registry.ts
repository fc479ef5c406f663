export type ReportTypeKey = "pdt" | "filing" | "sales";
export const REPORT_TYPES: readonly ReportTypeKey[] = ["pdt", "filing", "sales"];

export const REPORT_TYPE_LABELS: Record<ReportTypeKey, string> = {
  pdt: "PDT",
  filing: "Filing Plan",
  sales: "Sales Report",
};

export const PARTNER_REPORT_PATHS: Record<ReportTypeKey, string> = {
  pdt: "/partner/development-timeline",
  filing: "/partner/filing-plans",
  sales: "/partner/sales-report",
};

/** Each report's workbook: the file's stem (partner and quarter follow it) and the title its Info sheet gives. */
export const REPORT_WORKBOOKS: Record<ReportTypeKey, { file: string; title: string }> = {
  pdt: { file: "development-timeline", title: "Product Development Timeline" },
  filing: { file: "filing-plans", title: "Filing Plans" },
  sales: { file: "sales-report", title: "Sales Report" },
};

/** A blank template's file stem: the report's, marked as a template. */
export const templateFile = (file: string) => `${file}-template`;

/** A partner's report for ADMIN and STAFF: the path followed by `/{partnerId}`. */
export const ADMIN_REPORT_PATHS: Record<ReportTypeKey, string> = {
  pdt: "/admin/development-timeline",
  filing: "/admin/filing-plans",
  sales: "/admin/sales-report",
};

/** Report states of decisions.md section 4, with "not started" for a report that has no row yet. */
export const REPORT_STATES = ["Saved", "Submitted", "Resubmitted", "Approved", "Rejected"] as const;

/** A report's state in a quarter: "not started" when the partner has no report row yet (decisions.md section 4). */
export type ReportState = (typeof REPORT_STATES)[number] | "not started";

/** Reports still owed for a quarter: not started, Saved and Rejected ones (a submitted report is done). */
const OWED_STATES: readonly ReportState[] = ["not started", "Saved", "Rejected"];

/** The report types a partner owes, from its reports' states in the quarter (reminders and the partner list's menu). */
export function owedReportTypes(statuses: Record<ReportTypeKey, ReportState>): ReportTypeKey[] {
  return REPORT_TYPES.filter((type) => OWED_STATES.includes(statuses[type]));
}
