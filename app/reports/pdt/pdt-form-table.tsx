import { useTranslation } from "react-i18next";
import type { PdtGridRow } from "~/reports/pdt/model.server";
import { PDT_EMPTY, PDT_TABLE, pdtFieldName, type PdtDateReading, type PdtFormKey } from "~/reports/pdt/contract";
import { namedPdtDate, PDT_COLUMN_LABELS, PDT_DATE_RULE, PDT_STATUSES } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { FormCell, formPage, FormRow, PlainReportForm, type PlainFormState } from "~/reports/frame/plain-form";
import { cellChangeOf, isAddedRow, type RowChanges } from "~/reports/frame/changes";
import { AddedRowBadge, FormCellWas } from "~/reports/frame/changes-view";
import { findingRowAnchor } from "~/reports/frame/checks";
import type { ReportThreadsView } from "~/reports/frame/threads";
import { RowComments } from "~/reports/frame/threads-panel";
import { PdtDateField } from "./pdt-date";
import { SlipBadge } from "./slip-badge";

const DATE_KEYS = ["startDate", "endDate"] as const;

/**
 * The timeline without JavaScript (and on a narrow screen, where it shows as one card per
 * product): a form of 50 rows a page. This quarter's columns first, headed with the quarter:
 * each product's status as a select on its first row of the page, the dates as text fields
 * (M/D/YYYY or ISO) with what they read as, the slip, the notes; then earlier quarters' plans,
 * newest first. Invalid cells come back highlighted with the values kept.
 */
export function PdtFormTable({
  rows,
  quarter,
  earlierQuarters,
  form,
  threads,
  dateReadings,
  changes,
}: {
  rows: readonly PdtGridRow[];
  quarter: string;
  /** Newest first. */
  earlierQuarters: readonly string[];
  form: PlainFormState;
  /** The report's comments: each saved row links to a new one and counts its open ones. */
  threads: ReportThreadsView | null;
  dateReadings: readonly PdtDateReading[] | null;
  /** The comparison the page shows (null: none): old values under the changed cells, added rows marked. */
  changes: RowChanges | null;
}) {
  const { submitted, canEdit } = form;
  const { t, i18n } = useTranslation();
  if (rows.length === 0) return <p className="empty report-form__empty">{t(PDT_EMPTY)}</p>;
  const page = formPage(form, rows, PDT_TABLE);
  const { shown } = page;
  const posted = submitted?.tab === "PDT" ? submitted.rows : null;
  const valueOf = (index: number, key: PdtFormKey, fallback: string) => posted?.[index]?.[key] ?? fallback;
  const readAt = new Set(dateReadings?.map((reading) => `${reading.index}:${reading.key}`));
  const withQuarter = (key: keyof typeof PDT_COLUMN_LABELS, name: string) =>
    t("{{column}} ({{quarter}})", { column: t(PDT_COLUMN_LABELS[key]), quarter: name });
  const heads = {
    stage: t("Stage"),
    status: t(PDT_COLUMN_LABELS.status),
    startDate: withQuarter("startDate", quarter),
    endDate: withQuarter("endDate", quarter),
    slip: t("Slip (days)"),
    notes: t(PDT_COLUMN_LABELS.notes),
  };
  const history = earlierQuarters.flatMap((name) => DATE_KEYS.map((key) => ({ name, key, head: withQuarter(key, name) })));

  return (
    <>
      {canEdit ? <p className="report-form__note">{t(PDT_DATE_RULE)}</p> : null}
      <PlainReportForm
        state={form}
        page={page}
        commentId="pdt-submit-comment"
        label={t("Development Timeline")}
        testId="pdt-table"
        head={
          <>
            <th scope="col">{t("Product")}</th>
            <th scope="col">{heads.stage}</th>
            <th scope="col">{heads.status}</th>
            <th scope="col">{heads.startDate}</th>
            <th scope="col">{heads.endDate}</th>
            <th scope="col">{heads.slip}</th>
            <th scope="col">{heads.notes}</th>
            {history.map(({ name, key, head }) => (
              <th key={`${name}-${key}`} scope="col" className="pdt-form-table__history">
                {head}
              </th>
            ))}
          </>
        }
      >
        {shown.map(({ index, row }, offset) => {
          const invalid = page.invalidAt.get(index);
          const firstOfProduct = offset === 0 || shown[offset - 1].row.productId !== row.productId;
          const isInvalid = (key: string) => invalid?.has(key) ?? false;
          const rowKey = `${row.productId}:${row.stageId}`;
          const label = (column: string) => t("{{column}}, {{product}}, {{stage}}", { column: t(column), product: row.productName, stage: t(row.stageName) });
          return (
            <FormRow key={rowKey} n={index + 1} invalid={Boolean(invalid)} anchor={findingRowAnchor(PDT_TABLE, index + 1)} added={isAddedRow(changes, rowKey)}>
              <th scope="row" className={firstOfProduct ? "pdt-form-table__product" : undefined}>
                {firstOfProduct ? row.productName : ""}
              </th>
              <td className="pdt-form-table__stage">
                {t(row.stageName)} <AddedRowBadge added={isAddedRow(changes, rowKey)} />
                <RowComments
                  threads={threads}
                  table={PDT_TABLE}
                  rowId={row.id ?? undefined}
                  n={index + 1}
                  pageHref={(params) => form.pageHref(page.current, params)}
                />
              </td>
              <FormCell invalid={isInvalid("status")} label={heads.status} className={firstOfProduct ? undefined : "pdt-form-table__repeat"}>
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
              {DATE_KEYS.map((key) => (
                <FormCell key={key} invalid={isInvalid(key)} label={heads[key]}>
                  {canEdit ? (
                    <PdtDateField
                      name={pdtFieldName(index, key)}
                      label={label(PDT_COLUMN_LABELS[key])}
                      defaultValue={valueOf(index, key, row[key] ?? "")}
                      invalid={isInvalid(key)}
                      readAs={readAt.has(`${index}:${key}`)}
                    />
                  ) : (
                    namedPdtDate(row[key], i18n.language)
                  )}
                  <FormCellWas change={cellChangeOf(changes, rowKey, key)} shown={(value) => namedPdtDate(value, i18n.language)} />
                </FormCell>
              ))}
              <td data-label={heads.slip}>
                <SlipBadge days={row.slip.end ?? row.slip.start} />
                {canEdit ? (
                  <>
                    <input type="hidden" name={pdtFieldName(index, "productId")} value={row.productId} />
                    <input type="hidden" name={pdtFieldName(index, "stageId")} value={row.stageId} />
                  </>
                ) : null}
              </td>
              <FormCell invalid={isInvalid("notes")} label={heads.notes}>
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
                <FormCellWas change={cellChangeOf(changes, rowKey, "notes")} />
              </FormCell>
              {history.map(({ name, key }) => (
                <td key={`${name}-${key}`} className="pdt-form-table__history">
                  {namedPdtDate(row.history[name]?.[key], i18n.language)}
                </td>
              ))}
            </FormRow>
          );
        })}
      </PlainReportForm>
    </>
  );
}
