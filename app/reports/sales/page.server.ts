/**
 * The Sales Report's plug-in to the report frame (app/reports/frame/page.server.ts): its rows as
 * the grid and the plain form post them, its save with the FDF warnings carried across the
 * redirect, the product verification and the workbook upload. The routes call their guard first.
 */
import { data, type AppLoadContext } from "@remix-run/node";
import { decideProductVerification, listProductVerifications, verificationPartnerId } from "~/reports/sales/product-verification.server";
import { loadReportChecks } from "~/reports/frame/checks.server";
import { loadReportThreads } from "~/reports/frame/threads.server";
import { COMMENT_PARAM } from "~/reports/frame/threads";
import { loadChangesToExplain } from "~/reports/frame/explanations.server";
import { loadReportFrame } from "~/reports/frame/screen.server";
import type { DownloadFormat } from "~/reports/consolidated/download.server";
import { royaltyStatement, royaltyStatementDownload } from "./royalty-statement.server";
import { readSalesWorkbook, salesWorkbookResponse } from "~/reports/sales/workbook.server";
import { loadSalesReport, loadSalesRowIds, saveMessage, saveSalesReport, type SaveSalesReportResult } from "~/reports/sales/model.server";
import { TEXT_MAX } from "~/utils/text-rules";
import { forbidden } from "~/utils/auth.server";
import { parseId } from "~/utils/ids";
import { PAGE_NOT_FOUND } from "~/utils/messages";
import { type SalesRowProblem, type SalesRowWarning } from "~/reports/sales/rows";
import { columnsFor, SALES_KINDS, type SalesKind, type SalesRowInput } from "~/reports/sales/columns";
import { flashCookie, redirectWithToast } from "~/utils/toast.server";
import type { SubmittedForm } from "~/reports/frame/contract";
import {
  badRequest,
  BadRequest,
  handleReportAction,
  historyAndChanges,
  idList,
  isPlainObject,
  loadReportPage,
  pageUrl,
  parsePage,
  parsePayload,
  quarterParam,
  rethrowForDownload,
  refusal,
  reply,
  REPORT_ROUTE_MESSAGES,
  type ReportActionArgs,
  type ReportPageRequest,
  type ReportRoutePlugin,
  type SaveOutcome,
  sheetRowProblem,
  single,
  singles,
  type UploadOutcome,
  type UploadRequest,
  viewForPage,
  workbookDownload,
} from "~/reports/frame/page.server";
import { FORM_FIELD_PATTERN, packSalesRows, SAVE_MAX_ROWS, type SavedWarnings } from "~/reports/sales/contract";

function parseTab(value: string | null): SalesKind {
  return value?.toUpperCase() === "FDF" ? "FDF" : "API";
}

// ---------------------------------------------------------------- loader

/** The Sales Report page's data (or, after a heavy post without JavaScript, its refusal alone: loadReportPage). */
export function loadSalesReportPage(args: ReportPageRequest & { context: AppLoadContext }) {
  return loadReportPage(args, () => salesReportPage(args));
}

async function salesReportPage(page: ReportPageRequest) {
  const { request, viewer, partnerId } = page;
  const url = new URL(request.url);
  const { value: flashedWarnings, setCookie } = await savedWarningsFlash.read(request);
  const view = await viewForPage(loadSalesReport, page);
  const verification =
    viewer.role === "ADMIN" && view.pendingProductCount > 0 && view.report.id ? await listProductVerifications(partnerId, view.report.id) : null;
  const reportId = view.report.id;
  const [{ history, changes, comparison }, checks, changesToExplain, threads, statement] = await Promise.all([
    historyAndChanges(view, url),
    loadReportChecks({ type: view.type, reportId, partnerId, quarterId: view.quarter.id }, viewer),
    loadChangesToExplain(view, viewer),
    loadReportThreads(view, viewer, url.searchParams.get(COMMENT_PARAM)),
    // The royalty statement is the administrators' (ADMIN and STAFF).
    reportId && viewer.role !== "PARTNER" ? royaltyStatement(reportId, partnerId) : null,
  ]);
  const body = {
    view: { ...view, rows: packSalesRows(view.rows) },
    history,
    changes,
    comparison,
    checks,
    changesToExplain,
    threads,
    royaltyStatement: statement,
    viewerRole: viewer.role,
    tab: parseTab(url.searchParams.get("tab")),
    page: parsePage(url.searchParams.get("page")),
    verification,
    savedWarnings: flashedWarnings && flashedWarnings.reportId === reportId ? flashedWarnings : null,
  };
  return data(body, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export type SalesReportPageData = Awaited<ReturnType<typeof salesReportPage>>["data"];

/** A partner's royalty statement in the quarter the link names (`?quarter=`), as CSV or xlsx: for ADMIN and STAFF, whose routes guard it. */
export async function royaltyStatementFile({ request, viewer, partnerId }: ReportPageRequest, format: DownloadFormat) {
  const frame = await loadReportFrame({ viewer, partnerId, quarterName: quarterParam(new URL(request.url)), type: "sales" }).catch(rethrowForDownload);
  const statement = frame.report.id
    ? await royaltyStatement(frame.report.id, partnerId)
    : { lines: [], totals: { netValue: "0", reported: "0", expected: null, difference: null } };
  return royaltyStatementDownload(statement, { partner: frame.partner.companyName, quarter: frame.quarter.name }, format);
}

/** The report's workbook, or (`template`) its blank template: the same sheets, drop-downs and formats without rows. */
export const salesWorkbookDownload = workbookDownload(loadSalesReport, salesWorkbookResponse);

// ---------------------------------------------------------------- action: reading rows

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

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

const PAYLOAD_KEYS = new Set(["API", "FDF", "positions", "deletedIds"]);

/** Grid positions of a table's posted rows: whole numbers, one per row, ascending; none means 0, 1, 2… */
function payloadPositions(value: unknown, count: number): number[] {
  if (value === undefined) return Array.from({ length: count }, (_, index) => index);
  if (!Array.isArray(value) || value.length !== count) throw new BadRequest();
  let previous = -1;
  return value.map((position) => {
    if (!Number.isSafeInteger(position) || (position as number) <= previous || (position as number) > SAVE_MAX_ROWS) throw new BadRequest();
    previous = position as number;
    return position as number;
  });
}

/**
 * The grid's JSON body (`payload`): the new and changed rows of both tables with their grid
 * positions, and the saved rows deleted in the grid. The rows not sent stay as they are.
 */
function rowsFromPayload(payload: unknown): PostedRows {
  const body = parsePayload(payload, PAYLOAD_KEYS);
  const positionsBody = body.positions ?? {};
  if (!isPlainObject(positionsBody) || Object.keys(positionsBody).some((key) => key !== "API" && key !== "FDF")) throw new BadRequest();
  const rows = { API: [], FDF: [] } as Record<SalesKind, SalesRowInput[]>;
  const positions = { API: [], FDF: [] } as Record<SalesKind, number[]>;
  for (const kind of SALES_KINDS) {
    const list = body[kind] ?? [];
    if (!Array.isArray(list)) throw new BadRequest();
    if (list.length > SAVE_MAX_ROWS) throw new BadRequest(REPORT_ROUTE_MESSAGES.tooManyRows);
    for (const raw of list) {
      if (!isPlainObject(raw)) throw new BadRequest();
      rows[kind].push(cleanRow(kind, raw));
    }
    positions[kind] = payloadPositions(positionsBody[kind], list.length);
  }
  const deleted = body.deletedIds ?? [];
  if (!Array.isArray(deleted)) throw new BadRequest();
  return { rows, positions, deletedIds: idList(deleted, SAVE_MAX_ROWS) };
}

/** Rows one page of the form without JavaScript may post. */
const FORM_MAX_ROWS = 1000;

/**
 * The form without JavaScript: `api[3][country]`, hidden `api[3][id]` for saved rows, a
 * `deleteIds` checkbox per saved row. Only the posted page's rows are sent; the model leaves
 * the others as they are. Rows ticked for deletion are not checked.
 */
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
    if (byKind[kind].size > FORM_MAX_ROWS) throw new BadRequest(REPORT_ROUTE_MESSAGES.tooManyRows);
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

/** The save's toast and the FDF warnings for the page it returns to (after a grid save or an upload). */
async function savedOutcome(
  saved: Extract<SaveSalesReportResult, { ok: true }>,
  source: SavedWarnings["source"],
  rowOf: (warning: SalesRowWarning) => number,
): Promise<Extract<SaveOutcome, { ok: true }>> {
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
  return { ok: true, message: { message: message.message, values: message.values }, headers };
}

/** A full save of the largest report the grid holds, as JSON in a form. */
const REPORT_FORM_MAX_BYTES = 32 * 1024 * 1024;

const salesPlugin: ReportRoutePlugin<PostedRows> = {
  type: "sales",
  maxBytes: REPORT_FORM_MAX_BYTES,
  rowsFromPayload,
  rowsFromForm,
  emptyPosted: () => ({ rows: { API: [], FDF: [] }, positions: { API: [], FDF: [] }, deletedIds: [] }),
  async save({ posted, ...request }) {
    const saved = await saveSalesReport({ ...request, api: posted.rows.API, fdf: posted.rows.FDF, deletedIds: posted.deletedIds });
    if (!saved.ok) return { ok: false, problems: problemsAtPositions(saved.problems, posted.positions) };
    const positions = posted.positions.FDF;
    return savedOutcome(saved, "grid", (warning) => gridRowNumber(positions, warning.rowNumber));
  },
  extraIntents: { "verify-product": handleVerification },
  importWorkbook: importSalesWorkbook,
};

export function handleSalesReportAction(args: ReportActionArgs) {
  return handleReportAction(salesPlugin, args);
}

// ---------------------------------------------------------------- product verification

const VERIFICATION_FIELDS = ["verificationId", "decision", "mapToProductId", "productName", "therapyArea", "projectStatus"] as const;

async function handleVerification({ actor, partnerId, context, request }: ReportActionArgs, form: FormData) {
  const intent = "verify-product" as const;
  if (actor.role !== "ADMIN") throw forbidden();
  let fields: Record<(typeof VERIFICATION_FIELDS)[number], string | null>;
  let mapTo: number | null;
  try {
    fields = singles(form, VERIFICATION_FIELDS);
    // An existing product to map to, or none (a new product): anything else is refused.
    mapTo = fields.mapToProductId ? (parseId(fields.mapToProductId) ?? badRequest()) : null;
  } catch {
    throw data({ message: REPORT_ROUTE_MESSAGES.badRequest }, { status: 400 });
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
      requestId: context.requestId,
    });
    if (!result.ok) return reply({ kind: "verification-errors", intent, verificationId, errors: result.errors }, 400);
    return redirectWithToast(pageUrl(request), { type: "success", message: result.message });
  } catch (error) {
    return refusal(intent, error);
  }
}

// ---------------------------------------------------------------- upload

export const REPLACE_NOT_CONFIRMED = "Nothing was replaced: confirm that the workbook replaces the {{count}} rows saved for this quarter.";

/**
 * A filled workbook replaces the quarter's rows (every saved row is deleted, once the user has
 * confirmed it) or is appended to them; it is checked by the same rules as the grid and nothing
 * is saved when any row is invalid.
 */
async function importSalesWorkbook({
  actor,
  partnerId,
  requestId,
  quarterName,
  expectedVersion,
  mode,
  confirmReplace,
  bytes,
}: UploadRequest): Promise<UploadOutcome> {
  const { frame, rowIds } = await loadSalesRowIds({ viewer: actor, partnerId, quarterName });
  const deletedIds = mode !== "append" ? rowIds : [];
  if (deletedIds.length && !confirmReplace) return { ok: false, problems: [{ message: REPLACE_NOT_CONFIRMED, values: { count: deletedIds.length } }] };
  const workbook = await readSalesWorkbook(bytes);
  if (!workbook.ok) return workbook;
  const result = await saveSalesReport({
    actor,
    partnerId,
    quarterId: frame.quarter.id,
    expectedVersion,
    api: workbook.rows.API,
    fdf: workbook.rows.FDF,
    deletedIds,
    action: "save",
    requestId,
  });
  // Row n of a sheet's rows is row n + 1 of the sheet (the header is row 1).
  if (!result.ok)
    return {
      ok: false,
      problems: SALES_KINDS.flatMap((kind) => result.problems[kind].map((problem) => sheetRowProblem(kind, problem.rowNumber + 1, problem))),
    };
  return savedOutcome(result, "workbook", (warning) => warning.rowNumber + 1);
}
