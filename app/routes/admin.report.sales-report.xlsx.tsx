import type { LoaderFunctionArgs } from "@remix-run/node";
import { openSalesDownload } from "~/reports/sales/consolidated-download.server";
import { salesConsolidatedQuery } from "~/reports/sales/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/report/sales-report/xlsx?tab=API|FDF&…filters: the same rows as the CSV, in a workbook whose one sheet is named by the tab (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(salesConsolidatedQuery, new URL(request.url));
  const download = await openSalesDownload(query).catch(rethrowForDownload);
  return download.response("xlsx");
}
