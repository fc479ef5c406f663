import { WRONG_CURRENT_PASSWORD } from "~/utils/messages";
import { getFormProps } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, SubmitButton, TextField, useSchemaForm } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { writeAudit } from "~/models/audit.server";
import { checkUserPassword, setUserPassword } from "~/models/user.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { clearPasswordAttempts, takePasswordAttempt } from "~/models/rate-limit.server";
import { endSessionHeaders, requireUser, TOO_MANY_ATTEMPTS } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Change Password" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

/**
 * Success ends every session and API token of the user, this session too (the spec's page goes to
 * /logout), mails the user and goes back to the login page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = await readFormSubmission(request, ChangePasswordSchema);
  const hideFields = ["currentPassword", "password", "confirmPassword"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  if (!(await takePasswordAttempt(user.email, context.clientIp))) {
    return data(submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields }), { status: 429 });
  }
  if (!(await checkUserPassword(user.id, submission.value.currentPassword))) {
    return data(submission.reply({ fieldErrors: { currentPassword: [WRONG_CURRENT_PASSWORD] }, hideFields }), { status: 400 });
  }
  await clearPasswordAttempts(user.email, context.clientIp);
  await setUserPassword(user.id, submission.value.password, { tellUser: true });
  await writeAudit({ actorId: user.id, action: "password.change", entity: "user", entityId: user.id, requestId: context.requestId });
  return redirectWithToast(
    "/login",
    { type: "success", message: "Password changed successfully" },
    {
      headers: await endSessionHeaders(request),
    },
  );
}

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm("change-password", ChangePasswordSchema, lastResult);
  return (
    <>
      <PageHeader title={t("Change Password")} />
      <section className="card card--narrow">
        <Form method="post" className="form" {...getFormProps(form)}>
          <FormErrors errors={form.errors} />
          <TextField label={t("Current Password")} field={fields.currentPassword} type="password" inputAttributes={{ autoComplete: "current-password" }} />
          <TextField label={t("New Password")} field={fields.password} type="password" inputAttributes={{ autoComplete: "new-password" }} />
          <TextField label={t("Confirm Password")} field={fields.confirmPassword} type="password" inputAttributes={{ autoComplete: "new-password" }} />
          <SubmitButton className="button button--primary">{t("Change Password")}</SubmitButton>
        </Form>
      </section>
    </>
  );
}
