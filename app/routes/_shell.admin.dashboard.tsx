import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import chartStyles from "~/components/charts/charts.css";
import consolidatedStyles from "~/reports/consolidated/consolidated-report.css";
import { stylesheetLinks } from "~/reports/consolidated/page-links";
import dashboardStyles from "~/components/dashboard/dashboard.css";
import {
  DashboardTabNav,
  FilingsTab,
  PriceTab,
  ProductTab,
  RoyaltiesTab,
  SalesTablesTab,
  SalesTimeTab,
  SummaryTab,
} from "~/components/dashboard/dashboard-tabs";
import { ReportStatusCounts } from "~/components/dashboard/report-status-counts";
import { PageHeader } from "~/components/page-header";
import { useFormatters } from "~/hooks/use-formatters";
import { loadDashboardTab, readDashboardQuery } from "~/models/dashboard/dashboard.server";
import { getOpenQuarter } from "~/models/quarter.server";
import { reportStatusCounts } from "~/models/report-overview.server";
import { getCutOffDate } from "~/models/settings.server";
import { DASHBOARD_TAB_LABELS } from "~/reports/dashboard/view";
import { rethrowForPage } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Dashboard" };

export const links = stylesheetLinks(consolidatedStyles, chartStyles, dashboardStyles);

/** GET /admin/dashboard?tab=…&…filters: the open quarter's report counts and one of the nine tabs (ADMIN and STAFF). */
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
  const format = useFormatters();
  const { quarterName, counts, cutOffDate, query, view, canRemind } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <p className="notice">
        {t("Open quarter")}: <strong>{quarterName}</strong>
        {cutOffDate ? (
          <>
            {" · "}
            {t("Report submission date")}: <strong>{format.date(cutOffDate)}</strong>
          </>
        ) : null}
      </p>
      <ReportStatusCounts counts={counts} />
      <DashboardTabNav query={query} />
      <div className="dashboard-panel" data-testid={`dashboard-${view.tab}`} aria-label={t(DASHBOARD_TAB_LABELS[view.tab])} role="region">
        {view.tab === "product" ? <ProductTab view={view} query={query} /> : null}
        {view.tab === "summary" ? <SummaryTab view={view} query={query} canRemind={canRemind} /> : null}
        {view.tab === "filings" ? <FilingsTab view={view} query={query} /> : null}
        {view.tab === "sales-product" || view.tab === "sales-company" || view.tab === "sales-country" ? <SalesTablesTab view={view} query={query} /> : null}
        {view.tab === "sales-time" ? <SalesTimeTab view={view} query={query} /> : null}
        {view.tab === "price" ? <PriceTab view={view} query={query} /> : null}
        {view.tab === "royalties" ? <RoyaltiesTab view={view} query={query} /> : null}
      </div>
    </>
  );
}
