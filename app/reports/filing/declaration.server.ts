import { filingValues } from "~/db/schema";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";

/** The Filing Plans as the workflow knows them. */
export const filingDeclaration: ReportDeclaration = {
  rowTable: filingValues,
};
