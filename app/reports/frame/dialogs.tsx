import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { invalidCellsText, VALIDATION_DIALOG_TITLE, type TableProblems } from "~/reports/frame/contract";
import { CommentField } from "./comment-field";

/** A native modal `<dialog>` shown while `open` is true; Escape or the close button call `onClose`. */
export function ModalDialog({
  open,
  onClose,
  labelledBy,
  className,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog${className ? ` ${className}` : ""}`}
      aria-labelledby={labelledBy}
      data-testid={testId}
      onClose={() => {
        if (open) onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}

/** The rows and columns of the 'Invalid data!' message, with what the cells hold, per table under its heading, translated. */
export function InvalidDataList({ problems, headings }: { problems: TableProblems; headings: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <>
      {Object.entries(problems)
        .filter(([, rows]) => rows.length)
        .map(([table, rows]) => (
          <section key={table} className="invalid-data__table" data-kind={table}>
            <h3 className="invalid-data__heading">{t(headings[table] ?? table)}</h3>
            <ul className="invalid-data__rows">
              {rows.map((row) => (
                <li key={row.rowNumber}>
                  <strong>{t("Row No. {{n}}", { n: row.rowNumber })}</strong>: {invalidCellsText(row, (key, values) => t(key, values))}
                </li>
              ))}
            </ul>
          </section>
        ))}
    </>
  );
}

/** 'Invalid data!': nothing was saved; the rows and columns to check. */
export function InvalidDataDialog({ problems, headings, onClose }: { problems: TableProblems | null; headings: Record<string, string>; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <ModalDialog open={problems !== null} onClose={onClose} labelledBy={titleId} className="invalid-data" testId="invalid-data-dialog">
      {problems ? (
        <div className="dialog__body" role="alertdialog" aria-labelledby={titleId}>
          <h2 id={titleId} className="dialog__title">
            {t(VALIDATION_DIALOG_TITLE)}
          </h2>
          <InvalidDataList problems={problems} headings={headings} />
          <div className="dialog__actions">
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog moves the focus into itself when it opens */}
            <button type="button" className="button button--primary" onClick={onClose} autoFocus>
              {t("Ok")}
            </button>
          </div>
        </div>
      ) : null}
    </ModalDialog>
  );
}

export interface CommentRequest {
  title: string;
  /** The button that confirms, e.g. "Submit Report", "Approve". */
  confirmLabel: string;
  /** The message when the comment is empty: 'Enter comments for admin' / 'Enter comments for partner'. */
  requiredMessage: string;
  /** A sentence above the comment that says what confirming does. */
  description?: string;
  danger?: boolean;
}

/** Asks for the comment that a submission or a decision carries; an empty comment is refused here and on the server. */
export function CommentDialog({
  request,
  serverError,
  busy,
  onCancel,
  onConfirm,
}: {
  request: CommentRequest | null;
  serverError?: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (comment: string) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const fieldId = useId();
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (request) {
      setComment("");
      setError(null);
    }
  }, [request]);
  const shownError = error ?? serverError ?? null;
  return (
    <ModalDialog open={request !== null} onClose={onCancel} labelledBy={titleId} className="comment-dialog" testId="comment-dialog">
      {request ? (
        <form
          className="dialog__body"
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            if (!comment.trim()) {
              setError(request.requiredMessage);
              return;
            }
            onConfirm(comment.trim());
          }}
        >
          <h2 id={titleId} className="dialog__title">
            {t(request.title)}
          </h2>
          {request.description ? <p className="dialog__text">{t(request.description)}</p> : null}
          <CommentField
            id={fieldId}
            placeholder={request.requiredMessage}
            error={shownError}
            rows={4}
            value={comment}
            onChange={(event) => {
              setComment(event.target.value);
              if (event.target.value.trim()) setError(null);
            }}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog moves the focus into itself when it opens
            autoFocus
          />
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={onCancel}>
              {t("Cancel")}
            </button>
            <button type="submit" className={`button ${request.danger ? "button--danger" : "button--primary"}`} disabled={busy}>
              {t(request.confirmLabel)}
            </button>
          </div>
        </form>
      ) : null}
    </ModalDialog>
  );
}
