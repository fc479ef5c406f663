/**
 * The partners' mean FDF prices per pack kept in sales_price_means, where the peer-price rule reads
 * the other partners' medians (app/reports/sales/checks.server.ts): refreshed set-wise from the rows
 * of the Sales Reports of a scope (a partner in a quarter after its save, a quarter for the seed,
 * the benchmark data or a backfill).
 */
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Database, type Transaction } from "~/db/client.server";
import { reports, salesPriceMeans, salesRows } from "~/db/schema";
import type { ChecksScope } from "~/jobs/queue.server";
import { salesReportsIn } from "./checks.server";

/** The stored means of a scope (`m`). */
function meansIn(scope: ChecksScope): SQL {
  return sql.join(
    [
      sql`true`,
      ...(scope.partnerId === undefined ? [] : [sql`m.partner_id = ${scope.partnerId}`]),
      ...(scope.quarterId === undefined ? [] : [sql`m.quarter_id = ${scope.quarterId}`]),
    ],
    sql` and `,
  );
}

/**
 * Replaces the stored means of the scope with those of its Sales Reports' rows (a line per product
 * and country, and one per product over all its rows), in one statement; answers the quarters whose
 * means changed (their other partners' findings may have changed with them).
 */
export async function refreshSalesPriceMeans(scope: ChecksScope, executor: Database | Transaction): Promise<number[]> {
  const sameLine = sql`f.quarter_id = m.quarter_id and f.partner_id = m.partner_id and f.product_id = m.product_id`;
  const rows = await selectRows<{ quarter_id: number }>(
    sql`
    with fresh as (
      select r.quarter_id, s.product_id, case when grouping(s.country_id) = 0 then s.country_id end as country_id, r.partner_id,
        avg(s.gross_sale_price_usd) as mean_price_usd, count(*)::int as row_count
      from ${reports} r join ${salesRows} s on s.report_id = r.id
      where ${salesReportsIn(scope)} and s.kind = 'FDF' and s.product_id is not null and s.gross_sale_price_usd > 0
      group by grouping sets ((r.quarter_id, r.partner_id, s.product_id, s.country_id), (r.quarter_id, r.partner_id, s.product_id))
      -- Rows without a country count in the product's line only.
      having grouping(s.country_id) = 1 or s.country_id is not null
    ),
    stored as (select * from ${salesPriceMeans} m where ${meansIn(scope)}),
    removed as (
      delete from ${salesPriceMeans} m where ${meansIn(scope)}
        and not exists (select 1 from fresh f where ${sameLine} and f.country_id is not distinct from m.country_id)
    ),
    written as (
      insert into ${salesPriceMeans} as m (quarter_id, product_id, country_id, partner_id, mean_price_usd, row_count)
      select quarter_id, product_id, country_id, partner_id, mean_price_usd, row_count from fresh
      on conflict (quarter_id, product_id, country_id, partner_id) do update
        set mean_price_usd = excluded.mean_price_usd, row_count = excluded.row_count
        where (m.mean_price_usd, m.row_count) is distinct from (excluded.mean_price_usd, excluded.row_count)
    )
    select distinct coalesce(f.quarter_id, m.quarter_id) as quarter_id
    from fresh f full join stored m on ${sameLine} and coalesce(f.country_id, 0) = coalesce(m.country_id, 0)
    where f.quarter_id is null or m.quarter_id is null or f.mean_price_usd <> m.mean_price_usd`,
    executor,
  );
  return rows.map((row) => Number(row.quarter_id));
}
