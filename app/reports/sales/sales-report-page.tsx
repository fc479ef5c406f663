import { Link } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { NOTHING_TO_REPORT_DESCRIPTION, unpackSalesRows } from "~/reports/sales/contract";
import type { SalesReportPageData } from "~/reports/sales/page.server";
import { columnsFor, SALES_KINDS, tableColumnLabel, VALIDATION_HEADINGS, type SalesKind } from "~/reports/sales/columns";
import { ReportPage, useReportScreen, type ReportTexts } from "~/reports/frame/report-page";
import type { ReportPageProps } from "~/reports/frame/report-route";
import { lazyEditor } from "~/reports/frame/lazy-editor";
import type { ProductVerificationWarning } from "./product-verification";
import { REPORT_REGISTRY } from "~/reports/frame/registry";
import { RoyaltyStatementSection } from "./royalty-statement";
import { SalesDatalists } from "./sales-datalists";
import { SalesFormTable } from "./sales-form-table";
import type { SalesGridEditor } from "./sales-grid-editor";
import { SavedWarningsPanel } from "./sales-warnings";

/** The grid editor (react-data-grid, the editing and paste rules), loaded after the page. */
const useSalesGridEditor = lazyEditor<typeof SalesGridEditor>(() => import("./sales-grid-editor").then((module) => module.SalesGridEditor), "Sales Report");

const SALES_TEXTS: ReportTexts = {
  name: "Sales Report",
  problemHeadings: VALIDATION_HEADINGS,
  nothingToReportDescription: NOTHING_TO_REPORT_DESCRIPTION,
  columnLabel: tableColumnLabel,
  // A removed row is listed with its table's columns, as the grid shows them.
  changes: { tables: SALES_KINDS, columns: (table) => columnsFor(table === "FDF" ? "FDF" : "API").map(({ key, label }) => ({ key, label })) },
};

/** The Sales Report screen in the report frame: API and FDF tabs of the grid editor, or of the plain form. */
export function SalesReportPage({
  data,
  actionData,
  verification: Verification,
}: ReportPageProps<SalesReportPageData> & {
  /** The administrator's product verification, passed by the administrator's route only (partners never load it). */
  verification?: typeof ProductVerificationWarning;
}) {
  const { t } = useTranslation();
  const screen = useReportScreen(data, actionData, SALES_TEXTS);
  const { hydrated, result, submitted } = screen;
  const { viewerRole, verification } = data;
  const GridEditor = useSalesGridEditor(hydrated);
  const view = useMemo(() => ({ ...data.view, rows: unpackSalesRows(data.view.rows) }), [data.view]);
  const tab: SalesKind = submitted?.tab === "FDF" || (!submitted && data.tab === "FDF") ? "FDF" : "API";
  const savedRows = view.rows.API.length + view.rows.FDF.length;

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={t("Sales Report for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      uploadModes={{ savedRows }}
      notices={
        <>
          {viewerRole === "ADMIN" && Verification ? (
            <Verification
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
      editor={GridEditor ? <GridEditor view={view} initialTab={data.tab} screen={screen} threads={data.threads} /> : null}
      plainForm={
        <>
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
            lists={view.lists}
            productEditable={view.canEditRows && !view.quarter.historic}
            form={{ ...screen.plainForm, pageHref: (page, params = {}) => screen.href({ tab, page, ...params }) }}
            threads={data.threads}
            changes={data.comparison}
          />
        </>
      }
      nothingToReport={savedRows === 0}
    >
      {data.royaltyStatement ? (
        <RoyaltyStatementSection
          statement={data.royaltyStatement}
          downloadHref={(file) => screen.downloadHref(`${REPORT_REGISTRY.sales.adminPath}/${view.partner.id}/${file}`)}
          partner={view.partner.companyName}
          quarter={view.quarter.name}
        />
      ) : null}
      <SalesDatalists lists={view.lists} />
    </ReportPage>
  );
}
