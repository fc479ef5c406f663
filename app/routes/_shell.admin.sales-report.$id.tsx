import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import reportStyles from "~/reports/frame/report-frame.css";
import { ProductVerificationWarning } from "~/reports/sales/product-verification";
import { SalesReportPage } from "~/reports/sales/sales-report-page";
import { RefusalPage } from "~/reports/frame/refusal-page";
import { isRefusalPage } from "~/reports/frame/contract";
import { shouldRevalidateReport } from "~/reports/frame/report-page";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { handleSalesReportAction, loadSalesReportPage } from "~/reports/sales/page.server";
import { heavyPostHeaders } from "~/reports/frame/heavy-posts.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** A partner's Sales Report for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return loadSalesReportPage({ request, context, viewer: user, partnerId: idParam(params.id) });
}

/** Every change is the administrator's: STAFF and partners get 403. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return handleSalesReportAction({ request, context, actor: user, partnerId: idParam(params.id) });
}

export const shouldRevalidate: ShouldRevalidateFunction = shouldRevalidateReport;

/** A post refused for want of a turn says when to try again (Retry-After). */
export const headers = heavyPostHeaders;

export default function AdminSalesReport() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (isRefusalPage(loaderData)) return <RefusalPage actionData={actionData} />;
  return (
    <SalesReportPage
      data={loaderData}
      actionData={actionData}
      downloadPath={`/admin/sales-report/${loaderData.view.partner.id}/xlsx`}
      templatePath={`/admin/sales-report/${loaderData.view.partner.id}/template.xlsx`}
      backTo="/admin/partner-list"
      verification={ProductVerificationWarning}
    />
  );
}
