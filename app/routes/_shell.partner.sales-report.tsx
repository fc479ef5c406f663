import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import reportStyles from "~/reports/frame/report-frame.css";
import { SalesReportPage } from "~/reports/sales/sales-report-page";
import { RefusalPage } from "~/reports/frame/refusal-page";
import { isRefusalPage } from "~/reports/frame/contract";
import { shouldRevalidateReport } from "~/reports/frame/report-page";
import { requirePartner } from "~/utils/auth.server";
import { handleSalesReportAction, loadSalesReportPage } from "~/reports/sales/page.server";
import { heavyPostHeaders } from "~/reports/frame/heavy-posts.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** The signed-in partner's own Sales Report (`?quarter=Q2 2026` for an earlier quarter). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadSalesReportPage({ request, context, viewer: user, partnerId: user.partnerId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return handleSalesReportAction({ request, context, actor: user, partnerId: user.partnerId });
}

export const shouldRevalidate: ShouldRevalidateFunction = shouldRevalidateReport;

/** A post refused for want of a turn says when to try again (Retry-After). */
export const headers = heavyPostHeaders;

export default function PartnerSalesReport() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (isRefusalPage(loaderData)) return <RefusalPage actionData={actionData} />;
  return (
    <SalesReportPage data={loaderData} actionData={actionData} downloadPath="/partner/sales-report/xlsx" templatePath="/partner/sales-report/template.xlsx" />
  );
}
