/**
 * The Sales Report's changes to explain: for each table, product and country, the sales value and
 * quantity of the saved rows against the partner's report of the previous quarter and of the same
 * quarter a year before. A change beyond the Settings' percentage (a line that appears counts as one),
 * on a line whose value reaches the floor in one of the two quarters, is a line to explain. A report
 * without rows, or a quarter the partner did not report on, is not compared. One statement, the
 * partner's reasons with it.
 */
import { sql } from "drizzle-orm";
import { selectRows, type Database } from "~/db/client.server";
import { countries, products, quarters, reportExplanations, reports, salesRows } from "~/db/schema";
import { swingThresholdsSql } from "~/models/settings.server";
import { EXPLANATION_MESSAGES, type ExplainedChange, type ExplanationText } from "~/reports/frame/explanations";
import type { ReportChecksInput } from "~/reports/frame/workflow.server";
import { columnLabel, type SalesKind } from "./columns";

const LINE_MESSAGE = "{{product}} in {{country}} ({{table}})";

interface SwingRow extends Record<string, unknown> {
  subject: string;
  reason: string | null;
  kind: SalesKind;
  product_id: number;
  country_id: number;
  product: string;
  country: string;
  quarter: string;
  value_now: string;
  value_before: string;
  value_change: string | null;
  value_down: boolean;
  value_off: boolean;
  quantity_now: string;
  quantity_before: string;
  quantity_change: string | null;
  quantity_down: boolean;
  quantity_off: boolean;
}

/** One measure's change as its sentence: up, down, or (nothing before) appeared. */
function changeText(row: SwingRow, measure: "value" | "quantity"): ExplanationText {
  const values = {
    measure: columnLabel(row.kind, measure === "value" ? "totalValue" : "quantity"),
    quarter: row.quarter,
    now: row[`${measure}_now`],
    before: row[`${measure}_before`],
  };
  const change = row[`${measure}_change`];
  if (change === null) return { message: EXPLANATION_MESSAGES.appeared, values };
  return { message: row[`${measure}_down`] ? EXPLANATION_MESSAGES.down : EXPLANATION_MESSAGES.up, values: { ...values, change } };
}

export async function salesChangesToExplain(
  executor: Pick<Database, "execute">,
  { reportId, partnerId, quarterId }: ReportChecksInput,
): Promise<ExplainedChange[]> {
  const { percent, floorUsd } = swingThresholdsSql;
  const beyond = (now: string, before: string) =>
    sql`(${sql.raw(now)} <> ${sql.raw(before)} and (${sql.raw(before)} = 0 or abs(${sql.raw(now)} - ${sql.raw(before)}) * 100 > abs(${sql.raw(before)}) * ${percent}))`;
  const change = (now: string, before: string) =>
    sql`trim_scale(round(abs(${sql.raw(now)} - ${sql.raw(before)}) * 100 / nullif(abs(${sql.raw(before)}), 0)))::text`;
  const rows = await selectRows<SwingRow>(
    sql`
    with this_quarter as (select ${quarters.year} * 4 + ${quarters.quarter} as position from ${quarters} where ${quarters.id} = ${quarterId}),
    compared as (
      select ${reports.id} as report_id, ${quarters.id} as quarter_id, ${quarters.name} as quarter,
        ${quarters.year} * 4 + ${quarters.quarter} as position
      from ${quarters} join this_quarter t on ${quarters.year} * 4 + ${quarters.quarter} in (t.position - 1, t.position - 4)
      join ${reports} on ${reports.quarterId} = ${quarters.id} and ${reports.partnerId} = ${partnerId} and ${reports.type} = 'sales'
      where exists (select 1 from ${salesRows} x where x.report_id = ${reports.id})
    ),
    now_lines as (
      select kind, product_id, country_id, sum(total_value) as value, sum(quantity) as quantity
      from ${salesRows} where report_id = ${reportId} and product_id is not null and country_id is not null
      group by kind, product_id, country_id
    ),
    before_lines as (
      select c.quarter_id, s.kind, s.product_id, s.country_id, sum(s.total_value) as value, sum(s.quantity) as quantity
      from compared c join ${salesRows} s on s.report_id = c.report_id
      where s.product_id is not null and s.country_id is not null
      group by c.quarter_id, s.kind, s.product_id, s.country_id
    ),
    line_keys as (
      select kind, product_id, country_id from now_lines union select kind, product_id, country_id from before_lines
    ),
    pairs as (
      select c.quarter, c.position, k.kind, k.product_id, k.country_id,
        coalesce(n.value, 0) as v_now, coalesce(b.value, 0) as v_before, coalesce(n.quantity, 0) as q_now, coalesce(b.quantity, 0) as q_before
      from compared c cross join line_keys k
      left join now_lines n on n.kind = k.kind and n.product_id = k.product_id and n.country_id = k.country_id
      left join before_lines b on b.quarter_id = c.quarter_id and b.kind = k.kind and b.product_id = k.product_id and b.country_id = k.country_id
      where exists (select 1 from ${salesRows} where report_id = ${reportId})
    )
    select 'sales:' || p.kind || ':' || p.product_id || ':' || p.country_id as subject, ${reportExplanations.reason} as reason,
      p.kind, p.product_id, p.country_id, ${products.name} as product, ${countries.name} as country, p.quarter,
      trim_scale(p.v_now)::text as value_now, trim_scale(p.v_before)::text as value_before, ${change("p.v_now", "p.v_before")} as value_change,
      p.v_now < p.v_before as value_down,      ${beyond("p.v_now", "p.v_before")} as value_off,
      trim_scale(p.q_now)::text as quantity_now, trim_scale(p.q_before)::text as quantity_before, ${change("p.q_now", "p.q_before")} as quantity_change,
      p.q_now < p.q_before as quantity_down,      ${beyond("p.q_now", "p.q_before")} as quantity_off
    from pairs p
    join ${products} on ${products.id} = p.product_id
    join ${countries} on ${countries.id} = p.country_id
    left join ${reportExplanations} on ${reportExplanations.reportId} = ${reportId}
      and ${reportExplanations.subject} = 'sales:' || p.kind || ':' || p.product_id || ':' || p.country_id
    where greatest(abs(p.v_now), abs(p.v_before)) >= ${floorUsd}
      and (${beyond("p.v_now", "p.v_before")} or ${beyond("p.q_now", "p.q_before")})
    order by ${products.name}, ${countries.name}, p.kind, p.position desc`,
    executor,
  );
  const lines = new Map<string, ExplainedChange>();
  for (const row of rows) {
    let line = lines.get(row.subject);
    if (!line) {
      line = {
        subject: row.subject,
        line: { message: LINE_MESSAGE, values: { product: row.product, country: row.country, table: row.kind } },
        changes: [],
        reason: row.reason,
      };
      lines.set(row.subject, line);
    }
    if (row.value_off) line.changes.push(changeText(row, "value"));
    if (row.quantity_off) line.changes.push(changeText(row, "quantity"));
  }
  return [...lines.values()];
}
