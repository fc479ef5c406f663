import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FilingReport } from "~/reports/filing/consolidated-table";
import styles from "~/reports/filing/consolidated.css";
import reportStyles from "~/reports/frame/report-frame.css";
import { filingQuerySchema, listFilingConsolidated } from "~/reports/filing/consolidated.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForPage } from "~/reports/frame/page.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Filing Plans" };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: reportStyles },
  { rel: "stylesheet", href: styles },
];

/** GET /admin/report/filing-plans?quarter=&partner=&country=&reportStatus=&product=&productStatus=&sort=&dir=&page= (ADMIN and STAFF). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const query = readQuery(filingQuerySchema, new URL(request.url));
  const view = await listFilingConsolidated(query).catch(rethrowForPage);
  return { view, query };
}

export default function FilingPlansReportPage() {
  const { view, query } = useLoaderData<typeof loader>();
  return <FilingReport view={view} query={query} />;
}
