/**
 * Royalties (dashboard tab 9, issue "Licence terms"): per partner, the Royalty Due its quarter's
 * Sales Report reports against what its licence terms expect, by the royalty statement's rule
 * (licenceRoyalty). Only approved reports of active partners count unless the administrator asks
 * for every report, as in the sales tabs.
 *
 * One statement over the FDF rows of one quarter: no aggregate table keeps these sums, so a page
 * reads the quarter's rows, and the tab shows one quarter at a time. At the benchmark's L size
 * (5M sales rows) a full quarter of 176,000 FDF rows takes 0.35-0.5 s; four quarters took seconds.
 */
import { sql } from "drizzle-orm";
import { selectRows } from "~/db/client.server";
import { partners, quarters, reports, salesRows } from "~/db/schema";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { tableWindow, type DashboardTable } from "~/reports/dashboard/tables";
import { queryHref } from "~/reports/consolidated/paging";
import { REPORT_REGISTRY } from "~/reports/frame/registry";
import { licenceRoyalty } from "~/reports/sales/royalty-statement.server";
import type { Quarter } from "../quarter.server";

const ROYALTIES_TABLE = "royalties";

interface RoyaltyLine extends Record<string, unknown> {
  partner_id: number;
  partner: string;
  quarter: string;
  net_value: string;
  reported: string;
  expected: string | null;
  difference: string | null;
  without_rate: number;
}

/**
 * 'Royalties: expected vs reported': a line per partner whose Sales Report of the quarter has FDF
 * rows, the largest difference (either way) first, lines without any rate last. Net value and
 * reported count every row; expected and the difference only the rows with a licence rate, as on
 * the statement.
 */
export async function royaltiesTable(quarter: Quarter, query: DashboardQuery, all = false): Promise<DashboardTable> {
  const royalty = licenceRoyalty({ partnerId: sql`r.partner_id`, productId: sql`s.product_id`, countryId: sql`s.country_id`, netValue: sql`s.total_value` });
  const lines = await selectRows<RoyaltyLine>(sql`
    with lines as (
      select r.partner_id, r.quarter_id, s.total_value, s.royalty_due, ${royalty.rate} as rate, ${royalty.expected} as expected
      from ${reports} r
      join ${partners} on ${partners.id} = r.partner_id
      join ${salesRows} s on s.report_id = r.id and s.kind = 'FDF' and s.product_id is not null
      ${royalty.joins}
      where r.type = 'sales' and r.quarter_id = ${quarter.id} and ${partners.isActive} ${query.unapproved ? sql`` : sql`and r.status = 'Approved'`}
    ), per_report as (
      select partner_id, quarter_id, sum(total_value) as net_value, sum(royalty_due) as reported, sum(expected) as expected,
        sum(royalty_due - expected) as difference, count(*) filter (where rate is null) as without_rate
      from lines
      group by partner_id, quarter_id
    )
    select t.partner_id, ${partners.companyName} as partner, ${quarters.name} as quarter,
      trim_scale(coalesce(t.net_value, 0))::text as net_value, trim_scale(coalesce(t.reported, 0))::text as reported,
      trim_scale(t.expected)::text as expected, trim_scale(t.difference)::text as difference, t.without_rate::int as without_rate
    from per_report t
    join ${partners} on ${partners.id} = t.partner_id
    join ${quarters} on ${quarters.id} = t.quarter_id
    order by abs(t.difference) desc nulls last, lower(${partners.companyName}), t.partner_id, ${quarters.year} desc, ${quarters.quarter} desc`);
  const window = tableWindow(query, ROYALTIES_TABLE, lines.length, all);
  const shown = lines.slice(window.offset, window.offset + window.limit);
  return {
    id: ROYALTIES_TABLE,
    title: "Royalties: expected vs reported",
    columns: [
      { key: "partner", label: "Partner" },
      { key: "quarter", label: "Quarter" },
      { key: "netValue", label: "Net value (USD)", numeric: true },
      { key: "reported", label: "Royalty reported", numeric: true },
      { key: "expected", label: "Royalty expected", numeric: true },
      { key: "difference", label: "Difference (reported − expected)", numeric: true },
      { key: "withoutRate", label: "Rows without a licence rate", numeric: true },
    ],
    rows: shown.map((line) => [line.partner, line.quarter, line.net_value, line.reported, line.expected, line.difference, Number(line.without_rate)]),
    links: shown.map((line) => queryHref(`${REPORT_REGISTRY.sales.adminPath}/${line.partner_id}`, { quarter: line.quarter })),
    page: window.page,
  };
}
