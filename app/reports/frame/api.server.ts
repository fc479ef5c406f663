/**
 * What the three report templates' calls share around their rows:
 * the report's header as an answer (quarter, dropdown, meta, messages), the bodies and answers of
 * submit, decide and read-messages, and the decision and inbox calls themselves. The rules are the
 * report screens': loadReportFrame, decideReport and markReportMessagesRead.
 */
import * as z from "zod";
import { decideReport, loadReportFrame, markReportMessagesRead, type ReportFrameView } from "~/reports/frame/screen.server";
import type { AppLoadContext } from "@remix-run/node";
import type { AuthUser } from "~/models/user.server";
import { DATA_RECORDED, REPORT_SUBMITTED } from "~/reports/frame/contract";
import { boundedText } from "~/schemas/fields";
import { REPORT_REGISTRY, REPORT_STATES, type ReportTypeKey } from "~/reports/frame/registry";
import { TEXT_MAX } from "~/utils/text-rules";
import { inEnglish } from "~/utils/messages";
import { FINDING_KINDS, FINDINGS_LISTED_PER_RULE, reportChecks, type FindingKind } from "~/reports/frame/checks";
import { loadReportChecks } from "~/reports/frame/checks.server";
import { loadChangesToExplain, saveExplanations } from "~/reports/frame/explanations.server";
import { loadReportThreads, postToThread, ThreadRefusal, type ThreadPost } from "~/reports/frame/threads.server";
import {
  ADMIN_AND_STAFF,
  ALL_ROLES,
  idParam,
  invalid,
  notFound,
  pageNumberQuery,
  pagedAnswer,
  pagedAnswerFields,
  PartnerParams,
  QuarterQuery,
  signedInCall,
  type ApiCall,
} from "~/api/call.server";
import { CHANGE_BASES, NO_CHANGE_BASE } from "~/reports/frame/changes";
import { loadReportChangesPage } from "~/reports/frame/changes.server";
import { submissionFor, submissionPdfResponse } from "~/reports/frame/submission-pdf.server";

const QuarterOptionSchema = z.object({ id: z.number().int(), name: z.string(), historic: z.boolean() }).meta({ id: "QuarterOption" });

/** Spec §3's `{pdt,filing,sales}_meta`, with the portal's own fields beside. */
export const ReportMetaSchema = z
  .object({
    partner_name: z.string(),
    quarter_name: z.string(),
    report_status: z.enum(REPORT_STATES).nullable().meta({ description: "null: not started." }),
    submission_time: z.iso.datetime().nullable().meta({ description: "When the report was last submitted." }),
    approval_time: z.iso.datetime().nullable().meta({ description: "When the report was approved (null unless its status is Approved)." }),
    partner_id: z.number().int(),
    report_id: z.number().int().nullable(),
    version: z.number().int().meta({ description: "Send it back with a save or a submission: one over a newer version is refused (409). Left out: no check." }),
    is_late: z.boolean(),
    can_edit: z.boolean().meta({ description: "Whether the caller may save the rows now." }),
  })
  .meta({ id: "ReportMeta" });

/** Spec §3's message, and who wrote it. */
const ReportMessageSchema = z
  .object({
    created_at: z.iso.datetime(),
    message: z.string(),
    is_approved: z.boolean().nullable().meta({ description: "An administrator's decision (true approved, false rejected); null for a partner's comment." }),
    is_partner_message: z.boolean(),
    author: z.string().nullable(),
  })
  .meta({ id: "ReportMessage" });

/** The header fields every report template answers with (the meta goes under the report's own name). */
export const frameShape = {
  quarter_dropdown: z.array(QuarterOptionSchema).meta({ description: "The open quarter first, then earlier quarters, newest first." }),
  quarter_editable: z.boolean().meta({ description: "Whether the caller may change the rows of this quarter now." }),
  unread_message_count: z.number().int(),
  messages: z.array(ReportMessageSchema),
};

export function frameAnswer(view: ReportFrameView) {
  return {
    quarter_dropdown: view.quarterDropdown,
    quarter_editable: view.canEditRows,
    unread_message_count: view.unreadMessageCount,
    messages: view.messages.map((message) => ({
      created_at: message.createdAt.toISOString(),
      message: message.message,
      is_approved: message.isApproved,
      is_partner_message: message.isPartnerMessage,
      author: message.author,
    })),
  };
}

export function reportMeta(view: ReportFrameView): z.infer<typeof ReportMetaSchema> {
  return {
    partner_name: view.partner.companyName,
    quarter_name: view.quarter.name,
    report_status: view.report.status,
    submission_time: view.report.submittedAt?.toISOString() ?? null,
    approval_time: view.report.status === "Approved" ? (view.report.decidedAt?.toISOString() ?? null) : null,
    partner_id: view.partner.id,
    report_id: view.report.id,
    version: view.report.version,
    is_late: view.report.isLate,
    can_edit: view.canEditRows,
  };
}

/** The answer of a save or a submission. */
const ReportSavedSchema = z
  .object({
    status: z.literal("OK"),
    detail: z.string().meta({ example: "Data recorded successfully!" }),
    report_id: z.number().int(),
    version: z.number().int().meta({ description: "The report's version now: send it with the next save." }),
    total: z.number().int().meta({ description: "Rows (PDT) or filled cells (Filing Plans) of the quarter's report." }),
    updated: z.number().int().meta({ description: "Stored values this save wrote or removed." }),
  })
  .meta({ id: "ReportSaved" });

/** The answer of a Development Timeline or Filing Plans save or submission. */
function reportSavedAnswer(
  action: "save" | "submit",
  saved: { reportId: number; version: number; counts: { total: number; updated: number } },
): z.infer<typeof ReportSavedSchema> {
  return ReportSavedSchema.parse({
    status: "OK",
    detail: action === "submit" ? REPORT_SUBMITTED : DATA_RECORDED,
    report_id: saved.reportId,
    version: saved.version,
    total: saved.counts.total,
    updated: saved.counts.updated,
  });
}

export const ReportSubmitBody = z
  .object({
    message: boundedText(TEXT_MAX.note).meta({ description: "The comment for the administrator (required)." }),
    version: z.number().int().min(0).optional().meta({ description: "The meta's version as read (left out: no check)." }),
  })
  .meta({ id: "ReportSubmitBody" });

const ReportDecisionBody = z
  .object({
    partner_id: idParam,
    message: boundedText(TEXT_MAX.note).meta({ description: "The comment for the partner (required)." }),
    is_approved: z.boolean(),
  })
  .meta({ id: "ReportDecisionBody" });

const ReportDone = z.object({ status: z.literal("OK"), detail: z.string(), unread_message_count: z.number().int().optional() }).meta({ id: "ReportDone" });

const InboxParams = z.object({ who: z.enum(["admin", "partner"]) });
const ReportInboxBody = z
  .object({ partner_id: idParam.optional().meta({ description: "Required on /inbox/admin; a partner may leave it out (its own)." }) })
  .meta({ id: "ReportInboxBody" });

const ownPartner = (user: AuthUser) => user.partnerId!;

/** POST /template/{type}/message/: an administrator approves or rejects the partner's submitted report of the open quarter. */
function decisionCall(type: ReportTypeKey) {
  const title = REPORT_REGISTRY[type].labels.title;
  return signedInCall({
    method: "POST",
    path: `/template/${type}/message/`,
    summary: `Approves or rejects a partner's submitted ${title} of the open quarter, with a comment (mailed to the partner).`,
    tag: title,
    access: ["ADMIN"],
    body: ReportDecisionBody,
    answer: ReportDone,
    errors: [400, 404, 409],
    example: { body: { partner_id: 1, message: "Thank you.", is_approved: true } },
    async handle({ user, body, context }) {
      const frame = await loadReportFrame({ viewer: user, partnerId: body.partner_id, type });
      const action = body.is_approved ? "approve" : "reject";
      const decided = await decideReport({
        actor: user,
        partnerId: body.partner_id,
        quarterId: frame.quarter.id,
        type,
        action,
        comment: body.message,
        requestId: context.requestId,
      });
      return { status: "OK" as const, detail: decided.message };
    },
  });
}

/** POST /template/{type}/inbox/{who}: the caller's side reads the report's messages. */
function inboxCall(type: ReportTypeKey) {
  const title = REPORT_REGISTRY[type].labels.title;
  return signedInCall({
    method: "POST",
    path: `/template/${type}/inbox/{who}`,
    summary: `Marks the ${title}'s messages as read by the caller's side (\`partner\` for a partner, \`admin\` with partner_id for administrators); ?quarter= for an earlier quarter.`,
    tag: title,
    access: ALL_ROLES,
    params: InboxParams,
    query: QuarterQuery,
    body: ReportInboxBody,
    answer: ReportDone,
    errors: [400, 404],
    example: { body: { partner_id: 1 } },
    async handle({ user, params, query, body }) {
      const isPartner = user.role === "PARTNER";
      if (isPartner !== (params.who === "partner"))
        throw invalid({ "path.who": [isPartner ? "A partner reads /inbox/partner." : "Administrators read /inbox/admin."] });
      const partnerId = body.partner_id ?? (isPartner ? ownPartner(user) : undefined);
      if (!partnerId) throw invalid({ partner_id: ["Send partner_id to /inbox/admin."] });
      // A partner naming another partner's report is refused (403) here, as on the page.
      const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: query.quarter, type });
      const result = await markReportMessagesRead(user, partnerId, frame.quarter.id, type);
      return { status: "OK" as const, detail: "Messages read.", unread_message_count: result.unreadMessageCount };
    },
  });
}

/** What a report template's save receives: whose report, which quarter, the body, and save or submit. */
export interface TemplateSaveInput<Body> {
  user: AuthUser;
  partnerId: number;
  quarterName: string | undefined;
  body: Body;
  action: "save" | "submit";
  comment: string | null;
  requestId: string;
}

/** The saved report as a template's save reports it (the frame makes it the answer). */
interface SavedReport {
  reportId: number;
  version: number;
  counts: { total: number; updated: number };
}

/** What a call's query or body is once parsed (undefined: the call has none). */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A call about one partner's report, as ownAndPartnerCalls declares it once for its two forms. */
type OwnAndPartnerCall<Query extends z.ZodType, Body extends z.ZodType | undefined> = Pick<
  ApiCall<typeof PartnerParams, Query, Body>,
  "method" | "tag" | "query" | "body" | "maxBodyBytes" | "answer" | "errors" | "example"
> & {
  /** The own form's path, ending in "/"; the other form's adds `{partnerId}/`. */
  path: string;
  summaries: { own: string; partner: string };
  handle(input: {
    user: AuthUser;
    /** The path's partner (administrators), else the caller's own. */
    partnerId: number;
    query: Parsed<Query>;
    body: Parsed<Body>;
    context: AppLoadContext;
  }): Promise<unknown>;
};

/**
 * A call in its two forms: `path` for the caller's own report (PARTNER), and `path{partnerId}/` for
 * a given partner's, which ADMIN and STAFF read and ADMIN alone changes.
 */
export function ownAndPartnerCalls<Query extends z.ZodType, Body extends z.ZodType | undefined = undefined>({
  path,
  summaries,
  handle,
  ...call
}: OwnAndPartnerCall<Query, Body>): ApiCall[] {
  const form = (summary: string, params?: typeof PartnerParams) =>
    signedInCall<typeof PartnerParams | undefined, Query, Body>({
      ...(call as Omit<OwnAndPartnerCall<Query, Body>, "path" | "summaries" | "handle">),
      path: params ? `${path}{partnerId}/` : path,
      summary,
      access: !params ? ["PARTNER"] : call.method === "GET" ? ADMIN_AND_STAFF : ["ADMIN"],
      params,
      handle: ({ user, params, query, body, context }) => handle({ user, partnerId: params?.partnerId ?? ownPartner(user), query, body, context }),
    });
  return [form(summaries.own), form(summaries.partner, PartnerParams)];
}

/**
 * The calls every report template has, under /template/{kind}/: read the caller's own report or
 * a partner's (administrators), save the caller's own or a partner's (an administrator), and the
 * workflow calls (a submission is a save of no rows with a comment). The report brings its
 * answer, its save body and the two functions; the rest is the same for the reports.
 */
export function reportTemplateCalls<Template extends z.ZodType, Body extends z.ZodType, View>(report: {
  type: ReportTypeKey;
  template: Template;
  load(input: { viewer: AuthUser; partnerId: number; quarterName: string | undefined }): Promise<View>;
  /** The view as the template answers it. */
  answer(view: View): z.output<Template>;
  saveBody: Body;
  /** The body of a submission: nothing changed, at the version read (undefined: no check). */
  emptySave(version: number | undefined): z.output<Body>;
  maxBodyBytes: number;
  save(input: TemplateSaveInput<z.output<Body>>): Promise<SavedReport>;
  summaries: { save: string; adminSave: string; submit: string };
  examples: { save: unknown; submit: z.input<typeof ReportSubmitBody> };
}) {
  const { type } = report;
  const title = REPORT_REGISTRY[type].labels.title;
  const path = `/template/${type}/`;
  const save = async (input: TemplateSaveInput<z.output<Body>>) => reportSavedAnswer(input.action, await report.save(input));
  return [
    ...ownAndPartnerCalls({
      method: "GET",
      path,
      summaries: { own: `The caller's own ${title} of the open quarter (or ?quarter=).`, partner: `A partner's ${title}, as the administrators see it.` },
      tag: title,
      query: QuarterQuery,
      answer: report.template,
      errors: [400, 404],
      handle: async ({ user, partnerId, query }) => report.answer(await report.load({ viewer: user, partnerId, quarterName: query.quarter })),
    }),
    ...ownAndPartnerCalls({
      method: "POST",
      path,
      summaries: { own: report.summaries.save, partner: report.summaries.adminSave },
      tag: title,
      query: QuarterQuery,
      body: report.saveBody,
      maxBodyBytes: report.maxBodyBytes,
      answer: ReportSavedSchema,
      errors: [400, 404, 409],
      example: { body: report.examples.save },
      handle: ({ user, partnerId, query, body, context }) =>
        save({ user, partnerId, quarterName: query.quarter, body: body as z.output<Body>, action: "save", comment: null, requestId: context.requestId }),
    }),
    ...reportWorkflowCalls({
      type,
      saved: ReportSavedSchema,
      submit: ({ user, partnerId, version, comment, requestId }) =>
        save({ user, partnerId, quarterName: undefined, body: report.emptySave(version), action: "submit", comment, requestId }),
      summary: report.summaries.submit,
      example: report.examples.submit,
    }),
  ];
}

/**
 * A report's workflow calls, whatever its read and save calls: submit (the caller's report of the
 * open quarter, saving nothing), decide and read the messages.
 */
export function reportWorkflowCalls<Saved extends z.ZodType>(report: {
  type: ReportTypeKey;
  saved: Saved;
  submit(input: { user: AuthUser; partnerId: number; version: number | undefined; comment: string; requestId: string }): Promise<z.output<Saved>>;
  summary: string;
  example: z.input<typeof ReportSubmitBody>;
}) {
  const { type } = report;
  return [
    signedInCall({
      method: "POST",
      path: `/template/${type}/submit/`,
      summary: report.summary,
      tag: REPORT_REGISTRY[type].labels.title,
      access: ["PARTNER"],
      body: ReportSubmitBody,
      answer: report.saved,
      errors: [400, 409],
      example: { body: report.example },
      handle: ({ user, body, context }) =>
        report.submit({ user, partnerId: ownPartner(user), version: body.version, comment: body.message, requestId: context.requestId }),
    }),
    decisionCall(type),
    inboxCall(type),
    submissionPdfCall(type),
  ];
}

const SubmissionParams = z.object({ snapshotId: idParam.meta({ description: "The submission's snapshot: the history's snapshotId." }) });

/** GET /template/{type}/submissions/{snapshotId}/pdf: the proof of a submission, as the history's link downloads it. */
function submissionPdfCall(type: ReportTypeKey) {
  const title = REPORT_REGISTRY[type].labels.title;
  return signedInCall({
    method: "GET",
    path: `/template/${type}/submissions/{snapshotId}/pdf`,
    summary: `The proof of a ${title} submission: a PDF of the rows exactly as submitted (drawn from the submission's snapshot), who submitted them and when, the comment and the snapshot's SHA-256, in the submitter's language. A partner gets its own reports' submissions only (another partner's: 404).`,
    tag: title,
    access: ALL_ROLES,
    params: SubmissionParams,
    answer: {
      contentType: "application/pdf",
      description: `The PDF, named in Content-Disposition (${REPORT_REGISTRY[type].workbook.file}_<partner>_<yyyy-Qn>_submission.pdf).`,
    },
    errors: [400, 404],
    async handle({ user, params }) {
      const submission = await submissionFor(user, params.snapshotId, type);
      if (!submission) throw notFound("No such submission.");
      return submissionPdfResponse(submission);
    },
  });
}

const ChangeToExplainSchema = z
  .object({
    subject: z.string().meta({ description: "The line's key, e.g. sales:FDF:12:45 (table, product id, country id): the reason's key." }),
    line: z.string().meta({ description: "What the line is, in English." }),
    changes: z.array(z.string()).meta({ description: "Each change found on it, in English." }),
    reason: z.string().nullable(),
  })
  .meta({ id: "ChangeToExplain" });

const ReportFindingSchema = z
  .object({
    kind: z
      .enum(FINDING_KINDS)
      .meta({ description: "licence: against the licence terms; contradiction: against the partner's other reports; unusual: far from the usual figures." }),
    rule: z.string().meta({ description: "The rule that found it, e.g. royalty-rate." }),
    table: z.string().meta({ description: "The report's table (Sales: API or FDF)." }),
    row: z.number().int().meta({ description: "The row, 1-based, as the screen's grid numbers it." }),
    column: z.string().meta({ description: "The column's key." }),
    message: z.string().meta({ description: "What was found, in English." }),
    values: z.record(z.string(), z.string()).meta({ description: "The figures and names of the message." }),
  })
  .meta({ id: "ReportFinding" });

const ReportChecksSchema = z
  .object({
    quarter: z.string(),
    total: z.number().int().meta({ description: "Findings in all, listed or not." }),
    counts: z.object(Object.fromEntries(FINDING_KINDS.map((kind) => [kind, z.number().int()])) as Record<FindingKind, z.ZodNumber>),
    findings: z.array(ReportFindingSchema).meta({ description: `The first ${FINDINGS_LISTED_PER_RULE} findings of each rule.` }),
    changes_to_explain: z
      .array(ChangeToExplainSchema)
      .meta({ description: "Lines that moved beyond the thresholds set in Settings since an earlier quarter: each needs the partner's reason before Submit." }),
    changes_without_reason: z.number().int().meta({ description: "Lines to explain that have no reason yet: Submit is refused while there are some." }),
  })
  .meta({ id: "ReportChecks" });

/** The partner's reasons, by the subject of each line to explain. */
const ExplanationsBody = z
  .strictObject({
    reasons: z
      .array(
        z.strictObject({
          subject: z.string().max(200),
          reason: z.string().max(TEXT_MAX.note).meta({ description: "Empty removes the reason." }),
        }),
      )
      .max(5000),
  })
  .meta({ id: "ReportExplanations" });

/**
 * GET /template/{type}/checks/ (a partner's own report) and /template/{type}/checks/{partnerId}/
 * (administrators, with the findings derived from other partners' figures): the Checks panel's findings.
 */
export function reportChecksCalls(type: ReportTypeKey) {
  const title = REPORT_REGISTRY[type].labels.title;
  return [
    ...ownAndPartnerCalls({
      method: "GET",
      path: `/template/${type}/checks/`,
      summaries: {
        own: `What the checks find in the caller's own ${title} of the open quarter (or ?quarter=).`,
        partner: `What the checks find in a partner's ${title}, with the prices of other partners compared.`,
      },
      tag: title,
      query: QuarterQuery,
      answer: ReportChecksSchema,
      errors: [400, 404],
      async handle({ user, partnerId, query }) {
        const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: query.quarter, type });
        const [found, explained] = await Promise.all([
          loadReportChecks({ type, reportId: frame.report.id, partnerId, quarterId: frame.quarter.id }, user),
          loadChangesToExplain(frame, user),
        ]);
        const checks = found ?? reportChecks([]);
        return {
          quarter: frame.quarter.name,
          total: checks.total,
          counts: checks.counts,
          findings: checks.findings.map(({ kind, rule, at, message, values }) => ({ kind, rule, ...at, message: inEnglish(message, values), values })),
          changes_to_explain: (explained?.lines ?? []).map((line) => ({
            subject: line.subject,
            line: inEnglish(line.line.message, line.line.values),
            changes: line.changes.map((change) => inEnglish(change.message, change.values)),
            reason: line.reason,
          })),
          changes_without_reason: explained?.missing ?? 0,
        };
      },
    }),
    signedInCall({
      method: "PUT",
      path: `/template/${type}/explanations/`,
      summary: `The caller's reasons for the changes to explain of its ${title} of the open quarter, before Submit (a line not sent keeps its reason).`,
      tag: title,
      access: ["PARTNER"],
      body: ExplanationsBody,
      answer: ReportChecksSchema.pick({ changes_without_reason: true }),
      errors: [400, 409],
      example: { body: { reasons: [{ subject: `${type}:FDF:12:45`, reason: "A new national tender started this quarter." }] } },
      async handle({ user, body, context }) {
        const partnerId = ownPartner(user);
        const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: undefined, type });
        const reasons = new Map(body.reasons.map(({ subject, reason }) => [subject, reason]));
        const saved = await saveExplanations({ actor: user, key: { partnerId, quarterId: frame.quarter.id, type }, reasons, requestId: context.requestId });
        if (!saved.ok) {
          const index = new Map(body.reasons.map(({ subject }, position) => [subject, position]));
          throw invalid(Object.fromEntries(Object.entries(saved.errors).map(([subject, problem]) => [`reasons.${index.get(subject)}.reason`, [problem]])));
        }
        const explained = await loadChangesToExplain(frame, user);
        return { changes_without_reason: explained?.missing ?? 0 };
      },
    }),
  ];
}

const ThreadMessageSchema = z.object({ author: z.string(), from_partner: z.boolean(), body: z.string(), at: z.string() }).meta({ id: "ReportThreadMessage" });

const ReportThreadSchema = z
  .object({
    id: z.number().int(),
    table: z.string().meta({ description: "The report's table (Sales: API or FDF; Development Timeline: PDT)." }),
    row_id: z.number().int().meta({ description: "The row's id in the report's rows." }),
    row: z.number().int().nullable().meta({ description: "The row, 1-based, as the screen's grid numbers it; null once the row was removed." }),
    column: z.string().nullable().meta({ description: "The column's key; null for the whole row." }),
    row_label: z.string().meta({ description: "How the row reads (Sales: product, country, purchaser; Development Timeline: product and stage)." }),
    open: z.boolean(),
    resolved_by: z.string().nullable(),
    resolved_at: z.string().nullable(),
    messages: z.array(ThreadMessageSchema),
  })
  .meta({ id: "ReportThread" });

const ReportThreadsSchema = z
  .object({ quarter: z.string(), open: z.number().int().meta({ description: "Threads not resolved." }), threads: z.array(ReportThreadSchema) })
  .meta({ id: "ReportThreads" });

/** A thread post: a new thread on a row (or a cell), an answer, or a thread resolved or reopened; each action names the fields it needs. */
const ThreadPostBody = z
  .strictObject({
    action: z.enum(["open", "reply", "resolve", "reopen"]),
    table: z
      .string()
      .regex(/^[A-Za-z]{1,16}$/)
      .optional()
      .meta({ description: "open: the row's table (Sales: API or FDF; Development Timeline: PDT)." }),
    row_id: z.number().int().positive().max(2147483647).optional().meta({ description: "open: the row's id." }),
    column: z
      .string()
      .regex(/^[A-Za-z]{1,40}$/)
      .nullable()
      .optional()
      .meta({ description: "open: the column's key; none for the whole row." }),
    thread_id: z.number().int().positive().max(2147483647).optional().meta({ description: "reply, resolve, reopen: the thread." }),
    body: z.string().max(TEXT_MAX.note).optional().meta({ description: "open, reply: the text." }),
  })
  .meta({ id: "ReportThreadPost" });

const REQUIRED = ["Required"];

function threadPostOf(body: z.infer<typeof ThreadPostBody>): ThreadPost {
  const need = <T>(value: T | undefined, field: string): T => {
    if (value === undefined) throw invalid({ [field]: REQUIRED });
    return value;
  };
  switch (body.action) {
    case "open":
      return {
        intent: "thread-open",
        table: need(body.table, "table"),
        rowId: need(body.row_id, "row_id"),
        column: body.column ?? null,
        body: need(body.body, "body"),
      };
    case "reply":
      return { intent: "thread-reply", threadId: need(body.thread_id, "thread_id"), body: need(body.body, "body") };
    default:
      return { intent: body.action === "resolve" ? "thread-resolve" : "thread-reopen", threadId: need(body.thread_id, "thread_id") };
  }
}

/**
 * GET and POST /template/{type}/threads/ (a partner's own report) and /template/{type}/threads/{partnerId}/
 * (ADMIN and STAFF read, ADMIN writes): the comments on the report's rows and cells.
 */
/** `example`: an opening comment as the documentation shows it (no column where a stored row is one cell: Filing Plans). */
export function reportThreadsCalls(type: ReportTypeKey, example: { table: string; column?: string; body: string }) {
  const title = REPORT_REGISTRY[type].labels.title;
  const path = `/template/${type}/threads/`;
  const readThreads = async (user: AuthUser, partnerId: number, quarterName: string | undefined) => {
    const frame = await loadReportFrame({ viewer: user, partnerId, quarterName, type });
    const threads = await loadReportThreads(frame, user, null);
    return {
      frame,
      answer: {
        quarter: frame.quarter.name,
        open: threads?.open ?? 0,
        threads: (threads?.threads ?? []).map((thread) => ({
          id: thread.id,
          table: thread.table,
          row_id: thread.rowId,
          row: thread.row,
          column: thread.column,
          row_label: thread.rowLabel,
          open: thread.open,
          resolved_by: thread.resolvedBy,
          resolved_at: thread.resolvedAt,
          messages: thread.messages.map((message) => ({ author: message.author, from_partner: message.fromPartner, body: message.body, at: message.at })),
        })),
      },
    };
  };
  return [
    ...ownAndPartnerCalls({
      method: "GET",
      path,
      summaries: {
        own: `The comments on the rows and cells of the caller's own ${title} of the open quarter (or ?quarter=).`,
        partner: `The comments on the rows and cells of a partner's ${title}.`,
      },
      tag: title,
      query: QuarterQuery,
      answer: ReportThreadsSchema,
      errors: [400, 404],
      handle: async ({ user, partnerId, query }) => (await readThreads(user, partnerId, query.quarter)).answer,
    }),
    ...ownAndPartnerCalls({
      method: "POST",
      path,
      summaries: {
        own: `Opens, answers, resolves or reopens a comment on a row or cell of the caller's own ${title}.`,
        partner: `Opens, answers, resolves or reopens a comment on a row or cell of a partner's ${title} (ADMIN).`,
      },
      tag: title,
      query: QuarterQuery,
      body: ThreadPostBody,
      answer: ReportThreadsSchema,
      errors: [400, 404, 409],
      example: { body: { action: "open", row_id: 1234, ...example } },
      async handle({ user, partnerId, query, body, context }) {
        const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: query.quarter, type });
        try {
          await postToThread({ actor: user, key: { partnerId, quarterId: frame.quarter.id, type }, post: threadPostOf(body), requestId: context.requestId });
        } catch (error) {
          if (error instanceof ThreadRefusal) throw invalid({ body: [error.message] });
          throw error;
        }
        return (await readThreads(user, partnerId, query.quarter)).answer;
      },
    }),
  ];
}

/** Rows of the changes answered a page. */
const CHANGES_PAGE_SIZE = 500;

const ChangesQuery = QuarterQuery.extend({
  since: z.enum(CHANGE_BASES).meta({ description: "The base: the report's last submission, its last approval, or the previous quarter's report." }),
  page_number: pageNumberQuery("1-based; a page past the end answers the last page."),
});

const CellChangeSchema = z.object({
  old: z.string().nullable().meta({ description: "As the base showed it (null: the row was added)." }),
  new: z.string().nullable().meta({ description: "As it shows now (null: the row was removed)." }),
});

const ChangedRowSchema = z
  .object({
    change: z.enum(["added", "changed", "removed"]),
    table: z.string().meta({ description: 'The report\'s table (Sales: API or FDF; "" for a report of one table).' }),
    row_key: z.string().meta({
      description:
        "The row (Sales: its sales_report_id; Development Timeline: product id:stage id; Filing Plans: country id:product id). A removed row's id is the base's.",
    }),
    cells: z.record(z.string(), CellChangeSchema).meta({
      description:
        "By column key, values as the screen shows them (names, not ids; dates YYYY-MM-DD; \"\" empty): a changed row's changed cells, an added or removed row's cells that hold a value.",
    }),
  })
  .meta({ id: "ReportChangedRow" });

const ReportChangesSchema = z
  .object({
    quarter: z.string(),
    since: z.enum(CHANGE_BASES),
    base: z
      .object({
        snapshot_id: z.number().int().meta({ description: "The snapshot compared with (the history's snapshotId)." }),
        quarter: z.string().nullable().meta({ description: "since=previous-quarter: the quarter whose report it is; else null." }),
        taken_at: z.iso.datetime(),
      })
      .nullable()
      .meta({ description: "null: nothing to compare with (see no_base)." }),
    no_base: z
      .object({ reason: z.enum([...CHANGE_BASES, "unsaved"]), detail: z.string().meta({ description: "As the screen says it, in English." }) })
      .nullable()
      .meta({ description: "Why there is nothing to compare with; null when there is a base." }),
    counts: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }),
    rows: z.array(ChangedRowSchema).meta({ description: "Added, then changed, then removed rows, each in row id order." }),
    ...pagedAnswerFields("Added, changed and removed rows, all pages."),
  })
  .meta({ id: "ReportChanges" });

/**
 * GET /template/{type}/changes/ (a partner's own report) and /template/{type}/changes/{partnerId}/
 * (ADMIN and STAFF): "Show changes since" of the report screens, the changed rows a page at a time.
 */
export function reportChangesCalls(type: ReportTypeKey) {
  const title = REPORT_REGISTRY[type].labels.title;
  return ownAndPartnerCalls({
    method: "GET",
    path: `/template/${type}/changes/`,
    summaries: {
      own: `What changed in the caller's own ${title} of the open quarter (or ?quarter=) since its last submission, its last approval or the previous quarter.`,
      partner: `What changed in a partner's ${title} since its last submission, its last approval or the previous quarter.`,
    },
    tag: title,
    query: ChangesQuery,
    answer: ReportChangesSchema,
    errors: [400, 404],
    async handle({ user, partnerId, query }): Promise<z.infer<typeof ReportChangesSchema>> {
      const frame = await loadReportFrame({ viewer: user, partnerId, quarterName: query.quarter, type });
      const { changes, snapshotId, rows, page } = await loadReportChangesPage(frame, query.since, {
        page: query.page_number ?? 1,
        pageSize: CHANGES_PAGE_SIZE,
      });
      return {
        quarter: frame.quarter.name,
        since: changes.base,
        base: changes.found ? { snapshot_id: snapshotId!, quarter: changes.quarter, taken_at: changes.takenAt } : null,
        no_base: changes.found ? null : { reason: changes.reason, detail: inEnglish(NO_CHANGE_BASE[changes.reason], { quarter: changes.quarter ?? "" }) },
        counts: changes.found ? changes.counts : { added: 0, changed: 0, removed: 0 },
        rows: rows.map((row) => ({
          change: row.change,
          table: row.table,
          row_key: row.rowKey,
          cells: Object.fromEntries(Object.entries(row.cells).map(([key, cell]) => [key, { old: cell.was, new: cell.now }])),
        })),
        ...pagedAnswer(page),
      };
    },
  });
}
