import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SalesReportDownloads, SalesReportTable } from "~/reports/sales/consolidated-table";
import { PageHeader } from "~/components/page-header";
import { consolidatedLinks } from "~/reports/consolidated/page-links";
import { loadConsolidatedPage } from "~/reports/consolidated/page.server";
import { listSalesConsolidated, salesConsolidatedQuery } from "~/reports/sales/consolidated.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };

export const links = consolidatedLinks();

/** GET /admin/report/sales-report?tab=API|FDF&…: every partner's sales rows of a quarter, filtered, sorted and paged by the query string (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  return (await loadConsolidatedPage(request, salesConsolidatedQuery, listSalesConsolidated)).view;
}

export default function SalesConsolidatedReport() {
  const { t } = useTranslation();
  const view = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={`${t("Sales Report")} (${view.quarter.name})`}>
        <SalesReportDownloads view={view} />
      </PageHeader>
      <SalesReportTable view={view} />
    </>
  );
}
