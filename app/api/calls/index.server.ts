import type { ApiCall } from "../call.server";
import { ACCOUNT_CALLS } from "./account.server";
import { ADMIN_CALLS } from "./admin.server";
import { DASHBOARD_CALLS } from "./dashboard.server";
import { FILING_CALLS } from "~/reports/filing/api.server";
import { LICENCE_CALLS } from "~/licences/api.server";
import { PDT_CALLS } from "~/reports/pdt/api.server";
import { REPORT_CALLS } from "~/reports/consolidated/api.server";
import { SALES_CALLS } from "~/reports/sales/api.server";

/** Every call of the JSON API, in the order the documentation lists them. */
export const API_CALLS: readonly ApiCall[] = [
  ...ACCOUNT_CALLS,
  ...ADMIN_CALLS,
  ...LICENCE_CALLS,
  ...PDT_CALLS,
  ...FILING_CALLS,
  ...SALES_CALLS,
  ...REPORT_CALLS,
  ...DASHBOARD_CALLS,
];
