/**
 * Downloads of the consolidated reports, streamed from the database: rows come in batches (the
 * report's own keyset query) and leave as they are written, so memory stays flat whatever the row
 * count. CSV is UTF-8 with a byte-order mark (Excel then opens accents and Chinese correctly),
 * written by csv-stringify; the xlsx uses the workbook module's streaming writer. Cells a
 * spreadsheet would run as formulas are neutralised in both (decisions.md section 7).
 */
import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { logger } from "~/utils/logger.server";
import { neutraliseCell, workbookResponse, type WorkbookCell, type WorkbookColumn } from "~/reports/frame/workbook.server";

/** How many rows one keyset query of a download reads. */
export const DOWNLOAD_BATCH_ROWS = 2000;

/**
 * Every row of a keyset-paged query: `fetch(after)` returns the next batch after the last key seen
 * (null first); the batches end with a short one.
 */
export async function* batched<Row, Key>(fetch: (after: Key | null) => Promise<Row[]>, keyOf: (row: Row) => Key): AsyncGenerator<Row> {
  let after: Key | null = null;
  for (;;) {
    const rows = await fetch(after);
    yield* rows;
    if (rows.length < DOWNLOAD_BATCH_ROWS) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

const csvCell = (value: WorkbookCell): string => {
  if (value === null) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return typeof value === "string" ? neutraliseCell(value) : String(value);
};

/** Rows per CSV chunk: written as one string, so the stream moves chunks rather than single rows. */
const CSV_CHUNK_ROWS = 500;

/** The byte-order mark and the header line. */
const csvHeader = (columns: readonly WorkbookColumn[]) => stringify([], { bom: true, header: true, columns: columns.map((column) => column.label) });

/** A CSV download of `rows` (cells in the order of `columns`), streamed as it is written. */
export function csvResponse(filename: string, columns: readonly WorkbookColumn[], rows: AsyncIterable<readonly WorkbookCell[]>): Response {
  return csvBodyResponse(
    filename,
    (async function* () {
      yield csvHeader(columns);
      let chunk: string[][] = [];
      for await (const cells of rows) {
        chunk.push(cells.map(csvCell));
        if (chunk.length === CSV_CHUNK_ROWS) {
          yield stringify(chunk);
          chunk = [];
        }
      }
      if (chunk.length) yield stringify(chunk);
    })(),
  );
}

/** CSV lines the database wrote (COPY), after the byte-order mark and the header. */
export async function* withCsvHeader(columns: readonly WorkbookColumn[], lines: AsyncIterable<Uint8Array>): AsyncGenerator<string | Uint8Array> {
  yield csvHeader(columns);
  yield* lines;
}

/** A CSV download of a stream of text, sent as it comes. */
export function csvBodyResponse(filename: string, body: AsyncIterable<string | Uint8Array>): Response {
  const csv = Readable.from(body);
  csv.on("error", (error) => logger.error({ err: error, filename }, "csv download failed"));
  return new Response(createReadableStreamFromReadable(csv), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export type DownloadFormat = "csv" | "xlsx";

/** A table as the file asked for: `<basename>.csv`, or `<basename>.xlsx` with the rows on a sheet named `sheet`. */
export function tableDownload(
  format: DownloadFormat,
  { basename, sheet }: { basename: string; sheet: string },
  columns: readonly WorkbookColumn[],
  rows: AsyncIterable<readonly WorkbookCell[]>,
): Response {
  return format === "csv" ? csvResponse(`${basename}.csv`, columns, rows) : xlsxResponse(`${basename}.xlsx`, sheet, columns, rows);
}

/** The same rows as an xlsx workbook of one sheet (its Info sheet names the sheet and the export time), streamed. */
export function xlsxResponse(filename: string, sheet: string, columns: readonly WorkbookColumn[], rows: AsyncIterable<readonly WorkbookCell[]>): Response {
  return workbookResponse({ report: filename.replace(/\.xlsx$/, "") }, { info: { report: sheet }, sheets: [{ name: sheet, columns, rows }] });
}
