import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import chartStyles from "~/components/charts/charts.css";
import consolidatedStyles from "~/components/consolidated/consolidated-report.css";
import dashboardStyles from "~/components/dashboard/dashboard.css";
import { DashboardTabNav, FilingsTab, PriceTab, ProductTab, SalesTablesTab, SalesTimeTab, SummaryTab } from "~/components/dashboard/dashboard-tabs";
import { PageHeader } from "~/components/page-header";
import { loadDashboardTab, readDashboardQuery } from "~/models/dashboard/dashboard.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { reportStatusCounts } from "~/models/report-overview.server";
import { getCutOffDate } from "~/models/settings.server";
import { DASHBOARD_TAB_LABELS } from "~/reports/dashboard/view";
import { rethrowForPage } from "~/report-routes/frame.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { REPORT_STATES, REPORT_TYPE_LABELS } from "~/utils/reports";
import { ScrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = () => [{ title: "Dashboard | MPP Data Portal" }];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: consolidatedStyles },
  { rel: "stylesheet", href: chartStyles },
  { rel: "stylesheet", href: dashboardStyles },
];

/** GET /admin/dashboard?tab=…&…filters: the open quarter's report counts and one of the eight tabs (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const query = readDashboardQuery(new URL(request.url));
  const quarter = await getOpenQuarter();
  const [counts, cutOffDate, view] = await Promise.all([
    reportStatusCounts(quarter.id),
    getCutOffDate(),
    loadDashboardTab(query, quarter).catch(rethrowForPage),
  ]);
  return { quarterName: quarter.name, counts, cutOffDate: cutOffDate ?? null, query, view, canRemind: user.role === "ADMIN" };
}

export default function AdminDashboard() {
  const { t } = useTranslation();
  const { quarterName, counts, cutOffDate, query, view, canRemind } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <p className="notice">
        {t("Open quarter")}: <strong>{quarterName}</strong>
        {cutOffDate ? (
          <>
            {" · "}
            {t("Report submission date")}: <strong>{formatDate(cutOffDate)}</strong>
          </>
        ) : null}
      </p>
      <section className="card">
        <h2 className="card__title" id="report-status-counts-title">{t("Reports of the open quarter")}</h2>
        <ScrollRegion labelledBy="report-status-counts-title">
          <table className="table" data-testid="report-status-counts">
            <thead>
              <tr>
                <th scope="col">{t("Report")}</th>
                <th scope="col">{t("Not started")}</th>
                {REPORT_STATES.map((state) => (
                  <th key={state} scope="col">
                    {t(state)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {counts.map((row) => (
                <tr key={row.type}>
                  <th scope="row">{t(REPORT_TYPE_LABELS[row.type])}</th>
                  <td>{row.notStarted}</td>
                  {REPORT_STATES.map((state) => (
                    <td key={state}>{row.byStatus[state] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </section>
      <DashboardTabNav query={query} />
      <div className="dashboard-panel" data-testid={`dashboard-${view.tab}`} aria-label={t(DASHBOARD_TAB_LABELS[view.tab])} role="region">
        {view.tab === "product" ? <ProductTab view={view} query={query} /> : null}
        {view.tab === "summary" ? <SummaryTab view={view} query={query} canRemind={canRemind} /> : null}
        {view.tab === "filings" ? <FilingsTab view={view} query={query} /> : null}
        {view.tab === "sales-product" || view.tab === "sales-company" || view.tab === "sales-country" ? <SalesTablesTab view={view} query={query} /> : null}
        {view.tab === "sales-time" ? <SalesTimeTab view={view} query={query} /> : null}
        {view.tab === "price" ? <PriceTab view={view} query={query} /> : null}
      </div>
    </>
  );
}
