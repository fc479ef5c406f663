import type { ApiCall } from "../call.server";

export const REPORT_CALLS: ApiCall[] = [];
