import type { LoaderFunctionArgs } from "@remix-run/node";
import { filingWorkbookDownload } from "~/reports/filing/page.server";
import { requirePartner } from "~/utils/auth.server";

/** GET /partner/filing-plans/xlsx?quarter=…: the partner's own Filing Plans as filing-plans_{partner}_{yyyy-Qn}.xlsx. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return filingWorkbookDownload({ request, viewer: user, partnerId: user.partnerId });
}
