import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { filingValues, reports } from "~/db/schema";
import type { ThreadRow } from "~/reports/frame/workflow.server";
import { partnerActiveProducts } from "~/reports/sales/product-verification.server";
import { FILING_TABLE } from "./contract";
import { listFilingCountries } from "./model.server";

/**
 * Filing cells as threads name them: a stored row is one cell, so a thread is on a country's row
 * (numbered as the grid numbers it, every country by name) at one product; it reads "country ·
 * product". A cell whose product left the partner's list is no longer shown, so no longer a row.
 */
export async function filingThreadRows(executor: Pick<Database, "select">, reportId: number, rowIds: readonly number[]): Promise<ThreadRow[]> {
  const cells = await executor
    .select({ id: filingValues.id, countryId: filingValues.countryId, productId: filingValues.productId, partnerId: reports.partnerId })
    .from(filingValues)
    .innerJoin(reports, eq(reports.id, filingValues.reportId))
    .where(and(eq(filingValues.reportId, reportId), inArray(filingValues.id, [...rowIds])));
  if (cells.length === 0) return [];
  const [countryList, products] = await Promise.all([listFilingCountries(executor), partnerActiveProducts(cells[0].partnerId, executor)]);
  const countryAt = new Map(countryList.map((country, index) => [country.id, { row: index + 1, name: country.name }]));
  const productNames = new Map(products.map((product) => [product.id, product.name]));
  return cells.flatMap((cell) => {
    const country = countryAt.get(cell.countryId);
    const product = productNames.get(cell.productId);
    return country && product ? [{ id: cell.id, table: FILING_TABLE, row: country.row, label: `${country.name} · ${product}` }] : [];
  });
}
