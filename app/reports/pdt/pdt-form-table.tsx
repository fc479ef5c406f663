import { useTranslation } from "react-i18next";
import type { PdtGridRow } from "~/reports/pdt/model.server";
import { FORM_PAGE_SIZE, type RowProblem } from "~/reports/frame/contract";
import { PDT_EMPTY, pdtFieldName, type PdtFormKey } from "~/reports/pdt/contract";
import { formatPdtDate, PDT_COLUMN_LABELS, PDT_STATUSES } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { formPage, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { SlipBadge } from "./slip-badge";
import { ScrollRegion } from "~/components/scroll-region";

/**
 * The timeline without JavaScript: a form of 50 rows a page, the quarter's dates as date inputs,
 * notes as text, each product's status as a select on its first row of the page; earlier
 * quarters' plans and the slip shown beside. Invalid cells come back highlighted with the values kept.
 */
export function PdtFormTable({
  rows,
  earlierQuarters,
  page,
  canEdit,
  problems,
  form,
}: {
  rows: readonly PdtGridRow[];
  earlierQuarters: readonly string[];
  page: number;
  canEdit: boolean;
  problems: readonly RowProblem[];
  /** The plain form's shared state (hidden fields, buttons, the last post). */
  form: PlainFormState;
}) {
  const { submitted } = form;
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="empty report-form__empty">{t(PDT_EMPTY)}</p>;
  const { pages, current, start } = formPage(page, rows.length);
  const shown = rows.slice(start, start + FORM_PAGE_SIZE).map((row, offset) => ({ index: start + offset, row }));
  const invalidAt = new Map(problems.map((problem) => [problem.rowNumber - 1, new Set<string>(problem.keys)]));
  const posted = submitted?.tab === "PDT" ? submitted.rows : null;
  const valueOf = (index: number, key: PdtFormKey, fallback: string) => posted?.[index]?.[key] ?? fallback;

  const table = (
    <ScrollRegion className="table-wrap report-form__table-wrap" label={t("Development Timeline")}>
      <table className="table report-form-table" data-testid="pdt-table">
        <caption className="visually-hidden">{t("Development Timeline")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("Product")}</th>
            <th scope="col">{t("Stage")}</th>
            <th scope="col">{t(PDT_COLUMN_LABELS.status)}</th>
            <th scope="col">{t(PDT_COLUMN_LABELS.notes)}</th>
            {earlierQuarters.map((quarter) => (
              <th key={quarter} scope="col" colSpan={2}>
                {quarter}
              </th>
            ))}
            <th scope="col">{t(PDT_COLUMN_LABELS.startDate)}</th>
            <th scope="col">{t(PDT_COLUMN_LABELS.endDate)}</th>
            <th scope="col">{t("Slip (days)")}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(({ index, row }, offset) => {
            const invalid = invalidAt.get(index);
            const firstOfProduct = offset === 0 || shown[offset - 1].row.productId !== row.productId;
            const cellClass = (key: string) => (invalid?.has(key) ? "report-form-table__cell--invalid" : undefined);
            const label = (column: string) => t("{{column}}, {{product}}, {{stage}}", { column: t(column), product: row.productName, stage: t(row.stageName) });
            const n = index + 1;
            return (
              <tr key={`${row.productId}:${row.stageId}`} data-row={n} className={invalid ? "report-form-table__row--invalid" : undefined}>
                <th scope="row">{firstOfProduct ? row.productName : ""}</th>
                <td>{t(row.stageName)}</td>
                <td className={cellClass("status")}>
                  {canEdit && firstOfProduct ? (
                    <select
                      name={pdtFieldName(index, "status")}
                      className="input report-form-table__input"
                      aria-label={t("Status of {{product}}", { product: row.productName })}
                      aria-invalid={invalid?.has("status") || undefined}
                      defaultValue={valueOf(index, "status", row.status)}
                    >
                      {PDT_STATUSES.map((status) => (
                        <option key={status} value={status}>
                          {t(PROJECT_STATUS_LABELS[status])}
                        </option>
                      ))}
                    </select>
                  ) : (
                    t(PROJECT_STATUS_LABELS[row.status])
                  )}
                </td>
                <td className={cellClass("notes")}>
                  {canEdit ? (
                    <input
                      name={pdtFieldName(index, "notes")}
                      className="input report-form-table__input"
                      aria-label={label(PDT_COLUMN_LABELS.notes)}
                      aria-invalid={invalid?.has("notes") || undefined}
                      defaultValue={valueOf(index, "notes", row.notes)}
                    />
                  ) : (
                    row.notes
                  )}
                </td>
                {earlierQuarters.flatMap((quarter) => [
                  <td key={`${quarter}-start`}>{formatPdtDate(row.history[quarter]?.startDate)}</td>,
                  <td key={`${quarter}-end`}>{formatPdtDate(row.history[quarter]?.endDate)}</td>,
                ])}
                {(["startDate", "endDate"] as const).map((key) => (
                  <td key={key} className={cellClass(key)}>
                    {canEdit ? (
                      <input
                        type="date"
                        name={pdtFieldName(index, key)}
                        className="input report-form-table__input"
                        aria-label={label(PDT_COLUMN_LABELS[key])}
                        aria-invalid={invalid?.has(key) || undefined}
                        defaultValue={valueOf(index, key, row[key] ?? "")}
                      />
                    ) : (
                      formatPdtDate(row[key])
                    )}
                  </td>
                ))}
                <td>
                  <SlipBadge days={row.slip.end ?? row.slip.start} />
                  {canEdit ? (
                    <>
                      <input type="hidden" name={pdtFieldName(index, "productId")} value={row.productId} />
                      <input type="hidden" name={pdtFieldName(index, "stageId")} value={row.stageId} />
                    </>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
  return (
    <PlainReportForm state={form} canEdit={canEdit} page={current} pages={pages} commentId="pdt-submit-comment">
      {table}
    </PlainReportForm>
  );
}
