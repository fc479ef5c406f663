import type { LoaderFunctionArgs } from "@remix-run/node";
import { filingConsolidatedDownload } from "~/reports/filing/consolidated-download.server";
import { filingQuerySchema } from "~/reports/filing/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/report/filing-plans/csv?…filters: every row of the filtered report as filing-plans.csv (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(filingQuerySchema, new URL(request.url));
  return filingConsolidatedDownload(query, "csv").catch(rethrowForDownload);
}
