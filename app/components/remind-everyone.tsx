import { Form, Link, useFetcher } from "@remix-run/react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EveryoneOwing } from "~/models/reminder.server";
import { ModalDialog } from "~/reports/frame/dialogs";
import { REMIND_EVERYONE_OWING } from "~/schemas/reminders";
import { CONFIRMATION_ANSWERS } from "~/utils/confirmation-answers";
import { PARTNER_LIST_PATH, partnerListSearch, type PartnerListQuery } from "~/utils/partner-list";

/** The confirmation's page (without JavaScript) and what the dialog loads from it: the counts and the list to go back to. */
export interface RemindEveryoneData {
  owing: EveryoneOwing;
  back: string;
}

const REMIND_EVERYONE_PATH = `${PARTNER_LIST_PATH}/remind-everyone`;

/**
 * 'This will e-mail 12 partners about 20 reports. Send?' with Ok (the post that sends, a native
 * one: the answer is a redirect back to the list with its toast) and Cancel; when nobody owes
 * anything, only that.
 */
export function RemindEveryoneQuestion({
  owing,
  back,
  questionId,
  cancel,
}: RemindEveryoneData & { questionId: string; cancel: { to: string } | { onClick: () => void } }) {
  const { t } = useTranslation();
  const cancelLabel = t(CONFIRMATION_ANSWERS.cancel);
  return (
    <Form method="post" action="/admin/reminders" reloadDocument className="form" aria-labelledby={questionId}>
      <p id={questionId} className="dialog__message">
        {owing.partners
          ? t("Send a reminder to everyone who owes a report? Partners: {{partners}}. Reports owed: {{reports}}.", {
              partners: owing.partners,
              reports: owing.reports,
            })
          : t("No reminder to send: every report still owed was reminded of in the last hour, or none is owed.")}
      </p>
      <input type="hidden" name="intent" value={REMIND_EVERYONE_OWING} />
      <input type="hidden" name="redirectTo" value={back} />
      <div className="dialog__actions">
        {"to" in cancel ? (
          <Link to={cancel.to} className="button button--secondary">
            {cancelLabel}
          </Link>
        ) : (
          <button type="button" className="button button--secondary" onClick={cancel.onClick}>
            {cancelLabel}
          </button>
        )}
        {owing.partners ? (
          <button type="submit" className="button button--primary">
            {t(CONFIRMATION_ANSWERS.confirm)}
          </button>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * "Remind everyone who owes a report": a link to the confirmation page; with JavaScript the same
 * confirmation opens in a dialog, with the counts the page's loader gives at the time of the click.
 */
export function RemindEveryoneControl({ query, canEdit }: { query: PartnerListQuery; canEdit: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<RemindEveryoneData>();
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  const label = t("Remind everyone who owes a report");
  if (!canEdit) {
    return (
      <button type="button" className="button button--secondary" disabled title={t("Only an administrator can send reminders.")}>
        {label}
      </button>
    );
  }
  const href = `${REMIND_EVERYONE_PATH}${partnerListSearch(query)}`;
  const loaded = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <>
      <Link
        to={href}
        className="button button--secondary"
        onClick={(event) => {
          event.preventDefault();
          setAsking(true);
          fetcher.load(href);
        }}
      >
        {label}
      </Link>
      <ModalDialog open={asking && loaded !== undefined} onClose={() => setAsking(false)} labelledBy={questionId} testId="remind-everyone-dialog">
        {loaded ? (
          <div className="dialog__body">
            <RemindEveryoneQuestion {...loaded} questionId={questionId} cancel={{ onClick: () => setAsking(false) }} />
          </div>
        ) : null}
      </ModalDialog>
    </>
  );
}
