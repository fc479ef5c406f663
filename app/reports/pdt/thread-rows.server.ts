import { sql } from "drizzle-orm";
import { selectRows, type Database } from "~/db/client.server";
import { partnerProducts, pdtValues, products, reports, stages } from "~/db/schema";
import type { ThreadRow } from "~/reports/frame/workflow.server";
import { PDT_TABLE } from "./contract";

/**
 * Timeline rows as threads name them: the row's number in the grid (the partner's active products
 * by name, each with its category's stages in order, as the screen lists them) and its product and
 * stage. A stage whose product left the partner's list is no longer a row.
 */
export async function pdtThreadRows(executor: Pick<Database, "execute">, reportId: number, rowIds: readonly number[]): Promise<ThreadRow[]> {
  const rows = await selectRows<{ id: number; row: number; label: string }>(
    sql`
    select numbered.id, numbered.row, numbered.label from (
      select v.id,
        row_number() over (order by ${products.name}, ${products.id}, ${stages.sortOrder})::int as row,
        concat_ws(' · ', ${products.name}, ${stages.name}) as label
      from ${reports} r
      join ${partnerProducts} pp on pp.partner_id = r.partner_id and pp.is_active
      join ${products} on ${products.id} = pp.product_id and ${products.isActive}
      join ${stages} on ${stages.category} = ${products.category}
      left join ${pdtValues} v on v.report_id = r.id and v.product_id = ${products.id} and v.stage_id = ${stages.id}
      where r.id = ${reportId}
    ) numbered
    where numbered.id in (${sql.join(
      rowIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
    executor,
  );
  return rows.map((row) => ({ id: Number(row.id), table: PDT_TABLE, row: Number(row.row), label: row.label }));
}
