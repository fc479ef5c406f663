import type { LoaderFunctionArgs } from "@remix-run/node";
import { requirePartner } from "~/utils/auth.server";
import { salesWorkbookDownload } from "~/reports/sales/page.server";

/** GET /partner/sales-report/template.xlsx?quarter=…: a blank Sales Report workbook to fill in offline and upload. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return salesWorkbookDownload({ request, viewer: user, partnerId: user.partnerId, template: true });
}
