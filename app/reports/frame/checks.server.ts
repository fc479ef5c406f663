/** A report's checks as its screen and the API show them: the report's declared checks over its saved rows. */
import { reportChecks, type ReportChecks } from "~/reports/frame/checks";
import type { ReportTypeKey } from "~/reports/frame/registry";
import type { Viewer } from "~/reports/frame/page.server";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";

/**
 * The findings of a saved report for the viewer: figures derived from other partners only for
 * administrators and staff. Null when the report type declares no checks or has no report yet.
 */
export async function loadReportChecks(
  report: { type: ReportTypeKey; reportId: number | null; partnerId: number; quarterId: number },
  viewer: Pick<Viewer, "role">,
): Promise<ReportChecks | null> {
  const checks = REPORT_DECLARATIONS[report.type].checks;
  if (!checks || report.reportId === null) return null;
  const found = await checks({ reportId: report.reportId, partnerId: report.partnerId, quarterId: report.quarterId, withPeers: viewer.role !== "PARTNER" });
  return reportChecks(found);
}
