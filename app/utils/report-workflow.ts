/**
 * The report workflow of decisions.md section 4: one state machine for PDT, Filing Plans and
 * Sales. Pure and client-safe: the server enforces it (app/models/report-workflow.server.ts)
 * and the screens use it to enable or disable their buttons.
 */
export type ReportStatus = "Saved" | "Submitted" | "Resubmitted" | "Approved" | "Rejected";
/** A report that has no row yet is "not started". */
export type ReportState = ReportStatus | null;
export type WorkflowRole = "ADMIN" | "STAFF" | "PARTNER";
export type WorkflowAction = "save" | "submit" | "approve" | "reject" | "reopen";

export interface TransitionInput {
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
}

export type TransitionResult = { ok: true; to: ReportStatus } | { ok: false; reason: string };

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
  partnerComment: "Enter comments for admin",
  adminComment: "Enter comments for partner",
} as const;

const refuse = (reason: string): TransitionResult => ({ ok: false, reason });

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
    if (!hasComment) return refuse(WORKFLOW_REFUSALS.partnerComment);
    return { ok: true, to: input.submittedBefore ? "Resubmitted" : "Submitted" };
  }

  if (role !== "ADMIN") return refuse(WORKFLOW_REFUSALS.adminOnly);

  if (action === "reopen") {
    if (status !== "Approved") return refuse(WORKFLOW_REFUSALS.notApproved);
    if (!hasComment) return refuse(WORKFLOW_REFUSALS.adminComment);
    return { ok: true, to: "Saved" };
  }

  // approve or reject
  if (historic) return refuse(WORKFLOW_REFUSALS.historic);
  if (status !== "Submitted" && status !== "Resubmitted") return refuse(WORKFLOW_REFUSALS.notSubmitted);
  if ((input.pendingVerifications ?? 0) > 0) return refuse(WORKFLOW_REFUSALS.pendingVerification);
  if (!hasComment) return refuse(WORKFLOW_REFUSALS.adminComment);
  return { ok: true, to: action === "approve" ? "Approved" : "Rejected" };
}

/** Which actions a screen may offer (the same table, without the comment, which the dialog asks for). */
export function allowedActions(input: Omit<TransitionInput, "action" | "comment">): Record<WorkflowAction, boolean> {
  const can = (action: WorkflowAction) => {
    const result = checkTransition({ ...input, action, comment: "x" });
    return result.ok;
  };
  return { save: can("save"), submit: can("submit"), approve: can("approve"), reject: can("reject"), reopen: can("reopen") };
}
