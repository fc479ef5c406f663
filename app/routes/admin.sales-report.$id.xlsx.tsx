import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { salesWorkbookDownload } from "~/utils/sales-report-route.server";

/** GET /admin/sales-report/{partnerId}/xlsx?quarter=…: a partner's Sales Report as sales-report.xlsx (ADMIN and STAFF). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const partnerId = Number(params.id);
  if (!/^\d{1,9}$/.test(params.id ?? "") || partnerId < 1) {
    throw data({ message: "Oops, an error has occurred. Page not found!" }, { status: 404 });
  }
  return salesWorkbookDownload({ request, viewer: user, partnerId });
}
