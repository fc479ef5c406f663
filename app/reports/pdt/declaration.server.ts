import { pdtValues } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { pendingVerificationsRaisedBy } from "~/reports/sales/pending-verifications.server";

/** The Development Timeline as the workflow knows it. */
export const pdtDeclaration: ReportDeclaration = {
  rowTable: pdtValues,
  // Only Sales rows raise product verifications; one raised by this report would hold it up all the same.
  decisionBlockers: pendingVerificationsRaisedBy,
};
