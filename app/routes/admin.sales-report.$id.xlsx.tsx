import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { salesWorkbookDownload } from "~/reports/sales/page.server";

/** GET /admin/sales-report/{partnerId}/xlsx?quarter=…: a partner's Sales Report as sales-report_{partner}_{yyyy-Qn}.xlsx (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const partnerId = idParam(params.id);
  return salesWorkbookDownload({ request, viewer: user, partnerId });
}
