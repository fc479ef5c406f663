/**
 * The filter lists of the Development Timeline consolidated report: the partners, products and
 * stages with rows in the quarter's PDT reports, kept under the reports' fingerprint, their names
 * read fresh; the fixed lists of statuses.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { partners, pdtValues, products, reports, stages } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import { REPORT_STATUS_OPTIONS, withSelected } from "~/reports/consolidated/filter-lists.server";
import { cachedUnder } from "~/reports/consolidated/quarter-cache.server";
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES } from "~/utils/project-status";
import type { PdtConsolidatedView, PdtQuery } from "./consolidated.server";

const byName = <T extends { name: string }>(a: T, b: T) => a.name.localeCompare(b.name);

/** The partners, products and stages with rows in the quarter's PDT reports. */
async function quarterFacets(quarterId: number) {
  const quarterReports = and(eq(reports.quarterId, quarterId), eq(reports.type, "pdt"));
  const hasRows = sql`exists (select 1 from ${pdtValues} where ${pdtValues.reportId} = ${reports.id})`;
  // A probe per product or stage (a sub-plan that stops at the first row found), rather than a
  // DISTINCT over every row of the quarter: the reference tables are small, the rows are many.
  const usedBy = (column: AnyPgColumn, id: AnyPgColumn) =>
    sql`(select 1 from ${reports} inner join ${pdtValues} on ${pdtValues.reportId} = ${reports.id} where ${quarterReports} and ${column} = ${id} limit 1) is not null`;
  const [partnerRows, productRows, stageRows] = await Promise.all([
    db.select({ id: reports.partnerId }).from(reports).where(and(quarterReports, hasRows)),
    db.select({ id: products.id }).from(products).where(usedBy(pdtValues.productId, products.id)),
    db.select({ id: stages.id }).from(stages).where(usedBy(pdtValues.stageId, stages.id)),
  ]);
  const ids = (rows: { id: number }[]) => rows.map((row) => row.id);
  return { partnerIds: ids(partnerRows), productIds: ids(productRows), stageIds: ids(stageRows) };
}

/**
 * The filters' choices, from the quarter's PDT rows (partners, products and stages that have
 * rows, kept under the reports' fingerprint; their names read fresh); a chosen id that has none
 * in this quarter stays listed, so the form still shows it.
 */
export async function filterOptions(
  query: PdtQuery,
  quarterId: number,
  fingerprint: Promise<string>,
): Promise<Omit<PdtConsolidatedView["options"], "quarter_filter">> {
  const facets = await cachedUnder(fingerprint, "pdt-facets", () => quarterFacets(quarterId));
  const partnerIds = withSelected(facets.partnerIds, query.partner);
  const productIds = withSelected(facets.productIds, query.product);
  const stageIds = withSelected(facets.stageIds, query.stage);
  const [partnerRows, productRows, stageRows] = await Promise.all([
    partnerIds.length
      ? db
          .select({ id: partners.id, name: partners.companyName })
          .from(partners)
          .where(idIn(partners.id, partnerIds))
          .orderBy(asc(partners.companyName), asc(partners.id))
      : [],
    productIds.length ? db.select({ id: products.id, name: products.name }).from(products).where(idIn(products.id, productIds)) : [],
    stageIds.length
      ? db.select({ id: stages.id, name: stages.name, category: stages.category, sortOrder: stages.sortOrder }).from(stages).where(idIn(stages.id, stageIds))
      : [],
  ]);
  return {
    partner_filter: partnerRows,
    product_filter: productRows.sort(byName),
    // Stages in their lifecycle order, FDF then API.
    stage_filter: stageRows
      .sort((a, b) => b.category.localeCompare(a.category) || a.sortOrder - b.sortOrder || a.id - b.id)
      .map(({ id, name }) => ({ id, name })),
    status_filter: PROJECT_STATUSES.map((id) => ({ id, name: PROJECT_STATUS_LABELS[id] })),
    report_status_filter: REPORT_STATUS_OPTIONS,
  };
}
