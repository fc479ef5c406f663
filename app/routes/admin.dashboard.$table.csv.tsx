import type { LoaderFunctionArgs } from "@remix-run/node";
import { dashboardDownload } from "~/models/dashboard/dashboard.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/dashboard/{table}/csv?…filters: every row of one dashboard table (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  return dashboardDownload(params.table, new URL(request.url), "csv").catch(rethrowForDownload);
}
