import { useTranslation } from "react-i18next";
import type { HistoryAction, ReportHistoryEntry } from "~/reports/frame/workflow.server";
import { useFormatters } from "~/hooks/use-formatters";
import { ScrollRegion } from "~/components/scroll-region";
import { ColumnHeads } from "~/components/table-parts";
import { SUBMISSION_TEXTS, submissionPdfPath } from "~/reports/frame/submission-document";

const ACTION_LABELS: Record<HistoryAction, string> = {
  save: "Saved",
  submit: "Submitted",
  approve: "Approved",
  reject: "Rejected",
  reopen: "Reopened",
};

/** Rows added, changed and removed since the report's last submission. */
export interface ChangesSinceSubmission {
  added: number;
  changed: number;
  removed: number;
}

/** Every save, submission and decision of the report, newest first; a native <details>, no JavaScript needed. */
export function ReportHistory({ history, changes }: { history: ReportHistoryEntry[]; changes: ChangesSinceSubmission | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (history.length === 0 && !changes) return null;
  const noChanges = changes && changes.added + changes.changed + changes.removed === 0;
  return (
    <details className="report-history card" data-testid="report-history">
      <summary className="report-history__summary">{t("History")}</summary>
      {changes ? (
        <p className="report-history__changes" data-testid="report-history-changes">
          {noChanges
            ? t("No changes since the last submission.")
            : t("Since the last submission: {{added}} added, {{changed}} changed, {{removed}} removed", {
                added: changes.added,
                changed: changes.changed,
                removed: changes.removed,
              })}
        </p>
      ) : null}
      <ScrollRegion label={t("History")}>
        <table className="table report-history__table">
          <ColumnHeads columns={[t("When"), t("Who"), t("Action"), t("Comment"), t("Rows"), t("Snapshot")]} />
          <tbody>
            {history.map((entry) => (
              <tr key={entry.id}>
                <td>{format.dateTime(entry.at)}</td>
                <td>{entry.who ?? ""}</td>
                <td>{t(ACTION_LABELS[entry.action])}</td>
                <td className="report-history__comment">{entry.comment ?? ""}</td>
                <td>{format.number(entry.rowCount)}</td>
                <td>
                  {entry.snapshotSha256 ? (
                    <code className="report-history__hash" title={entry.snapshotSha256}>
                      {entry.snapshotSha256.slice(0, 12)}
                    </code>
                  ) : null}
                  {entry.action === "submit" && entry.snapshotId !== null ? (
                    <>
                      {" "}
                      {/* A document download, not a page: the browser downloads it, with or without JavaScript. */}
                      <a
                        className="report-history__proof"
                        href={submissionPdfPath(entry.snapshotId)}
                        download
                        title={t(SUBMISSION_TEXTS.downloadTitle)}
                        aria-label={t(SUBMISSION_TEXTS.downloadTitle)}
                        data-testid="submission-pdf"
                      >
                        {t(SUBMISSION_TEXTS.download)}
                      </a>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </details>
  );
}
