import { Link, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/hooks/use-hydrated";
import type { SalesScreenLists } from "~/models/sales-report.server";
import { SAVE_WITHDRAWS_SUBMISSION, type ReportActionData } from "~/reports/frame/contract";
import { isSubmitted } from "~/utils/report-workflow";
import { NOTHING_TO_REPORT_DESCRIPTION } from "~/reports/sales/contract";
import type { SalesReportPageData } from "~/reports/sales/route.server";
import { SALES_KINDS, VALIDATION_HEADINGS, type SalesKind } from "~/utils/sales-rows";
import { DecisionForm, InvalidDataAlert, NothingToReportForm, ReportPage } from "../report/report-page";
import { ProductVerificationWarning } from "./product-verification";
import { SalesFormTable } from "./sales-form-table";
import { SalesGridEditor } from "./sales-grid-editor";
import { SavedWarningsPanel } from "./sales-warnings";

/** The datalists that the list cells suggest from (grid editors and the form without JavaScript). */
function SalesDatalists({ lists }: { lists: SalesScreenLists }) {
  const list = (id: string, values: readonly string[]) => (
    <datalist id={id}>
      {values.map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
  return (
    <div hidden>
      {list("sales-list-months", lists.months)}
      {list("sales-list-countries", lists.countries)}
      {list("sales-list-formulations", lists.formulationTypes)}
      {list("sales-list-currencies", lists.currencies)}
      {list("sales-list-products-api", lists.productNames.API)}
      {list("sales-list-products-fdf", lists.productNames.FDF)}
    </div>
  );
}

export function SalesReportPage({
  data,
  actionData,
  downloadPath,
  backTo,
}: {
  data: SalesReportPageData;
  actionData: unknown;
  downloadPath: string;
  backTo?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const location = useLocation();
  const { view, viewerRole, verification } = data;
  const result = actionData as ReportActionData | undefined;
  const busy = navigation.state === "submitting";

  const quarterParam = view.quarter.historic ? view.quarter.name : null;
  const hrefWith = (params: Record<string, string | number | null>) => {
    const search = new URLSearchParams();
    if (quarterParam) search.set("quarter", quarterParam);
    for (const [name, value] of Object.entries(params)) if (value !== null && value !== "") search.set(name, String(value));
    const query = search.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  const hiddenFields = { quarterId: view.quarter.id, version: view.report.version };
  const isPartner = viewerRole === "PARTNER";

  const error = result?.kind === "error" ? result : null;
  const commentError = error?.field === "comment" ? error.message : null;
  const formProblems = result?.kind === "problems" ? result.problems : null;
  const submitted = result && (result.kind === "problems" || result.kind === "error") ? (result.submitted ?? null) : null;
  const tab: SalesKind = submitted?.tab === "FDF" || (!submitted && data.tab === "FDF") ? "FDF" : "API";

  return (
    <ReportPage
      data={data}
      result={result}
      hydrated={hydrated}
      title={t("Sales Report for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      downloadHref={`${downloadPath}${quarterParam ? `?quarter=${encodeURIComponent(quarterParam)}` : ""}`}
      downloadName="sales-report.xlsx"
      backTo={backTo}
      upload={{ modes: true, busy }}
      notices={
        <>
          {viewerRole === "ADMIN" ? (
            <ProductVerificationWarning
              list={verification}
              pendingCount={view.pendingProductCount}
              quarterId={view.quarter.id}
              hydrated={hydrated}
              errors={result?.kind === "verification-errors" ? { verificationId: result.verificationId, errors: result.errors } : null}
            />
          ) : null}
          {data.savedWarnings ? <SavedWarningsPanel warnings={data.savedWarnings} /> : null}
        </>
      }
    >
      <SalesDatalists lists={view.lists} />
      {hydrated ? (
        <SalesGridEditor
          key={`${view.quarter.id}:${view.report.version}`}
          view={view}
          viewerRole={viewerRole}
          initialTab={data.tab}
          result={result}
          busy={busy}
          hiddenFields={hiddenFields}
          post={(form) => submit(form, { method: "post", action: `${location.pathname}${location.search}` })}
        />
      ) : (
        <>
          {formProblems ? <InvalidDataAlert problems={formProblems} headings={VALIDATION_HEADINGS} /> : null}
          <nav className="report-tabs" aria-label={t("Sales Report")}>
            {SALES_KINDS.map((kind) => (
              <Link
                key={kind}
                to={hrefWith({ tab: kind })}
                className={`report-tabs__tab${tab === kind ? " report-tabs__tab--active" : ""}`}
                aria-current={tab === kind ? "page" : undefined}
              >
                {kind}
              </Link>
            ))}
          </nav>
          <SalesFormTable
            kind={tab}
            rows={view.rows[tab]}
            page={data.page}
            lists={view.lists}
            canEdit={view.canEditRows}
            productEditable={view.canEditRows && !view.quarter.historic}
            problems={formProblems?.[tab] ?? []}
            submitted={submitted}
            hiddenFields={hiddenFields}
            pageHref={(page) => hrefWith({ tab, page })}
            canSave={view.permissions.save && !busy}
            showSubmit={isPartner}
            canSubmit={view.permissions.submit && !busy}
            commentError={error?.intent === "submit" ? commentError : null}
            saveNote={isPartner && isSubmitted(view.report.status) && view.permissions.save ? SAVE_WITHDRAWS_SUBMISSION : null}
          />
          {isPartner && view.permissions.submit && view.rows.API.length + view.rows.FDF.length === 0 ? (
            <NothingToReportForm
              frame={view}
              description={NOTHING_TO_REPORT_DESCRIPTION}
              commentError={error?.intent === "submit-empty" ? commentError : null}
              busy={busy}
            />
          ) : null}
          {!isPartner ? (
            <DecisionForm frame={view} viewerRole={viewerRole} commentError={error && error.intent !== "submit" ? commentError : null} busy={busy} />
          ) : null}
        </>
      )}
    </ReportPage>
  );
}
