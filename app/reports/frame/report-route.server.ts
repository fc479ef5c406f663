/**
 * The guards of the report screens' routes: who may read a report and who may change it. Each
 * returns what the report's page glue (its `page.server.ts`) takes, so that a route module is its
 * guard, then one call.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminOrStaff, requirePartner, requireRole } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";

/** The signed-in partner reads its own report (`?quarter=Q2 2026` for an earlier quarter). */
export async function partnerReads({ request, context }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return { request, context, viewer: user, partnerId: user.partnerId };
}

/** The signed-in partner changes its own report. */
export async function partnerChanges({ request, context }: ActionFunctionArgs) {
  const user = await requirePartner(request);
  return { request, context, actor: user, partnerId: user.partnerId };
}

/** ADMIN and STAFF (read-only) read a partner's report; `$id` is the partner's id. */
export async function adminReads({ request, params, context }: LoaderFunctionArgs) {
  return { request, context, viewer: await requireAdminOrStaff(request), partnerId: idParam(params.id) };
}

/** Every change of a partner's report is the administrator's: STAFF and partners get 403. */
export async function adminChanges({ request, params, context }: ActionFunctionArgs) {
  return { request, context, actor: await requireRole(request, "ADMIN"), partnerId: idParam(params.id) };
}
