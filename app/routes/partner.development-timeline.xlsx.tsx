import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdtWorkbookDownload } from "~/reports/pdt/page.server";
import { requirePartner } from "~/utils/auth.server";

/** GET /partner/development-timeline/xlsx?quarter=…: the partner's own timeline as development-timeline_{partner}_{yyyy-Qn}.xlsx. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return pdtWorkbookDownload({ request, viewer: user, partnerId: user.partnerId });
}
