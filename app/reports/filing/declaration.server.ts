import { filingValues } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { pendingVerificationsRaisedBy } from "~/reports/sales/pending-verifications.server";

/** The Filing Plans as the workflow knows them. */
export const filingDeclaration: ReportDeclaration = {
  rowTable: filingValues,
  // Only Sales rows raise product verifications; one raised by this report would hold it up all the same.
  decisionBlockers: pendingVerificationsRaisedBy,
};
