import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PdtReportDownloads, PdtReportFilters, PdtReportPager, PdtReportTable, type PdtReportState } from "~/reports/pdt/consolidated-table";
import { PageHeader } from "~/components/page-header";
import { consolidatedLinks } from "~/reports/consolidated/page-links";
import { loadConsolidatedPage } from "~/reports/consolidated/page.server";
import { listPdtConsolidated, pdtQuerySchema, pdtSortOf } from "~/reports/pdt/consolidated.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Development Timeline" };

export const links = consolidatedLinks();

/** GET /admin/report/development-timeline: every partner's timeline rows of a quarter, filtered, sorted and paged by the query string (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { query, view } = await loadConsolidatedPage(request, pdtQuerySchema, listPdtConsolidated);
  const state: PdtReportState = { ...query, sort: pdtSortOf(query), page: view.page.page };
  return { ...view, state };
}

export default function DevelopmentTimelineReport() {
  const { t } = useTranslation();
  const { page, quarter, quarterOrder, options, state } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={`${t("Development Timeline")} (${quarter.name})`}>
        <PdtReportDownloads state={state} />
      </PageHeader>
      <section className="card">
        <PdtReportFilters state={state} options={options} />
        <p className="pager__status" data-testid="pdt-report-count">
          {t("Rows: {{total}}", { total: page.total })}
        </p>
        <PdtReportTable state={state} rows={page.rows} quarterOrder={quarterOrder} />
        <PdtReportPager state={state} page={page.page} pages={page.pages} />
      </section>
    </>
  );
}
