import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PartnerFormPage } from "~/components/partner-form";
import { partnerNotFound, savePartnerForm } from "~/models/admin-forms.server";
import { getPartnerFormOptions, getPartnerFormValues, updatePartner } from "~/models/partner.server";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Edit Partner" };

/** ADMIN and STAFF open the form; STAFF sees it read-only. An unknown id answers 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const id = idParam(params.id);
  const partner = await getPartnerFormValues(id);
  if (!partner) throw partnerNotFound();
  return {
    ...(await getPartnerFormOptions(id)),
    partnerId: partner.id,
    defaultValue: partner.value,
    readOnly: user.role !== "ADMIN",
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const id = idParam(params.id);
  return savePartnerForm(request, (value) => updatePartner(id, value, { actorId: user.id, requestId: context.requestId }), "Partner edited succcessfully!");
}

export default function EditPartnerPage() {
  const { t } = useTranslation();
  return <PartnerFormPage title={t("Edit Partner")} lastResult={useActionData<typeof action>()} {...useLoaderData<typeof loader>()} />;
}
