/**
 * What the two Sales Report routes (/partner/sales-report and /admin/sales-report/$id) and
 * their Excel downloads share: the loader's data, the action's intents, the upload. The routes
 * call their guard first and pass the signed-in user here; the models enforce the workflow.
 */
import { data } from "@remix-run/node";
import {
  FORM_FIELD_PATTERN,
  SAVE_MAX_ROWS,
  UPLOAD_MAX_BYTES,
  type SalesActionData,
  type SalesIntent,
  type SavedWarnings,
  type SubmittedForm,
  type UploadProblem,
} from "~/components/grids/sales-report-types";
import { decideProductVerification, listProductVerifications, verificationPartnerId } from "~/models/product-verification.server";
import { readSalesWorkbook, salesWorkbookResponse } from "~/models/sales-excel.server";
import { listReportHistory, StaleReportError, WorkflowError } from "~/models/report-workflow.server";
import {
  changesSinceLastSubmission,
  decideSalesReport,
  decisionMessage,
  loadSalesReport,
  markSalesMessagesRead,
  saveMessage,
  saveSalesReport,
  type SaveSalesReportResult,
} from "~/models/sales-report.server";
import type { AuthUser } from "~/models/user.server";
import { forbidden } from "~/utils/auth.server";
import { TEXT_MAX, textProblem } from "~/schemas/fields";
import { isRefusal, readForm, readMultipartForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { WORKFLOW_REFUSALS } from "~/utils/report-workflow";
import { columnsFor, SALES_KINDS, type SalesKind, type SalesRowInput, type SalesRowProblem, type SalesRowWarning } from "~/utils/sales-rows";
import { flashCookie, redirectWithToast } from "~/utils/toast.server";
import { BAD_REQUEST, PAGE_NOT_FOUND } from "~/utils/messages";

type Viewer = Pick<AuthUser, "id" | "role" | "partnerId">;


export const SALES_ROUTE_MESSAGES = {
  submitted: "Report has been submitted to the admin!",
  uploadFile: "Please choose an Excel file (.xlsx).",
  uploadTooLarge: "The file is larger than 10 MB.",
  uploadRow: "Sheet {{sheet}}, row {{row}}: {{columns}}",
  tooManyRows: "Too many rows in one save.",
  badRequest: BAD_REQUEST,
} as const;

/** A refused read: the 403 or 404 page. */
function rethrowForPage(error: unknown): never {
  if (error instanceof WorkflowError) {
    if (error.status === 403) throw forbidden();
    if (error.status === 404) throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
  }
  throw error;
}

function parseTab(value: string | null): SalesKind {
  return value?.toUpperCase() === "FDF" ? "FDF" : "API";
}

function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/** The page's own URL with only its query parameters (quarter, tab, page): where a post returns to. */
function pageUrl(request: Request, extra: Record<string, string | null> = {}): string {
  const url = new URL(request.url);
  const search = new URLSearchParams();
  for (const name of ["quarter", "tab", "page"]) {
    const value = name in extra ? extra[name] : url.searchParams.get(name);
    if (value) search.set(name, value);
  }
  const query = search.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

// ---------------------------------------------------------------- loader

export async function loadSalesReportPage({ request, viewer, partnerId }: { request: Request; viewer: Viewer; partnerId: number }) {
  const url = new URL(request.url);
  const { value: flashedWarnings, setCookie } = await savedWarningsFlash.read(request);
  const view = await loadSalesReport({ viewer, partnerId, quarterName: url.searchParams.get("quarter") }).catch(rethrowForPage);
  const verification =
    viewer.role === "ADMIN" && view.pendingProductCount > 0 && view.report.id
      ? await listProductVerifications(partnerId, view.report.id)
      : null;
  const reportId = view.report.id;
  const [history, changes] = reportId
    ? await Promise.all([listReportHistory(reportId), changesSinceLastSubmission(reportId)])
    : [[], null];
  const body = {
    view,
    history,
    changes,
    viewerRole: viewer.role,
    tab: parseTab(url.searchParams.get("tab")),
    page: parsePage(url.searchParams.get("page")),
    verification,
    savedWarnings: flashedWarnings && flashedWarnings.reportId === reportId ? flashedWarnings : null,
  };
  return data(body, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export type SalesReportPageData = Awaited<ReturnType<typeof loadSalesReportPage>>["data"];

export async function salesWorkbookDownload({ request, viewer, partnerId }: { request: Request; viewer: Viewer; partnerId: number }) {
  const url = new URL(request.url);
  const view = await loadSalesReport({ viewer, partnerId, quarterName: url.searchParams.get("quarter") }).catch(rethrowForPage);
  return salesWorkbookResponse(view.rows);
}

// ---------------------------------------------------------------- action: reading rows

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

class BadRequest extends Error {}

/** A field the form posts once: a second value, or a file, is refused. */
function single(form: FormData, name: string): string | null {
  const values = form.getAll(name);
  if (values.length > 1 || (values.length === 1 && typeof values[0] !== "string")) throw new BadRequest();
  return (values[0] as string | undefined) ?? null;
}

/** Ids posted by the client: every one a record id, or the request is refused. */
function idList(values: readonly unknown[], max: number): number[] {
  if (values.length > max) throw new BadRequest(SALES_ROUTE_MESSAGES.tooManyRows);
  return values.map((value) => parseId(value) ?? badRequest());
}

function badRequest(): never {
  throw new BadRequest();
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const CELL_MAX_CHARS = 4 * TEXT_MAX.line;

/** A row of cells from untrusted input: only the kind's columns, each a string. */
function cleanRow(kind: SalesKind, raw: Record<string, unknown>): SalesRowInput {
  const row: Record<string, string> & { id?: number } = {};
  if (raw.id != null && raw.id !== "") {
    const id = parseId(raw.id);
    if (!id) throw new BadRequest();
    row.id = id;
  }
  for (const column of columnsFor(kind)) {
    const value = raw[column.key];
    if (value != null && typeof value !== "string" && typeof value !== "number") throw new BadRequest();
    row[column.key] = value == null ? "" : String(value);
    // Far beyond any valid cell: refused whole rather than checked (and echoed back to the form).
    if (row[column.key].length > CELL_MAX_CHARS) throw new BadRequest();
  }
  return row;
}

interface PostedRows {
  rows: Record<SalesKind, SalesRowInput[]>;
  /** Grid position (0-based) of each posted row, to report problems by the row numbers the user sees. */
  positions: Record<SalesKind, number[]>;
  deletedIds: number[];
  submitted?: SubmittedForm;
}

/**
 * The report version the editor loaded: required wherever rows are written (a decision without
 * rows has none); anything but a whole number is refused.
 */
function parseVersion(value: string | null, { required }: { required: boolean }): number | null {
  if (value === null && !required) return null;
  if (value === null || !/^\d{1,9}$/.test(value)) throw new BadRequest();
  return Number(value);
}

const PAYLOAD_KEYS = new Set(["API", "FDF", "deletedIds"]);

/** The grid's JSON body (`payload`): both tables in grid order, and the saved rows deleted in the grid. */
function rowsFromPayload(payload: string): PostedRows {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new BadRequest();
  }
  if (!isPlainObject(parsed) || Object.keys(parsed).some((key) => !PAYLOAD_KEYS.has(key))) throw new BadRequest();
  const body = parsed;
  const rows = { API: [], FDF: [] } as Record<SalesKind, SalesRowInput[]>;
  const positions = { API: [], FDF: [] } as Record<SalesKind, number[]>;
  for (const kind of SALES_KINDS) {
    const list = body[kind] ?? [];
    if (!Array.isArray(list)) throw new BadRequest();
    if (list.length > SAVE_MAX_ROWS) throw new BadRequest(SALES_ROUTE_MESSAGES.tooManyRows);
    list.forEach((raw, index) => {
      if (!isPlainObject(raw)) throw new BadRequest();
      rows[kind].push(cleanRow(kind, raw));
      positions[kind].push(index);
    });
  }
  const deleted = body.deletedIds ?? [];
  if (!Array.isArray(deleted)) throw new BadRequest();
  return { rows, positions, deletedIds: idList(deleted, SAVE_MAX_ROWS) };
}

/**
 * The form without JavaScript: `api[3][country]`, hidden `api[3][id]` for saved rows, a
 * `deleteIds` checkbox per saved row. Only the posted page's rows are sent; the model leaves
 * the others as they are. Rows ticked for deletion are not checked.
 */
/** Rows one page of the form without JavaScript may post. */
const FORM_MAX_ROWS = 1000;

function rowsFromForm(form: FormData): PostedRows {
  const byKind: Record<SalesKind, Map<number, Record<string, string>>> = { API: new Map(), FDF: new Map() };
  for (const [name, value] of form.entries()) {
    const match = FORM_FIELD_PATTERN.exec(name);
    if (!match || typeof value !== "string") continue;
    const kind: SalesKind = match[1] === "api" ? "API" : "FDF";
    const index = Number(match[2]);
    const cells = byKind[kind].get(index) ?? {};
    cells[match[3]] = value;
    byKind[kind].set(index, cells);
    if (byKind[kind].size > FORM_MAX_ROWS) throw new BadRequest(SALES_ROUTE_MESSAGES.tooManyRows);
  }
  const deletedIds = idList(form.getAll("deleteIds"), FORM_MAX_ROWS);
  const deleted = new Set(deletedIds);
  const rows = { API: [], FDF: [] } as Record<SalesKind, SalesRowInput[]>;
  const positions = { API: [], FDF: [] } as Record<SalesKind, number[]>;
  const submittedRows: Record<number, Record<string, string>> = {};
  const tab = text(single(form, "tab")).toUpperCase() === "FDF" ? "FDF" : "API";
  for (const kind of SALES_KINDS) {
    for (const index of [...byKind[kind].keys()].sort((a, b) => a - b)) {
      const raw = byKind[kind].get(index)!;
      if (kind === tab) submittedRows[index] = raw;
      const row = cleanRow(kind, raw);
      if (row.id && deleted.has(row.id)) continue;
      rows[kind].push(row);
      positions[kind].push(index);
    }
  }
  return {
    rows,
    positions,
    deletedIds,
    submitted: { tab, rows: submittedRows, deleteIds: deletedIds, comment: text(single(form, "comment")) },
  };
}

/** The grid row (1-based) the user sees for row n (1-based) of the posted rows. */
const gridRowNumber = (positions: number[], rowNumber: number) => (positions[rowNumber - 1] ?? rowNumber - 1) + 1;

/** Problems by grid position (1-based), as the user sees the rows. */
function problemsAtPositions(problems: Record<SalesKind, SalesRowProblem[]>, positions: Record<SalesKind, number[]>) {
  const mapped = { API: [], FDF: [] } as Record<SalesKind, SalesRowProblem[]>;
  for (const kind of SALES_KINDS) {
    mapped[kind] = problems[kind].map((problem) => ({ ...problem, rowNumber: gridRowNumber(positions[kind], problem.rowNumber) }));
  }
  return mapped;
}

// ---------------------------------------------------------------- action

const savedWarningsFlash = flashCookie<SavedWarnings>("__sales_warnings");
/** Warnings listed after a save (a cookie is small); the rest are counted. */
const WARNINGS_LISTED = 20;

/**
 * The success message of a save, and its FDF warnings for the page it returns to: the same
 * post-redirect-get with or without JavaScript, and after an upload.
 */
async function redirectAfterSave(
  returnTo: string,
  saved: Extract<SaveSalesReportResult, { ok: true }>,
  source: SavedWarnings["source"],
  rowOf: (warning: SalesRowWarning) => number,
) {
  const message = saveMessage(saved.counts);
  const headers = new Headers();
  const warnings = saved.warnings.FDF;
  if (warnings.length > 0) {
    const flashed: SavedWarnings = {
      reportId: saved.reportId,
      source,
      items: warnings.slice(0, WARNINGS_LISTED).map((warning) => ({ row: rowOf(warning), column: warning.label, expected: warning.expected })),
      more: Math.max(warnings.length - WARNINGS_LISTED, 0),
    };
    headers.append("Set-Cookie", await savedWarningsFlash.header(flashed));
  }
  return redirectWithToast(returnTo, { type: "success", message: message.message, values: message.values }, { headers });
}

function reply(body: SalesActionData, status = 200) {
  return data(body, { status });
}

function refusal(intent: SalesIntent, error: unknown, submitted?: SubmittedForm) {
  if (error instanceof StaleReportError) {
    return reply({ kind: "error", intent, message: error.message, values: error.values, stale: true, submitted }, 409);
  }
  if (error instanceof WorkflowError) {
    const field = error.message === WORKFLOW_REFUSALS.partnerComment || error.message === WORKFLOW_REFUSALS.adminComment ? "comment" : undefined;
    return reply({ kind: "error", intent, message: error.message, field, submitted }, error.status);
  }
  if (error instanceof BadRequest) {
    return reply({ kind: "error", intent, message: error.message || SALES_ROUTE_MESSAGES.badRequest, submitted }, 400);
  }
  throw error;
}

/** The upload form's fields; any other part is skipped unread. */
const UPLOAD_FIELDS = ["intent", "file", "quarter", "mode", "version"] as const;
/** What the upload form adds around its file. */
const UPLOAD_FORM_OVERHEAD_BYTES = 64 * 1024;
/** A full save of the largest report the grid holds, as JSON in a form. */
const REPORT_FORM_MAX_BYTES = 32 * 1024 * 1024;

const INTENTS: readonly SalesIntent[] = ["save", "submit", "submit-empty", "approve", "reject", "reopen", "read-messages", "verify-product", "upload"];

export interface SalesActionArgs {
  request: Request;
  requestId?: string | null;
  actor: Viewer;
  partnerId: number;
}

export async function handleSalesReportAction(args: SalesActionArgs) {
  const { request } = args;
  if (request.headers.get("Content-Type")?.startsWith("multipart/form-data")) return handleUpload(args);
  const form = await readForm(request, { maxBytes: REPORT_FORM_MAX_BYTES });
  let intent: SalesIntent;
  let quarterId: number;
  let tab: string | null;
  try {
    intent = single(form, "intent") as SalesIntent;
    if (!INTENTS.includes(intent) || intent === "upload") throw new BadRequest();
    // Every intent but a product verification (which belongs to no quarter) names its quarter.
    quarterId = intent === "verify-product" ? 0 : (parseId(single(form, "quarterId")) ?? badRequest());
    tab = single(form, "tab");
  } catch {
    throw data({ message: SALES_ROUTE_MESSAGES.badRequest }, { status: 400 });
  }
  const { actor, partnerId, requestId } = args;
  // Back to the tab the user was on (the grid posts it; the form without JavaScript has it in its URL too).
  const returnTo = pageUrl(request, tab !== null ? { tab: parseTab(tab) === "FDF" ? "FDF" : null } : {});

  if (intent === "read-messages") {
    try {
      const result = await markSalesMessagesRead(actor, partnerId, quarterId);
      return reply({ kind: "messages-read", intent, unreadMessageCount: result.unreadMessageCount });
    } catch (error) {
      return refusal(intent, error);
    }
  }

  if (intent === "verify-product") return handleVerification(args, form);

  let comment = "";
  let posted: PostedRows | undefined;
  let expectedVersion: number | null = null;
  try {
    comment = text(single(form, "comment")).trim();
    const payload = single(form, "payload");
    if (payload) posted = rowsFromPayload(payload);
    else if (intent === "save" || intent === "submit") posted = rowsFromForm(form);
    expectedVersion = parseVersion(single(form, "version"), { required: Boolean(posted) || intent === "submit-empty" });
  } catch (error) {
    return refusal(intent, error);
  }
  const submitted = posted?.submitted;

  // Comments first: an empty one is asked for before anything is saved.
  const commentProblem = textProblem(comment, TEXT_MAX.note);
  if (commentProblem) return reply({ kind: "error", intent, message: commentProblem, field: "comment", submitted }, 400);
  if ((intent === "submit" || intent === "submit-empty") && !comment) {
    return reply({ kind: "error", intent, message: WORKFLOW_REFUSALS.partnerComment, field: "comment", submitted }, 400);
  }
  if ((intent === "approve" || intent === "reject" || intent === "reopen") && !comment) {
    return reply({ kind: "error", intent, message: WORKFLOW_REFUSALS.adminComment, field: "comment", submitted }, 400);
  }

  try {
    if (intent === "submit-empty") {
      await saveSalesReport({ actor, partnerId, quarterId, expectedVersion, api: [], fdf: [], action: "submit", nothingToReport: true, comment, requestId });
      return redirectWithToast(returnTo, { type: "success", message: SALES_ROUTE_MESSAGES.submitted });
    }
    let saved: SaveSalesReportResult | undefined;
    if (posted) {
      // Unsaved rows are written in the transaction of the action itself: a submission saves them
      // first, and a refused approval or rejection leaves them unsaved (the page can still save them).
      saved = await saveSalesReport({
        actor,
        partnerId,
        quarterId,
        expectedVersion,
        api: posted.rows.API,
        fdf: posted.rows.FDF,
        deletedIds: posted.deletedIds,
        action: intent,
        comment: intent === "save" ? null : comment,
        requestId,
      });
      if (!saved.ok) {
        return reply({ kind: "problems", intent, problems: problemsAtPositions(saved.problems, posted.positions), submitted }, 400);
      }
    }
    if (intent === "save") {
      if (!saved?.ok || !posted) throw new BadRequest();
      const positions = posted.positions.FDF;
      return redirectAfterSave(returnTo, saved, "grid", (warning) => gridRowNumber(positions, warning.rowNumber));
    }
    if (intent === "submit") {
      return redirectWithToast(returnTo, { type: "success", message: SALES_ROUTE_MESSAGES.submitted });
    }
    if (!saved) await decideSalesReport({ actor, partnerId, quarterId, action: intent, comment, requestId });
    return redirectWithToast(returnTo, { type: "success", message: decisionMessage(intent) });
  } catch (error) {
    return refusal(intent, error, submitted);
  }
}

// ---------------------------------------------------------------- product verification

async function handleVerification({ actor, partnerId, requestId, request }: SalesActionArgs, form: FormData) {
  const intent = "verify-product" as const;
  if (actor.role !== "ADMIN") throw forbidden();
  let fields: Record<"verificationId" | "decision" | "mapToProductId" | "productName" | "therapyArea" | "projectStatus", string | null>;
  let mapTo: number | null;
  try {
    fields = Object.fromEntries(
      (["verificationId", "decision", "mapToProductId", "productName", "therapyArea", "projectStatus"] as const).map((name) => [name, single(form, name)]),
    ) as typeof fields;
    // An existing product to map to, or none (a new product): anything else is refused.
    mapTo = fields.mapToProductId ? (parseId(fields.mapToProductId) ?? badRequest()) : null;
  } catch {
    throw data({ message: SALES_ROUTE_MESSAGES.badRequest }, { status: 400 });
  }
  const verificationId = parseId(fields.verificationId) ?? 0;
  if ((await verificationPartnerId(verificationId)) !== partnerId) throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
  try {
    const result = await decideProductVerification({
      actor,
      verificationId,
      decision: text(fields.decision) as "approve" | "reject",
      mapToProductId: mapTo,
      newProduct: mapTo ? null : { name: text(fields.productName), therapyArea: text(fields.therapyArea) },
      projectStatus: fields.projectStatus || null,
      requestId,
    });
    if (!result.ok) return reply({ kind: "verification-errors", intent, verificationId, errors: result.errors }, 400);
    return redirectWithToast(pageUrl(request), { type: "success", message: result.message });
  } catch (error) {
    return refusal(intent, error);
  }
}

// ---------------------------------------------------------------- upload

function uploadReply(problems: UploadProblem[], status = 400) {
  return reply({ kind: "upload-problems", intent: "upload", problems }, status);
}

/**
 * A filled workbook replaces the quarter's rows (every saved row is deleted) or is appended to
 * them; it is checked by the same rules as the grid and nothing is saved when any row is invalid.
 */
async function handleUpload({ request, actor, partnerId, requestId }: SalesActionArgs) {
  let form: FormData;
  try {
    form = await readMultipartForm(request, {
      fields: UPLOAD_FIELDS,
      maxBytes: UPLOAD_MAX_BYTES + UPLOAD_FORM_OVERHEAD_BYTES,
      maxPartBytes: UPLOAD_MAX_BYTES,
    });
  } catch (error) {
    if (isRefusal(error, 413)) return uploadReply([{ message: SALES_ROUTE_MESSAGES.uploadTooLarge }], 413);
    throw error;
  }
  let quarterName: string | null;
  let mode: string | null;
  let expectedVersion: number | null;
  try {
    if (single(form, "intent") !== "upload") throw new BadRequest();
    quarterName = single(form, "quarter") || null;
    mode = single(form, "mode");
    expectedVersion = parseVersion(single(form, "version"), { required: true });
  } catch {
    throw data({ message: SALES_ROUTE_MESSAGES.badRequest }, { status: 400 });
  }
  const files = form.getAll("file");
  const file = files[0];
  if (files.length !== 1 || typeof file === "string" || file.size === 0) return uploadReply([{ message: SALES_ROUTE_MESSAGES.uploadFile }]);

  try {
    const view = await loadSalesReport({ viewer: actor, partnerId, quarterName });
    const workbook = await readSalesWorkbook(await file.arrayBuffer());
    if (!workbook.ok) return uploadReply(workbook.problems);
    const deletedIds = mode !== "append" ? [...view.rows.API, ...view.rows.FDF].map((row) => row.id).filter((id): id is number => id != null) : [];
    const result = await saveSalesReport({
      actor,
      partnerId,
      quarterId: view.quarter.id,
      expectedVersion,
      api: workbook.rows.API,
      fdf: workbook.rows.FDF,
      deletedIds,
      action: "save",
      requestId,
    });
    if (!result.ok) {
      // Row n of a sheet's rows is row n + 1 of the sheet (the header is row 1).
      const problems = SALES_KINDS.flatMap((kind) =>
        result.problems[kind].map((problem) => ({
          message: SALES_ROUTE_MESSAGES.uploadRow,
          values: { sheet: kind, row: problem.rowNumber + 1, columns: problem.columns.join(", ") },
          sheet: kind,
          row: problem.rowNumber + 1,
          columns: problem.columns,
        })),
      );
      return uploadReply(problems);
    }
    // Row n of a sheet's rows is row n + 1 of the sheet (the header is row 1).
    return redirectAfterSave(pageUrl(request), result, "workbook", (warning) => warning.rowNumber + 1);
  } catch (error) {
    if (error instanceof WorkflowError && !(error instanceof StaleReportError) && error.status === 404) {
      throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
    }
    if (error instanceof StaleReportError) {
      return uploadReply([{ message: error.message, values: error.values }], 409);
    }
    if (error instanceof WorkflowError) return uploadReply([{ message: error.message }], error.status);
    throw error;
  }
}

