import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePartner } from "~/utils/auth.server";
import { salesWorkbookDownload } from "~/reports/sales/page.server";

/** GET /partner/sales-report/xlsx?quarter=…: the partner's own Sales Report as sales-report_{partner}_{yyyy-Qn}.xlsx. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return salesWorkbookDownload({ request, viewer: user, partnerId: user.partnerId });
}
