import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { adminChanges, adminReads } from "~/reports/frame/report-route.server";
import { reportLinks, reportScreen } from "~/reports/frame/report-route";
import { handleFilingPlanAction, loadFilingPlanPage } from "~/reports/filing/page.server";
import { FilingPlanPage } from "~/reports/filing/filing-plan-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };
export const links = reportLinks();

/** A partner's Filing Plans for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id; every change is the administrator's. */
export const loader = async (args: LoaderFunctionArgs) => loadFilingPlanPage(await adminReads(args));
export const action = async (args: ActionFunctionArgs) => handleFilingPlanAction(await adminChanges(args));

export { shouldRevalidateReport as shouldRevalidate } from "~/reports/frame/report-route";
/** A post refused for want of a turn says when to try again (Retry-After). */
export { heavyPostHeaders as headers } from "~/reports/frame/heavy-posts.server";

export default reportScreen(FilingPlanPage);
