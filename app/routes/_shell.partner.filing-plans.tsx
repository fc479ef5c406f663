import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { partnerReads, partnerChanges } from "~/reports/frame/report-route.server";
import { reportLinks, reportScreen } from "~/reports/frame/report-route";
import { handleFilingPlanAction, loadFilingPlanPage } from "~/reports/filing/page.server";
import { FilingPlanPage } from "~/reports/filing/filing-plan-page";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };
export const links = reportLinks();

/** The signed-in partner's own Filing Plans (`?quarter=Q2 2026` for an earlier quarter). */
export const loader = async (args: LoaderFunctionArgs) => loadFilingPlanPage(await partnerReads(args));
export const action = async (args: ActionFunctionArgs) => handleFilingPlanAction(await partnerChanges(args));

export { shouldRevalidateReport as shouldRevalidate } from "~/reports/frame/report-route";
/** A post refused for want of a turn says when to try again (Retry-After). */
export { heavyPostHeaders as headers } from "~/reports/frame/heavy-posts.server";

export default reportScreen(FilingPlanPage);
