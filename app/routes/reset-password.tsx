import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RequestLinkCard } from "~/components/request-link-form";
import { sendPasswordLink } from "~/models/password-token.server";
import { TOO_MANY_RESET_REQUESTS, throttlePasswordLinkRequest } from "~/models/rate-limit.server";
import { findUserByEmail, getAuthUser } from "~/models/user.server";
import { ForgotPasswordSchema } from "~/schemas/auth";
import { signOutSignedInUser } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Reset password" };

export async function loader({ request }: LoaderFunctionArgs) {
  await signOutSignedInUser(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await signOutSignedInUser(request);
  const submission = await readFormSubmission(request, ForgotPasswordSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { email } = submission.value;
  if (await throttlePasswordLinkRequest(email, context.clientIp)) {
    return data(submission.reply({ formErrors: [TOO_MANY_RESET_REQUESTS] }), { status: 429 });
  }
  const user = await findUserByEmail(email);
  // Unknown or deactivated accounts get the same answer, so the form reveals nothing.
  if (user && (await getAuthUser(user.id))) {
    await sendPasswordLink({ id: user.id, email: user.email, language: user.language, hasPassword: Boolean(user.passwordHash) });
  }
  return redirectWithToast("/login", { type: "success", message: "Email to change password has been sent to given email id!" });
}

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const lastResult = useActionData<typeof action>();
  const resend = searchParams.get("token") === "true";
  const expired = searchParams.get("token") === "reset";
  return (
    <RequestLinkCard
      title={resend ? t("Resend set password link") : t("Forgot password")}
      notice={expired ? t("Token expired") : undefined}
      lastResult={lastResult}
    />
  );
}
