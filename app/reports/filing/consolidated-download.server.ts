/** The downloads of the Filing Plans consolidated report: the page's columns and every row of the query, all pages. */
import { asc, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { countries, filingValues, partners, reports } from "~/db/schema";
import { batched, DOWNLOAD_BATCH_ROWS, tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import { resolveQuarter } from "~/reports/frame/screen.server";
import type { WorkbookColumn } from "~/reports/frame/workbook.server";
import { groupsOf, namedRow, type RowKey } from "./consolidated-groups.server";
import { keptCellFacets, productColumns } from "./consolidated-options.server";
import type { FilingConsolidatedRow, FilingQuery } from "./consolidated.server";

/** The download's columns (the page's) and every row of the query, all pages, as cells in the columns' order. */
export async function filingConsolidatedDownload(query: FilingQuery, format: DownloadFormat): Promise<Response> {
  const quarter = await resolveQuarter(query.quarter);
  const productList = await productColumns((await keptCellFacets(quarter.id)).productIds);
  const columns: WorkbookColumn[] = [
    { key: "company", label: "Company Name" },
    { key: "country", label: "Country" },
    { key: "reportStatus", label: "Report Status" },
    ...productList.map((product) => ({ key: `product-${product.id}`, label: product.name })),
  ];
  async function* rows() {
    for await (const row of filingConsolidatedRows(query, quarter.id)) {
      yield [row.companyName, row.country, row.reportStatus, ...productList.map((product) => row.cells[String(product.id)] ?? null)];
    }
  }
  return tableDownload(format, { basename: "filing-plans", sheet: "Filing Plans" }, columns, rows());
}

/**
 * Every row of the query, all pages, in (report id, country id) order: keyset batches of
 * DOWNLOAD_BATCH_ROWS groups, each one query with its names and cells, so memory stays flat.
 */
export async function* filingConsolidatedRows(query: FilingQuery, quarterId?: number): AsyncGenerator<FilingConsolidatedRow> {
  const id = quarterId ?? (await resolveQuarter(query.quarter)).id;
  const fetch = async (after: RowKey | null): Promise<FilingConsolidatedRow[]> => {
    const groups = groupsOf(query, id, after).orderBy(reports.id, filingValues.countryId).limit(DOWNLOAD_BATCH_ROWS).as("groups");
    return db
      .select({
        ...namedRow(groups),
        cells: groups.cells,
      })
      .from(groups)
      .innerJoin(partners, eq(partners.id, groups.partnerId))
      .innerJoin(countries, eq(countries.id, groups.countryId))
      .orderBy(asc(groups.reportId), asc(groups.countryId));
  };
  yield* batched(fetch, (row): RowKey => ({ reportId: row.reportId, countryId: row.countryId }));
}
