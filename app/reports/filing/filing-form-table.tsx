import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import type { FilingPlanRow, FilingPlanView } from "~/reports/filing/model.server";
import { FILING_NO_DATA, FILING_TABLE, filingFieldName } from "~/reports/filing/contract";
import type { ShownRow } from "~/reports/filing/country-list";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { cellChangeOf, isAddedRow, type RowChanges } from "~/reports/frame/changes";
import { AddedRowBadge, FormCellWas } from "~/reports/frame/changes-view";
import { ChoiceOptions, FormCell, formPage, FormRow, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { findingRowAnchor } from "~/reports/frame/checks";
import type { ReportThreadsView } from "~/reports/frame/threads";
import { RowComments } from "~/reports/frame/threads-panel";

/**
 * Filing Plans without JavaScript: the countries the finder shows, 50 a page, a select per product
 * (its type's statuses, '0' for none). Only the page's cells are posted, so the countries not shown
 * stay as they are; invalid cells come back highlighted, values kept.
 */
export function FilingFormTable({
  view,
  form,
  shown,
  noRowsText,
  changes,
  threads,
}: {
  view: FilingPlanView;
  form: PlainFormState;
  shown: readonly ShownRow<FilingPlanRow>[];
  /** Said where the rows would be when the finder shows none. */
  noRowsText: string;
  /** The comparison the page shows (null: none): old statuses under the changed cells, added ones marked. */
  changes: RowChanges | null;
  /** The report's comments: each stored cell links to a new one and counts its open ones. */
  threads: ReportThreadsView | null;
}) {
  const { submitted, canEdit } = form;
  const { t } = useTranslation();
  const format = useFormatters();
  if (view.products.length === 0) return <p className="empty report-form__empty">{t(FILING_NO_DATA)}</p>;
  const page = formPage(form, shown, FILING_TABLE);
  const posted = submitted?.tab === "Filing" ? submitted.rows : null;

  return (
    <PlainReportForm
      state={form}
      page={page}
      commentId="filing-submit-comment"
      label={t("Filing Plans")}
      testId="filing-table"
      head={
        <>
          <th scope="col">{t("Country")}</th>
          {view.products.map((product) => (
            <th key={product.id} scope="col" title={product.name} className="filing-form__product">
              {product.name} <small>{product.category}</small>
            </th>
          ))}
        </>
      }
    >
      {shown.length === 0 ? (
        <tr>
          <td colSpan={view.products.length + 1} className="empty">
            {noRowsText}
          </td>
        </tr>
      ) : null}
      {page.shown.map(({ row: { index, row } }) => {
        const invalid = page.invalidAt.get(index);
        return (
          <FormRow key={row.countryId} n={index + 1} invalid={Boolean(invalid)} anchor={findingRowAnchor(FILING_TABLE, index + 1)}>
            <th scope="row">{format.country(row.country)}</th>
            {view.products.map((product) => {
              const value = posted?.[index]?.[String(product.id)] ?? row.cells[String(product.id)] ?? FILING_EMPTY;
              const isInvalid = invalid?.has(String(product.id)) ?? false;
              const cellName = t("{{product}} in {{country}}", { product: product.name, country: format.country(row.country) });
              return (
                <FormCell key={product.id} invalid={isInvalid}>
                  {canEdit ? (
                    <select
                      name={filingFieldName(row.countryId, product.id)}
                      className="input report-form-table__input"
                      aria-label={cellName}
                      aria-invalid={isInvalid || undefined}
                      defaultValue={value}
                    >
                      <ChoiceOptions options={view.statusLists[product.category]} value={value} none={{ value: FILING_EMPTY, label: t("0 (none)") }} />
                    </select>
                  ) : (
                    value
                  )}
                  <AddedRowBadge added={isAddedRow(changes, `${row.countryId}:${product.id}`)} />
                  <FormCellWas change={cellChangeOf(changes, `${row.countryId}:${product.id}`, "status")} />
                  <RowComments
                    threads={threads}
                    table={FILING_TABLE}
                    rowId={row.ids[String(product.id)]}
                    label={cellName}
                    pageHref={(params) => form.pageHref(page.current, params)}
                  />
                </FormCell>
              );
            })}
          </FormRow>
        );
      })}
    </PlainReportForm>
  );
}
