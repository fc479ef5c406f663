import { useTranslation } from "react-i18next";
import type { PdtGridRow } from "~/reports/pdt/model.server";
import { PDT_EMPTY, PDT_TABLE, pdtFieldName, type PdtFormKey } from "~/reports/pdt/contract";
import { formatPdtDate, PDT_COLUMN_LABELS, PDT_STATUSES } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { FormCell, formPage, FormRow, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { SlipBadge } from "./slip-badge";

/**
 * The timeline without JavaScript: a form of 50 rows a page, the quarter's dates as date inputs,
 * notes as text, each product's status as a select on its first row of the page; earlier
 * quarters' plans and the slip shown beside. Invalid cells come back highlighted with the values kept.
 */
export function PdtFormTable({ rows, earlierQuarters, form }: { rows: readonly PdtGridRow[]; earlierQuarters: readonly string[]; form: PlainFormState }) {
  const { submitted, canEdit } = form;
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="empty report-form__empty">{t(PDT_EMPTY)}</p>;
  const page = formPage(form, rows, PDT_TABLE);
  const { shown } = page;
  const posted = submitted?.tab === "PDT" ? submitted.rows : null;
  const valueOf = (index: number, key: PdtFormKey, fallback: string) => posted?.[index]?.[key] ?? fallback;

  return (
    <PlainReportForm
      state={form}
      page={page}
      commentId="pdt-submit-comment"
      label={t("Development Timeline")}
      testId="pdt-table"
      head={
        <>
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
        </>
      }
    >
      {shown.map(({ index, row }, offset) => {
        const invalid = page.invalidAt.get(index);
        const firstOfProduct = offset === 0 || shown[offset - 1].row.productId !== row.productId;
        const isInvalid = (key: string) => invalid?.has(key) ?? false;
        const label = (column: string) => t("{{column}}, {{product}}, {{stage}}", { column: t(column), product: row.productName, stage: t(row.stageName) });
        return (
          <FormRow key={`${row.productId}:${row.stageId}`} n={index + 1} invalid={Boolean(invalid)}>
            <th scope="row">{firstOfProduct ? row.productName : ""}</th>
            <td>{t(row.stageName)}</td>
            <FormCell invalid={isInvalid("status")}>
              {canEdit && firstOfProduct ? (
                <select
                  name={pdtFieldName(index, "status")}
                  className="input report-form-table__input"
                  aria-label={t("Status of {{product}}", { product: row.productName })}
                  aria-invalid={isInvalid("status") || undefined}
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
            </FormCell>
            <FormCell invalid={isInvalid("notes")}>
              {canEdit ? (
                <input
                  name={pdtFieldName(index, "notes")}
                  className="input report-form-table__input"
                  aria-label={label(PDT_COLUMN_LABELS.notes)}
                  aria-invalid={isInvalid("notes") || undefined}
                  defaultValue={valueOf(index, "notes", row.notes)}
                />
              ) : (
                row.notes
              )}
            </FormCell>
            {earlierQuarters.flatMap((quarter) => [
              <td key={`${quarter}-start`}>{formatPdtDate(row.history[quarter]?.startDate)}</td>,
              <td key={`${quarter}-end`}>{formatPdtDate(row.history[quarter]?.endDate)}</td>,
            ])}
            {(["startDate", "endDate"] as const).map((key) => (
              <FormCell key={key} invalid={isInvalid(key)}>
                {canEdit ? (
                  <input
                    type="date"
                    name={pdtFieldName(index, key)}
                    className="input report-form-table__input"
                    aria-label={label(PDT_COLUMN_LABELS[key])}
                    aria-invalid={isInvalid(key) || undefined}
                    defaultValue={valueOf(index, key, row[key] ?? "")}
                  />
                ) : (
                  formatPdtDate(row[key])
                )}
              </FormCell>
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
          </FormRow>
        );
      })}
    </PlainReportForm>
  );
}
