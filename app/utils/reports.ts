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

/** Report states of decisions.md section 4, with "not started" for a report that has no row yet. */
export const REPORT_STATES = ["Saved", "Submitted", "Resubmitted", "Approved", "Rejected"] as const;
