import { Form } from "@remix-run/react";
import { forwardRef } from "react";
import { useTranslation } from "react-i18next";
import { REMOVAL_ANSWERS } from "~/utils/confirmation-answers";

export interface DeactivateTarget {
  id: number;
  name: string;
}

/**
 * The question 'Do you want to deactivate {NAME} ?' with Yes and No, as a native modal `<dialog>`.
 * Yes posts the deactivation to `action`. Without JavaScript the same question is a page of its own.
 */
export const ProductDeactivateDialog = forwardRef<HTMLDialogElement, { target: DeactivateTarget | null; action: string }>(function ProductDeactivateDialog(
  { target, action },
  ref,
) {
  const { t } = useTranslation();
  const close = (event: { currentTarget: HTMLElement }) => event.currentTarget.closest("dialog")?.close();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="product-deactivate-question">
      {target ? (
        <Form method="post" action={action} className="dialog__body" onSubmit={close}>
          <p id="product-deactivate-question" className="dialog__message">
            {t("Do you want to deactivate {{name}} ?", { name: target.name })}
          </p>
          <input type="hidden" name="intent" value="deactivate" />
          <input type="hidden" name="productId" value={target.id} />
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              {t(REMOVAL_ANSWERS.cancel)}
            </button>
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog moves the focus into itself when it opens */}
            <button type="submit" className="button button--primary" autoFocus>
              {t(REMOVAL_ANSWERS.confirm)}
            </button>
          </div>
        </Form>
      ) : null}
    </dialog>
  );
});
