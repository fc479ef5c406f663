import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { PartnerForm } from "~/components/partner-form";
import { createPartner, emptyPartnerFormValues, getPartnerFormOptions, splitFieldErrors } from "~/models/partner.server";
import { PartnerSchema } from "~/schemas/partner";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
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
  const submission = await readFormSubmission(request, PartnerSchema);
  // Add and Remove row buttons (without JavaScript) come back with the changed form, unsaved.
  if (submission.status === undefined) return submission.reply();
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await createPartner(submission.value, { actorId: user.id, requestId: context.requestId });
  if (!result.ok) return data(submission.reply(splitFieldErrors(result.fieldErrors)), { status: 400 });
  return redirectWithToast("/admin/partner-list", { type: "success", message: "Partner added succcessfully!" });
}

export default function AddPartnerPage() {
  const { t } = useTranslation();
  const { callingCodes, products, defaultValue, readOnly } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("Add Partner")} />
      <PartnerForm
        id="add-partner"
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

export const ErrorBoundary = AdminErrorBoundary;
