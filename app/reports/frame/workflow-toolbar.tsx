import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReportFrameView } from "~/reports/frame/screen.server";
import { NOTHING_NEW_TO_SUBMIT, SAVE_WITHDRAWS_SUBMISSION, UNSAVED_CHANGES, type DecisionIntent, type ReportActionData } from "~/reports/frame/contract";
import { isSubmitted, WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { CommentDialog, type CommentRequest } from "./dialogs";

function commentRequests(nothingToReportDescription: string): Record<DecisionIntent, CommentRequest> {
  return {
    submit: { title: "Submit Report", confirmLabel: "Submit Report", requiredMessage: WORKFLOW_REFUSALS.partnerComment },
    "submit-empty": {
      title: "Nothing to report this quarter",
      confirmLabel: "Submit Report",
      requiredMessage: WORKFLOW_REFUSALS.partnerComment,
      description: nothingToReportDescription,
    },
    approve: { title: "Approve Report", confirmLabel: "Approve", requiredMessage: WORKFLOW_REFUSALS.adminComment },
    reject: { title: "Reject Report", confirmLabel: "Reject", requiredMessage: WORKFLOW_REFUSALS.adminComment, danger: true },
    reopen: { title: "Reopen Report", confirmLabel: "Reopen", requiredMessage: WORKFLOW_REFUSALS.adminComment },
  };
}

const DECISIONS = [
  { intent: "approve", label: "Approve", look: "button--primary" },
  { intent: "reject", label: "Reject", look: "button--danger" },
  { intent: "reopen", label: "Reopen", look: "button--secondary" },
] as const;

/**
 * Approve, Reject and, for ADMIN on an approved report, Reopen, each disabled with the reason why:
 * the toolbar's buttons (`onDecide` opens the comment dialog) or, without it, the plain decision
 * form's submit buttons.
 */
export function DecisionButtons({
  view,
  viewerRole,
  busy,
  onDecide,
}: {
  view: ReportFrameView;
  viewerRole: "ADMIN" | "STAFF" | "PARTNER";
  busy: boolean;
  onDecide?: (intent: (typeof DECISIONS)[number]["intent"]) => void;
}) {
  const { t } = useTranslation();
  const { permissions } = view;
  const shown = DECISIONS.filter(({ intent }) => intent !== "reopen" || (viewerRole === "ADMIN" && view.report.status === "Approved"));
  return (
    <>
      {shown.map(({ intent, label, look }) => (
        <button
          key={intent}
          type={onDecide ? "button" : "submit"}
          name={onDecide ? undefined : "intent"}
          value={onDecide ? undefined : intent}
          className={`button ${look}`}
          disabled={!permissions[intent] || busy}
          title={permissions.reasons[intent] ? t(permissions.reasons[intent]) : undefined}
          onClick={onDecide ? () => onDecide(intent) : undefined}
        >
          {t(label)}
        </button>
      ))}
    </>
  );
}

/**
 * Save, Submit Report and Nothing to report (partner) or Approve / Reject / Reopen (admin), with
 * the comment dialog, the "Unsaved changes" marker and why a button is disabled. The editor
 * supplies the save (with its rows) and the decision (with its rows when changed).
 */
export function WorkflowToolbar({
  view,
  viewerRole,
  label,
  dirty,
  busy,
  nothingToReportBlocker,
  result,
  nothingToReportDescription,
  onSave,
  onDecision,
}: {
  view: ReportFrameView;
  viewerRole: "ADMIN" | "STAFF" | "PARTNER";
  label: string;
  dirty: boolean;
  busy: boolean;
  /** Why "Nothing to report this quarter" is not possible now (a translation key), or null. */
  nothingToReportBlocker: string | null;
  result: ReportActionData | undefined;
  nothingToReportDescription: string;
  onSave: () => void;
  /** False when the rows are invalid (the editor shows 'Invalid data!'): the dialog closes. */
  onDecision: (intent: DecisionIntent, comment: string) => boolean;
}) {
  const { t } = useTranslation();
  const [decision, setDecision] = useState<DecisionIntent | null>(null);
  const [commentError, setCommentError] = useState<string | null>(null);
  const { permissions } = view;
  const isPartner = viewerRole === "PARTNER";
  const submitted = isSubmitted(view.report.status);
  // A submitted report is submitted again only with changes.
  const canSubmit = permissions.submit || (isPartner && submitted && dirty && permissions.save);
  const why = (action: keyof typeof permissions.reasons) => (permissions.reasons[action] ? t(permissions.reasons[action]) : undefined);
  const submitWhy = canSubmit ? undefined : submitted && permissions.save ? t(NOTHING_NEW_TO_SUBMIT) : why("submit");

  useEffect(() => {
    if (!result) return;
    if (result.kind === "error" && result.field === "comment") setCommentError(result.message);
    else if (result.kind === "error" || result.kind === "problems") setDecision(null);
  }, [result]);

  const open = (intent: DecisionIntent) => {
    setCommentError(null);
    setDecision(intent);
  };

  return (
    <div className="report-toolbar" role="toolbar" aria-label={t(label)}>
      <div className="report-toolbar__group">
        <button type="button" className="button button--primary" disabled={!permissions.save || busy} title={why("save")} onClick={onSave}>
          {t("Save")}
        </button>
        {isPartner ? (
          <>
            <button type="button" className="button button--primary" disabled={!canSubmit || busy} title={submitWhy} onClick={() => open("submit")}>
              {t("Submit Report")}
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={!permissions.submit || busy || Boolean(nothingToReportBlocker)}
              title={nothingToReportBlocker ? t(nothingToReportBlocker) : why("submit")}
              onClick={() => open("submit-empty")}
            >
              {t("Nothing to report this quarter")}
            </button>
          </>
        ) : (
          <DecisionButtons view={view} viewerRole={viewerRole} busy={busy} onDecide={open} />
        )}
      </div>
      {isPartner && submitted && permissions.save ? (
        <span className="report-toolbar__note" data-testid="save-withdraws">
          {t(SAVE_WITHDRAWS_SUBMISSION)}
        </span>
      ) : null}
      {dirty ? (
        <span className="report-toolbar__unsaved" role="status">
          {t(UNSAVED_CHANGES)}
        </span>
      ) : null}
      <CommentDialog
        request={decision ? commentRequests(nothingToReportDescription)[decision] : null}
        serverError={commentError}
        busy={busy}
        onCancel={() => setDecision(null)}
        onConfirm={(comment) => {
          if (decision && !onDecision(decision, comment)) setDecision(null);
        }}
      />
    </div>
  );
}
