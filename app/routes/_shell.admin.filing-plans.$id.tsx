import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import { FilingPlanPage } from "~/components/grids/filing/filing-plan-page";
import reportStyles from "~/components/report/report-frame.css";
import { shouldRevalidateReport } from "~/components/report/report-page";
import { handleFilingPlanAction, loadFilingPlanPage } from "~/report-routes/filing.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
];

/** A partner's Filing Plans for ADMIN and STAFF (STAFF read-only); `$id` is the partner's id. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return loadFilingPlanPage({ request, viewer: user, partnerId: idParam(params.id) });
}

/** Every change is the administrator's: STAFF and partners get 403. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return handleFilingPlanAction({ request, requestId: context.requestId, actor: user, partnerId: idParam(params.id) });
}

export const shouldRevalidate = shouldRevalidateReport;

export default function AdminFilingPlans() {
  const data = useLoaderData<typeof loader>();
  return (
    <FilingPlanPage
      data={data}
      actionData={useActionData<typeof action>()}
      downloadPath={`/admin/filing-plans/${data.view.partner.id}/xlsx`}
      templatePath={`/admin/filing-plans/${data.view.partner.id}/template.xlsx`}
      backTo="/admin/partner-list"
    />
  );
}
