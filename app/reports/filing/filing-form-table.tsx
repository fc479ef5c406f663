import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import type { FilingPlanView } from "~/reports/filing/model.server";
import { FORM_PAGE_SIZE, type RowProblem } from "~/reports/frame/contract";
import { FILING_NO_DATA, filingFieldName } from "~/reports/filing/contract";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { formPage, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { ScrollRegion } from "~/components/scroll-region";

/**
 * Filing Plans without JavaScript: 50 countries a page, a select per product (its type's statuses,
 * '0' for none). Only the page's cells are posted; invalid cells come back highlighted, values kept.
 */
export function FilingFormTable({
  view,
  page,
  problems,
  form,
}: {
  view: FilingPlanView;
  page: number;
  problems: readonly RowProblem[];
  /** The plain form's shared state (hidden fields, buttons, the last post). */
  form: PlainFormState;
}) {
  const { submitted } = form;
  const { t } = useTranslation();
  const format = useFormatters();
  if (view.products.length === 0) return <p className="empty report-form__empty">{t(FILING_NO_DATA)}</p>;
  const canEdit = view.canEditRows;
  const { pages, current, start } = formPage(page, view.rows.length);
  const shown = view.rows.slice(start, start + FORM_PAGE_SIZE).map((row, offset) => ({ index: start + offset, row }));
  const invalidAt = new Map(problems.map((problem) => [problem.rowNumber - 1, new Set<string>(problem.keys)]));
  const posted = submitted?.tab === "Filing" ? submitted.rows : null;

  const table = (
    <ScrollRegion className="table-wrap report-form__table-wrap" label={t("Filing Plans")}>
      <table className="table report-form-table" data-testid="filing-table">
        <caption className="visually-hidden">{t("Filing Plans")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Country")}</th>
            {view.products.map((product) => (
              <th key={product.id} scope="col">
                {product.name} <small>{product.category}</small>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map(({ index, row }) => {
            const invalid = invalidAt.get(index);
            return (
              <tr key={row.countryId} data-row={index + 1} className={invalid ? "report-form-table__row--invalid" : undefined}>
                <th scope="row">{format.country(row.country)}</th>
                {view.products.map((product) => {
                  const value = posted?.[index]?.[String(product.id)] ?? row.cells[String(product.id)] ?? FILING_EMPTY;
                  const isInvalid = invalid?.has(String(product.id)) ?? false;
                  const options = view.statusLists[product.category];
                  return (
                    <td key={product.id} className={isInvalid ? "report-form-table__cell--invalid" : undefined}>
                      {canEdit ? (
                        <select
                          name={filingFieldName(row.countryId, product.id)}
                          className="input report-form-table__input"
                          aria-label={t("{{product}} in {{country}}", { product: product.name, country: format.country(row.country) })}
                          aria-invalid={isInvalid || undefined}
                          defaultValue={value}
                        >
                          <option value={FILING_EMPTY}>{t("0 (none)")}</option>
                          {!options.includes(value) && value !== FILING_EMPTY ? <option value={value}>{value}</option> : null}
                          {options.map((option) => (
                            <option key={option} value={option}>
                              {option}
                            </option>
                          ))}
                        </select>
                      ) : (
                        value
                      )}
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
    <PlainReportForm state={form} canEdit={canEdit} page={current} pages={pages} commentId="filing-submit-comment">
      {table}
    </PlainReportForm>
  );
}
