/**
 * The one home of a consolidated Sales Report cell's text: each grid column's cell is written in SQL
 * from a sales row and the lists it names, by the column's type (rows.ts). The page shows these
 * texts; both downloads write the same texts with formula-like text neutralised, whether PostgreSQL
 * streams them (COPY, a cursor) or the embedded database reads them in keyset batches, so the page
 * and the two files cannot disagree.
 *
 * Numbers stay decimal-exact: numeric columns are written as plain decimals without trailing zeros
 * (the text of storedNumberText, which the partner's grid shows).
 */
import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { MONTHS } from "~/db/reference-data";
import { countries, formulationTypes, products, salesRows } from "~/db/schema";
import { FORMULA_START_CHARACTERS, type WorkbookCell } from "~/reports/frame/workbook.server";
import { columnsFor, type SalesColumn, type SalesColumnKey, type SalesKind } from "~/reports/sales/columns";

/** The stored columns of a sales row that the cells and the filters read. */
export const storedColumns = {
  id: salesRows.id,
  reportId: salesRows.reportId,
  year: salesRows.year,
  month: salesRows.month,
  countryId: salesRows.countryId,
  purchaser: salesRows.purchaser,
  productId: salesRows.productId,
  productName: salesRows.productName,
  quantity: salesRows.quantity,
  totalValue: salesRows.totalValue,
  strength: salesRows.strength,
  formulationTypeId: salesRows.formulationTypeId,
  packSize: salesRows.packSize,
  currencyCode: salesRows.currencyCode,
  grossSalePriceCurrency: salesRows.grossSalePriceCurrency,
  usdExchangeRate: salesRows.usdExchangeRate,
  grossSalePriceUsd: salesRows.grossSalePriceUsd,
  totalGrossValue: salesRows.totalGrossValue,
  deductableExpenses: salesRows.deductableExpenses,
  royaltyPercent: salesRows.royaltyPercent,
  royaltyDue: salesRows.royaltyDue,
  procurementEndCountry: salesRows.procurementEndCountry,
  comments: salesRows.comments,
};

/** A sales row in a query: sales_rows itself, or a subquery of its stored columns. */
export type RowSource = Record<keyof typeof storedColumns, SQLWrapper>;

/** A query joined to the lists its rows name (country, product, formulation type), which the cells read. */
export function withListNames<Query extends PgSelect>(query: Query, row: RowSource) {
  return query
    .leftJoin(countries, eq(countries.id, row.countryId))
    .leftJoin(products, eq(products.id, row.productId))
    .leftJoin(formulationTypes, eq(formulationTypes.id, row.formulationTypeId));
}

const monthNames = sql`array[${sql.join(
  MONTHS.map((month) => sql`${month}`),
  sql`, `,
)}]`;

/** A grid column's cell as the grid shows it: a text, null when empty. */
function cellSql(column: SalesColumn<SalesColumnKey>, row: RowSource): SQL<string | null> {
  switch (column.type) {
    case "year":
      return sql`${row.year}::text`;
    case "month":
      return sql`(${monthNames})[${row.month}]`;
    case "number":
      return sql`trim_scale(${row[column.key as keyof RowSource]})::text`;
    case "country":
      return sql`${countries.name}`;
    case "product":
      return sql`coalesce(${products.name}, ${row.productName})`;
    case "formulation":
      return sql`${formulationTypes.name}`;
    case "currency":
      return sql`${row.currencyCode}`;
    case "text":
      return sql`${row[column.key as keyof RowSource]}`;
  }
}

/** Typed columns read as numbers in a spreadsheet; the others are texts a partner wrote or chose. */
const isNumeric = (column: SalesColumn) => column.type === "number" || column.type === "year";

/**
 * A text cell as the downloads write it, in SQL: empty as nothing, a formula-like text neutralised
 * as neutraliseCell does (the CSV and workbook writers leave a neutralised text as it is).
 */
function neutralisedSql(value: SQL<string | null>): SQL<string | null> {
  // Compared as code points (comparing one-letter texts took a sixth of the L FDF download's
  // COPY), and a text that starts past the last formula character (most start with a letter) is
  // written at once, after one comparison (another 30 ms off it).
  const codes = FORMULA_START_CHARACTERS.map((character) => character.codePointAt(0)!);
  const starts = sql.raw(codes.join(", "));
  const last = sql.raw(String(Math.max(...codes)));
  return sql`case when ascii(${value}) > ${last} then ${value} when ascii(${value}) in (${starts}) then '''' || ${value} else nullif(${value}, '') end`;
}

/** The page's cells of the tab, as select fields named by their column. */
export function pageCells(kind: SalesKind, row: RowSource): Record<string, SQL<string | null>> {
  return Object.fromEntries(columnsFor(kind).map((column) => [column.key, cellSql(column, row)]));
}

/** The downloads' cells of the tab, as select fields `c0`, `c1`… in the columns' order. */
export function downloadCells(kind: SalesKind, row: RowSource): Record<string, SQL.Aliased<string | null>> {
  return Object.fromEntries(
    columnsFor(kind).map((column, index) => {
      const cell = cellSql(column, row);
      return [`c${index}`, (isNumeric(column) || column.type === "month" ? cell : neutralisedSql(cell)).as(`c${index}`)];
    }),
  );
}

/** A plain decimal as an Excel number only when the number reads back as the same text. */
function spreadsheetNumber(text: string): WorkbookCell {
  if (text === "") return null;
  const trimmed = text.trim();
  const value = Number(trimmed);
  return Number.isFinite(value) && String(value) === trimmed ? value : text;
}

/** A download row's cells as the xlsx writes them: the year and the numbers typed where that is exact. */
export function xlsxCells(kind: SalesKind, [company, status, ...cells]: readonly (string | null)[]): WorkbookCell[] {
  const columns = columnsFor(kind);
  return [company, status, ...cells.map((cell, index) => (isNumeric(columns[index]) ? spreadsheetNumber(cell ?? "") : (cell ?? "")))];
}
