import type { LoaderFunctionArgs } from "@remix-run/node";
import { partnerPerformanceDownload, performanceQuerySchema } from "~/models/partner-performance.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForDownload } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";

/** GET /admin/partner-performance/csv?…filters and sort: every row they match, all pages, as partner-performance.csv (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(performanceQuerySchema, new URL(request.url));
  return partnerPerformanceDownload(query, "csv").catch(rethrowForDownload);
}
