import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { remindEveryoneOwing, reminderToast, sendReminders } from "~/models/reminder.server";
import { REMIND_EVERYONE_OWING, ReminderRequestSchema, safeAdminRedirect } from "~/schemas/reminders";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readForm } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * POST /admin/reminders (a resource route: no page). Fields: `partnerId` (repeat it for a bulk
 * reminder), `reportType` (pdt | filing | sales), `redirectTo` (an /admin/ page, default the
 * partner list); or `intent=remind-everyone-owing` and `redirectTo`: every active partner is
 * reminded of the reports it owes. Answers with a redirect back there and a toast saying what was
 * sent and skipped.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  return new Response("Reminders are sent with a POST request.", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const form = await readForm(request);
  const redirectTo = safeAdminRedirect(form.get("redirectTo"));
  if (form.get("intent") === REMIND_EVERYONE_OWING) {
    return redirectWithToast(redirectTo, reminderToast(await remindEveryoneOwing({ actorId: user.id, requestId: context.requestId })));
  }
  const parsed = ReminderRequestSchema.safeParse({
    partnerId: form.getAll("partnerId"),
    reportType: form.get("reportType") ?? undefined,
  });
  if (!parsed.success) {
    return redirectWithToast(redirectTo, { type: "error", message: parsed.error.issues[0].message });
  }
  const result = await sendReminders({
    partnerIds: parsed.data.partnerId,
    reportType: parsed.data.reportType,
    actorId: user.id,
    requestId: context.requestId,
    kind: "manual",
  });
  return redirectWithToast(redirectTo, reminderToast(result));
}
