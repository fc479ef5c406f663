/**
 * The Filing Plans' plug-in to the report frame: its cells as the grid (JSON) and the plain form
 * post them, its save, its workbook (download and upload), and the page's data.
 * The routes (/partner/filing-plans, /admin/filing-plans/$id) call their guard first.
 */
import {
  filingCellsFromMap,
  listFilingCountries,
  loadFilingPlan,
  saveFilingPlan,
  type FilingPlanView,
  type FilingPostedCell,
} from "~/reports/filing/model.server";
import {
  cellText,
  comparableText,
  readWorkbook,
  reportWorkbookResponse,
  UPLOAD_MESSAGES as WORKBOOK_MESSAGES,
  type WorkbookColumn,
} from "~/reports/frame/workbook.server";
import { parseId } from "~/utils/ids";
import { openXlsx, XlsxReadError } from "~/reports/frame/xlsx-reader.server";
import { DATA_RECORDED, echoedValue, type SubmittedForm, type UploadProblem } from "~/reports/frame/contract";
import {
  BadRequest,
  badRequest,
  type Envelope,
  isPlainObject,
  parsePayload,
  REPORT_ROUTE_MESSAGES,
  reportPage,
  type ReportPageData,
  type ReportRoutePlugin,
  sheetRowProblem,
  UPLOAD_MESSAGES as FRAME_UPLOAD_MESSAGES,
  type UploadOutcome,
  type UploadRequest,
} from "~/reports/frame/page.server";
import {
  FILING_COUNTRY_COLUMN,
  FILING_FORM_FIELD,
  FILING_MAX_COUNTRIES,
  FILING_MAX_PRODUCTS,
  FILING_SHEET,
  FILING_STATUS_MAX_CHARS,
  FILING_TABLE,
} from "~/reports/filing/contract";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { FILING_COUNTRY_LIST_PARAMS } from "~/reports/filing/country-list";

type Posted = { cells: FilingPostedCell[]; submitted?: SubmittedForm };

// ---------------------------------------------------------------- loader and download

export type FilingPlanPageData = ReportPageData<FilingPlanView>;

const COUNTRY_COLUMN: WorkbookColumn = { key: "country", label: FILING_COUNTRY_COLUMN };
const productKey = (productId: number) => `product-${productId}`;

function* workbookRows(view: FilingPlanView, template: boolean) {
  for (const row of view.rows) {
    yield [
      row.country,
      ...view.products.map((product) => {
        const status = row.cells[String(product.id)] ?? FILING_EMPTY;
        return template || status === FILING_EMPTY ? null : status;
      }),
    ];
  }
}

/**
 * The plan as a workbook: one sheet, a row per country, a column per product (its statuses as a
 * drop-down), empty cells for "0"; its blank template (`template`) has every cell empty.
 */
function filingWorkbook(view: FilingPlanView, template: boolean) {
  const columns: WorkbookColumn[] = [
    { ...COUNTRY_COLUMN, format: "text" },
    ...view.products.map((product): WorkbookColumn => ({
      key: productKey(product.id),
      label: product.name,
      format: "text",
      list: view.statusLists[product.category],
    })),
  ];
  return reportWorkbookResponse(view, [{ name: FILING_SHEET, columns, rows: workbookRows(view, template) }], template);
}

// ---------------------------------------------------------------- posted cells

function status(value: unknown): string {
  if (value == null) return "";
  if (typeof value !== "string" || value.length > FILING_STATUS_MAX_CHARS) throw new BadRequest();
  return value;
}

const PAYLOAD_KEYS = new Set(["cells"]);

/** The grid's JSON body: `{ "cells": { "<countryId>": { "<productId>": "<status>" } } }`, the changed cells only. */
function cellsFromPayload(payload: unknown): Posted {
  const body = parsePayload(payload, PAYLOAD_KEYS);
  if (!isPlainObject(body.cells)) throw new BadRequest();
  const result = filingCellsFromMap(body.cells);
  if (!result.ok) throw new BadRequest(result.reason === "tooMany" ? REPORT_ROUTE_MESSAGES.tooManyRows : undefined);
  return { cells: result.cells };
}

/**
 * The plain form: a `filing[12][34]` select per cell of the page's countries. What it posted is
 * kept by the row's position in the grid, cells by product id, to show it again on a refusal.
 */
function cellsFromForm(form: FormData, envelope: Envelope, positions: ReadonlyMap<number, number>): Posted {
  const byCountry = new Map<number, Record<string, string>>();
  for (const [name, value] of form.entries()) {
    const match = FILING_FORM_FIELD.exec(name);
    if (!match) continue;
    const countryId = parseId(match[1]) ?? badRequest();
    const productId = parseId(match[2]) ?? badRequest();
    const row = byCountry.get(countryId) ?? {};
    if (row[String(productId)] !== undefined) throw new BadRequest();
    row[String(productId)] = status(value);
    byCountry.set(countryId, row);
    if (byCountry.size > FILING_MAX_COUNTRIES || Object.keys(row).length > FILING_MAX_PRODUCTS) throw new BadRequest(REPORT_ROUTE_MESSAGES.tooManyRows);
  }
  const cells: FilingPostedCell[] = [];
  const submittedRows: Record<number, Record<string, string>> = {};
  for (const [countryId, row] of byCountry) {
    const index = positions.get(countryId);
    if (index !== undefined) submittedRows[index] = row;
    for (const [productId, value] of Object.entries(row)) cells.push({ countryId, productId: Number(productId), status: value });
  }
  return { cells, submitted: { tab: FILING_TABLE, rows: submittedRows, deleteIds: [], comment: envelope.comment } };
}

// ---------------------------------------------------------------- upload

const UPLOAD_MESSAGES = {
  unknownProduct: "Sheet {{sheet}}: the column {{column}} is not one of the partner's products.",
  repeatedProduct: "Sheet {{sheet}}: the column {{column}} appears more than once.",
  unknownCountry: "Sheet {{sheet}}, row {{row}}: {{country}} is not a country of the list.",
  repeatedCountry: "Sheet {{sheet}}, row {{row}}: {{country}} appears more than once.",
} as const;

/** The header cells of the sheet (null: no such sheet, as the reader then says), or why the file cannot be read. */
async function sheetHeader(bytes: Uint8Array): Promise<{ ok: true; labels: string[] | null } | { ok: false; problems: UploadProblem[] }> {
  const opened = await openXlsx(bytes);
  if (!opened.ok) return { ok: false, problems: [{ message: WORKBOOK_MESSAGES[opened.reason] }] };
  const { workbook } = opened;
  try {
    const sheetName = workbook.sheetNames.find((name) => comparableText(name) === comparableText(FILING_SHEET));
    if (!sheetName) return { ok: true, labels: null };
    for await (const row of workbook.rows(sheetName)) {
      if (row.number !== 1) break;
      return { ok: true, labels: [...row.cells.entries()].sort(([a], [b]) => a - b).map(([, value]) => cellText(value)) };
    }
    return { ok: true, labels: [] };
  } catch (error) {
    if (error instanceof XlsxReadError) return { ok: false, problems: [{ message: WORKBOOK_MESSAGES[error.reason] }] };
    throw error;
  } finally {
    workbook.close();
  }
}

/**
 * A filled Filing Plans workbook: the Country column names the row's country, every other header a
 * product of the partner (without regard to case). A row with a status in any cell is the country's
 * plan (an empty cell there empties the filing); a row without any is left as stored, so a blank
 * template filled for a few countries changes only those. Checked by the same rules as the grid and
 * saved together; nothing is saved when anything is wrong.
 */
async function importFilingWorkbook({ actor, partnerId, requestId, quarterName, expectedVersion, bytes }: UploadRequest): Promise<UploadOutcome> {
  const view = await loadFilingPlan({ viewer: actor, partnerId, quarterName });
  const header = await sheetHeader(bytes);
  if (!header.ok) return header;

  const problems: UploadProblem[] = [];
  const productByName = new Map(view.products.map((product) => [comparableText(product.name), product]));
  const columns: WorkbookColumn[] = [COUNTRY_COLUMN];
  const productOf = new Map<string, number>();
  for (const label of header.labels ?? []) {
    const name = comparableText(label);
    if (!name || name === comparableText(FILING_COUNTRY_COLUMN)) continue;
    const product = productByName.get(name);
    const values = { sheet: FILING_SHEET, column: echoedValue(label) };
    if (!product) problems.push({ message: UPLOAD_MESSAGES.unknownProduct, values, sheet: FILING_SHEET, row: 1, columns: [values.column] });
    else if (productOf.has(productKey(product.id)))
      problems.push({ message: UPLOAD_MESSAGES.repeatedProduct, values, sheet: FILING_SHEET, row: 1, columns: [values.column] });
    else {
      columns.push({ key: productKey(product.id), label: product.name });
      productOf.set(productKey(product.id), product.id);
    }
  }
  if (problems.length) return { ok: false, problems };

  const workbook = await readWorkbook(bytes, [{ sheet: FILING_SHEET, columns }]);
  if (!workbook.ok) return workbook;
  const countryByName = new Map(view.rows.map((row) => [comparableText(row.country), row.countryId]));
  const sheetRowOf = new Map<number, number>();
  const cells: FilingPostedCell[] = [];
  workbook.rows[FILING_SHEET].forEach((row, index) => {
    const sheetRow = index + 2;
    if ([...productOf.keys()].every((key) => !row[key].trim())) return;
    const countryId = countryByName.get(comparableText(row.country));
    const values = { sheet: FILING_SHEET, row: sheetRow, country: echoedValue(row.country) };
    if (countryId === undefined) {
      problems.push({ message: UPLOAD_MESSAGES.unknownCountry, values, sheet: FILING_SHEET, row: sheetRow, columns: [FILING_COUNTRY_COLUMN] });
      return;
    }
    if (sheetRowOf.has(countryId)) {
      problems.push({ message: UPLOAD_MESSAGES.repeatedCountry, values, sheet: FILING_SHEET, row: sheetRow, columns: [FILING_COUNTRY_COLUMN] });
      return;
    }
    sheetRowOf.set(countryId, sheetRow);
    for (const [key, productId] of productOf) cells.push({ countryId, productId, status: row[key].trim() || FILING_EMPTY });
  });
  if (problems.length) return { ok: false, problems };
  if (!cells.length) return { ok: false, problems: [{ message: FRAME_UPLOAD_MESSAGES.nothingFilled }] };

  const result = await saveFilingPlan({ actor, partnerId, quarterId: view.quarter.id, expectedVersion, cells, action: "save", requestId });
  if (!result.ok) {
    const problemsBySheetRow = result.problems.map((problem) => {
      const country = view.rows[problem.rowNumber - 1];
      return sheetRowProblem(FILING_SHEET, (country && sheetRowOf.get(country.countryId)) ?? problem.rowNumber + 1, problem);
    });
    return { ok: false, problems: problemsBySheetRow };
  }
  return { ok: true, message: { message: DATA_RECORDED } };
}

// ---------------------------------------------------------------- the plug-in

/** The plug-in, with the grid's country order (row positions of the plain form's echo). */
function filingPlugin(positions: ReadonlyMap<number, number>): ReportRoutePlugin<Posted> {
  return {
    type: "filing",
    maxBytes: 16 * 1024 * 1024,
    rowsFromPayload: cellsFromPayload,
    rowsFromForm: (form, envelope) => cellsFromForm(form, envelope, positions),
    emptyPosted: () => ({ cells: [] }),
    async save({ posted, ...request }) {
      const saved = await saveFilingPlan({ ...request, cells: posted.cells });
      if (!saved.ok) return { ok: false, problems: { [FILING_TABLE]: saved.problems } };
      return { ok: true, message: { message: DATA_RECORDED } };
    },
    importWorkbook: importFilingWorkbook,
    pageParams: FILING_COUNTRY_LIST_PARAMS,
  };
}

const filingPage = reportPage({
  load: loadFilingPlan,
  workbook: filingWorkbook,
  async plugin({ request }) {
    const multipart = request.headers.get("Content-Type")?.startsWith("multipart/form-data");
    const countries = multipart ? [] : await listFilingCountries();
    return filingPlugin(new Map(countries.map((country, index) => [country.id, index])));
  },
});
export const loadFilingPlanPage = filingPage.load;
export const filingWorkbookDownload = filingPage.download;
export const handleFilingPlanAction = filingPage.handleAction;
