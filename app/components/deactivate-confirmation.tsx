import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REMOVAL_ANSWERS } from "~/utils/confirmation-answers";

/**
 * 'Do you want to deactivate {NAME} ?' on a page of its own, for browsers without JavaScript
 * (with it, the lists ask in a `<dialog>`). Yes posts `intent=deactivate` and the record's id to
 * `action`; No goes back to the list as it was left.
 */
export function DeactivateConfirmation({
  name,
  idField,
  id,
  action,
  cancelTo,
  canEdit = true,
}: {
  name: string;
  idField: "partnerId" | "productId";
  id: number;
  action: string;
  cancelTo: string;
  canEdit?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" action={action} className="form" aria-labelledby="deactivate-question">
      <p id="deactivate-question" className="dialog__message">
        {t("Do you want to deactivate {{name}} ?", { name })}
      </p>
      <input type="hidden" name="intent" value="deactivate" />
      <input type="hidden" name={idField} value={id} />
      <div className="dialog__actions">
        <Link to={cancelTo} className="button button--secondary">
          {t(REMOVAL_ANSWERS.cancel)}
        </Link>
        <button type="submit" className="button button--danger" disabled={!canEdit}>
          {t(REMOVAL_ANSWERS.confirm)}
        </button>
      </div>
    </Form>
  );
}
