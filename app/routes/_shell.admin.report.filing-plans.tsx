import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FilingReport } from "~/components/consolidated/filing-report-table";
import styles from "~/components/consolidated/filing-report.css";
import reportStyles from "~/components/report/report-frame.css";
import { filingQuerySchema, listFilingConsolidated } from "~/models/consolidated/filing.server";
import { readQuery } from "~/utils/query-string.server";
import { rethrowForPage } from "~/report-routes/frame.server";
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
