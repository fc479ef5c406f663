import { useTranslation } from "react-i18next";
import type { SalesScreenLists } from "~/reports/sales/model.server";
import { columnsFor, type SalesColumn, type SalesKind } from "~/reports/sales/columns";
import { RowComments } from "~/reports/frame/threads-panel";
import type { ReportThreadsView } from "~/reports/frame/threads";
import { ChoiceOptions, FormCell, formPage, FormRow, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { findingRowAnchor } from "~/reports/frame/checks";
import { cellChangeOf, isAddedRow, type RowChanges } from "~/reports/frame/changes";
import { AddedRowBadge, FormCellWas } from "~/reports/frame/changes-view";
import { datalistIdFor } from "./sales-datalists";
import { FORM_BLANK_ROWS, formFieldName } from "~/reports/sales/contract";

type LoadedRow = { id?: number } & Record<string, unknown>;

function CellInput({
  kind,
  column,
  index,
  value,
  invalid,
  label,
  lists,
  disabled,
}: {
  kind: SalesKind;
  column: SalesColumn;
  index: number;
  value: string;
  invalid: boolean;
  label: string;
  lists: SalesScreenLists;
  disabled: boolean;
}) {
  const name = formFieldName(kind, index, column.key);
  const className = `input report-form-table__input${invalid ? " report-form-table__input--invalid" : ""}`;
  const common = { name, "aria-label": label, "aria-invalid": invalid || undefined, className, disabled };
  // Month is typed like the other list cells ("Oct", "10"), suggested from its datalist.
  const options = column.type === "formulation" ? lists.formulationTypes : null;
  if (options) {
    return (
      <select {...common} defaultValue={value}>
        <ChoiceOptions options={options} value={value} none={{ value: "", label: "" }} />
      </select>
    );
  }
  const numeric = column.type === "number" || column.type === "year";
  return <input {...common} defaultValue={value} list={datalistIdFor(kind, column)} inputMode={numeric ? "decimal" : undefined} />;
}

/**
 * One tab of the Sales Report without JavaScript: an HTML form of 50 rows a page plus 10 blank
 * rows to add, inputs named `api[3][country]` (3: the row's position in the grid), a hidden id
 * and a Delete checkbox per saved row. Save and Submit Report (with its comment) post the page;
 * rows of other pages stay as they are. Invalid cells come back highlighted with the values kept.
 */
export function SalesFormTable({
  kind,
  rows,
  lists,
  productEditable,
  form,
  threads,
  changes,
}: {
  kind: SalesKind;
  rows: readonly LoadedRow[];
  /** The report's comments: each saved row links to a new one and counts its open ones. */
  threads: ReportThreadsView | null;
  lists: SalesScreenLists;
  productEditable: boolean;
  /** The plain form's shared state (hidden fields, buttons, the last post). */
  form: PlainFormState;
  /** The comparison the page shows (null: none): old values under the changed cells, added rows marked. */
  changes: RowChanges | null;
}) {
  const { submitted, canEdit } = form;
  const { t } = useTranslation();
  const columns = columnsFor(kind);
  const page = formPage<LoadedRow>(form, rows, kind);
  if (canEdit) {
    for (let blank = 0; blank < FORM_BLANK_ROWS; blank++) page.shown.push({ index: rows.length + blank, row: {} });
  }
  const submittedRows = submitted?.tab === kind ? submitted.rows : null;
  const deleted = new Set(submitted?.deleteIds ?? []);

  if (!canEdit && rows.length === 0) {
    return <p className="empty report-form__empty">{t("No Data Available. Please contact Admin for more information!")}</p>;
  }

  return (
    <PlainReportForm
      state={form}
      tab={kind}
      page={page}
      commentId={`submit-comment-${kind}`}
      label={t("{{kind}} sales", { kind })}
      testId={`sales-table-${kind}`}
      head={
        <>
          <th scope="col">{t("Sr.No")}</th>
          {canEdit ? <th scope="col">{t("Delete")}</th> : null}
          {columns.map((column) => (
            <th key={column.key} scope="col">
              {t(column.label)}
            </th>
          ))}
        </>
      }
    >
      {page.shown.map(({ index, row }) => {
        const values = submittedRows?.[index] ?? null;
        const invalid = page.invalidAt.get(index);
        const id = typeof row.id === "number" ? row.id : undefined;
        const n = index + 1;
        return (
          <FormRow key={index} n={n} invalid={Boolean(invalid)} anchor={findingRowAnchor(kind, n)} added={isAddedRow(changes, id)}>
            <th scope="row">
              {n} <AddedRowBadge added={isAddedRow(changes, id)} />
              {canEdit && id ? <input type="hidden" name={formFieldName(kind, index, "id")} value={id} /> : null}
              <RowComments threads={threads} table={kind} rowId={id} n={n} pageHref={(params) => form.pageHref(page.current, params)} />
            </th>
            {canEdit ? (
              <td>
                {id ? <input type="checkbox" name="deleteIds" value={id} defaultChecked={deleted.has(id)} aria-label={t("Delete row {{n}}", { n })} /> : null}
              </td>
            ) : null}
            {columns.map((column) => {
              const value = values ? (values[column.key] ?? "") : String(row[column.key] ?? "");
              const isInvalid = invalid?.has(column.key) ?? false;
              const editable = column.type !== "product" || productEditable;
              return (
                <FormCell key={column.key} invalid={isInvalid}>
                  {canEdit ? (
                    <>
                      <CellInput
                        kind={kind}
                        column={column}
                        index={index}
                        value={value}
                        invalid={isInvalid}
                        label={t("{{column}}, row {{n}}", { column: t(column.label), n })}
                        lists={lists}
                        disabled={!editable}
                      />
                      {!editable ? <input type="hidden" name={formFieldName(kind, index, column.key)} value={value} /> : null}
                    </>
                  ) : (
                    value
                  )}
                  <FormCellWas change={cellChangeOf(changes, id, column.key)} />
                </FormCell>
              );
            })}
          </FormRow>
        );
      })}
    </PlainReportForm>
  );
}
