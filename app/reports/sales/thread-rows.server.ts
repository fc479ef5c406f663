import { sql } from "drizzle-orm";
import { selectRows, type Database } from "~/db/client.server";
import { countries, products, salesRows } from "~/db/schema";
import type { ThreadRow } from "~/reports/frame/workflow.server";

/**
 * Sales rows as threads name them: the table (API or FDF), the row's number there (the grid's
 * order, by id, as the Checks panel numbers rows) and its product, country and purchaser.
 */
export async function salesThreadRows(executor: Pick<Database, "execute">, reportId: number, rowIds: readonly number[]): Promise<ThreadRow[]> {
  const rows = await selectRows<{ id: number; table: string; row: number; label: string }>(
    sql`
    select numbered.id, numbered.kind as table, numbered.row,
      concat_ws(' · ', coalesce(${products.name}, numbered.product_name), ${countries.name}, nullif(numbered.purchaser, '')) as label
    from (
      select s.id, s.kind::text as kind, s.product_id, s.product_name, s.country_id, s.purchaser,
        row_number() over (partition by s.kind order by s.id)::int as row
      from ${salesRows} s where s.report_id = ${reportId}
    ) numbered
    left join ${products} on ${products.id} = numbered.product_id
    left join ${countries} on ${countries.id} = numbered.country_id
    where numbered.id in (${sql.join(
      rowIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
    executor,
  );
  return rows.map((row) => ({ id: Number(row.id), table: row.table, row: Number(row.row), label: row.label }));
}
