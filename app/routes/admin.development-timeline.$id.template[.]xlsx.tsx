import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdtWorkbookDownload } from "~/reports/pdt/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";

/** GET /admin/development-timeline/{partnerId}/template.xlsx?quarter=…: the partner's timeline rows with empty notes and dates (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return pdtWorkbookDownload({ request, viewer: user, partnerId: idParam(params.id), template: true });
}
