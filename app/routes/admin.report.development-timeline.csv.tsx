import type { LoaderFunctionArgs } from "@remix-run/node";
import { pdtConsolidatedDownload } from "~/reports/pdt/consolidated-download.server";
import { pdtQuerySchema } from "~/reports/pdt/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/report/development-timeline/csv?…filters: every row the filters match, as pdt-report.csv (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(pdtQuerySchema, new URL(request.url));
  return pdtConsolidatedDownload(query, "csv").catch(rethrowForDownload);
}
