export type ReportTypeKey = "pdt" | "filing" | "sales";

/** A report type: its labels, each by where it shows (the spec's texts differ by place), its pages and its workbook. */
interface ReportTypeInfo {
  labels: {
    /** Dashboards, the partner's tiles and the workflow mails: "Filing Plan". */
    name: string;
    /** Report status columns, their tooltips and the reminders: "Filing Plans". */
    status: string;
    /** The screen's title, the sidebar's, and the API's tag and summaries: "Development Timeline". */
    title: string;
  };
  /** The partner's own report. */
  partnerPath: string;
  /** A partner's report for ADMIN and STAFF: the path followed by `/{partnerId}`. */
  adminPath: string;
  /** The consolidated report of every partner, for ADMIN and STAFF. */
  consolidatedPath: string;
  /** The workbook: the file's stem (partner and quarter follow it) and the title its Info sheet gives. */
  workbook: { file: string; title: string };
}

/** A report type whose pages, consolidated report and workbook file are named by one slug. */
function reportType(slug: string, labels: ReportTypeInfo["labels"], workbookTitle: string): ReportTypeInfo {
  return {
    labels,
    partnerPath: `/partner/${slug}`,
    adminPath: `/admin/${slug}`,
    consolidatedPath: `/admin/report/${slug}`,
    workbook: { file: slug, title: workbookTitle },
  };
}

/** The report types, in the order the portal lists them. */
export const REPORT_REGISTRY: Record<ReportTypeKey, ReportTypeInfo> = {
  pdt: reportType("development-timeline", { name: "PDT", status: "PDT", title: "Development Timeline" }, "Product Development Timeline"),
  filing: reportType("filing-plans", { name: "Filing Plan", status: "Filing Plans", title: "Filing Plans" }, "Filing Plans"),
  sales: reportType("sales-report", { name: "Sales Report", status: "Sales Report", title: "Sales Report" }, "Sales Report"),
};
export const REPORT_TYPES = Object.keys(REPORT_REGISTRY) as readonly ReportTypeKey[];

/** A blank template's file stem: the report's, marked as a template. */
export const templateFile = (file: string) => `${file}-template`;

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
