import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { PartnerForm } from "~/components/partner-form";
import { getPartnerFormOptions, getPartnerFormValues, splitFieldErrors, updatePartner } from "~/models/partner.server";
import { PartnerSchema } from "~/schemas/partner";
import { idParam } from "~/utils/params.server";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Edit Partner" };

function notFound() {
  return data({ message: "Oops, an error has occurred. Page not found!" }, { status: 404 });
}

/** ADMIN and STAFF open the form; STAFF sees it read-only. An unknown id answers 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const id = idParam(params.id);
  const partner = await getPartnerFormValues(id);
  if (!partner) throw notFound();
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
  const submission = await readFormSubmission(request, PartnerSchema);
  // Add and Remove row buttons (without JavaScript) come back with the changed form, unsaved.
  if (submission.status === undefined) return submission.reply();
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await updatePartner(id, submission.value, { actorId: user.id, requestId: context.requestId });
  if (!result) throw notFound();
  if (!result.ok) return data(submission.reply(splitFieldErrors(result.fieldErrors)), { status: 400 });
  return redirectWithToast("/admin/partner-list", { type: "success", message: "Partner edited succcessfully!" });
}

export default function EditPartnerPage() {
  const { t } = useTranslation();
  const { callingCodes, products, defaultValue, readOnly, partnerId } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("Edit Partner")} />
      <PartnerForm
        key={partnerId}
        id={`edit-partner-${partnerId}`}
        lastResult={lastResult}
        defaultValue={defaultValue}
        callingCodes={callingCodes}
        products={products}
        readOnly={readOnly}
        submitLabel={t("Save")}
      />
    </>
  );
}

/** An unknown partner shows the not-found page inside the shell; other errors as every admin page. */
