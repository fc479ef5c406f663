import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { FormErrors, SubmitButton, TextField, useSchemaForm } from "~/components/forms";
import { ForgotPasswordSchema } from "~/schemas/auth";

/** The card that asks for a set-password link, with a notice above the form when there is one, and the way back to login. */
export function RequestLinkCard({ title, notice, lastResult }: { title: string; notice?: string; lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  return (
    <AuthCard
      title={title}
      subtitle={t("Enter your registered e-mail and we will send you a link to choose a password.")}
      aside={
        <Link to="/login" className="link">
          {t("Back to login")}
        </Link>
      }
    >
      {notice ? (
        <div className="alert alert--info" role="status">
          {notice}
        </div>
      ) : null}
      <RequestLinkForm lastResult={lastResult} />
    </AuthCard>
  );
}

/**
 * The registered e-mail, posted to /reset-password: that action mails a new set-password link and
 * answers the same whether or not the account exists.
 */
function RequestLinkForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm("reset-password", ForgotPasswordSchema, lastResult);
  return (
    <Form method="post" action="/reset-password" className="form" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <TextField label={t("E-mail")} field={fields.email} type="email" inputAttributes={{ autoComplete: "email" }} />
      <SubmitButton>{t("Send link")}</SubmitButton>
    </Form>
  );
}
