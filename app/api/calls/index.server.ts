import type { ApiCall } from "../call.server";
import { ACCOUNT_CALLS } from "./account.server";
import { ADMIN_CALLS } from "./admin.server";
import { DASHBOARD_CALLS } from "./dashboard.server";
import { FILING_CALLS } from "./filing.server";
import { PDT_CALLS } from "./pdt.server";
import { REPORT_CALLS } from "./reports.server";
import { SALES_CALLS } from "./sales.server";

/** Every call of the JSON API, in the order the documentation lists them. */
export const API_CALLS: readonly ApiCall[] = [
  ...ACCOUNT_CALLS,
  ...ADMIN_CALLS,
  ...PDT_CALLS,
  ...FILING_CALLS,
  ...SALES_CALLS,
  ...REPORT_CALLS,
  ...DASHBOARD_CALLS,
];
