import type { LoaderFunctionArgs } from "@remix-run/node";
import { filingWorkbookDownload } from "~/reports/filing/page.server";
import { requirePartner } from "~/utils/auth.server";

/** GET /partner/filing-plans/template.xlsx?quarter=…: a row per country, a column per product, empty cells to fill in offline and upload. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return filingWorkbookDownload({ request, viewer: user, partnerId: user.partnerId, template: true });
}
