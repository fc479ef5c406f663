import type { LoaderFunctionArgs } from "@remix-run/node";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { royaltyStatementFile } from "~/reports/sales/page.server";

/** GET /admin/sales-report/{partnerId}/royalty-statement.csv?quarter=…: the partner's royalty statement of the quarter (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return royaltyStatementFile({ request, viewer: user, partnerId: idParam(params.id) }, "csv");
}
