/**
 * The downloads of the Development Timeline consolidated report: every row the filters match, by
 * company, product and stage. The matching rows are counted per report, then groups of whole
 * reports are read in company order, each group in keyset batches of DOWNLOAD_BATCH_ROWS, so memory
 * stays flat whatever the row count.
 */
import { and, asc, count, desc, eq, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, reports, stages } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import { batched, DOWNLOAD_BATCH_ROWS, tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import type { WorkbookCell, WorkbookColumn } from "~/reports/frame/workbook.server";
import { formatPdtDate } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { pdtSortOf, type PdtConsolidatedRow, type PdtQuery } from "./consolidated.server";
import {
  PARTNER_PRODUCT,
  reportFilters,
  resolveReportQuarter,
  rowFilters,
  selectRows,
  withEarlierPlans,
  type ResolvedQuarter,
  type SelectedRow,
} from "./consolidated-rows.server";

/** Where a download's keyset batch resumes: the last row's company and partner, product (by name) and stage (by its place). */
interface RowKey {
  companyName: string;
  partnerId: number;
  productName: string;
  productId: number;
  stageOrder: number;
  stageId: number;
}

/** Consecutive reports whose matching rows add up to one batch at most (a larger report alone). */
function reportGroups(list: readonly { id: number; rows: number }[]): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let size = 0;
  for (const report of list) {
    if (current.length && size + report.rows > DOWNLOAD_BATCH_ROWS) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(report.id);
    size += report.rows;
  }
  if (current.length) groups.push(current);
  return groups;
}

/**
 * Every row the filters match, for a download, by company (the direction of `?dir` when sorted
 * by company), product and stage; the page's other sorts apply to the page only. The quarter's
 * matching reports are counted first (one pass over the pdt_values index), then read a group of
 * whole reports per query, keyset batches of DOWNLOAD_BATCH_ROWS within a larger report.
 */
async function* pdtConsolidatedRows(query: PdtQuery, resolved?: ResolvedQuarter): AsyncGenerator<PdtConsolidatedRow> {
  const { quarter, earlier } = resolved ?? (await resolveReportQuarter(query));
  const descending = pdtSortOf(query) === "company" && query.dir === "desc";
  const company = descending ? [desc(partners.companyName), desc(partners.id)] : [asc(partners.companyName), asc(partners.id)];
  const reportList = await db
    .select({ id: reports.id, rows: count() })
    .from(reports)
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(pdtValues, eq(pdtValues.reportId, reports.id))
    .leftJoin(partnerProducts, PARTNER_PRODUCT)
    .where(and(...reportFilters(query, quarter.id), ...rowFilters(query)))
    .groupBy(reports.id, partners.companyName, partners.id)
    .orderBy(...company);
  const head = sql`(${partners.companyName}, ${partners.id})`;
  const tail = sql`(${products.name}, ${products.id}, ${stages.sortOrder}, ${stages.id})`;
  const after = (key: RowKey) =>
    or(
      sql`${head} ${descending ? sql`<` : sql`>`} (${key.companyName}, ${key.partnerId})`,
      and(sql`${head} = (${key.companyName}, ${key.partnerId})`, sql`${tail} > (${key.productName}, ${key.productId}, ${key.stageOrder}, ${key.stageId})`),
    );
  for (const group of reportGroups(reportList)) {
    const rows = batched(
      (key: RowKey | null) =>
        selectRows()
          .where(and(idIn(pdtValues.reportId, group), ...rowFilters(query), key ? after(key) : undefined))
          .orderBy(...company, asc(products.name), asc(products.id), asc(stages.sortOrder), asc(stages.id))
          .limit(DOWNLOAD_BATCH_ROWS),
      (row): RowKey => ({
        companyName: row.companyName,
        partnerId: row.partnerId,
        productName: row.productName,
        productId: row.productId,
        stageOrder: row.stageOrder,
        stageId: row.stageId,
      }),
    );
    // The earlier quarters' plans are read a batch at a time.
    let batch: SelectedRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length === DOWNLOAD_BATCH_ROWS) {
        yield* await withEarlierPlans(batch, earlier);
        batch = [];
      }
    }
    if (batch.length) yield* await withEarlierPlans(batch, earlier);
  }
}

/** A download's header: the fixed columns, then a start and an end date per quarter of `quarterOrder`. */
function pdtDownloadColumns(quarterOrder: readonly string[]): WorkbookColumn[] {
  return [
    { key: "companyName", label: "Company Name" },
    { key: "productName", label: "Product" },
    { key: "stageName", label: "Stage" },
    { key: "status", label: "Status" },
    { key: "reportStatus", label: "Report Status" },
    ...quarterOrder.flatMap((name, index) => [
      { key: `startDate${index}`, label: `Start Date (${name})` },
      { key: `endDate${index}`, label: `End Date (${name})` },
    ]),
  ];
}

const excelDate = (iso: string | null): WorkbookCell => (iso ? new Date(`${iso}T00:00:00Z`) : null);

/** A row's cells in the order of `pdtDownloadColumns`: dates as MM/DD/YYYY text (CSV) or Excel dates (xlsx). */
function pdtDownloadCells(row: PdtConsolidatedRow, format: DownloadFormat): WorkbookCell[] {
  const date = format === "csv" ? (iso: string | null) => formatPdtDate(iso) : excelDate;
  return [
    row.companyName,
    row.productName,
    row.stageName,
    row.status ? PROJECT_STATUS_LABELS[row.status] : "",
    row.reportStatus,
    ...row.dates.flatMap((pair) => [date(pair.startDate), date(pair.endDate)]),
  ];
}

/**
 * A download of the rows the filters match: the quarter is resolved first (an unknown or future
 * one is a WorkflowError 404 before anything is sent), then the rows stream as cells.
 */
export async function pdtConsolidatedDownload(query: PdtQuery, format: DownloadFormat): Promise<Response> {
  const resolved = await resolveReportQuarter(query);
  const quarterOrder = [...resolved.earlier.map((q) => q.name), resolved.quarter.name];
  async function* cells() {
    for await (const row of pdtConsolidatedRows(query, resolved)) yield pdtDownloadCells(row, format);
  }
  return tableDownload(format, { basename: "pdt-report", sheet: "PDT" }, pdtDownloadColumns(quarterOrder), cells());
}
