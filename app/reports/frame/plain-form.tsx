import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FORM_PAGE_SIZE, type SubmittedForm } from "~/reports/frame/contract";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { CommentField } from "./comment-field";
import { Pager } from "~/components/pager";

function formPageCount(rowCount: number): number {
  return Math.max(1, Math.ceil(rowCount / FORM_PAGE_SIZE));
}

/** The page of a long report the form without JavaScript shows: its number and its first row. */
export function formPage(page: number, rowCount: number) {
  const pages = formPageCount(rowCount);
  const current = Math.min(page, pages);
  return { pages, current, start: (current - 1) * FORM_PAGE_SIZE };
}

/** What every report's plain form shares: the frame's hidden fields, which buttons it offers, and what the last post said. */
export interface PlainFormState {
  hiddenFields: Record<string, string | number>;
  canSave: boolean;
  showSubmit: boolean;
  canSubmit: boolean;
  commentError: string | null;
  /** Said beside Save: a partner's save of a submitted report withdraws the submission. */
  saveNote: string | null;
  /** The values the last post sent back (refused), shown again. */
  submitted: SubmittedForm | null;
  pageHref: (page: number) => string;
}

/**
 * A report's grid as a plain HTML form (the page without JavaScript): the frame's hidden fields,
 * the report's table and pager, Save, and for the partner Submit Report with its comment. Only the
 * shown page's rows are posted; the others stay as they are. Read-only: the table and pager alone.
 */
export function PlainReportForm({
  state,
  canEdit,
  tab,
  page,
  pages,
  commentId,
  children,
}: {
  state: PlainFormState;
  canEdit: boolean;
  tab?: string;
  page: number;
  pages: number;
  commentId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const pager = <Pager page={page} pages={pages} pageHref={state.pageHref} />;
  if (!canEdit) {
    return (
      <>
        {children}
        {pager}
      </>
    );
  }
  return (
    // A new key when the server answers, so the inputs show what was posted.
    <Form method="post" className="report-form" key={JSON.stringify(state.submitted ?? null)}>
      {Object.entries(state.hiddenFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {tab ? <input type="hidden" name="tab" value={tab} /> : null}
      <input type="hidden" name="page" value={page} />
      {children}
      {pager}
      <div className="report-form__actions">
        <button type="submit" name="intent" value="save" className="button button--primary" disabled={!state.canSave}>
          {t("Save")}
        </button>
        {state.saveNote ? <span className="report-form__note">{t(state.saveNote)}</span> : null}
      </div>
      {state.showSubmit ? (
        <fieldset className="report-form__submit" disabled={!state.canSubmit}>
          <legend>{t("Submit Report")}</legend>
          <CommentField
            id={commentId}
            placeholder={WORKFLOW_REFUSALS.partnerComment}
            error={state.commentError}
            defaultValue={state.submitted?.comment ?? ""}
          />
          <button type="submit" name="intent" value="submit" className="button button--primary">
            {t("Submit Report")}
          </button>
        </fieldset>
      ) : null}
    </Form>
  );
}
