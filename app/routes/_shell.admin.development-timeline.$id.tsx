import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import timelineStyles from "~/reports/pdt/pdt-timeline.css";
import { adminChanges, adminReads } from "~/reports/frame/report-route.server";
import { reportLinks, reportScreen } from "~/reports/frame/report-route";
import { handlePdtReportAction, loadPdtReportPage } from "~/reports/pdt/page.server";
import { PdtReportPage } from "~/reports/pdt/pdt-report-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Development Timeline" };
export const links = reportLinks(timelineStyles);

/** A partner's Product Development Timeline for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id; every change is the administrator's. */
export const loader = async (args: LoaderFunctionArgs) => loadPdtReportPage(await adminReads(args));
export const action = async (args: ActionFunctionArgs) => handlePdtReportAction(await adminChanges(args));

export { shouldRevalidateReport as shouldRevalidate } from "~/reports/frame/report-route";
/** A post refused for want of a turn says when to try again (Retry-After). */
export { heavyPostHeaders as headers } from "~/reports/frame/heavy-posts.server";

export default reportScreen(PdtReportPage);
