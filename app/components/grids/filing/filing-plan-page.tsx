import { useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/hooks/use-hydrated";
import { SAVE_WITHDRAWS_SUBMISSION, type ReportActionData } from "~/reports/frame/contract";
import { FILING_NOTHING_TO_REPORT, FILING_PROBLEM_HEADINGS, FILING_TABLE } from "~/reports/filing/contract";
import type { FilingPlanPageData } from "~/reports/filing/route.server";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { isSubmitted } from "~/utils/report-workflow";
import { DecisionForm, InvalidDataAlert, NothingToReportForm, ReportPage } from "../../report/report-page";
import { FilingFormTable } from "./filing-form-table";
import { FilingGridEditor } from "./filing-grid-editor";

/** The Filing Plans screen in the report frame: the grid of countries by product, or its plain form. */
export function FilingPlanPage({
  data,
  actionData,
  downloadPath,
  backTo,
}: {
  data: FilingPlanPageData;
  actionData: unknown;
  downloadPath: string;
  backTo?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const location = useLocation();
  const { view, viewerRole } = data;
  const result = actionData as ReportActionData | undefined;
  const busy = navigation.state === "submitting";
  const quarterParam = view.quarter.historic ? view.quarter.name : null;
  const hiddenFields = { quarterId: view.quarter.id, version: view.report.version };
  const isPartner = viewerRole === "PARTNER";
  const error = result?.kind === "error" ? result : null;
  const commentError = error?.field === "comment" ? error.message : null;
  const formProblems = result?.kind === "problems" ? result.problems : null;
  const submitted = result && (result.kind === "problems" || result.kind === "error") ? (result.submitted ?? null) : null;
  const hasValues = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY));
  const pageHref = (page: number) => {
    const search = new URLSearchParams();
    if (quarterParam) search.set("quarter", quarterParam);
    search.set("page", String(page));
    return `${location.pathname}?${search}`;
  };

  return (
    <ReportPage
      data={data}
      result={result}
      hydrated={hydrated}
      title={t("Filing Plans for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      downloadHref={`${downloadPath}${quarterParam ? `?quarter=${encodeURIComponent(quarterParam)}` : ""}`}
      downloadName="filing-plans.xlsx"
      backTo={backTo}
      upload={{ modes: false, busy }}
      notices={
        view.carriedOverFrom ? (
          <p className="notice" data-testid="carried-over">
            {t("This quarter starts from the plan of {{quarter}}: save to keep it.", { quarter: view.carriedOverFrom })}
          </p>
        ) : null
      }
    >
      {hydrated ? (
        <FilingGridEditor
          key={`${view.quarter.id}:${view.report.version}`}
          view={view}
          viewerRole={viewerRole}
          result={result}
          busy={busy}
          hiddenFields={hiddenFields}
          post={(form) => submit(form, { method: "post", action: `${location.pathname}${location.search}` })}
        />
      ) : (
        <>
          {formProblems ? <InvalidDataAlert problems={formProblems} headings={FILING_PROBLEM_HEADINGS} /> : null}
          <FilingFormTable
            view={view}
            page={data.page}
            problems={formProblems?.[FILING_TABLE] ?? []}
            submitted={submitted}
            hiddenFields={hiddenFields}
            pageHref={pageHref}
            canSave={view.permissions.save && !busy}
            showSubmit={isPartner}
            canSubmit={view.permissions.submit && !busy}
            commentError={error?.intent === "submit" ? commentError : null}
            saveNote={isPartner && isSubmitted(view.report.status) && view.permissions.save ? SAVE_WITHDRAWS_SUBMISSION : null}
          />
          {isPartner && view.permissions.submit && !hasValues ? (
            <NothingToReportForm frame={view} description={FILING_NOTHING_TO_REPORT} commentError={error?.intent === "submit-empty" ? commentError : null} busy={busy} />
          ) : null}
          {!isPartner ? <DecisionForm frame={view} viewerRole={viewerRole} commentError={error && error.intent !== "submit" ? commentError : null} busy={busy} /> : null}
        </>
      )}
    </ReportPage>
  );
}
