import { filingValues } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { filingSubmissionTables } from "./submission.server";

/** The Filing Plans as the workflow knows them. */
export const filingDeclaration: ReportDeclaration = {
  rowTable: filingValues,
  submissionTables: filingSubmissionTables,
};
