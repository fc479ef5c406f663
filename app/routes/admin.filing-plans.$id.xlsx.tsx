import type { LoaderFunctionArgs } from "@remix-run/node";
import { filingWorkbookDownload } from "~/reports/filing/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";

/** GET /admin/filing-plans/{partnerId}/xlsx?quarter=…: a partner's Filing Plans as filing-plans_{partner}_{yyyy-Qn}.xlsx (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return filingWorkbookDownload({ request, viewer: user, partnerId: idParam(params.id) });
}
