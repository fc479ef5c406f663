/**
 * The page drawn after an upload or a save of many rows posted without JavaScript, when the portal
 * was too busy to read it or the workbook was refused for what its sheets hold: the post's
 * refusal alone, without the report's rows (loading and drawing them costs as much as the post),
 * and a link that loads the report again.
 */
import { useLocation, useMatches } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReportActionData } from "~/reports/frame/contract";
import { routeTitle } from "~/utils/page-title";
import { PageHeader } from "~/components/page-header";
import { InvalidDataAlert, ReportErrorAlert, UploadProblemsAlert } from "./report-page";

/** A report route's data in place of the report (app/reports/frame/page.server.ts, loadReportPage). */
export function RefusalPage({ actionData }: { actionData: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const title = routeTitle(useMatches());
  const result = actionData as ReportActionData | undefined;
  const reloadHref = `${location.pathname}${location.search}`;
  return (
    <div className="report-page" data-testid="refusal-page">
      <PageHeader title={title ? t(title) : null} />
      {result?.kind === "error" ? <ReportErrorAlert error={result} reloadHref={reloadHref} /> : null}
      {result?.kind === "problems" ? <InvalidDataAlert problems={result.problems} headings={{}} /> : null}
      {result?.kind === "upload-problems" ? <UploadProblemsAlert problems={{ listed: result.problems, more: result.more ?? 0 }} /> : null}
      {result?.kind !== "error" ? (
        <p>
          <a href={reloadHref}>{t("Reload the report")}</a>
        </p>
      ) : null}
    </div>
  );
}
