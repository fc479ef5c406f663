import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import gridStyles from "react-data-grid/lib/styles.css";
import { PdtReportPage } from "~/reports/pdt/pdt-report-page";
import timelineStyles from "~/reports/pdt/pdt-timeline.css";
import reportStyles from "~/reports/frame/report-frame.css";
import { RefusalPage } from "~/reports/frame/refusal-page";
import { isRefusalPage } from "~/reports/frame/contract";
import { shouldRevalidateReport } from "~/reports/frame/report-page";
import { handlePdtReportAction, loadPdtReportPage } from "~/reports/pdt/page.server";
import { heavyPostHeaders } from "~/reports/frame/heavy-posts.server";
import { requirePartner } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Development Timeline" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: gridStyles },
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: timelineStyles },
];

/** The signed-in partner's own Product Development Timeline (`?quarter=Q2 2026` for an earlier quarter). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return loadPdtReportPage({ request, context, viewer: user, partnerId: user.partnerId });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return handlePdtReportAction({ request, context, actor: user, partnerId: user.partnerId });
}

export const shouldRevalidate = shouldRevalidateReport;

/** A post refused for want of a turn says when to try again (Retry-After). */
export const headers = heavyPostHeaders;

export default function PartnerDevelopmentTimeline() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (isRefusalPage(data)) return <RefusalPage actionData={actionData} />;
  return (
    <PdtReportPage
      data={data}
      actionData={actionData}
      downloadPath="/partner/development-timeline/xlsx"
      templatePath="/partner/development-timeline/template.xlsx"
    />
  );
}
