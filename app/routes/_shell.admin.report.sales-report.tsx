import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SalesReportDownloads, SalesReportTable } from "~/reports/sales/consolidated-table";
import { PageHeader } from "~/components/page-header";
import consolidatedStyles from "~/reports/consolidated/consolidated-report.css";
import reportStyles from "~/reports/frame/report-frame.css";
import { listSalesConsolidated, salesConsolidatedQuery } from "~/reports/sales/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForPage } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: consolidatedStyles },
];

/** GET /admin/report/sales-report?tab=API|FDF&…: every partner's sales rows of a quarter, filtered, sorted and paged by the query string (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(salesConsolidatedQuery, new URL(request.url));
  return listSalesConsolidated(query).catch(rethrowForPage);
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
