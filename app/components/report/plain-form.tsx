import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FORM_PAGE_SIZE } from "~/reports/frame/contract";
import { WORKFLOW_REFUSALS } from "~/utils/report-workflow";
import { CommentField } from "./comment-field";

export function formPageCount(rowCount: number): number {
  return Math.max(1, Math.ceil(rowCount / FORM_PAGE_SIZE));
}

/** The page of a long report the form without JavaScript shows: its number and its first row. */
export function formPage(page: number, rowCount: number) {
  const pages = formPageCount(rowCount);
  const current = Math.min(page, pages);
  return { pages, current, start: (current - 1) * FORM_PAGE_SIZE };
}

/** Previous / 'Page n of m' / Next links of the form without JavaScript. */
export function Pager({ page, pages, pageHref }: { page: number; pages: number; pageHref: (page: number) => string }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t("Pages")}>
      {page > 1 ? (
        <Link to={pageHref(page - 1)} className="button button--secondary">
          {t("Previous")}
        </Link>
      ) : null}
      <span className="pager__status">{t("Page {{page}} of {{pages}}", { page, pages })}</span>
      {page < pages ? (
        <Link to={pageHref(page + 1)} className="button button--secondary">
          {t("Next")}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * A report's grid as a plain HTML form (the page without JavaScript): the frame's hidden fields,
 * the report's table, Save, and for the partner Submit Report with its comment. Only the shown
 * page's rows are posted; the others stay as they are.
 */
export function PlainReportForm({
  hiddenFields,
  tab,
  page,
  resetKey,
  canSave,
  showSubmit,
  canSubmit,
  commentError,
  submittedComment,
  commentId,
  saveNote,
  children,
}: {
  hiddenFields: Record<string, string | number>;
  tab?: string;
  page: number;
  /** Changes when the server answers, so the inputs show what was posted. */
  resetKey: string;
  canSave: boolean;
  showSubmit: boolean;
  canSubmit: boolean;
  commentError: string | null;
  submittedComment: string;
  commentId: string;
  /** Said beside Save (a partner's save of a submitted report withdraws the submission). */
  saveNote?: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="report-form" key={resetKey}>
      {Object.entries(hiddenFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {tab ? <input type="hidden" name="tab" value={tab} /> : null}
      <input type="hidden" name="page" value={page} />
      {children}
      <div className="report-form__actions">
        <button type="submit" name="intent" value="save" className="button button--primary" disabled={!canSave}>
          {t("Save")}
        </button>
        {saveNote ? <span className="report-form__note">{t(saveNote)}</span> : null}
      </div>
      {showSubmit ? (
        <fieldset className="report-form__submit" disabled={!canSubmit}>
          <legend>{t("Submit Report")}</legend>
          <CommentField id={commentId} placeholder={WORKFLOW_REFUSALS.partnerComment} error={commentError} defaultValue={submittedComment} />
          <button type="submit" name="intent" value="submit" className="button button--primary">
            {t("Submit Report")}
          </button>
        </fieldset>
      ) : null}
    </Form>
  );
}
