import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { salesWorkbookDownload } from "~/reports/sales/page.server";

/** GET /admin/sales-report/{partnerId}/template.xlsx?quarter=…: a blank Sales Report workbook for the partner (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return salesWorkbookDownload({ request, viewer: user, partnerId: idParam(params.id), template: true });
}
