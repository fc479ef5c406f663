import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import chartStyles from "~/components/charts/charts.css";
import { consolidatedLinks } from "~/reports/consolidated/page-links";
import { loadConsolidatedPage } from "~/reports/consolidated/page.server";
import { PageHeader } from "~/components/page-header";
import {
  PerformanceChartPanel,
  PerformanceDownloads,
  PerformanceFilters,
  PerformancePager,
  PerformanceTable,
  type PerformanceState,
} from "~/components/partner-performance-table";
import { listPartnerPerformance, performanceQuerySchema, performanceSortOf } from "~/models/partner-performance.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Partner Performance" };

export const links = consolidatedLinks(chartStyles);

/**
 * GET /admin/partner-performance: a row per active partner and quarter (submitted, on time, late,
 * days to approval, rejections, reminders) under a chart of the reports per quarter; filtered,
 * sorted and paged by the query string (ADMIN and STAFF).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { query, view } = await loadConsolidatedPage(request, performanceQuerySchema, listPartnerPerformance);
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
