import type { ApiCall } from "../call.server";

export const DASHBOARD_CALLS: ApiCall[] = [];
