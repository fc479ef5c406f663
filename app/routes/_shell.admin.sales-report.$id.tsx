import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { adminChanges, adminReads } from "~/reports/frame/report-route.server";
import { reportLinks, reportScreen, type ReportPageProps } from "~/reports/frame/report-route";
import { handleSalesReportAction, loadSalesReportPage, type SalesReportPageData } from "~/reports/sales/page.server";
import { ProductVerificationWarning } from "~/reports/sales/product-verification";
import { SalesReportPage } from "~/reports/sales/sales-report-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };
export const links = reportLinks();

/** A partner's Sales Report for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id; every change is the administrator's. */
export const loader = async (args: LoaderFunctionArgs) => loadSalesReportPage(await adminReads(args));
export const action = async (args: ActionFunctionArgs) => handleSalesReportAction(await adminChanges(args));

export { shouldRevalidateReport as shouldRevalidate } from "~/reports/frame/report-route";
/** A post refused for want of a turn says when to try again (Retry-After). */
export { heavyPostHeaders as headers } from "~/reports/frame/heavy-posts.server";

/** The administrator's page also checks the product names the report brings (partners never load that part). */
function AdminSalesReportPage(props: ReportPageProps<SalesReportPageData>) {
  return <SalesReportPage {...props} verification={ProductVerificationWarning} />;
}

export default reportScreen(AdminSalesReportPage);
