import { salesRows } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { salesSubmissionTables } from "./submission.server";
import { salesFindings } from "./checks.server";
import { pendingVerificationCount } from "./pending-verifications.server";
import { salesChangesToExplain } from "./swings.server";

/** The Sales Report as the workflow knows it. */
export const salesDeclaration: ReportDeclaration = {
  rowTable: salesRows,
  decisionBlockers: pendingVerificationCount,
  checks: salesFindings,
  changesToExplain: salesChangesToExplain,
  submissionTables: salesSubmissionTables,
};
