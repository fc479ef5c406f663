import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import chartStyles from "~/components/charts/charts.css";
import consolidatedStyles from "~/reports/consolidated/consolidated-report.css";
import { PageHeader } from "~/components/page-header";
import {
  PerformanceChartPanel,
  PerformanceDownloads,
  PerformanceFilters,
  PerformancePager,
  PerformanceTable,
  type PerformanceState,
} from "~/components/partner-performance-table";
import reportStyles from "~/reports/frame/report-frame.css";
import { listPartnerPerformance, performanceQuerySchema, performanceSortOf } from "~/models/partner-performance.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForPage } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner Performance" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: consolidatedStyles },
  { rel: "stylesheet", href: chartStyles },
];

/**
 * GET /admin/partner-performance: a row per active partner and quarter (submitted, on time, late,
 * days to approval, rejections, reminders) under a chart of the reports per quarter; filtered,
 * sorted and paged by the query string (ADMIN and STAFF).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(performanceQuerySchema, new URL(request.url));
  const view = await listPartnerPerformance(query).catch(rethrowForPage);
  const state: PerformanceState = { ...query, sort: performanceSortOf(query), page: view.page.page };
  return { ...view, state };
}

export default function PartnerPerformance() {
  const { t } = useTranslation();
  const { page, chart, options, state } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Partner Performance")}>
        <PerformanceDownloads state={state} />
      </PageHeader>
      <PerformanceChartPanel chart={chart} />
      <section className="card">
        <PerformanceFilters state={state} options={options} />
        <p className="pager__status" data-testid="performance-count">
          {t("Rows: {{total}}", { total: page.total })}
        </p>
        <PerformanceTable state={state} rows={page.rows} />
        <PerformancePager state={state} page={page.page} pages={page.pages} />
      </section>
    </>
  );
}
