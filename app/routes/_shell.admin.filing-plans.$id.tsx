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
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** A partner's Filing Plans for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return loadFilingPlanPage({ request, context, viewer: user, partnerId: idParam(params.id) });
}

/** Every change is the administrator's: STAFF and partners get 403. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return handleFilingPlanAction({ request, context, actor: user, partnerId: idParam(params.id) });
}

export const shouldRevalidate = shouldRevalidateReport;

/** A post refused for want of a turn says when to try again (Retry-After). */
export const headers = heavyPostHeaders;

export default function AdminFilingPlans() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (isRefusalPage(data)) return <RefusalPage actionData={actionData} />;
  return (
    <FilingPlanPage
      data={data}
      actionData={actionData}
      downloadPath={`/admin/filing-plans/${data.view.partner.id}/xlsx`}
      templatePath={`/admin/filing-plans/${data.view.partner.id}/template.xlsx`}
      backTo="/admin/partner-list"
    />
  );
}
