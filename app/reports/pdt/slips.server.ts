/**
 * The Development Timeline's changes to explain: a stage whose planned end date moved more than a
 * quarter later than the partner's plan reported before, and a product whose last planned stage
 * ended by the quarter's end while its project status still says Planned or Under Development.
 * Rows carried over unchanged are not stored in the report, so they never count. One statement,
 * the partner's reasons with it.
 */
import { sql } from "drizzle-orm";
import { selectRows, type Database } from "~/db/client.server";
import { partnerProducts, pdtValues, products, quarters, reportExplanations, reports, stages } from "~/db/schema";
import type { ExplainedChange, ExplanationText } from "~/reports/frame/explanations";
import type { ReportChecksInput } from "~/reports/frame/workflow.server";
import { PROJECT_STATUS_LABELS, type ProjectStatus } from "~/utils/project-status";

const PDT_MESSAGES = {
  line: "{{product}}: {{stage}}",
  slipped: "Planned end date moved from {{from}} to {{to}}, more than a quarter later.",
  ended: "The timeline's last stage ended on {{to}}, but the project status is still {{status}}.",
} as const;

/** Project statuses that say the product is still on its way, which a timeline past its last stage contradicts. */
const STILL_ON_ITS_WAY: readonly ProjectStatus[] = ["PLANNED", "UNDER_DEVELOPMENT"];

interface SlipRow extends Record<string, unknown> {
  rule: "slipped" | "ended";
  subject: string;
  reason: string | null;
  product: string;
  stage: string;
  from: string | null;
  to: string;
  status: ProjectStatus | null;
}

function change(row: SlipRow): ExplanationText {
  if (row.rule === "slipped") return { message: PDT_MESSAGES.slipped, values: { from: row.from ?? "", to: row.to } };
  return { message: PDT_MESSAGES.ended, values: { to: row.to, status: row.status ? PROJECT_STATUS_LABELS[row.status] : "" } };
}

export async function pdtChangesToExplain(
  executor: Pick<Database, "execute">,
  { reportId, partnerId, quarterId }: ReportChecksInput,
): Promise<ExplainedChange[]> {
  const rows = await selectRows<SlipRow>(
    sql`
    with this_quarter as (
      select ${quarters.year} * 4 + ${quarters.quarter} as position, ${quarters.endDate} as end_date from ${quarters} where ${quarters.id} = ${quarterId}
    ),
    found as (
      select 'slipped' as rule, 'pdt:slipped:' || v.product_id || ':' || v.stage_id as subject, v.product_id, v.stage_id,
        before.end_date::text as from_date, v.end_date::text as to_date, null::text as status
      from ${pdtValues} v cross join this_quarter t
      join lateral (
        select p.end_date from ${pdtValues} p
        join ${reports} r on r.id = p.report_id join ${quarters} q on q.id = r.quarter_id
        where r.partner_id = ${partnerId} and r.type = 'pdt' and p.product_id = v.product_id and p.stage_id = v.stage_id
          and p.end_date is not null and q.year * 4 + q.quarter < t.position
        order by q.year desc, q.quarter desc limit 1
      ) before on true
      where v.report_id = ${reportId} and v.end_date > before.end_date + interval '3 months'
      union all
      select 'ended', 'pdt:ended:' || last_stage.product_id, last_stage.product_id, last_stage.stage_id, null, last_stage.end_date::text, pp.project_status::text
      from (
        select distinct on (v.product_id) v.product_id, v.stage_id, v.end_date
        from ${pdtValues} v where v.report_id = ${reportId} and v.end_date is not null
        order by v.product_id, v.end_date desc, v.stage_id
      ) last_stage
      cross join this_quarter t
      join ${partnerProducts} pp on pp.partner_id = ${partnerId} and pp.product_id = last_stage.product_id
      where last_stage.end_date <= t.end_date and pp.project_status in ${STILL_ON_ITS_WAY}
    )
    select f.rule, f.subject, ${reportExplanations.reason} as reason, ${products.name} as product, ${stages.name} as stage,
      f.from_date as from, f.to_date as to, f.status
    from found f
    join ${products} on ${products.id} = f.product_id
    join ${stages} on ${stages.id} = f.stage_id
    left join ${reportExplanations} on ${reportExplanations.reportId} = ${reportId} and ${reportExplanations.subject} = f.subject
    order by ${products.name}, ${stages.id}, f.rule desc`,
    executor,
  );
  return rows.map((row): ExplainedChange => ({
    subject: row.subject,
    line: { message: PDT_MESSAGES.line, values: { product: row.product, stage: row.stage } },
    changes: [change(row)],
    reason: row.reason,
  }));
}
