/**
 * The report workflow of decisions.md section 4: one state machine for PDT, Filing Plans and
 * Sales. Pure and client-safe: the server enforces it (app/reports/frame/workflow.server.ts)
 * and the screens use it to enable or disable their buttons.
 */
export type ReportStatus = "Saved" | "Submitted" | "Resubmitted" | "Approved" | "Rejected";
/** A report that has no row yet is "not started". */
type ReportState = ReportStatus | null;
type WorkflowRole = "ADMIN" | "STAFF" | "PARTNER";
export type WorkflowAction = "save" | "submit" | "approve" | "reject" | "reopen";

interface TransitionInput {
  action: WorkflowAction;
  role: WorkflowRole;
  status: ReportState;
  /** Is the report's quarter earlier than the open quarter? */
  historic: boolean;
  /** Product verifications still waiting for the admin (Sales only). */
  pendingVerifications?: number;
  /** Has the report been submitted before (then a new submission is a resubmission)? */
  submittedBefore?: boolean;
  comment?: string | null;
  /**
   * The submission carries unsaved rows. A report already submitted is submitted again only with
   * changes (the save first withdraws the submission); whether the rows really changed the report
   * is checked once they are written.
   */
  savesRows?: boolean;
}

type TransitionResult = { ok: true; to: ReportStatus } | { ok: false; reason: string };

/** Refusals, in the spec's wording where it has one; each is also a translation key. */
export const WORKFLOW_REFUSALS = {
  staff: "Staff members can read reports but cannot change them.",
  historic: "This quarter is closed: its reports can no longer be changed.",
  approved: "This report is approved and can no longer be changed.",
  partnerOnly: "Only the partner can submit its report.",
  adminOnly: "Only an administrator can approve, reject or reopen a report.",
  notSubmitted: "Only a submitted report can be approved or rejected.",
  notApproved: "Only an approved report can be reopened.",
  pendingVerification: "Product verification pending!",
  alreadySubmitted: "This report is already submitted. Change it to submit it again.",
  partnerComment: "Enter comments for admin",
  adminComment: "Enter comments for partner",
} as const;

const refuse = (reason: string): TransitionResult => ({ ok: false, reason });

/** Waiting for the administrator's decision. */
export const isSubmitted = (status: ReportState) => status === "Submitted" || status === "Resubmitted";

export function checkTransition(input: TransitionInput): TransitionResult {
  const { action, role, status, historic } = input;
  const hasComment = Boolean(input.comment?.trim());
  if (role === "STAFF") return refuse(WORKFLOW_REFUSALS.staff);

  if (action === "save") {
    // An administrator may correct any report, in any quarter, without changing its state.
    if (role === "ADMIN") return { ok: true, to: status ?? "Saved" };
    if (historic) return refuse(WORKFLOW_REFUSALS.historic);
    if (status === "Approved") return refuse(WORKFLOW_REFUSALS.approved);
    return { ok: true, to: "Saved" };
  }

  // Submitting saves first (decisions.md: "Submitting saves unsaved grid data first"), so a
  // submitted report may be submitted again: save takes it to Saved, submit to Resubmitted.
  if (action === "submit") {
    if (role !== "PARTNER") return refuse(WORKFLOW_REFUSALS.partnerOnly);
    if (historic) return refuse(WORKFLOW_REFUSALS.historic);
    if (status === "Approved") return refuse(WORKFLOW_REFUSALS.approved);
    if (isSubmitted(status) && !input.savesRows) return refuse(WORKFLOW_REFUSALS.alreadySubmitted);
    if (!hasComment) return refuse(WORKFLOW_REFUSALS.partnerComment);
    return { ok: true, to: input.submittedBefore ? "Resubmitted" : "Submitted" };
  }

  if (role !== "ADMIN") return refuse(WORKFLOW_REFUSALS.adminOnly);

  if (action === "reopen") {
    // A closed quarter's report could never be approved again.
    if (historic) return refuse(WORKFLOW_REFUSALS.historic);
    if (status !== "Approved") return refuse(WORKFLOW_REFUSALS.notApproved);
    if (!hasComment) return refuse(WORKFLOW_REFUSALS.adminComment);
    return { ok: true, to: "Saved" };
  }

  // approve or reject
  if (historic) return refuse(WORKFLOW_REFUSALS.historic);
  if (!isSubmitted(status)) return refuse(WORKFLOW_REFUSALS.notSubmitted);
  if ((input.pendingVerifications ?? 0) > 0) return refuse(WORKFLOW_REFUSALS.pendingVerification);
  if (!hasComment) return refuse(WORKFLOW_REFUSALS.adminComment);
  return { ok: true, to: action === "approve" ? "Approved" : "Rejected" };
}

export type WorkflowPermissions = Record<WorkflowAction, boolean> & {
  /** Why an action is not offered (a translation key), for the disabled button's title. */
  reasons: Partial<Record<WorkflowAction, string>>;
};

/**
 * Which actions a screen may offer, and why not: the same table, without the comment (the dialog
 * asks for it). Submit is counted without unsaved changes; the editor offers it again on a
 * submitted report once something was changed.
 */
export function workflowPermissions(input: Omit<TransitionInput, "action" | "comment" | "savesRows">): WorkflowPermissions {
  const permissions: WorkflowPermissions = { save: false, submit: false, approve: false, reject: false, reopen: false, reasons: {} };
  for (const action of ["save", "submit", "approve", "reject", "reopen"] as const) {
    const result = checkTransition({ ...input, action, comment: "x" });
    permissions[action] = result.ok;
    if (!result.ok) permissions.reasons[action] = result.reason;
  }
  return permissions;
}

/**
 * The partner writes the reasons for its report's changes to explain while the report can still be
 * submitted: not once it is submitted or approved, nor in a closed quarter.
 */
export function mayExplainChanges(role: WorkflowRole, status: ReportState, historic: boolean): boolean {
  return role === "PARTNER" && !historic && status !== "Approved" && !isSubmitted(status);
}
