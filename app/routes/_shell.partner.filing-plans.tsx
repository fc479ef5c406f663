import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import { FilingPlanPage } from "~/components/grids/filing/filing-plan-page";
import reportStyles from "~/components/report/report-frame.css";
import { shouldRevalidateReport } from "~/components/report/report-page";
import { handleFilingPlanAction, loadFilingPlanPage } from "~/report-routes/filing.server";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** The signed-in partner's own Filing Plans (`?quarter=Q2 2026` for an earlier quarter). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadFilingPlanPage({ request, viewer: user, partnerId: user.partnerId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return handleFilingPlanAction({ request, requestId: context.requestId, actor: user, partnerId: user.partnerId });
}

export const shouldRevalidate = shouldRevalidateReport;

export default function PartnerFilingPlans() {
  return <FilingPlanPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} downloadPath="/partner/filing-plans/xlsx" templatePath="/partner/filing-plans/template.xlsx" />;
}
