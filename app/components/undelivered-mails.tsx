import { Form, useNavigation } from "@remix-run/react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { ScrollRegion } from "~/components/scroll-region";
import { useFormatters } from "~/hooks/use-formatters";
import type { UndeliveredMail } from "~/models/mail.server";
import { RETRY_MAIL_INTENT } from "~/schemas/settings";
import { ColumnHeads } from "./table-parts";

/** What a mail is, from the outbox's `kind` (set where each mail is written); a kind not named here shows as stored. */
function mailKind(kind: string, t: TFunction): string {
  const names: Record<string, string> = {
    reminder: t("Reminder"),
    "report-receipt": t("Report receipt"),
    "report-submitted": t("Report submitted"),
    "report-approve": t("Report approved"),
    "report-reject": t("Report rejected"),
    "report-reopen": t("Report reopened"),
    "password-set": t("Set password link"),
    "password-reset": t("Reset password link"),
  };
  return Object.hasOwn(names, kind) ? names[kind] : kind;
}

/**
 * The mails the worker gave up after their attempts, newest first, with the error of the last one.
 * ADMIN sends one again with a plain form post (a redirect back here and a toast); STAFF reads only.
 */
export function UndeliveredMails({ mails, total, canRetry }: { mails: UndeliveredMail[]; total: number; canRetry: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigation = useNavigation();
  const retrying = navigation.state === "submitting" ? navigation.formData?.get("mailId") : null;
  return (
    <section className="card" data-testid="undelivered-mails">
      <h2 className="card__title" id="undelivered-mails-title">
        {t("Undelivered mails")}
      </h2>
      <p className="field__hint">{t("Mails that could not be delivered after all their attempts, newest first.")}</p>
      {mails.length === 0 ? (
        <p className="empty">{t("No undelivered mails.")}</p>
      ) : (
        <ScrollRegion labelledBy="undelivered-mails-title">
          <table className="table">
            <ColumnHeads
              columns={[
                t("Recipient"),
                t("Subject"),
                t("Kind"),
                { label: t("Attempts"), className: "table__number" },
                t("Last error"),
                t("Queued at"),
                canRetry && <span className="visually-hidden">{t("Actions")}</span>,
              ]}
            />
            <tbody>
              {mails.map((mail) => (
                <tr key={mail.id}>
                  <td className="undelivered-mails__text">{mail.toAddress}</td>
                  <td className="undelivered-mails__text">{mail.subject}</td>
                  <td>{mailKind(mail.kind, t)}</td>
                  <td className="table__number">{format.number(mail.attempts)}</td>
                  <td className="undelivered-mails__text">{mail.error}</td>
                  <td>{format.dateTime(mail.createdAt)}</td>
                  {canRetry ? (
                    <td>
                      <Form method="post">
                        <input type="hidden" name="intent" value={RETRY_MAIL_INTENT} />
                        <input type="hidden" name="mailId" value={mail.id} />
                        <button type="submit" className="button button--secondary button--small" disabled={retrying === String(mail.id)}>
                          {t("Send again")}
                        </button>
                      </Form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {total > mails.length ? (
        <p className="field__hint">
          {t("The {{shown}} newest of {{total}} undelivered mails are shown.", { shown: format.number(mails.length), total: format.number(total) })}
        </p>
      ) : null}
    </section>
  );
}
