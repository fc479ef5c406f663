import type { ApiCall } from "../call.server";

export const ADMIN_CALLS: ApiCall[] = [];
