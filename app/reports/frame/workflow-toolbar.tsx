import { useEffect, useId, useState } from "react";
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

/** A button of the toolbar and why it is disabled (a translation key), undefined when it is not. */
interface ButtonReason {
  button: string;
  label: string;
  reason: string | undefined;
}

/** One line under the buttons: a reason and the labels of the buttons it disables; `id` for their aria-describedby. */
interface ReasonLine {
  id: string;
  reason: string;
  labels: string[];
}

/** The reasons of the disabled buttons, each once, and which line describes each button. */
function reasonLines(idPrefix: string, buttons: readonly ButtonReason[]): { lines: ReasonLine[]; describedBy: Record<string, string> } {
  const lines: ReasonLine[] = [];
  const describedBy: Record<string, string> = {};
  for (const { button, label, reason } of buttons) {
    if (!reason) continue;
    let line = lines.find((candidate) => candidate.reason === reason);
    if (!line) {
      line = { id: `${idPrefix}-reason-${lines.length}`, reason, labels: [] };
      lines.push(line);
    }
    line.labels.push(label);
    describedBy[button] = line.id;
  }
  return { lines, describedBy };
}

/** Why buttons are disabled, as text under them ("Save and Submit Report not available: …"). */
function UnavailableReasons({ lines }: { lines: readonly ReasonLine[] }) {
  const { t, i18n } = useTranslation();
  if (!lines.length) return null;
  const list = new Intl.ListFormat(i18n.language, { type: "conjunction" });
  return (
    <ul className="report-toolbar__reasons" data-testid="unavailable-reasons">
      {lines.map((line) => (
        <li key={line.id} id={line.id}>
          {t("{{actions}} not available: {{reason}}", { actions: list.format(line.labels.map((label) => t(label))), reason: t(line.reason) })}
        </li>
      ))}
    </ul>
  );
}

const DECISIONS = [
  { intent: "approve", label: "Approve", look: "button--primary" },
  { intent: "reject", label: "Reject", look: "button--danger" },
  { intent: "reopen", label: "Reopen", look: "button--secondary" },
] as const;

/** The decisions the viewer is shown, with why each is not available. */
function decisionReasons(view: ReportFrameView, viewerRole: "ADMIN" | "STAFF" | "PARTNER") {
  return DECISIONS.filter(({ intent }) => intent !== "reopen" || (viewerRole === "ADMIN" && view.report.status === "Approved")).map((decision) => ({
    ...decision,
    button: decision.intent,
    reason: view.permissions.reasons[decision.intent],
  }));
}

/**
 * Approve, Reject and, for ADMIN on an approved report, Reopen, each disabled with the reason why:
 * the toolbar's buttons (`onDecide` opens the comment dialog; the toolbar shows the reasons with its
 * own, `describedBy`) or, without it, the plain decision form's submit buttons and their reasons.
 */
export function DecisionButtons({
  view,
  viewerRole,
  busy,
  onDecide,
  describedBy,
}: {
  view: ReportFrameView;
  viewerRole: "ADMIN" | "STAFF" | "PARTNER";
  busy: boolean;
  onDecide?: (intent: (typeof DECISIONS)[number]["intent"]) => void;
  /** The toolbar's reason line of each disabled decision; without it the buttons show their reasons below them. */
  describedBy?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const idPrefix = useId();
  const { permissions } = view;
  const shown = decisionReasons(view, viewerRole);
  const own = describedBy ? null : reasonLines(idPrefix, shown);
  const reasonId = describedBy ?? own?.describedBy ?? {};
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
          aria-describedby={reasonId[intent]}
          onClick={onDecide ? () => onDecide(intent) : undefined}
        >
          {t(label)}
        </button>
      ))}
      {own ? <UnavailableReasons lines={own.lines} /> : null}
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
  const reasonIdPrefix = useId();
  const { permissions } = view;
  const isPartner = viewerRole === "PARTNER";
  const submitted = isSubmitted(view.report.status);
  // A submitted report is submitted again only with changes.
  const canSubmit = permissions.submit || (isPartner && submitted && dirty && permissions.save);
  const why = (action: keyof typeof permissions.reasons) => (permissions.reasons[action] ? t(permissions.reasons[action]) : undefined);
  const submitReason = canSubmit ? undefined : submitted && permissions.save ? NOTHING_NEW_TO_SUBMIT : permissions.reasons.submit;
  const nothingToReportReason = nothingToReportBlocker ?? permissions.reasons.submit;
  const reasons = reasonLines(reasonIdPrefix, [
    { button: "save", label: "Save", reason: permissions.reasons.save },
    ...(isPartner
      ? [
          { button: "submit", label: "Submit Report", reason: submitReason },
          { button: "submit-empty", label: "Nothing to report this quarter", reason: nothingToReportReason },
        ]
      : decisionReasons(view, viewerRole)),
  ]);

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
    <>
      <div className="report-toolbar" role="toolbar" aria-label={t(label)}>
        <div className="report-toolbar__group">
          <button
            type="button"
            className="button button--primary"
            disabled={!permissions.save || busy}
            title={why("save")}
            aria-describedby={reasons.describedBy.save}
            onClick={onSave}
          >
            {t("Save")}
          </button>
          {isPartner ? (
            <>
              <button
                type="button"
                className="button button--primary"
                disabled={!canSubmit || busy}
                title={submitReason ? t(submitReason) : undefined}
                aria-describedby={reasons.describedBy.submit}
                onClick={() => open("submit")}
              >
                {t("Submit Report")}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={!permissions.submit || busy || Boolean(nothingToReportBlocker)}
                title={nothingToReportReason ? t(nothingToReportReason) : undefined}
                aria-describedby={reasons.describedBy["submit-empty"]}
                onClick={() => open("submit-empty")}
              >
                {t("Nothing to report this quarter")}
              </button>
            </>
          ) : (
            <DecisionButtons view={view} viewerRole={viewerRole} busy={busy} onDecide={open} describedBy={reasons.describedBy} />
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
      <UnavailableReasons lines={reasons.lines} />
    </>
  );
}
