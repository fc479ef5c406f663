import { useTranslation } from "react-i18next";
import { FILING_NOTHING_TO_REPORT, FILING_PROBLEM_HEADINGS, FILING_TABLE } from "~/reports/filing/contract";
import type { FilingPlanPageData } from "~/reports/filing/page.server";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { InvalidDataAlert, PlainDecisionForms, ReportPage, useReportScreen } from "~/reports/frame/report-page";
import { FilingFormTable } from "./filing-form-table";
import { FilingGridEditor } from "./filing-grid-editor";

/** The Filing Plans screen in the report frame: the grid of countries by product, or its plain form. */
export function FilingPlanPage({
  data,
  actionData,
  downloadPath,
  templatePath,
  backTo,
}: {
  data: FilingPlanPageData;
  actionData: unknown;
  downloadPath: string;
  templatePath: string;
  backTo?: string;
}) {
  const { t } = useTranslation();
  const screen = useReportScreen(data, actionData);
  const { view, viewerRole } = data;
  const hasFilings = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY));

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={t("Filing Plans for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      downloadPath={downloadPath}
      templatePath={templatePath}
      backTo={backTo}
      notices={
        view.carriedOverFrom ? (
          <p className="notice" data-testid="carried-over">
            {t("This quarter starts from the plan of {{quarter}}: save to keep it.", { quarter: view.carriedOverFrom })}
          </p>
        ) : null
      }
    >
      {screen.hydrated ? (
        <FilingGridEditor key={`${view.quarter.id}:${view.report.version}`} view={view} viewerRole={viewerRole} screen={screen} />
      ) : (
        <>
          {screen.formProblems ? <InvalidDataAlert problems={screen.formProblems} headings={FILING_PROBLEM_HEADINGS} /> : null}
          <FilingFormTable view={view} page={data.page} problems={screen.formProblems?.[FILING_TABLE] ?? []} form={screen.plainForm} />
          <PlainDecisionForms data={data} screen={screen} nothingToReport={!hasFilings} description={FILING_NOTHING_TO_REPORT} />
        </>
      )}
    </ReportPage>
  );
}
