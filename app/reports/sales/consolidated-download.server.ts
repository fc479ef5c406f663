/**
 * The downloads of the consolidated Sales Report (spec section 7 `/report/sales/{x}/csv|xlsx`): every
 * filtered row in the default order (company, report, row), streamed. The rows are the same SELECT's
 * texts on either database (consolidated-cells.server.ts): PostgreSQL runs the whole download as one
 * statement on a connection of its own (COPY for the CSV, a cursor for the xlsx); the embedded
 * database reads keyset batches of DOWNLOAD_BATCH_ROWS, report by report.
 */
import { and, asc, gt, sql, type SQL } from "drizzle-orm";
import { db, streamedReads } from "~/db/client.server";
import { salesRows } from "~/db/schema";
import { OFFSET_ZERO } from "~/db/sql-pieces";
import {
  batched,
  csvBodyResponse,
  csvResponse,
  DOWNLOAD_BATCH_ROWS,
  withCsvHeader,
  xlsxResponse,
  type DownloadFormat,
} from "~/reports/consolidated/download.server";
import { neutraliseCell, type WorkbookColumn } from "~/reports/frame/workbook.server";
import type { SalesKind } from "~/reports/sales/columns";
import { downloadCells, storedColumns, withListNames, xlsxCells } from "./consolidated-cells.server";
import type { SalesConsolidatedQuery } from "./consolidated.server";
import { loadScope, reportRowConditions, type QuarterReport, type Scope } from "./consolidated-scope.server";
import { salesWorkbookColumns } from "./workbook.server";

/** A row of the file: company, report status, then the tab's cells, all as text (null: empty). */
type DownloadRow = (string | null)[];

/** The download's columns: Company Name, Report Status, then the grid's columns of the tab. */
function salesDownloadColumns(kind: SalesKind): WorkbookColumn[] {
  return [{ key: "companyName", label: "Company Name" }, { key: "reportStatus", label: "Report Status" }, ...salesWorkbookColumns(kind)];
}

/** A report's own cells of the file: its company (neutralised as the cells are) and its state. */
const reportCells = (report: QuarterReport) => [neutraliseCell(report.companyName), report.status];

/** The filtered rows of one report in id order, after `afterId`, at most `limit`. */
function reportRows(scope: Scope, report: QuarterReport, afterId: number, limit: number) {
  const cells = downloadCells(scope.kind, storedColumns);
  return withListNames(
    db
      .select({ id: salesRows.id, ...cells })
      .from(salesRows)
      .$dynamic(),
    storedColumns,
  )
    .where(and(reportRowConditions(scope, report.id), gt(salesRows.id, afterId)))
    .orderBy(asc(salesRows.id))
    .limit(limit)
    .then((rows) =>
      rows.map((row) => ({
        id: row.id,
        cells: [...reportCells(report), ...Object.keys(cells).map((key) => (row as Record<string, unknown>)[key] as string | null)],
      })),
    );
}

/**
 * Every filtered row, read in keyset batches of DOWNLOAD_BATCH_ROWS: each batch continues from the
 * last row seen, report by report. While a batch is written out, the next one is read: at most two
 * batches in memory.
 */
async function* batchRows(scope: Scope): AsyncGenerator<DownloadRow> {
  type Key = { index: number; id: number };
  type Entry = { cells: DownloadRow; key: Key };
  const read = async (after: Key | null): Promise<Entry[]> => {
    const batch: Entry[] = [];
    let index = after?.index ?? 0;
    let afterId = after?.id ?? 0;
    while (batch.length < DOWNLOAD_BATCH_ROWS && index < scope.selected.length) {
      const wanted = DOWNLOAD_BATCH_ROWS - batch.length;
      const rows = await reportRows(scope, scope.selected[index], afterId, wanted);
      for (const row of rows) batch.push({ cells: row.cells, key: { index, id: row.id } });
      if (rows.length === wanted) break;
      index += 1;
      afterId = 0;
    }
    return batch;
  };
  let ahead: { after: Key; batch: Promise<Entry[]> } | null = null;
  const fetch = async (after: Key | null): Promise<Entry[]> => {
    const batch = ahead && after && ahead.after.index === after.index && ahead.after.id === after.id ? ahead.batch : read(after);
    ahead = null;
    const entries = await batch;
    if (entries.length === DOWNLOAD_BATCH_ROWS) {
      const next = entries[entries.length - 1].key;
      ahead = { after: next, batch: read(next) };
      // A download given up before it is awaited must not be an unhandled rejection.
      ahead.batch.catch(() => undefined);
    }
    return entries;
  };
  for await (const { cells } of batched(fetch, (entry) => entry.key)) yield cells;
}

/** `array[…]::type` of the values, each its own parameter. */
const sqlArray = (values: readonly (string | number)[], type: "int[]" | "text[]") =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::${sql.raw(type)}`;

/**
 * The whole download as one SELECT whose rows are the file's, in the download's order. The selected
 * reports come as a list in their order (company, report), with the report's own cells; each
 * report's rows are read through its index and written in id order by a subquery of their own. The
 * list's ordinal is the only sort key: the planner keeps the list's order, and a nested loop over
 * the list writes each report's rows as its subquery orders them. Sorting every row instead
 * (company, report, row) took a fifth of the L API download's COPY.
 */
function downloadSelect(scope: Scope) {
  const { selected } = scope;
  const ids = sqlArray(
    selected.map((report) => report.id),
    "int[]",
  );
  const [companyCells, statuses] = [0, 1].map((index) =>
    sqlArray(
      selected.map((report) => reportCells(report)[index]),
      "text[]",
    ),
  );
  const reportList = sql`unnest(${ids}, ${companyCells}, ${statuses}) with ordinality as selected(report_id, company_cell, report_status, n)`;
  const cellFields = downloadCells(scope.kind, storedColumns);
  const cells = withListNames(db.select(cellFields).from(salesRows).$dynamic(), storedColumns)
    .where(reportRowConditions(scope, sql`selected.report_id`))
    .orderBy(asc(salesRows.id))
    .offset(OFFSET_ZERO)
    .as("cells");
  return db
    .select({
      company: sql`selected.company_cell`,
      status: sql`selected.report_status`,
      // The subquery's own columns (`cells.c0`…), which the builder gives by name.
      ...Object.fromEntries(Object.keys(cellFields).map((key) => [key, (cells as unknown as Record<string, SQL.Aliased>)[key]])),
    })
    .from(reportList)
    .crossJoinLateral(cells)
    .orderBy(sql`selected.n`)
    .toSQL();
}

/** The rows of a cursor's batches. */
async function* unbatched(batches: AsyncIterable<unknown[][]>): AsyncGenerator<DownloadRow> {
  for await (const batch of batches) yield* batch as DownloadRow[];
}

async function* asXlsxRows(kind: SalesKind, rows: AsyncIterable<DownloadRow>) {
  for await (const row of rows) yield xlsxCells(kind, row);
}

interface SalesDownload {
  /** The file, streamed. */
  response: (format: DownloadFormat) => Promise<Response>;
}

/**
 * A download of the filtered report: the quarter and the reports are resolved before the response
 * starts (an unknown quarter is a 404, not a broken file), then the rows stream.
 */
export async function openSalesDownload(query: SalesConsolidatedQuery): Promise<SalesDownload> {
  const scope = await loadScope(query);
  const kind = scope.kind;
  /** `sales-report-api` or `sales-report-fdf`. */
  const basename = `sales-report-${kind.toLowerCase()}`;
  const columns = salesDownloadColumns(kind);
  const streamed = scope.selected.length ? streamedReads() : null;
  return {
    async response(format) {
      if (streamed && format === "csv") return csvBodyResponse(`${basename}.csv`, withCsvHeader(columns, await streamed.copyCsv(downloadSelect(scope))));
      const rows = streamed ? unbatched(streamed.rows(downloadSelect(scope), DOWNLOAD_BATCH_ROWS)) : batchRows(scope);
      return format === "xlsx" ? xlsxResponse(`${basename}.xlsx`, kind, columns, asXlsxRows(kind, rows)) : csvResponse(`${basename}.csv`, columns, rows);
    },
  };
}
