import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "~/db/client.server";
import { rowsOfResult } from "./database";

/** What every grain of dashboard_sales should hold: a GROUP BY over the sales rows, same definitions. */
const SALES_GRAINS: Record<string, { keys: string; time: boolean }> = {
  product_partner: { keys: "product_id, partner_id, 0, 0, 0", time: false },
  product_country: { keys: "product_id, 0, country_id, 0, 0", time: false },
  partner_country: { keys: "0, partner_id, country_id, 0, 0", time: false },
  product_month: { keys: "product_id, 0, 0, year, month", time: true },
  partner_month: { keys: "0, partner_id, 0, year, month", time: true },
  country_month: { keys: "0, 0, country_id, year, month", time: true },
  month: { keys: "0, 0, 0, year, month", time: true },
};

const normalised = (result: unknown) =>
  rowsOfResult(result)
    .map((row) =>
      Object.values(row)
        .map((value) => (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? new Decimal(value).toFixed() : String(value)))
        .join("|"),
    )
    .sort();

/**
 * Every grain of dashboard_sales (and dashboard_filings) against a GROUP BY over the rows of active
 * partners: once over every report (approved_only false), once over approved reports (true).
 */
export async function expectAggregatesMatchRows() {
  for (const [grain, { keys, time }] of Object.entries(SALES_GRAINS)) {
    const expected = await db.execute(
      sql.raw(`
        WITH counted AS (
          SELECT scope.approved_only, s.product_id, r.partner_id, coalesce(s.country_id, 0) AS country_id, s.year, s.month,
            CASE WHEN s.kind = 'FDF' THEN coalesce(s.pack_size * s.quantity, 0) ELSE 0 END AS units,
            coalesce(CASE WHEN s.kind = 'FDF' THEN s.total_gross_value ELSE s.total_value END, 0) AS value_usd,
            (s.kind = 'FDF' AND s.total_gross_value IS NOT NULL AND s.quantity > 0 AND s.pack_size > 0) AS priced,
            s.total_gross_value, s.quantity, s.pack_size
          FROM sales_rows s JOIN reports r ON r.id = s.report_id JOIN partners p ON p.id = r.partner_id
          CROSS JOIN (VALUES (false), (true)) AS scope(approved_only)
          WHERE s.product_id IS NOT NULL AND p.is_active AND (NOT scope.approved_only OR r.status = 'Approved')
            ${time ? "AND s.year IS NOT NULL AND s.month IS NOT NULL" : ""}
        ), keyed AS (
          SELECT approved_only, ${keys
            .split(", ")
            .map((key, i) => `${key} AS k${i}`)
            .join(", ")}, units, value_usd, priced, total_gross_value, quantity, pack_size FROM counted
        )
        SELECT approved_only::text, k0::text, k1::text, k2::text, k3::text, k4::text,
          sum(units)::text AS units, sum(value_usd)::text AS value_usd,
          sum(CASE WHEN priced THEN total_gross_value ELSE 0 END)::text AS gross,
          sum(CASE WHEN priced THEN quantity ELSE 0 END)::text AS packs,
          sum(CASE WHEN priced THEN quantity * pack_size ELSE 0 END)::text AS priced_units,
          count(*)::text AS row_count
        FROM keyed GROUP BY approved_only, k0, k1, k2, k3, k4`),
    );
    const actual = await db.execute(
      sql`SELECT approved_only::text, product_id::text, partner_id::text, country_id::text, year::text, month::text, units::text, value_usd::text,
            priced_gross_usd::text, priced_packs::text, priced_units::text, row_count::text
          FROM dashboard_sales WHERE grain = ${grain}`,
    );
    expect(rowsOfResult(actual).length, grain).toBeGreaterThan(0);
    expect(normalised(actual), grain).toEqual(normalised(expected));
  }
  const expectedFilings = await db.execute(sql`
    SELECT r.quarter_id::text, scope.approved_only::text, f.status, f.product_id::text, f.country_id::text, count(*)::text
    FROM filing_values f JOIN reports r ON r.id = f.report_id JOIN partners p ON p.id = r.partner_id
    CROSS JOIN (VALUES (false), (true)) AS scope(approved_only)
    WHERE f.status <> '0' AND p.is_active AND (NOT scope.approved_only OR r.status = 'Approved')
    GROUP BY 1, 2, 3, 4, 5`);
  const actualFilings = await db.execute(
    sql`SELECT quarter_id::text, approved_only::text, status, product_id::text, country_id::text, partners::text FROM dashboard_filings`,
  );
  expect(rowsOfResult(actualFilings).length).toBeGreaterThan(0);
  expect(normalised(actualFilings), "filings").toEqual(normalised(expectedFilings));
}
