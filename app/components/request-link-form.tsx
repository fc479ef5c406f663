import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormErrors, TextField, useValidatedForm } from "~/components/forms";
import { ForgotPasswordSchema } from "~/schemas/auth";

/**
 * The registered e-mail, posted to /reset-password: that action mails a new set-password link and
 * answers the same whether or not the account exists.
 */
export function RequestLinkForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm({
    id: "reset-password",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ForgotPasswordSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" action="/reset-password" className="form" {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <TextField label={t("E-mail")} field={fields.email} type="email" inputAttributes={{ autoComplete: "email" }} />
      <button type="submit" className="button button--primary button--block" disabled={navigation.state === "submitting"}>
        {t("Send link")}
      </button>
    </Form>
  );
}
