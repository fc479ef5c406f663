import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthCard } from "~/components/auth-card";
import { FormErrors, SubmitButton, TextField, useValidatedForm } from "~/components/forms";
import { clearPasswordAttempts, takePasswordAttempt } from "~/models/rate-limit.server";
import { checkUserPassword } from "~/models/user.server";
import { UnlockSchema } from "~/schemas/auth";
import { TOO_MANY_ATTEMPTS, endSessionHeaders, getSessionUser, homePathFor, requireUser, setSessionLocked } from "~/utils/auth.server";
import { parseForm, readForm } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Lock screen" };

const INCORRECT_PASSWORD = "Incorrect password. Please try again.";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { allowLocked: true });
  const { current } = await getSessionUser(request);
  if (!current?.locked) throw redirect(homePathFor(user.role));
  return { name: user.name, email: user.email };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, { allowLocked: true });
  const formData = await readForm(request);
  if (formData.get("intent") === "lock") {
    return redirect("/lock-screen", { headers: { "Set-Cookie": await setSessionLocked(request, true) } });
  }
  const submission = parseForm(formData, UnlockSchema);
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  if (!(await takePasswordAttempt(user.email, context.clientIp))) {
    return redirectWithToast("/login", { type: "error", message: TOO_MANY_ATTEMPTS }, { headers: await endSessionHeaders(request) });
  }
  if (!(await checkUserPassword(user.id, submission.value.password))) {
    return data(submission.reply({ formErrors: [INCORRECT_PASSWORD], hideFields: ["password"] }), { status: 401 });
  }
  await clearPasswordAttempts(user.email, context.clientIp);
  return redirect(homePathFor(user.role), { headers: { "Set-Cookie": await setSessionLocked(request, false) } });
}

export default function LockScreenPage() {
  const { t } = useTranslation();
  const { name, email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useValidatedForm({
    id: "unlock",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: UnlockSchema }),
    // Checked on submit only: a check on blur would drop the server's "Incorrect password" as the
    // pointer leaves the field for Unlock, and the button would move away from under it.
    shouldValidate: "onSubmit",
  });
  return (
    <AuthCard title={t("Screen locked")} subtitle={`${name} (${email})`}>
      <Form method="post" className="form" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <TextField label={t("Password")} field={fields.password} type="password" inputAttributes={{ autoComplete: "current-password", autoFocus: true }} />
        <SubmitButton name="intent" value="unlock">
          {t("Unlock")}
        </SubmitButton>
      </Form>
      <Form method="post" action="/logout" className="auth__aside">
        <button type="submit" className="link link--button">
          {t("Not you? Log out")}
        </button>
      </Form>
    </AuthCard>
  );
}
