import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdtWorkbookDownload } from "~/reports/pdt/page.server";
import { requirePartner } from "~/utils/auth.server";

/** GET /partner/development-timeline/template.xlsx?quarter=…: the timeline's rows with empty notes and dates, to fill in offline and upload. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return pdtWorkbookDownload({ request, viewer: user, partnerId: user.partnerId, template: true });
}
