import { useTranslation } from "react-i18next";
import { FILING_NOTHING_TO_REPORT, FILING_PROBLEM_HEADINGS } from "~/reports/filing/contract";
import type { FilingPlanPageData } from "~/reports/filing/page.server";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { ReportPage, useReportScreen, type ReportTexts } from "~/reports/frame/report-page";
import type { ReportPageProps } from "~/reports/frame/report-route";
import { FilingFormTable } from "./filing-form-table";
import { FilingGridEditor } from "./filing-grid-editor";

const FILING_TEXTS: ReportTexts = { name: "Filing Plans", problemHeadings: FILING_PROBLEM_HEADINGS, nothingToReportDescription: FILING_NOTHING_TO_REPORT };

/** The Filing Plans screen in the report frame: the grid of countries by product, or its plain form. */
export function FilingPlanPage({ data, actionData }: ReportPageProps<FilingPlanPageData>) {
  const { t } = useTranslation();
  const screen = useReportScreen(data, actionData, FILING_TEXTS);
  const { view } = data;
  const hasFilings = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY));

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={t("Filing Plans for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      notices={
        view.carriedOverFrom ? (
          <p className="notice" data-testid="carried-over">
            {t("This quarter starts from the plan of {{quarter}}: save to keep it.", { quarter: view.carriedOverFrom })}
          </p>
        ) : null
      }
      editor={screen.hydrated ? <FilingGridEditor view={view} screen={screen} /> : null}
      plainForm={<FilingFormTable view={view} form={screen.plainForm} />}
      nothingToReport={!hasFilings}
    />
  );
}
