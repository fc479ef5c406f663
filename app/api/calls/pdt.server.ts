import type { ApiCall } from "../call.server";

export const PDT_CALLS: ApiCall[] = [];
