/**
 * The reports the workflow knows, by type: the one place that names them all on the server (the
 * frame asks here for the declaration of a report's type; it imports no report itself).
 */
import type { ReportTypeKey } from "~/reports/frame/registry";
import type { ReportDeclaration } from "~/reports/frame/workflow.server";
import { filingDeclaration } from "~/reports/filing/declaration.server";
import { pdtDeclaration } from "~/reports/pdt/declaration.server";
import { salesDeclaration } from "~/reports/sales/declaration.server";

export const REPORT_DECLARATIONS: Record<ReportTypeKey, ReportDeclaration> = {
  pdt: pdtDeclaration,
  filing: filingDeclaration,
  sales: salesDeclaration,
};
