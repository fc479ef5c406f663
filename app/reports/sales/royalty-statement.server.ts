/**
 * A partner's quarterly royalty statement: the Royalty Due its FDF rows report against what its
 * licence terms expect (net value × the country's rate, else the default rate, rounded to the cent
 * per row), by product and country, with the difference. A country outside the territory, or a
 * product without licence terms, has no rate: nothing is expected and no difference is counted.
 */
import { sql, type SQL } from "drizzle-orm";
import { selectRows } from "~/db/client.server";
import { countries, licenceCountryTerms, licenceTerms, products, salesRows } from "~/db/schema";
import { tableDownload, type DownloadFormat } from "~/reports/consolidated/download.server";
import type { WorkbookCell, WorkbookColumn } from "~/reports/frame/workbook.server";
import { asciiDownloadFileName } from "~/utils/download-names";

export interface RoyaltyStatementLine {
  product: string;
  /** null: rows without a country. */
  country: string | null;
  netValue: string;
  reported: string;
  /** The licence's rate in percent; null when there is none (no terms, or outside the territory). */
  rate: string | null;
  expected: string | null;
  /** Reported minus expected. */
  difference: string | null;
}

export interface RoyaltyStatement {
  lines: RoyaltyStatementLine[];
  /** The sums; expected and difference over the lines with a rate. */
  totals: Omit<RoyaltyStatementLine, "product" | "country" | "rate">;
}

/**
 * An FDF row's licence rate and the Royalty Due it expects, for every reader of royalties (this
 * statement, the dashboard's Royalties): `joins` follows the sales rows in a FROM and brings in the
 * partner's licence terms; `rate` is then the country's rate, none when the country is outside the
 * territory or the product has no terms, else the default rate; `expected` is net value × rate,
 * rounded to the cent per row (null without a rate).
 */
export function licenceRoyalty(row: { partnerId: SQL | number; productId: SQL; countryId: SQL; netValue: SQL }) {
  const rate = sql`case when ${licenceCountryTerms.isLicensed} = false then null else coalesce(${licenceCountryTerms.royaltyRate}, ${licenceTerms.royaltyRate}) end`;
  return {
    joins: sql`left join ${licenceTerms} on ${licenceTerms.partnerId} = ${row.partnerId} and ${licenceTerms.productId} = ${row.productId}
      left join ${licenceCountryTerms} on ${licenceCountryTerms.licenceTermId} = ${licenceTerms.id} and ${licenceCountryTerms.countryId} = ${row.countryId}`,
    rate,
    expected: sql`round(${row.netValue} * ${rate} / 100, 2)`,
  };
}

/** The statement of a Sales Report's saved FDF rows, in one statement (its lines and their total). */
export async function royaltyStatement(reportId: number, partnerId: number): Promise<RoyaltyStatement> {
  const royalty = licenceRoyalty({ partnerId, productId: sql`s.product_id`, countryId: sql`s.country_id`, netValue: sql`s.total_value` });
  const rows = await selectRows<Record<string, string | null>>(sql`
    with lines as (
      select ${products.name} as product, ${countries.name} as country, s.total_value, s.royalty_due, ${royalty.rate} as rate,
        ${royalty.expected} as expected
      from ${salesRows} s
      join ${products} on ${products.id} = s.product_id
      left join ${countries} on ${countries.id} = s.country_id
      ${royalty.joins}
      where s.report_id = ${reportId} and s.kind = 'FDF'
    )
    select product, country, trim_scale(rate)::text as rate, grouping(product) as is_total,
      trim_scale(sum(total_value))::text as net_value, trim_scale(sum(royalty_due))::text as reported,
      trim_scale(sum(expected))::text as expected, trim_scale(sum(royalty_due - expected))::text as difference
    from lines
    group by grouping sets ((product, country, rate), ())
    order by is_total, product, country nulls last`);
  const figures = (row: Record<string, unknown>) => ({
    netValue: String(row.net_value ?? "0"),
    reported: String(row.reported ?? "0"),
    expected: (row.expected as string | null) ?? null,
    difference: (row.difference as string | null) ?? null,
  });
  const total = rows.find((row) => Number(row.is_total) === 1);
  return {
    lines: rows
      .filter((row) => Number(row.is_total) !== 1)
      .map((row) => ({ product: String(row.product), country: row.country ?? null, rate: row.rate ?? null, ...figures(row) })),
    totals: total ? figures(total) : { netValue: "0", reported: "0", expected: null, difference: null },
  };
}

const STATEMENT_COLUMNS: readonly WorkbookColumn[] = [
  { key: "product", label: "Product" },
  { key: "country", label: "Country" },
  { key: "netValue", label: "Total Net Sales Value" },
  { key: "reported", label: "Royalty Due (reported)" },
  { key: "rate", label: "Licence rate (%)" },
  { key: "expected", label: "Royalty Due (licence)" },
  { key: "difference", label: "Difference" },
];

/**
 * The statement as a file: a line per product and country, then the total line. Figures are written
 * as numbers (a negative difference is a figure, not text a spreadsheet could run as a formula).
 */
export function royaltyStatementDownload(statement: RoyaltyStatement, name: { partner: string; quarter: string }, format: DownloadFormat): Response {
  const figure = (value: string | null): WorkbookCell => (value === null ? null : Number(value));
  async function* cells() {
    for (const line of statement.lines)
      yield [line.product, line.country, figure(line.netValue), figure(line.reported), figure(line.rate), figure(line.expected), figure(line.difference)];
    const { totals } = statement;
    yield ["Total", null, figure(totals.netValue), figure(totals.reported), null, figure(totals.expected), figure(totals.difference)];
  }
  const stem = asciiDownloadFileName({ report: "royalty-statement", ...name, extension: format }).replace(/\.\w+$/, "");
  return tableDownload(format, { basename: stem, sheet: "Royalty Statement" }, STATEMENT_COLUMNS, cells());
}
