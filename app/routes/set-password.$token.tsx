import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { TextField, useValidatedForm } from "~/components/forms";
import { checkPasswordToken, setPasswordWithToken, type TokenCheck } from "~/models/password-token.server";
import { SetPasswordSchema } from "~/schemas/auth";
import { refuseSignedInUser } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Set password" };

/** An unknown or used token is not found; an expired one goes to the resend form with 'Token expired'. */
async function refuseInvalidToken(check: TokenCheck) {
  if (check.status === "notfound") throw redirect("/error-404");
  if (check.status === "expired") {
    throw await redirectWithToast("/reset-password?token=reset", { type: "info", message: "Token expired" });
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await refuseSignedInUser(request);
  const check = await checkPasswordToken(params.token ?? "");
  await refuseInvalidToken(check);
  return { purpose: check.status === "valid" ? check.purpose : "reset" };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await refuseSignedInUser(request);
  const submission = await readFormSubmission(request, SetPasswordSchema);
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  }
  const result = await setPasswordWithToken(params.token ?? "", submission.value.password);
  await refuseInvalidToken(result);
  return redirectWithToast("/login", { type: "success", message: "Password set successfully" });
}

export default function SetPasswordPage() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm({
    id: "set-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthCard title={t("Set password")} subtitle={t("At least 8 characters, with a number and a lowercase letter.")}>
      <Form method="post" className="form" {...getFormProps(form)}>
        <TextField label={t("Password")} field={fields.password} type="password" inputAttributes={{ autoComplete: "new-password" }} />
        <TextField label={t("Confirm Password")} field={fields.confirmPassword} type="password" inputAttributes={{ autoComplete: "new-password" }} />
        <button type="submit" className="button button--primary button--block" disabled={navigation.state === "submitting"}>
          {t("Save password")}
        </button>
      </Form>
    </AuthCard>
  );
}
