import { useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/hooks/use-hydrated";
import { SAVE_WITHDRAWS_SUBMISSION, type ReportActionData } from "~/reports/frame/contract";
import { isSubmitted } from "~/utils/report-workflow";
import { PDT_NOTHING_TO_REPORT, PDT_PROBLEM_HEADINGS, PDT_TABLE } from "~/reports/pdt/contract";
import type { PdtReportPageData } from "~/reports/pdt/route.server";
import { PdtTimeline, type TimelineProduct } from "../../report/pdt-timeline";
import { DecisionForm, InvalidDataAlert, NothingToReportForm, ReportPage } from "../../report/report-page";
import { PdtFormTable } from "./pdt-form-table";
import { PdtGridEditor } from "./pdt-grid-editor";

/** The rows as the timeline picture groups them: each product's stages, this quarter's plan over the last one's. */
function timelineProducts(rows: PdtReportPageData["view"]["rows"]): TimelineProduct[] {
  const products: TimelineProduct[] = [];
  for (const row of rows) {
    let product = products[products.length - 1];
    if (!product || product.name !== row.productName) {
      product = { name: row.productName, stages: [] };
      products.push(product);
    }
    product.stages.push({
      name: row.stageName,
      current: { start: row.startDate, end: row.endDate },
      previous: { start: row.previous?.startDate ?? null, end: row.previous?.endDate ?? null },
    });
  }
  return products;
}

/** The Product Development Timeline screen in the report frame: the grid (or the plain form), then the timeline picture. */
export function PdtReportPage({
  data,
  actionData,
  downloadPath,
  backTo,
}: {
  data: PdtReportPageData;
  actionData: unknown;
  downloadPath: string;
  backTo?: string;
}) {
  const { t, i18n } = useTranslation();
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
      title={t("Development Timeline for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      downloadHref={`${downloadPath}${quarterParam ? `?quarter=${encodeURIComponent(quarterParam)}` : ""}`}
      downloadName="development-timeline.xlsx"
      backTo={backTo}
      upload={{ modes: false, busy }}
    >
      {hydrated ? (
        <PdtGridEditor
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
          {formProblems ? <InvalidDataAlert problems={formProblems} headings={PDT_PROBLEM_HEADINGS} /> : null}
          <PdtFormTable
            rows={view.rows}
            earlierQuarters={view.quarterOrder.slice(0, -1).map((quarter) => quarter.name)}
            page={data.page}
            canEdit={view.canEditRows}
            problems={formProblems?.[PDT_TABLE] ?? []}
            submitted={submitted}
            hiddenFields={hiddenFields}
            pageHref={pageHref}
            canSave={view.permissions.save && !busy}
            showSubmit={isPartner}
            canSubmit={view.permissions.submit && !busy}
            commentError={error?.intent === "submit" ? commentError : null}
            saveNote={isPartner && isSubmitted(view.report.status) && view.permissions.save ? SAVE_WITHDRAWS_SUBMISSION : null}
          />
          {isPartner && view.permissions.submit ? (
            <NothingToReportForm frame={view} description={PDT_NOTHING_TO_REPORT} commentError={error?.intent === "submit-empty" ? commentError : null} busy={busy} />
          ) : null}
          {!isPartner ? <DecisionForm frame={view} viewerRole={viewerRole} commentError={error && error.intent !== "submit" ? commentError : null} busy={busy} /> : null}
        </>
      )}
      <section className="card pdt-timeline-card" aria-label={t("Timeline")}>
        <PdtTimeline
          products={timelineProducts(view.rows)}
          quarters={view.quarterOrder}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          currentLabel={t("This quarter's plan")}
          previousLabel={t("Last quarter's plan")}
          title={t("Development Timeline for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
        />
      </section>
    </ReportPage>
  );
}
