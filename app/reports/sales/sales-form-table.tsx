import { useTranslation } from "react-i18next";
import type { SalesScreenLists } from "~/reports/sales/model.server";
import { columnsFor, type SalesColumn, type SalesKind } from "~/reports/sales/rows";
import { formPage, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { datalistIdFor } from "./sales-datalists";
import { FORM_PAGE_SIZE, type RowProblem } from "~/reports/frame/contract";
import { FORM_BLANK_ROWS, formFieldName } from "~/reports/sales/contract";
import { ScrollRegion } from "~/components/scroll-region";

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
        <option value="" />
        {!options.includes(value) && value !== "" ? <option value={value}>{value}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
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
  page,
  lists,
  canEdit,
  productEditable,
  problems,
  form,
}: {
  kind: SalesKind;
  rows: readonly LoadedRow[];
  page: number;
  lists: SalesScreenLists;
  canEdit: boolean;
  productEditable: boolean;
  problems: readonly RowProblem[];
  /** The plain form's shared state (hidden fields, buttons, the last post). */
  form: PlainFormState;
}) {
  const { submitted } = form;
  const { t } = useTranslation();
  const columns = columnsFor(kind);
  const { pages, current: currentPage, start } = formPage(page, rows.length);
  const shown = rows.slice(start, start + FORM_PAGE_SIZE).map((row, offset) => ({ index: start + offset, row }));
  if (canEdit) {
    for (let blank = 0; blank < FORM_BLANK_ROWS; blank++) shown.push({ index: rows.length + blank, row: {} });
  }
  const invalidAt = new Map(problems.map((problem) => [problem.rowNumber - 1, new Set<string>(problem.keys)]));
  const submittedRows = submitted?.tab === kind ? submitted.rows : null;
  const deleted = new Set(submitted?.deleteIds ?? []);

  if (!canEdit && rows.length === 0) {
    return <p className="empty report-form__empty">{t("No Data Available. Please contact Admin for more information!")}</p>;
  }

  const table = (
    <ScrollRegion className="table-wrap report-form__table-wrap" label={t("{{kind}} sales", { kind })}>
      <table className="table report-form-table" data-testid={`sales-table-${kind}`}>
        <caption className="visually-hidden">{t("{{kind}} sales", { kind })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Sr.No")}</th>
            {canEdit ? <th scope="col">{t("Delete")}</th> : null}
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {t(column.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map(({ index, row }) => {
            const values = submittedRows?.[index] ?? null;
            const invalid = invalidAt.get(index);
            const id = typeof row.id === "number" ? row.id : undefined;
            const n = index + 1;
            return (
              <tr key={index} data-row={n} className={invalid ? "report-form-table__row--invalid" : undefined}>
                <th scope="row">
                  {n}
                  {canEdit && id ? <input type="hidden" name={formFieldName(kind, index, "id")} value={id} /> : null}
                </th>
                {canEdit ? (
                  <td>
                    {id ? (
                      <input type="checkbox" name="deleteIds" value={id} defaultChecked={deleted.has(id)} aria-label={t("Delete row {{n}}", { n })} />
                    ) : null}
                  </td>
                ) : null}
                {columns.map((column) => {
                  const value = values ? (values[column.key] ?? "") : String(row[column.key] ?? "");
                  const isInvalid = invalid?.has(column.key) ?? false;
                  if (!canEdit) {
                    return (
                      <td key={column.key} className={isInvalid ? "report-form-table__cell--invalid" : undefined}>
                        {value}
                      </td>
                    );
                  }
                  const editable = column.type !== "product" || productEditable;
                  return (
                    <td key={column.key} className={isInvalid ? "report-form-table__cell--invalid" : undefined}>
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
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );

  return (
    <PlainReportForm state={form} canEdit={canEdit} tab={kind} page={currentPage} pages={pages} commentId={`submit-comment-${kind}`}>
      {table}
    </PlainReportForm>
  );
}
