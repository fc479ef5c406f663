/**
 * The Product Development Timeline's plug-in to the report frame: its rows as the grid (JSON) and
 * the plain form post them, its save, its workbook (download and upload), and the page's data.
 * The routes (/partner/development-timeline, /admin/development-timeline/$id) call their guard first.
 */
import {
  loadPdtReport,
  savePdtReport,
  splitPdtPostedRows,
  type PdtGridRow,
  type PdtPostedCells,
  type PdtPostedRow,
  type PdtReportView,
} from "~/reports/pdt/model.server";
import { comparableText, readWorkbook, reportWorkbookResponse, type WorkbookCell, type WorkbookColumn } from "~/reports/frame/workbook.server";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { parseId } from "~/utils/ids";
import { data, type AppLoadContext } from "@remix-run/node";
import { DATA_RECORDED, isRefusalPage, type SubmittedForm, type UploadProblem } from "~/reports/frame/contract";
import { flashCookie } from "~/utils/toast.server";
import {
  BadRequest,
  badRequest,
  type Envelope,
  isPlainObject,
  parsePayload,
  REPORT_ROUTE_MESSAGES,
  reportPage,
  type ReportPageData,
  type ReportPageRequest,
  type ReportRoutePlugin,
  sheetRowProblem,
  UPLOAD_MESSAGES as FRAME_UPLOAD_MESSAGES,
  type UploadOutcome,
  type UploadRequest,
} from "~/reports/frame/page.server";
import { PDT_CELL_MAX_CHARS, PDT_FORM_FIELD, PDT_SAVE_MAX_ROWS, PDT_SHEET, PDT_WORKBOOK_COLUMNS, type PdtDateReading } from "~/reports/pdt/contract";
import { isAmbiguousPdtDate, normalisePdtStatus, PDT_COLUMN_LABELS } from "~/reports/pdt/rows";

type Posted = { rows: PdtPostedRow[]; statuses: Record<number, string>; submitted?: SubmittedForm };

// ---------------------------------------------------------------- loader and download

export type PdtReportPageData = ReportPageData<PdtReportView> & {
  /** The dates the plain form's last save read from an M/D/YYYY that could be meant either way round. */
  dateReadings: PdtDateReading[] | null;
};

/** An ISO date as an Excel date (UTC midnight), or an empty cell. */
const excelDate = (iso: string | null): WorkbookCell => (iso ? new Date(`${iso}T00:00:00Z`) : null);

/** The columns an upload reads, formatted, the status a drop-down of the statuses as the screen names them. */
const EDITABLE_COLUMNS: WorkbookColumn[] = PDT_WORKBOOK_COLUMNS.map((column) => ({
  ...column,
  format: column.key === "startDate" || column.key === "endDate" ? "date" : "text",
  list: column.key === "status" ? Object.values(PROJECT_STATUS_LABELS) : undefined,
}));

function* workbookRows(view: PdtReportView, template: boolean) {
  const earlier = view.quarterOrder.slice(0, -1);
  for (const row of view.rows) {
    // The status as the screen names it ("On Hold"); an upload reads either form back.
    const keys = [row.productName, row.stageName, PROJECT_STATUS_LABELS[row.status]];
    if (template) {
      yield [...keys, null, null, null];
      continue;
    }
    yield [
      ...keys,
      row.notes,
      excelDate(row.startDate),
      excelDate(row.endDate),
      row.slip.start,
      row.slip.end,
      ...earlier.flatMap((quarter) => [excelDate(row.history[quarter.name]?.startDate ?? null), excelDate(row.history[quarter.name]?.endDate ?? null)]),
    ];
  }
}

/**
 * The timeline as a workbook: one sheet, the grid's columns, dates as Excel dates, the slip in
 * days and earlier quarters' plans; its blank template (`template`) has a row per product and
 * stage with the product's status, and empty notes and dates to fill in.
 */
function pdtWorkbook(view: PdtReportView, template: boolean) {
  const earlier = view.quarterOrder.slice(0, -1);
  const columns: WorkbookColumn[] = template
    ? EDITABLE_COLUMNS
    : [
        ...EDITABLE_COLUMNS,
        { key: "startSlip", label: "Start slip (days)", format: "integer" },
        { key: "endSlip", label: "End slip (days)", format: "integer" },
        ...earlier.flatMap((quarter): WorkbookColumn[] => [
          { key: `start-${quarter.name}`, label: `Start Date (${quarter.name})`, format: "date" },
          { key: `end-${quarter.name}`, label: `End Date (${quarter.name})`, format: "date" },
        ]),
      ];
  return reportWorkbookResponse(view, [{ name: PDT_SHEET, columns, rows: workbookRows(view, template) }], template);
}

// ---------------------------------------------------------------- posted rows

function cell(value: unknown): string {
  if (value == null) return "";
  if (typeof value !== "string" || value.length > PDT_CELL_MAX_CHARS) throw new BadRequest();
  return value;
}

/** One posted row: a product and stage by id, its cells as strings, a status when it carries one. */
function postedCells(raw: Record<string, unknown>): PdtPostedCells {
  const productId = parseId(raw.productId) ?? badRequest();
  const stageId = parseId(raw.stageId) ?? badRequest();
  const status = raw.status != null && raw.status !== "" ? cell(raw.status) : null;
  return { productId, stageId, status, notes: cell(raw.notes), startDate: cell(raw.startDate), endDate: cell(raw.endDate) };
}

/** The rows and the statuses they change; a row posted twice, or rows of a product that disagree on its status, are not one save. */
function split(posted: PdtPostedCells[]): Pick<Posted, "rows" | "statuses"> {
  const result = splitPdtPostedRows(posted);
  if (!result.ok) throw new BadRequest();
  return { rows: result.rows, statuses: result.statuses };
}

const PAYLOAD_KEYS = new Set(["rows"]);
const ROW_KEYS = new Set(["productId", "stageId", "status", "notes", "startDate", "endDate"]);

/** The grid's JSON body: the changed rows, each with the product's status when that changed. */
function rowsFromPayload(payload: unknown): Posted {
  const body = parsePayload(payload, PAYLOAD_KEYS);
  if (!Array.isArray(body.rows) || body.rows.length > PDT_SAVE_MAX_ROWS) throw new BadRequest();
  const posted = body.rows.map((raw: unknown) => {
    if (!isPlainObject(raw) || Object.keys(raw).some((key) => !ROW_KEYS.has(key))) throw new BadRequest();
    return postedCells(raw);
  });
  return split(posted);
}

/** The plain form: `pdt[3][startDate]`, hidden `pdt[3][productId]` and `pdt[3][stageId]`; a status on a product's first row. */
function rowsFromForm(form: FormData, envelope: Envelope): Posted {
  const byIndex = new Map<number, Record<string, string>>();
  for (const [name, value] of form.entries()) {
    const match = PDT_FORM_FIELD.exec(name);
    if (!match || typeof value !== "string") continue;
    const index = Number(match[1]);
    const cells = byIndex.get(index) ?? {};
    if (cells[match[2]] !== undefined) throw new BadRequest();
    cells[match[2]] = value;
    byIndex.set(index, cells);
    if (byIndex.size > PDT_SAVE_MAX_ROWS) throw new BadRequest(REPORT_ROUTE_MESSAGES.tooManyRows);
  }
  const posted: PdtPostedCells[] = [];
  const submittedRows: Record<number, Record<string, string>> = {};
  for (const index of [...byIndex.keys()].sort((a, b) => a - b)) {
    const cells = byIndex.get(index)!;
    submittedRows[index] = cells;
    posted.push(postedCells(cells));
  }
  return { ...split(posted), submitted: { tab: "PDT", rows: submittedRows, deleteIds: [], comment: envelope.comment } };
}

// ---------------------------------------------------------------- upload

const UPLOAD_MESSAGES = {
  unknownRow: "Sheet {{sheet}}, row {{row}}: this product and stage are not part of the timeline.",
  statusDiffers: "Sheet {{sheet}}, row {{row}}: {{product}} is given another new status on an earlier row; a product has one status.",
} as const;

/**
 * A filled development-timeline workbook: its rows are matched to the timeline by product and stage
 * name, checked by the same rules as the grid, and saved together; nothing is saved when any row is wrong.
 * A row without notes, dates or a new status is left as stored (a blank template changes only the
 * rows filled in).
 */
async function importPdtWorkbook({ actor, partnerId, requestId, quarterName, expectedVersion, bytes }: UploadRequest): Promise<UploadOutcome> {
  const view = await loadPdtReport({ viewer: actor, partnerId, quarterName });
  const workbook = await readWorkbook(bytes, [{ sheet: PDT_SHEET, columns: PDT_WORKBOOK_COLUMNS }]);
  if (!workbook.ok) return workbook;
  const byName = new Map<string, PdtGridRow>(view.rows.map((row) => [`${comparableText(row.productName)}|${comparableText(row.stageName)}`, row]));
  const problems: UploadProblem[] = [];
  const statuses: Record<number, string> = {};
  const rows: PdtPostedRow[] = [];
  const sheetRowOf = new Map<string, number>();
  /** The sheet row each product's status was read from: a status problem points there. */
  const statusRowOf = new Map<number, number>();
  workbook.rows[PDT_SHEET].forEach((cells, index) => {
    const sheetRow = index + 2;
    if (Object.values(cells).every((value) => !value.trim())) return;
    const target = byName.get(`${comparableText(cells.product)}|${comparableText(cells.stage)}`);
    if (!target) {
      problems.push({ message: UPLOAD_MESSAGES.unknownRow, values: { sheet: PDT_SHEET, row: sheetRow }, sheet: PDT_SHEET, row: sheetRow });
      return;
    }
    sheetRowOf.set(`${target.productId}:${target.stageId}`, sheetRow);
    // The download writes the status on every row: a row that repeats the current one says nothing;
    // rows that change it must agree (a product has one status).
    const status = cells.status.trim();
    const wanted = normalisePdtStatus(status) ?? status;
    if (status && wanted !== target.status) {
      const earlier = statuses[target.productId];
      if (earlier !== undefined && earlier !== wanted) {
        problems.push({
          message: UPLOAD_MESSAGES.statusDiffers,
          values: { sheet: PDT_SHEET, row: sheetRow, product: target.productName },
          sheet: PDT_SHEET,
          row: sheetRow,
          columns: [PDT_COLUMN_LABELS.status],
        });
      } else if (earlier === undefined) {
        statuses[target.productId] = wanted;
        statusRowOf.set(target.productId, sheetRow);
      }
    }
    const filled = [cells.notes, cells.startDate, cells.endDate].some((value) => value.trim());
    if (filled) rows.push({ productId: target.productId, stageId: target.stageId, notes: cells.notes, startDate: cells.startDate, endDate: cells.endDate });
  });
  if (problems.length) return { ok: false, problems };
  if (!rows.length && !Object.keys(statuses).length) return { ok: false, problems: [{ message: FRAME_UPLOAD_MESSAGES.nothingFilled }] };
  const result = await savePdtReport({ actor, partnerId, quarterId: view.quarter.id, expectedVersion, rows, statuses, action: "save", requestId });
  if (!result.ok) {
    const problemsBySheetRow = result.problems.map((problem) => {
      const row = view.rows[problem.rowNumber - 1];
      const statusRow = problem.keys.includes("status") && row ? statusRowOf.get(row.productId) : undefined;
      return sheetRowProblem(PDT_SHEET, statusRow ?? (row ? sheetRowOf.get(`${row.productId}:${row.stageId}`) : undefined) ?? 0, problem);
    });
    return { ok: false, problems: problemsBySheetRow };
  }
  return { ok: true, message: { message: DATA_RECORDED } };
}

// ---------------------------------------------------------------- dates read either way round

/** The readings carried to the page after the save (a cookie is small: a form page holds 50 rows of two dates, few of them typed). */
const DATE_READINGS_LISTED = 40;
const dateReadingsFlash = flashCookie<{ partnerId: number; quarterId: number; readings: PdtDateReading[] }>("__pdt_date_readings");

/** The plain form's dates typed as an M/D/YYYY that could be meant either way round: the page after the save says what they were read as. */
async function dateReadingsHeaders(submitted: SubmittedForm | undefined, partnerId: number, quarterId: number): Promise<Headers | undefined> {
  const readings: PdtDateReading[] = [];
  for (const [index, cells] of Object.entries(submitted?.rows ?? {})) {
    for (const key of ["startDate", "endDate"] as const) if (isAmbiguousPdtDate(cells[key] ?? "")) readings.push({ index: Number(index), key });
  }
  if (!readings.length) return undefined;
  return new Headers({ "Set-Cookie": await dateReadingsFlash.header({ partnerId, quarterId, readings: readings.slice(0, DATE_READINGS_LISTED) }) });
}

// ---------------------------------------------------------------- the plug-in

const pdtPlugin: ReportRoutePlugin<Posted> = {
  type: "pdt",
  maxBytes: 8 * 1024 * 1024,
  rowsFromPayload,
  rowsFromForm,
  emptyPosted: () => ({ rows: [], statuses: {} }),
  async save({ posted, ...request }) {
    const saved = await savePdtReport({ ...request, rows: posted.rows, statuses: posted.statuses });
    if (!saved.ok) return { ok: false, problems: { PDT: saved.problems } };
    return { ok: true, message: { message: DATA_RECORDED }, headers: await dateReadingsHeaders(posted.submitted, request.partnerId, request.quarterId) };
  },
  importWorkbook: importPdtWorkbook,
};

const pdtPage = reportPage({ load: loadPdtReport, workbook: pdtWorkbook, plugin: () => pdtPlugin });

/** The page's data, with the dates the plain form's last save read either way round (shown once). */
export async function loadPdtReportPage(args: ReportPageRequest & { context: AppLoadContext }) {
  const { value: flashed, setCookie } = await dateReadingsFlash.read(args.request);
  const page = await pdtPage.load(args);
  if (isRefusalPage(page)) return page;
  const ours = flashed && flashed.partnerId === page.view.partner.id && flashed.quarterId === page.view.quarter.id;
  const body: PdtReportPageData = { ...page, dateReadings: ours ? flashed.readings : null };
  return data(body, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export const pdtWorkbookDownload = pdtPage.download;
export const handlePdtReportAction = pdtPage.handleAction;
