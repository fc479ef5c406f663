/**
 * The route glue every report screen shares: reading a post's envelope (one zod schema), one
 * handler per intent, the replies and redirects, and the refusals as the page shows them. A
 * report brings a plug-in: how its rows are posted and saved, and any intents of its own. The
 * route modules call their guard first and pass the signed-in user here.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import * as z from "zod";
import {
  decideReport,
  decisionMessage,
  markReportMessagesRead,
  type DecisionAction,
  type ReportFrameView,
  type ReportViewInput,
} from "~/reports/frame/screen.server";
import { latestSnapshot, listReportHistory, StaleReportError, WorkflowError } from "~/reports/frame/workflow.server";
import { reportChanges } from "~/reports/frame/changes.server";
import { CHANGES_PARAM, parseChangeBase } from "~/reports/frame/changes";
import { parseQuarterName } from "~/utils/quarters";
import { loadReportChecks } from "~/reports/frame/checks.server";
import { EXPLANATION_MESSAGES, REASON_FIELD_PREFIX } from "~/reports/frame/explanations";
import { loadChangesToExplain, saveExplanations } from "~/reports/frame/explanations.server";
import { COMMENT_PARAM, THREAD_FIELDS, THREAD_INTENTS, THREAD_MESSAGES, threadAnchor, type ThreadIntent } from "~/reports/frame/threads";
import { loadReportThreads, postToThread, ThreadRefusal, type ThreadPost } from "~/reports/frame/threads.server";
import type { AuthUser } from "~/models/user.server";
import { queryText, TEXT_MAX, textProblem } from "~/utils/text-rules";
import { forbidden } from "~/utils/auth.server";
import { isRefusal, readForm, readJsonBody, readMultipartForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { BAD_REQUEST, inEnglish, PAGE_NOT_FOUND } from "~/utils/messages";
import { WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { redirectWithToast } from "~/utils/toast.server";
import { busyHeaders, HEAVY_POST_RETRY_SECONDS, inHeavyPostTurn, isHeavyPost, SERVER_BUSY } from "./heavy-posts.server";
import {
  FRAME_INTENTS,
  REFUSAL_PAGE,
  REPORT_SUBMITTED,
  UPLOAD_MAX_BYTES,
  type RefusalPageData,
  type FrameIntent,
  type ReportActionData,
  type SubmittedForm,
  type TableProblems,
  type UploadProblem,
  type RowProblem,
  invalidCellsText,
} from "~/reports/frame/contract";

export type Viewer = Pick<AuthUser, "id" | "role" | "partnerId">;

export const REPORT_ROUTE_MESSAGES = {
  submitted: REPORT_SUBMITTED,
  tooManyRows: "Too many rows in one save.",
  badRequest: BAD_REQUEST,
} as const;

/** A malformed post: answered 400 with the message (a translation key) or the generic one. */
export class BadRequest extends Error {}

export function badRequest(): never {
  throw new BadRequest();
}

/** A refused read: the 403 or 404 page. */
export function rethrowForPage(error: unknown): never {
  if (error instanceof WorkflowError) {
    if (error.status === 403) throw forbidden();
    if (error.status === 404) throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
  }
  throw error;
}

/**
 * rethrowForPage for a download: a resource route has no page to show a thrown 404 on (Remix would
 * answer 'Unexpected Server Error'), so an unknown table, partner or quarter goes to the not-found
 * page (a download link then fails as a download, with the 404).
 */
export function rethrowForDownload(error: unknown): never {
  if (error instanceof WorkflowError && error.status === 404) throw redirect("/error-404");
  return rethrowForPage(error);
}

export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** The quarter the page's link names (`?quarter=Q3 2026`), or none: the open quarter. */
export const quarterParam = (url: URL) => queryText(url.searchParams.get("quarter"));

/** Who asks for a report's page or workbook, and whose report it is. */
export interface ReportPageRequest {
  request: Request;
  viewer: Viewer;
  partnerId: number;
}

/** The report's view in the quarter the page's link names, or the 403 or 404 page. */
export function viewForPage<View>(load: (input: ReportViewInput) => Promise<View>, { request, viewer, partnerId }: ReportPageRequest): Promise<View> {
  return load({ viewer, partnerId, quarterName: quarterParam(new URL(request.url)) }).catch(rethrowForPage);
}

/**
 * The report's history (newest first), its rows' changes since its last submission (the history's
 * line), and the comparison the page's `?changes=` asks for (null: none asked). The view is the
 * viewer's already (a partner only its own report).
 */
export async function historyAndChanges(view: ReportFrameView, url: URL) {
  const reportId = view.report.id;
  const history = reportId ? await listReportHistory(reportId) : [];
  const base = parseChangeBase(url.searchParams.get(CHANGES_PARAM));
  const input = { type: view.type, partnerId: view.partner.id, quarter: parseQuarterName(view.quarter.name)!, reportId, history };
  // Asked for twice (the line and `?changes=submission`), it is worked out once (the comparisons are kept per state).
  const [sinceSubmission, comparison] = await Promise.all([
    reportId && latestSnapshot(history, "submit") ? reportChanges({ ...input, base: "submission" }) : null,
    base ? reportChanges({ ...input, base }) : null,
  ]);
  return { history, changes: sinceSubmission?.found ? sinceSubmission.counts : null, comparison };
}

/** A page's data around the report's view: its history, its checks' findings, who looks, and the plain form's page. */
async function reportPageData<View extends ReportFrameView>(load: (input: ReportViewInput) => Promise<View>, page: ReportPageRequest) {
  const view = await viewForPage(load, page);
  const [{ history, changes, comparison }, checks, changesToExplain, threads] = await Promise.all([
    historyAndChanges(view, new URL(page.request.url)),
    loadReportChecks({ type: view.type, reportId: view.report.id, partnerId: view.partner.id, quarterId: view.quarter.id }, page.viewer),
    loadChangesToExplain(view, page.viewer),
    loadReportThreads(view, page.viewer, new URL(page.request.url).searchParams.get(COMMENT_PARAM)),
  ]);
  return {
    view,
    history,
    checks,
    changesToExplain,
    threads,
    changes,
    comparison,
    viewerRole: page.viewer.role,
    page: parsePage(new URL(page.request.url).searchParams.get("page")),
  };
}

export type ReportPageData<View extends ReportFrameView> = Awaited<ReturnType<typeof reportPageData<View>>>;

/** The download of the report's workbook, or (`template`) of its blank template. */
export function workbookDownload<View>(load: (input: ReportViewInput) => Promise<View>, respond: (view: View, template: boolean) => Response) {
  return async ({ template = false, request, viewer, partnerId }: ReportPageRequest & { template?: boolean }) =>
    respond(await load({ viewer, partnerId, quarterName: quarterParam(new URL(request.url)) }).catch(rethrowForDownload), template);
}

/** The page's own URL with only its query parameters (quarter, tab, page, the comparison, the report's `own`): where a post returns to. */
export function pageUrl(request: Request, extra: Record<string, string | null> = {}, own: readonly string[] = []): string {
  const url = new URL(request.url);
  const search = new URLSearchParams();
  for (const name of ["quarter", "tab", "page", CHANGES_PARAM, ...own]) {
    const value = name in extra ? extra[name] : url.searchParams.get(name);
    if (value) search.set(name, value);
  }
  const query = search.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

/** A field the form posts once: a second value, or a file, is refused. */
export function single(form: FormData, name: string): string | null {
  const values = form.getAll(name);
  if (values.length > 1 || (values.length === 1 && typeof values[0] !== "string")) throw new BadRequest();
  return (values[0] as string | undefined) ?? null;
}

/** Several fields the form posts once each, by name. */
export function singles<Name extends string>(form: FormData, names: readonly Name[]): Record<Name, string | null> {
  return Object.fromEntries(names.map((name) => [name, single(form, name)])) as Record<Name, string | null>;
}

/** Ids posted by the client: every one a record id, or the request is refused. */
export function idList(values: readonly unknown[], max: number): number[] {
  if (values.length > max) throw new BadRequest(REPORT_ROUTE_MESSAGES.tooManyRows);
  return values.map((value) => parseId(value) ?? badRequest());
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The grid's rows (`payload`): JSON text in a form post, the value itself in a JSON post. An
 * object with only the keys named, or the request is refused.
 */
export function parsePayload(payload: unknown, keys: ReadonlySet<string>): Record<string, unknown> {
  let parsed = payload;
  if (typeof payload === "string") {
    try {
      parsed = JSON.parse(payload);
    } catch {
      throw new BadRequest();
    }
  }
  if (!isPlainObject(parsed) || Object.keys(parsed).some((key) => !keys.has(key))) throw new BadRequest();
  return parsed;
}

const ENVELOPE_FIELDS = ["intent", "quarterId", "version", "comment", "tab", "payload"] as const;

/**
 * A report page's post: a form, or the same fields as one JSON object (the grid with JavaScript:
 * its rows then travel as JSON once, not as JSON text escaped again into a form, a third fewer
 * bytes), its rows an object rather than text. A JSON post carries no other field, so its form
 * is empty.
 */
async function readReportPost(request: Request, maxBytes: number): Promise<{ form: FormData; fields: Record<string, unknown> }> {
  if (request.headers.get("Content-Type")?.startsWith("application/json")) {
    const body = await readJsonBody(request, { maxBytes });
    if (!isPlainObject(body) || Object.keys(body).some((key) => !(ENVELOPE_FIELDS as readonly string[]).includes(key))) badRequest();
    // The rows as JSON text belong to a form post.
    if (typeof body.payload === "string") badRequest();
    return { form: new FormData(), fields: Object.fromEntries(ENVELOPE_FIELDS.map((name) => [name, body[name] ?? null])) };
  }
  const form = await readForm(request, { maxBytes });
  return { form, fields: singles(form, ENVELOPE_FIELDS) };
}

/** The version the editor loaded: a whole number (anything else skips no check: it is refused). */
const versionField = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

/** The version an upload carries (required). */
function parseVersion(value: string | null): number {
  const parsed = versionField.safeParse(value);
  if (!parsed.success) throw new BadRequest();
  return parsed.data;
}

/** What every post of a report page carries around its rows. */
const envelopeSchema = z.object({
  intent: z.string(),
  quarterId: z.string().nullable(),
  version: versionField.nullable(),
  comment: z
    .string()
    .nullable()
    .transform((value) => (value ?? "").trim()),
  tab: z.string().max(16).nullable(),
  /** The rows, read by the report's plug-in (`parsePayload`); null when the post carries none. */
  payload: z.unknown().transform((value) => value ?? null),
});
export type Envelope = z.infer<typeof envelopeSchema>;

function readEnvelope(fields: Record<string, unknown>, extraIntents: readonly string[]): Envelope {
  const parsed = envelopeSchema.safeParse(fields);
  if (!parsed.success) throw new BadRequest();
  const { intent } = parsed.data;
  if (!(FRAME_INTENTS as readonly string[]).includes(intent) && !extraIntents.includes(intent)) throw new BadRequest();
  return parsed.data;
}

export function reply(body: ReportActionData, status = 200, headers?: HeadersInit) {
  return data(body, { status, headers });
}

export function refusal(intent: string, error: unknown, submitted?: SubmittedForm) {
  if (error instanceof StaleReportError) {
    return reply({ kind: "error", intent, message: error.message, values: error.values, stale: true, submitted }, 409);
  }
  if (error instanceof WorkflowError) {
    const field = error.message === WORKFLOW_REFUSALS.partnerComment || error.message === WORKFLOW_REFUSALS.adminComment ? "comment" : undefined;
    return reply({ kind: "error", intent, message: error.message, values: error.values, field, submitted }, error.status);
  }
  if (error instanceof BadRequest) {
    return reply({ kind: "error", intent, message: error.message || REPORT_ROUTE_MESSAGES.badRequest, submitted }, 400);
  }
  throw error;
}

export interface ReportActionArgs {
  request: Request;
  context: AppLoadContext;
  actor: Viewer;
  partnerId: number;
}

/** What a report's rows posted: the plug-in's own shape, with what the plain form showed. */
export interface PostedRowsBase {
  submitted?: SubmittedForm;
}

type RowsAction = "save" | "submit" | "approve" | "reject" | "reopen";

export interface SaveRequest<Posted> {
  actor: Viewer;
  partnerId: number;
  quarterId: number;
  expectedVersion: number | null;
  posted: Posted;
  action: RowsAction;
  comment: string | null;
  /** "Nothing to report this quarter": each report says what it means (Sales and Filing: no rows; PDT: the plan as it stands). */
  nothingToReport?: boolean;
  requestId?: string | null;
}

export type SaveOutcome =
  | { ok: false; problems: TableProblems }
  | {
      ok: true;
      /** The save's toast: 'Data successfully recorded. Total Rows: n' and its variants. */
      message: { message: string; values?: Record<string, string | number> };
      /** Extra headers for the redirect after the rows are written (Sales: its FDF warnings; PDT: the dates read either way round). */
      headers?: Headers;
    };

/** A workbook upload, its envelope read and checked by the frame. */
export interface UploadRequest {
  actor: Viewer;
  partnerId: number;
  requestId?: string | null;
  quarterName: string | null;
  expectedVersion: number;
  /** Sales: "replace" (default) or "append". */
  mode: string | null;
  /** The user confirmed that the upload replaces the rows already saved. */
  confirmReplace: boolean;
  bytes: Uint8Array;
}

export type UploadOutcome =
  { ok: false; problems: UploadProblem[] } | { ok: true; message: { message: string; values?: Record<string, string | number> }; headers?: Headers };

export const UPLOAD_MESSAGES = {
  file: "Please choose an Excel file (.xlsx).",
  tooLarge: "The file is larger than 10 MB.",
  row: "Sheet {{sheet}}, row {{row}}: {{columns}}",
  nothingFilled: "The file holds no values to save: nothing was changed. Fill in the rows, then upload it again.",
} as const;

/** An invalid row of an uploaded sheet, by its sheet row: the labels of its invalid columns, with what each cell holds. */
export function sheetRowProblem(sheet: string, row: number, problem: Pick<RowProblem, "columns" | "keys" | "entered">): UploadProblem {
  return { message: UPLOAD_MESSAGES.row, values: { sheet, row, columns: invalidCellsText(problem, inEnglish) }, sheet, row, columns: problem.columns };
}

export interface ReportRoutePlugin<Posted extends PostedRowsBase> {
  type: ReportTypeKey;
  /** The largest save body, in bytes. */
  maxBytes: number;
  /** The rows the grid posts: its JSON `payload`. */
  rowsFromPayload(payload: unknown): Posted;
  /** The rows the plain form (without JavaScript) posts. */
  rowsFromForm(form: FormData, envelope: Envelope): Posted;
  /** The rows of "Nothing to report this quarter". */
  emptyPosted(): Posted;
  /** Writes the rows, and the action with them, in one transaction. */
  save(request: SaveRequest<Posted>): Promise<SaveOutcome>;
  /** Intents of the report's own (Sales: verify-product), each with its handler. */
  extraIntents?: Record<string, (args: ReportActionArgs, form: FormData) => Promise<Response | ReturnType<typeof reply>>>;
  /** Reads a filled workbook of the report's download layout and saves it (nothing when a row is wrong). */
  importWorkbook: (request: UploadRequest) => Promise<UploadOutcome>;
  /** Query parameters of the report's own page (Filing: which countries it lists), kept when a post returns to it. */
  pageParams?: readonly string[];
}

/** A report's page as its routes use it: the page's data, the workbook download, and the posts read by its plug-in. */
export function reportPage<View extends ReportFrameView, Posted extends PostedRowsBase>(report: {
  load: (input: ReportViewInput) => Promise<View>;
  /** The view as a workbook, or (`template`) as its blank template. */
  workbook: (view: View, template: boolean) => Response;
  /** The plug-in for a post (it may depend on the request). */
  plugin: (args: ReportActionArgs) => ReportRoutePlugin<Posted> | Promise<ReportRoutePlugin<Posted>>;
}) {
  return {
    /** The page's data (or, after a heavy post without JavaScript, its refusal alone: loadReportPage). */
    load: (args: ReportPageRequest & { context: AppLoadContext }) => loadReportPage(args, () => reportPageData(report.load, args)),
    download: workbookDownload(report.load, report.workbook),
    handleAction: async (args: ReportActionArgs) => handleReportAction(await report.plugin(args), args),
  };
}

/**
 * The post of a report page: one handler per intent. An upload, or a post of many rows, is read
 * in its turn among the heavy posts (./heavy-posts.server.ts), or refused at once when its turn
 * does not come soon.
 */
export async function handleReportAction<Posted extends PostedRowsBase>(plugin: ReportRoutePlugin<Posted>, args: ReportActionArgs) {
  const { request, context } = args;
  const upload = request.headers.get("Content-Type")?.startsWith("multipart/form-data") ?? false;
  const handle = () => (upload ? handleUpload(plugin, args) : handlePost(plugin, args));
  if (!isHeavyPost(request)) return handle();
  const answer = await inHeavyPostTurn<Awaited<ReturnType<typeof handle>>>(request, handle, () => busyReply(upload));
  // A saved post is answered by a redirect; anything else is drawn on the report's page without JavaScript.
  if (!(answer instanceof Response)) pagesAfterHeavyPosts.set(context, isRefusalAlone(answer) ? "refusal" : "report");
  return answer;
}

/**
 * The page Remix draws after a heavy post that saved nothing, in the same request (a post without
 * JavaScript; one with JavaScript is answered without a page): the refusal alone, or the report.
 */
const pagesAfterHeavyPosts = new WeakMap<AppLoadContext, "refusal" | "report">();

/**
 * The refusal alone when the post had no turn (there is no room to draw the report either), or
 * when a workbook was refused for what its sheets hold: its problems are the answer, the file is
 * what to mend. Any other refusal (a replace to confirm, a file that is no workbook, someone
 * else's save first) is drawn on the report, where the user acts on it.
 */
function isRefusalAlone({ data: body, init }: ReturnType<typeof reply>): boolean {
  return init?.status === 503 || (body.kind === "upload-problems" && body.problems.some((problem) => problem.sheet !== undefined));
}

/**
 * A report page's data: after a heavy post refused without JavaScript, the refusal alone
 * (app/reports/frame/refusal-page.tsx), or the report loaded in a turn of its own among the
 * heavy posts (its rows cost as much memory as the post), or the refusal alone when no turn comes.
 */
export async function loadReportPage<Page>(
  { request, context }: { request: Request; context: AppLoadContext },
  load: () => Promise<Page>,
): Promise<Page | RefusalPageData> {
  const page = pagesAfterHeavyPosts.get(context);
  if (!page) return load();
  if (page === "refusal") return REFUSAL_PAGE;
  return inHeavyPostTurn<Page | RefusalPageData>(request, load, () => REFUSAL_PAGE);
}

/**
 * A heavy post refused for want of a turn, its body unread: an upload, or a post of rows, which
 * is answered as a save (its intent is in the body; a submission of many rows is told the same).
 */
function busyReply(upload: boolean) {
  const problem = { message: SERVER_BUSY, values: { seconds: HEAVY_POST_RETRY_SECONDS } };
  return upload ? uploadReply([problem], 503, busyHeaders()) : reply({ kind: "error", intent: "save", ...problem }, 503, busyHeaders());
}

/** The frame's intents a page posts as a form or JSON (an upload is a multipart post of its own). */
type PostIntent = Exclude<FrameIntent, "upload">;
const isPostIntent = (intent: string): intent is PostIntent => intent !== "upload" && (FRAME_INTENTS as readonly string[]).includes(intent);

/** A post of the frame's, by intent: the rows it carries where it may carry some, and its comment. */
type FramePost<Posted> =
  | { intent: "read-messages" }
  | { intent: "explain"; reasons: Map<string, string> }
  | { intent: ThreadIntent; thread: ThreadPost }
  | { intent: "save" | "submit"; posted: Posted; comment: string }
  | { intent: "submit-empty"; comment: string }
  | { intent: DecisionAction; posted: Posted | null; comment: string };

function unknownIntent(intent: never): never {
  throw new Error(`Unhandled intent ${String(intent)}`);
}

/** The post as its intent reads it: save and submit carry the rows, a decision carries them when it has unsaved edits. */
function framePost<Posted extends PostedRowsBase>(
  plugin: ReportRoutePlugin<Posted>,
  form: FormData,
  envelope: Envelope & { intent: PostIntent },
): FramePost<Posted> {
  const { intent, comment, payload } = envelope;
  if (intent === "read-messages") return { intent };
  if (intent === "explain") return { intent, reasons: postedReasons(form) };
  if (isThreadIntent(intent)) return { intent, thread: threadPost(form, intent) };
  const readPosted = () => (payload !== null ? plugin.rowsFromPayload(payload) : plugin.rowsFromForm(form, envelope));
  // The version is required wherever rows are written; a decision without rows has none.
  const versioned = <Post>(post: Post) => {
    if (envelope.version === null) throw new BadRequest();
    return post;
  };
  switch (intent) {
    case "save":
    case "submit":
      return versioned({ intent, posted: readPosted(), comment });
    case "submit-empty":
      // Rows a "nothing to report" post carries anyway are checked (malformed ones are refused), then left unsaved.
      if (payload !== null) readPosted();
      return versioned({ intent, comment });
    case "approve":
    case "reject":
    case "reopen": {
      const posted = payload !== null ? readPosted() : null;
      return posted ? versioned({ intent, posted, comment }) : { intent, posted, comment };
    }
    default:
      return unknownIntent(intent);
  }
}

/** The reasons' form: `reason:<subject>` fields, each once. */
function postedReasons(form: FormData): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const name of new Set(form.keys())) {
    if (!name.startsWith(REASON_FIELD_PREFIX)) continue;
    if (reasons.size >= REASONS_MAX) throw new BadRequest();
    reasons.set(name.slice(REASON_FIELD_PREFIX.length), single(form, name) ?? "");
  }
  return reasons;
}

const isThreadIntent = (intent: string): intent is ThreadIntent => (THREAD_INTENTS as readonly string[]).includes(intent);

/** A thread's form: the thread answered or resolved, or the row (and cell) of a new one, and the text. */
function threadPost(form: FormData, intent: ThreadIntent): ThreadPost {
  const field = (name: string) => single(form, name);
  const body = () => field(THREAD_FIELDS.body) ?? "";
  if (intent !== "thread-open") {
    const threadId = parseId(field(THREAD_FIELDS.thread)) ?? badRequest();
    return intent === "thread-reply" ? { intent, threadId, body: body() } : { intent, threadId };
  }
  const table = field(THREAD_FIELDS.table) ?? "";
  const column = field(THREAD_FIELDS.column) || null;
  if (!/^[A-Za-z]{1,16}$/.test(table) || (column !== null && !/^[A-Za-z]{1,40}$/.test(column))) badRequest();
  return { intent, table, rowId: parseId(field(THREAD_FIELDS.row)) ?? badRequest(), column, body: body() };
}

const THREAD_TOASTS: Record<ThreadIntent, string> = {
  "thread-open": THREAD_MESSAGES.opened,
  "thread-reply": THREAD_MESSAGES.replied,
  "thread-resolve": THREAD_MESSAGES.resolved,
  "thread-reopen": THREAD_MESSAGES.reopened,
};

/** Reasons one post carries at most: far more lines than a report lists. */
const REASONS_MAX = 5000;

async function handlePost<Posted extends PostedRowsBase>(plugin: ReportRoutePlugin<Posted>, args: ReportActionArgs) {
  const { request, actor, partnerId } = args;
  const { requestId } = args.context;
  const { form, fields } = await readReportPost(request, plugin.maxBytes).catch((error: unknown) => {
    throw error instanceof BadRequest ? data({ message: REPORT_ROUTE_MESSAGES.badRequest }, { status: 400 }) : error;
  });
  const extraIntents = Object.keys(plugin.extraIntents ?? {});
  let envelope: Envelope;
  let quarterId: number;
  try {
    envelope = readEnvelope(fields, extraIntents);
    if (envelope.intent === "upload") throw new BadRequest();
    // A report's own intents may belong to no quarter (a product verification).
    quarterId = extraIntents.includes(envelope.intent) ? 0 : (parseId(envelope.quarterId) ?? badRequest());
  } catch {
    throw data({ message: REPORT_ROUTE_MESSAGES.badRequest }, { status: 400 });
  }
  const own = plugin.extraIntents?.[envelope.intent];
  if (own) return own(args, form);
  const { intent } = envelope;
  if (!isPostIntent(intent)) throw data({ message: REPORT_ROUTE_MESSAGES.badRequest }, { status: 400 });

  let post: FramePost<Posted>;
  try {
    post = framePost(plugin, form, { ...envelope, intent });
  } catch (error) {
    return refusal(intent, error);
  }
  if (post.intent === "explain") {
    try {
      const saved = await saveExplanations({ actor, key: { partnerId, quarterId, type: plugin.type }, reasons: post.reasons, requestId });
      if (!saved.ok) return reply({ kind: "explanation-problems", intent: post.intent, errors: saved.errors, posted: Object.fromEntries(post.reasons) }, 400);
      return redirectWithToast(pageUrl(request, {}, plugin.pageParams), { type: "success", message: EXPLANATION_MESSAGES.saved });
    } catch (error) {
      return refusal(intent, error);
    }
  }
  if ("thread" in post) {
    const { thread } = post;
    try {
      const threadId = await postToThread({ actor, key: { partnerId, quarterId, type: plugin.type }, post: thread, requestId });
      return redirectWithToast(`${pageUrl(request, {}, plugin.pageParams)}#${threadAnchor(threadId)}`, {
        type: "success",
        message: THREAD_TOASTS[post.intent],
      });
    } catch (error) {
      if (!(error instanceof ThreadRefusal)) return refusal(intent, error);
      const threadId = "threadId" in thread ? thread.threadId : null;
      return reply({ kind: "thread-problem", intent: post.intent, message: error.message, threadId, body: "body" in thread ? thread.body : "" }, 400);
    }
  }
  if (post.intent === "read-messages") {
    try {
      const result = await markReportMessagesRead(actor, partnerId, quarterId, plugin.type);
      return reply({ kind: "messages-read", intent: post.intent, unreadMessageCount: result.unreadMessageCount });
    } catch (error) {
      return refusal(intent, error);
    }
  }
  const { comment } = post;
  const submitted = "posted" in post ? post.posted?.submitted : undefined;

  // Comments first: an empty one is asked for before anything is saved.
  const commentProblem = textProblem(comment, TEXT_MAX.note);
  if (commentProblem) return reply({ kind: "error", intent, message: commentProblem, field: "comment", submitted }, 400);
  if (!comment && post.intent !== "save") {
    const message = post.intent === "submit" || post.intent === "submit-empty" ? WORKFLOW_REFUSALS.partnerComment : WORKFLOW_REFUSALS.adminComment;
    return reply({ kind: "error", intent, message, field: "comment", submitted }, 400);
  }

  // Back to the tab the user was on (the grid posts it; the form without JavaScript has it in its URL too).
  const returnTo = pageUrl(request, envelope.tab !== null ? { tab: envelope.tab.toUpperCase() === "FDF" ? "FDF" : null } : {}, plugin.pageParams);
  const success = (message: { message: string; values?: Record<string, string | number> }, headers?: Headers) =>
    redirectWithToast(returnTo, { type: "success", ...message }, { headers });
  const problems = (outcome: Extract<SaveOutcome, { ok: false }>) => reply({ kind: "problems", intent, problems: outcome.problems, submitted }, 400);
  const saveRequest = { actor, partnerId, quarterId, expectedVersion: envelope.version, requestId };
  try {
    switch (post.intent) {
      case "save": {
        const saved = await plugin.save({ ...saveRequest, posted: post.posted, action: "save", comment: null });
        return saved.ok ? success(saved.message, saved.headers) : problems(saved);
      }
      case "submit": {
        const saved = await plugin.save({ ...saveRequest, posted: post.posted, action: "submit", comment });
        return saved.ok ? success({ message: REPORT_ROUTE_MESSAGES.submitted }, saved.headers) : problems(saved);
      }
      case "submit-empty":
        await plugin.save({ ...saveRequest, posted: plugin.emptyPosted(), action: "submit", nothingToReport: true, comment });
        return success({ message: REPORT_ROUTE_MESSAGES.submitted });
      case "approve":
      case "reject":
      case "reopen": {
        // Unsaved rows are written in the transaction of the decision itself: a refused approval or
        // rejection leaves them unsaved (the page can still save them).
        if (post.posted) {
          const saved = await plugin.save({ ...saveRequest, posted: post.posted, action: post.intent, comment });
          return saved.ok ? success({ message: decisionMessage(post.intent) }, saved.headers) : problems(saved);
        }
        await decideReport({ actor, partnerId, quarterId, type: plugin.type, action: post.intent, comment, requestId });
        return success({ message: decisionMessage(post.intent) });
      }
      default:
        return unknownIntent(post);
    }
  } catch (error) {
    return refusal(intent, error, submitted);
  }
}

// ---------------------------------------------------------------- upload

/** The upload form's fields; any other part is skipped unread. */
const UPLOAD_FIELDS = ["intent", "file", "quarter", "mode", "confirmReplace", "version"] as const;
/** What the upload form adds around its file. */
const UPLOAD_FORM_OVERHEAD_BYTES = 64 * 1024;

/** Problems an upload's reply lists: the first ones (thousands of wrong rows make no list anyone reads, nor a small reply). */
const UPLOAD_PROBLEMS_LISTED = 50;

function uploadReply(problems: UploadProblem[], status = 400, headers?: HeadersInit) {
  const more = Math.max(problems.length - UPLOAD_PROBLEMS_LISTED, 0);
  return reply({ kind: "upload-problems", intent: "upload", problems: problems.slice(0, UPLOAD_PROBLEMS_LISTED), ...(more ? { more } : {}) }, status, headers);
}

/** A filled workbook: the form read within its limits, the report's import, its problems or the redirect with the toast. */
async function handleUpload<Posted extends PostedRowsBase>(plugin: ReportRoutePlugin<Posted>, { request, context, actor, partnerId }: ReportActionArgs) {
  const { requestId } = context;
  let form: FormData;
  try {
    form = await readMultipartForm(request, { fields: UPLOAD_FIELDS, maxBytes: UPLOAD_MAX_BYTES + UPLOAD_FORM_OVERHEAD_BYTES, maxPartBytes: UPLOAD_MAX_BYTES });
  } catch (error) {
    if (isRefusal(error, 413)) return uploadReply([{ message: UPLOAD_MESSAGES.tooLarge }], 413);
    throw error;
  }
  let fields: Omit<UploadRequest, "actor" | "partnerId" | "requestId" | "bytes">;
  try {
    if (single(form, "intent") !== "upload") throw new BadRequest();
    fields = {
      quarterName: single(form, "quarter") || null,
      mode: single(form, "mode"),
      confirmReplace: single(form, "confirmReplace") === "yes",
      expectedVersion: parseVersion(single(form, "version")),
    };
  } catch {
    throw data({ message: REPORT_ROUTE_MESSAGES.badRequest }, { status: 400 });
  }
  const files = form.getAll("file");
  const file = files[0];
  if (files.length !== 1 || typeof file === "string" || file.size === 0) return uploadReply([{ message: UPLOAD_MESSAGES.file }]);
  try {
    const outcome = await plugin.importWorkbook({ actor, partnerId, requestId, ...fields, bytes: new Uint8Array(await file.arrayBuffer()) });
    if (!outcome.ok) return uploadReply(outcome.problems);
    return redirectWithToast(pageUrl(request, {}, plugin.pageParams), { type: "success", ...outcome.message }, { headers: outcome.headers });
  } catch (error) {
    if (error instanceof WorkflowError && error.status === 404) throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
    if (error instanceof WorkflowError) return uploadReply([{ message: error.message, values: error.values }], error.status);
    throw error;
  }
}
