import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FORM_PAGE_SIZE, type SubmittedForm, type TableProblems } from "~/reports/frame/contract";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { CommentField } from "./comment-field";
import { Pager } from "~/components/pager";
import { ScrollRegion } from "~/components/scroll-region";

function formPageCount(rowCount: number): number {
  return Math.max(1, Math.ceil(rowCount / FORM_PAGE_SIZE));
}

/**
 * The page of a long report the form without JavaScript shows: its number, its rows each with its
 * position in the report (0-based), and the invalid columns of the table's rows by position.
 */
export function formPage<Row>(state: PlainFormState, rows: readonly Row[], table: string) {
  const pages = formPageCount(rows.length);
  const current = Math.min(state.page, pages);
  const problems = state.problems?.[table] ?? [];
  const start = (current - 1) * FORM_PAGE_SIZE;
  return {
    pages,
    current,
    shown: rows.slice(start, start + FORM_PAGE_SIZE).map((row, offset) => ({ index: start + offset, row })),
    invalidAt: new Map(problems.map((problem) => [problem.rowNumber - 1, new Set<string>(problem.keys)])),
  };
}

/**
 * A row of the plain form's table: its number as the user sees it (1-based), marked when it holds
 * an invalid cell, or when it was added since the base the page compares with; `anchor` its id for links to it.
 */
export function FormRow({ n, invalid, anchor, added, children }: { n: number; invalid: boolean; anchor?: string; added?: boolean; children: ReactNode }) {
  const classes = [invalid ? "report-form-table__row--invalid" : undefined, added ? "report-form-table__row--added" : undefined].filter(Boolean).join(" ");
  return (
    <tr id={anchor} data-row={n} data-change={added ? "added" : undefined} className={classes || undefined}>
      {children}
    </tr>
  );
}

/** A cell of the plain form's table, marked when invalid; `label` names its column where a narrow screen shows rows as cards. */
export function FormCell({ invalid, label, className, children }: { invalid: boolean; label?: string; className?: string; children: ReactNode }) {
  const classes = [className, invalid ? "report-form-table__cell--invalid" : undefined].filter(Boolean).join(" ");
  return (
    <td className={classes || undefined} data-label={label}>
      {children}
    </td>
  );
}

/** A select's options: the "none" choice, a value outside the list (as saved or posted, shown to be mended), then the list. */
export function ChoiceOptions({ options, value, none }: { options: readonly string[]; value: string; none: { value: string; label: string } }) {
  return (
    <>
      <option value={none.value}>{none.label}</option>
      {!options.includes(value) && value !== none.value ? <option value={value}>{value}</option> : null}
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </>
  );
}

/** What every report's plain form shares: the frame's hidden fields, which buttons it offers, and what the last post said. */
export interface PlainFormState {
  hiddenFields: Record<string, string | number>;
  /** The rows are editable: inputs, else their values as text. */
  canEdit: boolean;
  canSave: boolean;
  showSubmit: boolean;
  canSubmit: boolean;
  commentError: string | null;
  /** Said beside Save: a partner's save of a submitted report withdraws the submission. */
  saveNote: string | null;
  /** The values the last post sent back (refused), shown again. */
  submitted: SubmittedForm | null;
  /** The page asked for (`?page=`). */
  page: number;
  /** The invalid rows of the last post, by table. */
  problems: TableProblems | null;
  pageHref: (page: number, params?: Record<string, string>) => string;
}

/**
 * A report's grid as a plain HTML form (the page without JavaScript): the frame's hidden fields,
 * the report's table (its header cells and its rows given) and pager, Save, and for the partner
 * Submit Report with its comment. Only the shown page's rows are posted; the others stay as they
 * are. Read-only: the table and pager alone.
 */
export function PlainReportForm({
  state,
  tab,
  page: { current: page, pages },
  commentId,
  label,
  testId,
  head,
  children,
}: {
  state: PlainFormState;
  tab?: string;
  /** The page shown (`formPage`). */
  page: { current: number; pages: number };
  commentId: string;
  /** The table's caption (translated). */
  label: string;
  testId: string;
  head: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const table = (
    <ScrollRegion className="table-wrap report-form__table-wrap" label={label}>
      <table className="table report-form-table" data-testid={testId}>
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </ScrollRegion>
  );
  const pager = <Pager page={page} pages={pages} pageHref={state.pageHref} />;
  if (!state.canEdit) {
    return (
      <>
        {table}
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
      {table}
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
