/** The mails about a user's own account, in the user's language, queued in the transaction of the change. */
import type { Transaction } from "~/db/client.server";
import { translatorFor } from "~/i18n/i18next.server";
import { enqueueMail } from "./mail.server";

/** Tells the account's owner that its password changed, in case it was not them. */
export async function mailPasswordChanged(tx: Transaction, user: { email: string; language: string }) {
  const t = await translatorFor(user.language);
  const text = [
    t("Hello,"),
    "",
    t("The password of your MPP Data Portal account was changed, and every other sign-in of the account has ended."),
    t("If you did not change it, reset your password with the forgot-password link of the sign-in page and tell the administrators."),
  ].join("\n");
  await enqueueMail(tx, { kind: "password-changed", to: user.email, subject: t("Your MPP Data Portal password was changed"), text });
}
