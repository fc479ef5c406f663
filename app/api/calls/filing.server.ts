import type { ApiCall } from "../call.server";

export const FILING_CALLS: ApiCall[] = [];
