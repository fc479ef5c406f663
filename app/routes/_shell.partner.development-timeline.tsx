import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import { PdtReportPage } from "~/components/grids/pdt/pdt-report-page";
import timelineStyles from "~/components/report/pdt-timeline.css";
import reportStyles from "~/components/report/report-frame.css";
import { shouldRevalidateReport } from "~/components/report/report-page";
import { handlePdtReportAction, loadPdtReportPage } from "~/report-routes/pdt.server";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Development Timeline" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: timelineStyles },
];

/** The signed-in partner's own Product Development Timeline (`?quarter=Q2 2026` for an earlier quarter). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadPdtReportPage({ request, viewer: user, partnerId: user.partnerId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return handlePdtReportAction({ request, requestId: context.requestId, actor: user, partnerId: user.partnerId });
}

export const shouldRevalidate = shouldRevalidateReport;

export default function PartnerDevelopmentTimeline() {
  return <PdtReportPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} downloadPath="/partner/development-timeline/xlsx" templatePath="/partner/development-timeline/template.xlsx" />;
}
