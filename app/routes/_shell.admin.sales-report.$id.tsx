import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import salesStyles from "~/components/grids/sales-report.css";
import { SalesReportPage, shouldRevalidateSalesReport } from "~/components/grids/sales-report-page";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { handleSalesReportAction, loadSalesReportPage } from "~/utils/sales-report-route.server";

export const meta: MetaFunction = () => [{ title: "Sales Report | MPP Data Portal" }];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: salesStyles },
];

function partnerIdFrom(params: { id?: string }) {
  const id = Number(params.id);
  if (!/^\d{1,9}$/.test(params.id ?? "") || !Number.isSafeInteger(id) || id < 1) {
    throw data({ message: "Oops, an error has occurred. Page not found!" }, { status: 404 });
  }
  return id;
}

/** A partner's Sales Report for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return loadSalesReportPage({ request, viewer: user, partnerId: partnerIdFrom(params) });
}

/** Every change is the administrator's: STAFF and partners get 403. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return handleSalesReportAction({ request, requestId: context.requestId, actor: user, partnerId: partnerIdFrom(params) });
}

export const shouldRevalidate: ShouldRevalidateFunction = shouldRevalidateSalesReport;

export default function AdminSalesReport() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <SalesReportPage
      data={loaderData}
      actionData={actionData}
      downloadPath={`/admin/sales-report/${loaderData.view.partner.id}/xlsx`}
      backTo="/admin/partner-list"
    />
  );
}
