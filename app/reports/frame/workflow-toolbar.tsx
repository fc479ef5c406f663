import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReportFrameView } from "~/reports/frame/screen.server";
import {
  LEAVE_WITH_UNSAVED_CHANGES,
  NOTHING_NEW_TO_SUBMIT,
  SAVE_WITHDRAWS_SUBMISSION,
  UNSAVED_CHANGES,
  type DecisionIntent,
  type ReportActionData,
} from "~/reports/frame/contract";
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

/**
 * Unsaved edits are not thrown away without a word: leaving the page inside the portal (a link,
 * the quarter dropdown) asks first, and the browser asks before a reload or closing the tab.
 */
function useUnsavedChangesGuard(dirty: boolean, busy: boolean) {
  const { t } = useTranslation();
  // A post of the page itself (save, submit) is not leaving it.
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: { pathname: string; search: string }; nextLocation: { pathname: string; search: string } }) =>
        dirty && !busy && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
      [dirty, busy],
    ),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(t(LEAVE_WITH_UNSAVED_CHANGES))) blocker.proceed();
    else blocker.reset();
  }, [blocker, t]);
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
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

  useUnsavedChangesGuard(dirty, busy);

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
          <>
            <button
              type="button"
              className="button button--primary"
              disabled={!permissions.approve || busy}
              title={why("approve")}
              onClick={() => open("approve")}
            >
              {t("Approve")}
            </button>
            <button type="button" className="button button--danger" disabled={!permissions.reject || busy} title={why("reject")} onClick={() => open("reject")}>
              {t("Reject")}
            </button>
            {viewerRole === "ADMIN" && view.report.status === "Approved" ? (
              <button
                type="button"
                className="button button--secondary"
                disabled={!permissions.reopen || busy}
                title={why("reopen")}
                onClick={() => open("reopen")}
              >
                {t("Reopen")}
              </button>
            ) : null}
          </>
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
