import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { partnerReads, partnerChanges } from "~/reports/frame/report-route.server";
import { reportLinks, reportScreen } from "~/reports/frame/report-route";
import { handleSalesReportAction, loadSalesReportPage } from "~/reports/sales/page.server";
import { SalesReportPage } from "~/reports/sales/sales-report-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Sales Report" };
export const links = reportLinks();

/** The signed-in partner's own Sales Report (`?quarter=Q2 2026` for an earlier quarter). */
export const loader = async (args: LoaderFunctionArgs) => loadSalesReportPage(await partnerReads(args));
export const action = async (args: ActionFunctionArgs) => handleSalesReportAction(await partnerChanges(args));

export { shouldRevalidateReport as shouldRevalidate } from "~/reports/frame/report-route";
/** A post refused for want of a turn says when to try again (Retry-After). */
export { heavyPostHeaders as headers } from "~/reports/frame/heavy-posts.server";

export default reportScreen(SalesReportPage);
