import type { LoaderFunctionArgs } from "@remix-run/node";
import { openSalesDownload } from "~/reports/sales/consolidated-download.server";
import { salesConsolidatedQuery } from "~/reports/sales/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/report/sales-report/csv?tab=API|FDF&…filters: every row the filters match, as sales-report-api.csv or sales-report-fdf.csv (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(salesConsolidatedQuery, new URL(request.url));
  const download = await openSalesDownload(query).catch(rethrowForDownload);
  return download.response("csv");
}
