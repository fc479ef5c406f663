import { Link } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { SalesScreenLists } from "~/models/sales-report.server";
import { NOTHING_TO_REPORT_DESCRIPTION, unpackSalesRows } from "~/reports/sales/contract";
import type { SalesReportPageData } from "~/report-routes/sales.server";
import { SALES_KINDS, VALIDATION_HEADINGS, type SalesKind } from "~/utils/sales-rows";
import { InvalidDataAlert, PlainDecisionForms, ReportPage, useReportScreen } from "../report/report-page";
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
  templatePath,
  backTo,
}: {
  data: SalesReportPageData;
  actionData: unknown;
  downloadPath: string;
  templatePath: string;
  backTo?: string;
}) {
  const { t } = useTranslation();
  const screen = useReportScreen(data, actionData);
  const { hydrated, result, formProblems, submitted } = screen;
  const { viewerRole, verification } = data;
  const view = useMemo(() => ({ ...data.view, rows: unpackSalesRows(data.view.rows) }), [data.view]);
  const tab: SalesKind = submitted?.tab === "FDF" || (!submitted && data.tab === "FDF") ? "FDF" : "API";

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={t("Sales Report for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      downloadPath={downloadPath}
      templatePath={templatePath}
      backTo={backTo}
      uploadModes={{ savedRows: view.rows.API.length + view.rows.FDF.length }}
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
          {/* A later post (a failed upload, say) leaves the page as loaded: the earlier save's notice no longer holds. */}
          {data.savedWarnings && !result ? <SavedWarningsPanel warnings={data.savedWarnings} /> : null}
        </>
      }
    >
      <SalesDatalists lists={view.lists} />
      {hydrated ? (
        <SalesGridEditor key={`${view.quarter.id}:${view.report.version}`} view={view} viewerRole={viewerRole} initialTab={data.tab} screen={screen} />
      ) : (
        <>
          {formProblems ? <InvalidDataAlert problems={formProblems} headings={VALIDATION_HEADINGS} /> : null}
          <nav className="report-tabs" aria-label={t("Sales Report")}>
            {SALES_KINDS.map((kind) => (
              <Link
                key={kind}
                to={screen.href({ tab: kind })}
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
            form={{ ...screen.plainForm, pageHref: (page) => screen.href({ tab, page }) }}
          />
          <PlainDecisionForms data={data} screen={screen} nothingToReport={view.rows.API.length + view.rows.FDF.length === 0} description={NOTHING_TO_REPORT_DESCRIPTION} />
        </>
      )}
    </ReportPage>
  );
}
