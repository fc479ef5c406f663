import { useTranslation } from "react-i18next";
import type { HistoryAction, ReportHistoryEntry } from "~/models/report-workflow.server";
import type { SalesChangesSinceSubmission } from "~/models/sales-report.server";
import { formatDateTime } from "~/utils/dates";
import type { SavedWarning } from "./sales-report-types";

const ACTION_LABELS: Record<HistoryAction, string> = {
  save: "Saved",
  submit: "Submitted",
  approve: "Approved",
  reject: "Rejected",
  reopen: "Reopened",
};

/** Every save, submission and decision of the report, newest first; a native <details>, no JavaScript needed. */
export function SalesHistory({ history, changes }: { history: ReportHistoryEntry[]; changes: SalesChangesSinceSubmission | null }) {
  const { t } = useTranslation();
  if (history.length === 0 && !changes) return null;
  const noChanges = changes && changes.added + changes.changed + changes.removed === 0;
  return (
    <details className="sales-history card" data-testid="sales-history">
      <summary className="sales-history__summary">{t("History")}</summary>
      {changes ? (
        <p className="sales-history__changes" data-testid="sales-history-changes">
          {noChanges
            ? t("No changes since the last submission.")
            : t("Since the last submission: {{added}} added, {{changed}} changed, {{removed}} removed", {
                added: changes.added,
                changed: changes.changed,
                removed: changes.removed,
              })}
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="table sales-history__table">
          <thead>
            <tr>
              <th scope="col">{t("When")}</th>
              <th scope="col">{t("Who")}</th>
              <th scope="col">{t("Action")}</th>
              <th scope="col">{t("Comment")}</th>
              <th scope="col">{t("Rows")}</th>
              <th scope="col">{t("Snapshot")}</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.at)}</td>
                <td>{entry.who ?? ""}</td>
                <td>{t(ACTION_LABELS[entry.action])}</td>
                <td className="sales-history__comment">{entry.comment ?? ""}</td>
                <td>{entry.rowCount ?? ""}</td>
                <td>
                  {entry.snapshotSha256 ? (
                    <code className="sales-history__hash" title={entry.snapshotSha256}>
                      {entry.snapshotSha256.slice(0, 12)}
                    </code>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** After a save: the success message and the FDF values that disagree with the derived ones (non-blocking). */
export function SavedWithWarnings({ message, values, warnings }: { message: string; values?: Record<string, string | number>; warnings: SavedWarning[] }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--info sales-warnings" role="status" data-testid="sales-warnings">
      <p>{t(message, values)}</p>
      <ul className="sales-warnings__list">
        {warnings.map((warning) => (
          <li key={`${warning.row}:${warning.column}`}>
            {t(warning.message, { row: warning.row, column: t(warning.column), expected: warning.expected })}
          </li>
        ))}
      </ul>
    </div>
  );
}
