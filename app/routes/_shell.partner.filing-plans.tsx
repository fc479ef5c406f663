import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import { FilingPlanPage } from "~/reports/filing/filing-plan-page";
import reportStyles from "~/reports/frame/report-frame.css";
import { RefusalPage } from "~/reports/frame/refusal-page";
import { isRefusalPage } from "~/reports/frame/contract";
import { shouldRevalidateReport } from "~/reports/frame/report-page";
import { handleFilingPlanAction, loadFilingPlanPage } from "~/reports/filing/page.server";
import { heavyPostHeaders } from "~/reports/frame/heavy-posts.server";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** The signed-in partner's own Filing Plans (`?quarter=Q2 2026` for an earlier quarter). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadFilingPlanPage({ request, context, viewer: user, partnerId: user.partnerId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return handleFilingPlanAction({ request, context, actor: user, partnerId: user.partnerId });
}

export const shouldRevalidate = shouldRevalidateReport;

/** A post refused for want of a turn says when to try again (Retry-After). */
export const headers = heavyPostHeaders;

export default function PartnerFilingPlans() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (isRefusalPage(data)) return <RefusalPage actionData={actionData} />;
  return <FilingPlanPage data={data} actionData={actionData} downloadPath="/partner/filing-plans/xlsx" templatePath="/partner/filing-plans/template.xlsx" />;
}
