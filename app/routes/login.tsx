import { getFormProps } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { CheckboxField, FormErrors, SubmitButton, TextField, useSchemaForm } from "~/components/forms";
import { clearPasswordAttempts, takePasswordAttempt } from "~/models/rate-limit.server";
import { LoginSchema } from "~/schemas/auth";
import {
  ACCOUNT_INACTIVE,
  INVALID_CREDENTIALS,
  LoginError,
  TOO_MANY_ATTEMPTS,
  authenticateWithPassword,
  createUserSession,
  getOptionalUser,
  homePathFor,
} from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Login" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (user) throw redirect(homePathFor(user.role));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = await readFormSubmission(request, LoginSchema);
  if (submission.status !== "success") {
    return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  const { email, password, remember } = submission.value;
  if (!(await takePasswordAttempt(email, context.clientIp))) {
    return data(submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields: ["password"] }), { status: 429 });
  }
  try {
    const user = await authenticateWithPassword(request, { email, password });
    await clearPasswordAttempts(email, context.clientIp);
    return createUserSession(user, { remember: Boolean(remember), redirectTo: homePathFor(user.role) });
  } catch (error) {
    if (!(error instanceof LoginError)) throw error;
    const message = error.reason === "inactive" ? ACCOUNT_INACTIVE : INVALID_CREDENTIALS;
    return data(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status: 401 });
  }
}

export default function LoginPage() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useSchemaForm("login", LoginSchema, lastResult);
  return (
    <AuthCard
      title={t("Sign in")}
      subtitle={t("Sign in to report and review quarterly data.")}
      aside={
        <a href="/api/docs" className="link">
          {t("API documentation")}
        </a>
      }
    >
      <Form method="post" className="form" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <TextField label={t("E-mail")} field={fields.email} type="email" inputAttributes={{ autoComplete: "username" }} />
        <TextField label={t("Password")} field={fields.password} type="password" inputAttributes={{ autoComplete: "current-password" }} />
        <div className="form__row form__row--split">
          <CheckboxField label={t("Remember me")} field={fields.remember} />
          <Link to="/reset-password" className="link">
            {t("Forgot password?")}
          </Link>
        </div>
        <SubmitButton>{t("Login")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
