import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PartnerFormPage } from "~/components/partner-form";
import { savePartnerForm } from "~/models/admin-forms.server";
import { createPartner, emptyPartnerFormValues, getPartnerFormOptions } from "~/models/partner.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { ErrorBoundary as AdminErrorBoundary } from "./_shell.admin";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Add Partner" };

/** ADMIN and STAFF open the form; STAFF sees it read-only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  return { ...(await getPartnerFormOptions()), defaultValue: emptyPartnerFormValues(), readOnly: user.role !== "ADMIN" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return savePartnerForm(request, (value) => createPartner(value, { actorId: user.id, requestId: context.requestId }), "Partner added succcessfully!");
}

export default function AddPartnerPage() {
  const { t } = useTranslation();
  return <PartnerFormPage title={t("Add Partner")} lastResult={useActionData<typeof action>()} {...useLoaderData<typeof loader>()} />;
}

export const ErrorBoundary = AdminErrorBoundary;
