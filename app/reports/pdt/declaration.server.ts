import { pdtValues } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { pdtSubmissionTables } from "./submission.server";
import { pdtChangesToExplain } from "./slips.server";

/** The Development Timeline as the workflow knows it. */
export const pdtDeclaration: ReportDeclaration = {
  rowTable: pdtValues,
  changesToExplain: pdtChangesToExplain,
  submissionTables: pdtSubmissionTables,
};
