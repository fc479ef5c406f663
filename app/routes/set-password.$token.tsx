import { getFormProps } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { SubmitButton, TextField, useSchemaForm } from "~/components/forms";
import { RequestLinkCard } from "~/components/request-link-form";
import { checkPasswordToken, setPasswordWithToken, type TokenCheck } from "~/models/password-token.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { signOutSignedInUser } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Set password" };

/** An expired token goes to the resend form with 'Token expired'. */
async function refuseExpiredToken(check: TokenCheck) {
  if (check.status === "expired") {
    throw await redirectWithToast("/reset-password?token=reset", { type: "info", message: "Token expired" });
  }
}

/** A used, superseded or unknown token (one answer for the three) shows a form to ask for a new link. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await signOutSignedInUser(request);
  const check = await checkPasswordToken(params.token ?? "");
  await refuseExpiredToken(check);
  return data({ usable: check.status === "valid" }, { status: check.status === "valid" ? 200 : 404 });
}

export async function action({ request, params }: ActionFunctionArgs) {
  await signOutSignedInUser(request);
  const submission = await readFormSubmission(request, SetPasswordSchema);
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  }
  const result = await setPasswordWithToken(params.token ?? "", submission.value.password);
  await refuseExpiredToken(result);
  // Used in the meantime: the page, loaded again, says so.
  if (result.status === "notfound") return redirect(new URL(request.url).pathname);
  return redirectWithToast("/login", { type: "success", message: "Password set successfully" });
}

export default function SetPasswordPage() {
  const { usable } = useLoaderData<typeof loader>();
  return usable ? <SetPasswordForm /> : <LinkEnded />;
}

function LinkEnded() {
  const { t } = useTranslation();
  return <RequestLinkCard title={t("Ask for a new link")} notice={t("This link has already been used or has expired.")} />;
}

function SetPasswordForm() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm("set-password", SetPasswordSchema, lastResult);
  return (
    <AuthCard title={t("Set password")} subtitle={t("At least 8 characters, with a number and a lowercase letter.")}>
      <Form method="post" className="form" {...getFormProps(form)}>
        <TextField label={t("Password")} field={fields.password} type="password" inputAttributes={{ autoComplete: "new-password" }} />
        <TextField label={t("Confirm Password")} field={fields.confirmPassword} type="password" inputAttributes={{ autoComplete: "new-password" }} />
        <SubmitButton>{t("Save password")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
