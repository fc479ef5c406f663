import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FilingReport } from "~/reports/filing/consolidated-table";
import styles from "~/reports/filing/consolidated.css";
import { consolidatedLinks } from "~/reports/consolidated/page-links";
import { loadConsolidatedPage } from "~/reports/consolidated/page.server";
import { filingQuerySchema, listFilingConsolidated } from "~/reports/filing/consolidated.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links = consolidatedLinks(styles);

/** GET /admin/report/filing-plans?quarter=&partner=&country=&reportStatus=&product=&productStatus=&sort=&dir=&page= (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  return loadConsolidatedPage(request, filingQuerySchema, listFilingConsolidated);
}

export default function FilingPlansReportPage() {
  const { view, query } = useLoaderData<typeof loader>();
  return <FilingReport view={view} query={query} />;
}
