/**
 * The Sales Report as an Excel workbook (issue 4 "Excel"): download (`sales-report.xlsx`,
 * sheets API and FDF, the grid's columns, typed numbers, frozen header) written with exceljs'
 * streaming WorkbookWriter, and the upload of a filled workbook of that layout, read back into
 * the same string cells as the grid so that the same rules (app/utils/sales-rows.ts) check it.
 */
import { PassThrough, type Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import Decimal from "decimal.js";
import ExcelJS from "exceljs";
import { MONTHS } from "~/db/reference-data";
import type { UploadProblem } from "~/components/grids/sales-report-types";
import { logger } from "~/utils/logger.server";
import { columnsFor, SALES_KINDS, type SalesColumn, type SalesColumnType, type SalesKind, type SalesRowInput } from "~/utils/sales-rows";

export const SALES_WORKBOOK_FILENAME = "sales-report.xlsx";
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export type SalesWorkbookRows = Record<SalesKind, readonly SalesRowInput[]>;

/** decisions.md section 7: a text cell that a spreadsheet would run as a formula gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Numbers and years as numbers, everything else as (neutralised) text; an empty cell stays empty. */
function cellValue(type: SalesColumnType, value: string | null | undefined): string | number | null {
  const text = value ?? "";
  if (text === "") return null;
  if ((type === "number" || type === "year") && /^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  return neutraliseCell(text);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the workbook into `stream` row by row (exceljs' streaming writer: memory stays flat
 * for large reports), yielding to the event loop every 64 rows.
 */
export async function writeSalesWorkbook(stream: Writable, rows: SalesWorkbookRows): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  for (const kind of SALES_KINDS) {
    const columns = columnsFor(kind);
    const sheet = workbook.addWorksheet(kind, { views: [{ state: "frozen", ySplit: 1, xSplit: 0 }] });
    sheet.columns = columns.map((column) => ({ key: column.key, width: Math.min(Math.max(column.label.length + 2, 10), 40) }));
    const header = sheet.addRow(columns.map((column) => column.label));
    header.font = { bold: true };
    header.commit();
    let written = 0;
    for (const row of rows[kind]) {
      sheet.addRow(columns.map((column) => cellValue(column.type, row[column.key]))).commit();
      if (++written % 64 === 0) await yieldToEventLoop();
    }
    sheet.commit();
  }
  await workbook.commit();
}

/** The download response: the workbook is streamed into the body while it is written. */
export function salesWorkbookResponse(rows: SalesWorkbookRows): Response {
  const body = new PassThrough();
  writeSalesWorkbook(body, rows).catch((error: unknown) => {
    logger.error({ err: error }, "sales workbook failed");
    body.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${SALES_WORKBOOK_FILENAME}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

// ---------------------------------------------------------------- upload

/** Header labels compared without case and extra spaces. */
const comparableLabel = (label: string) => label.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();

function numberText(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const text = String(value);
  return /e/i.test(text) ? new Decimal(value).toFixed() : text;
}

/** Our own download writes a leading apostrophe before a formula-like text: it is taken off again. */
function textValue(text: string): string {
  return text.length > 1 && text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** One cell as the grid's string cell. */
export function cellText(value: ExcelJS.CellValue | undefined, type: SalesColumnType): string {
  if (value == null) return "";
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return textValue(value);
  if (value instanceof Date) {
    if (type === "year") return String(value.getUTCFullYear());
    if (type === "month") return MONTHS[value.getUTCMonth()];
    return value.toISOString().slice(0, 10);
  }
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) return textValue(value.richText.map((part) => part.text).join(""));
    if ("formula" in value || "sharedFormula" in value) return cellText((value as { result?: ExcelJS.CellValue }).result, type);
    if ("text" in value) return cellText((value as { text: ExcelJS.CellValue }).text, type);
    if ("error" in value) return String((value as { error: unknown }).error);
  }
  return String(value);
}

export type ReadSalesWorkbookResult =
  | {
      ok: true;
      /** Every row under the header, empty ones included: row n of the list is row n + 1 of its sheet. */
      rows: Record<SalesKind, SalesRowInput[]>;
    }
  | { ok: false; problems: UploadProblem[] };

export const UPLOAD_MESSAGES = {
  unreadable: "The file could not be read as an Excel workbook (.xlsx).",
  missingSheet: "The workbook has no sheet {{sheet}}.",
  missingColumns: "Sheet {{sheet}}: these columns are missing from the first row: {{columns}}",
  tooManyRows: "Sheet {{sheet}} has more than {{max}} rows.",
} as const;

const MAX_UPLOAD_ROWS = 100_000;

/** Reads an uploaded workbook of the download's layout (non-streaming: uploads are at most 10 MB). */
export async function readSalesWorkbook(buffer: ArrayBuffer | Uint8Array | Buffer): Promise<ReadSalesWorkbookResult> {
  const workbook = new ExcelJS.Workbook();
  try {
    const bytes = Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer));
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    return { ok: false, problems: [{ message: UPLOAD_MESSAGES.unreadable }] };
  }

  const problems: UploadProblem[] = [];
  const rows: Record<SalesKind, SalesRowInput[]> = { API: [], FDF: [] };
  for (const kind of SALES_KINDS) {
    const sheet = workbook.worksheets.find((candidate) => comparableLabel(candidate.name) === kind.toLowerCase());
    if (!sheet) {
      problems.push({ message: UPLOAD_MESSAGES.missingSheet, values: { sheet: kind }, sheet: kind });
      continue;
    }
    const columns = columnsFor(kind);
    const byLabel = new Map<string, SalesColumn>();
    for (const column of columns) {
      byLabel.set(comparableLabel(column.label), column);
      byLabel.set(comparableLabel(column.key), column);
    }
    const positions = new Map<string, number>();
    sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, columnNumber) => {
      const column = byLabel.get(comparableLabel(cellText(cell.value, "text")));
      if (column && !positions.has(column.key)) positions.set(column.key, columnNumber);
    });
    const missing = columns.filter((column) => !positions.has(column.key));
    if (missing.length) {
      problems.push({
        message: UPLOAD_MESSAGES.missingColumns,
        values: { sheet: kind, columns: missing.map((column) => column.label).join(", ") },
        sheet: kind,
        row: 1,
        columns: missing.map((column) => column.label),
      });
      continue;
    }
    const lastRow = sheet.actualRowCount === 0 ? 0 : sheet.rowCount;
    if (lastRow - 1 > MAX_UPLOAD_ROWS) {
      problems.push({ message: UPLOAD_MESSAGES.tooManyRows, values: { sheet: kind, max: MAX_UPLOAD_ROWS }, sheet: kind });
      continue;
    }
    const kindRows: SalesRowInput[] = [];
    for (let rowNumber = 2; rowNumber <= lastRow; rowNumber++) {
      const row = sheet.getRow(rowNumber);
      const cells: Record<string, string> = {};
      for (const column of columns) cells[column.key] = cellText(row.getCell(positions.get(column.key)!).value, column.type);
      kindRows.push(cells);
    }
    // Trailing empty rows (formatted but blank) say nothing.
    while (kindRows.length && columns.every((column) => !(kindRows[kindRows.length - 1][column.key] ?? "").trim())) kindRows.pop();
    rows[kind] = kindRows;
  }
  return problems.length ? { ok: false, problems } : { ok: true, rows };
}
