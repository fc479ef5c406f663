/**
 * The Sales Report's checks: each saved row against the partner's licence terms, its other reports
 * (Filing Plans, Development Timeline, the API licence) and the usual figures (the currency table's
 * rate; for administrators and staff, the other partners' prices). Each rule is computed set-wise
 * in one statement over the report's rows; rows are numbered as the grid numbers them (by id in
 * each tab). The same rules count the findings of many reports at once (refreshSalesCheckCounts):
 * what the partner list and the dashboard Summary show.
 */
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Database, type Transaction } from "~/db/client.server";
import {
  countries,
  currencies,
  filingValues,
  licenceCountryTerms,
  licenceTerms,
  partnerProducts,
  pdtValues,
  products,
  quarters,
  reportCheckCounts,
  reports,
  salesPriceMeans,
  salesRows,
  stages,
} from "~/db/schema";
import { FINDING_KINDS, FINDINGS_LISTED_PER_RULE, type Finding, type FindingKind } from "~/reports/frame/checks";
import type { ChecksScope } from "~/jobs/queue.server";
import type { ReportChecksInput } from "~/reports/frame/workflow.server";
import { PROJECT_STATUS_LABELS, type ProjectStatus } from "~/utils/project-status";
import { SALES_KINDS, type SalesColumnKey } from "./columns";

/** Royalty Due may differ from net value × licence rate by rounding: up to a cent. */
const ROYALTY_DUE_TOLERANCE = "0.01";
/** An exchange rate further than this from the currency table's (5%) is flagged. */
const EXCHANGE_RATE_TOLERANCE = "0.05";
/** Project statuses under which a product is not expected on the market, unless an approval stage is reached. */
const NOT_ON_MARKET: readonly ProjectStatus[] = ["DROPPED", "PLANNED", "UNDER_DEVELOPMENT"];
/** Filing Plans statuses under which a product may be sold in a country. */
const MAY_SELL: readonly string[] = ["Filed", "Registered"];
/** Peers: other partners selling the product in the quarter needed for a median, and selling it in the country for a country median. */
const PEERS_FOR_PRODUCT_MEDIAN = 2;
const PEERS_FOR_COUNTRY_MEDIAN = 3;

const SALES_CHECK_MESSAGES = {
  royaltyRate: "Royalty {{entered}}% — the licence sets {{expected}}% for {{country}}.",
  royaltyDue: "Royalty Due {{entered}} — {{expected}} at the licence's {{rate}}% of the net value {{net}}.",
  territory: "{{country}} is outside the licence territory of {{product}}.",
  apiLicence: "{{product}}: the licence does not cover selling its API.",
  filing: "Sold in {{country}}, where the Filing Plans for {{product}} say neither Filed nor Registered.",
  projectStatus: "{{product}} is sold, but its project status is {{status}} and no approval stage is reached.",
  exchangeRate: "Exchange rate {{entered}} for {{currency}} is more than 5% off the currency table's {{expected}}.",
  peerPrice: "Price per pack {{entered}} USD for {{product}}: outside half to double the other partners' median, {{median}} USD.",
  peerPriceInCountry: "Price per pack {{entered}} USD for {{product}}: outside half to double the other partners' median in {{country}}, {{median}} USD.",
} as const;

/** The rules a row breaks on its own (a column of each checked row), with the rule and kind of their findings, in the panel's order. */
const ROW_RULES = {
  rate_off: { rule: "royalty-rate", kind: "licence" },
  due_off: { rule: "royalty-due", kind: "licence" },
  outside: { rule: "territory", kind: "licence" },
  api_unlicensed: { rule: "api-licence", kind: "contradiction" },
  not_filed: { rule: "filing", kind: "contradiction" },
  not_on_market: { rule: "project-status", kind: "contradiction" },
  rate_table_off: { rule: "exchange-rate", kind: "unusual" },
} as const satisfies Record<string, { rule: string; kind: FindingKind }>;
type RowFlag = keyof typeof ROW_RULES;
const ROW_FLAGS = Object.keys(ROW_RULES) as RowFlag[];
const PEER_RULE = { rule: "peer-price", kind: "unusual" } as const satisfies { rule: string; kind: FindingKind };

/** A listed flagged row as the statement answers it: its place, the rules it is listed for, and its figures. */
type FlaggedRow = { kind: "API" | "FDF"; row: number } & Record<RowFlag, boolean> &
  Record<
    "product" | "country" | "royalty_percent" | "royalty_due" | "total_value" | "licence_rate" | "expected_due" | "currency" | "exchange_rate" | "table_rate",
    string | null
  > & { project_status: ProjectStatus | null };

const text = (value: unknown) => sql`trim_scale(${value})::text`;

/**
 * What the rules need to know of a report beyond its rows: its partner and its partner's latest
 * Filing Plans report (SQL values: parameters for one report, columns of the checked rows when many
 * reports are counted at once), and the products whose approval stage its partner's latest timeline
 * reaches by the end of its quarter (a relation of report_id and product_id: read once per report,
 * not once per row).
 */
interface ReportContext {
  partner: SQL;
  filingReport: SQL;
  approvalsReached: SQL;
  /** The licences' country terms to join: the partner's alone for one report (a few rows, not every partner's). */
  licenceCountries: SQL;
}

/** The partner's latest report of a type in the quarter ending `quarterEnd` or before it (its Filing Plans, its timeline). */
const latestReport = (type: "filing" | "pdt", partner: SQL, quarterEnd: SQL) => sql`(
  select ${reports.id} from ${reports} join ${quarters} on ${quarters.id} = ${reports.quarterId}
  where ${reports.partnerId} = ${partner} and ${reports.type} = ${type}
    and ${quarters.endDate} <= ${quarterEnd}
  order by ${quarters.endDate} desc limit 1)`;

/** The products whose approval stage a timeline reaches by a date (`${pdtValues}` rows), with the report they are read for. */
const approvalsReached = (report: SQL, from: SQL, where: SQL) => sql`
  select ${report} as report_id, ${pdtValues.productId} as product_id
  from ${from} join ${stages} on ${stages.id} = ${pdtValues.stageId}
  where ${stages.name} ilike '%approval%' and ${where}
  group by 1, 2`;

function oneReport({ reportId, partnerId, quarterId }: Pick<ReportChecksInput, "reportId" | "partnerId" | "quarterId">): ReportContext {
  const partner = sql`${partnerId}`;
  const quarterEnd = sql`(select ${quarters.endDate} from ${quarters} where ${quarters.id} = ${quarterId})`;
  return {
    partner,
    licenceCountries: sql`(select * from ${licenceCountryTerms} where ${licenceCountryTerms.licenceTermId} in (
      select ${licenceTerms.id} from ${licenceTerms} where ${licenceTerms.partnerId} = ${partner}))`,
    filingReport: latestReport("filing", partner, quarterEnd),
    approvalsReached: approvalsReached(
      sql`${reportId}::int`,
      sql`${pdtValues}`,
      sql`${pdtValues.reportId} = ${latestReport("pdt", partner, quarterEnd)} and ${pdtValues.endDate} <= ${quarterEnd}`,
    ),
  };
}

const licenceRate = sql`coalesce(${licenceCountryTerms.royaltyRate}, ${licenceTerms.royaltyRate})`;
const expectedDue = sql`round(n.total_value * ${licenceRate} / 100, 2)`;

/** The tables the rules read beside the rows `n` (sales_rows columns): each adds at most one row to a sales row. */
const ruleJoins = (report: ReportContext) => sql`
  join ${products} on ${products.id} = n.product_id
  left join ${countries} on ${countries.id} = n.country_id
  left join ${licenceTerms} on ${licenceTerms.partnerId} = ${report.partner} and ${licenceTerms.productId} = n.product_id
  left join ${report.licenceCountries} as ${licenceCountryTerms} on ${licenceCountryTerms.licenceTermId} = ${licenceTerms.id} and ${licenceCountryTerms.countryId} = n.country_id
  left join ${currencies} on ${currencies.code} = n.currency_code
  left join ${partnerProducts} on ${partnerProducts.partnerId} = ${report.partner} and ${partnerProducts.productId} = n.product_id
  left join ${filingValues} on ${filingValues.reportId} = ${report.filingReport}
    and ${filingValues.countryId} = n.country_id and ${filingValues.productId} = n.product_id
  left join (${report.approvalsReached}) approved on approved.report_id = n.report_id and approved.product_id = n.product_id`;

/** Each row rule as a column of the checked rows (true: the row breaks it). */
function ruleFlags(report: ReportContext): SQL {
  const flags: Record<RowFlag, SQL> = {
    rate_off: sql`n.kind = 'FDF' and ${licenceTerms.id} is not null and coalesce(${licenceCountryTerms.isLicensed}, true) and n.royalty_percent <> ${licenceRate}`,
    due_off: sql`n.kind = 'FDF' and ${licenceTerms.id} is not null and coalesce(${licenceCountryTerms.isLicensed}, true)
      and abs(n.royalty_due - ${expectedDue}) > ${ROYALTY_DUE_TOLERANCE}::numeric`,
    outside: sql`coalesce(${licenceCountryTerms.isLicensed}, true) = false`,
    api_unlicensed: sql`n.kind = 'API' and ${licenceTerms.id} is not null and not ${licenceTerms.apiLicensed}`,
    not_filed: sql`n.kind = 'FDF' and ${report.filingReport} is not null and coalesce(${filingValues.status}, '') not in ${MAY_SELL}`,
    not_on_market: sql`${partnerProducts.projectStatus} in ${NOT_ON_MARKET} and approved.product_id is null`,
    rate_table_off: sql`n.kind = 'FDF' and n.usd_exchange_rate > 0 and ${currencies.usdRate} > 0
      and abs(n.usd_exchange_rate - ${currencies.usdRate}) > ${currencies.usdRate} * ${EXCHANGE_RATE_TOLERANCE}::numeric`,
  };
  return sql.join(
    ROW_FLAGS.map((flag) => sql`coalesce(${flags[flag]}, false) as ${sql.identifier(flag)}`),
    sql`, `,
  );
}

/**
 * Over `mine` (FDF rows priced above 0 with their report_id, partner_id, quarter_id, product_id,
 * country_id and price), the CTEs up to `compared`: each row beside the median of the other
 * partners' means (the country's where enough of them sell there, else the product's), read from
 * sales_price_means. Those means are refreshed by a job after each save: until a partner's job has
 * run, its figures in the medians are those of its previous save (stale by at most that job).
 */
const peerComparison = sql`
  peer_keys as (select distinct partner_id, quarter_id, product_id, country_id from mine),
  by_product as (
    select k.partner_id, k.quarter_id, k.product_id, percentile_cont(0.5) within group (order by m.mean_price_usd) as median
    from (select distinct partner_id, quarter_id, product_id from peer_keys) k
    join ${salesPriceMeans} m on m.quarter_id = k.quarter_id and m.product_id = k.product_id and m.country_id is null and m.partner_id <> k.partner_id
    group by k.partner_id, k.quarter_id, k.product_id having count(*) >= ${PEERS_FOR_PRODUCT_MEDIAN}
  ),
  by_country as (
    select k.partner_id, k.quarter_id, k.product_id, k.country_id, percentile_cont(0.5) within group (order by m.mean_price_usd) as median
    from peer_keys k
    join ${salesPriceMeans} m on m.quarter_id = k.quarter_id and m.product_id = k.product_id and m.country_id = k.country_id and m.partner_id <> k.partner_id
    group by k.partner_id, k.quarter_id, k.product_id, k.country_id having count(*) >= ${PEERS_FOR_COUNTRY_MEDIAN}
  ),
  compared as (
    select mine.*, round(coalesce(c.median, p.median)::numeric, 2) as median, c.median is not null as in_country
    from mine
    left join by_product p on p.partner_id = mine.partner_id and p.quarter_id = mine.quarter_id and p.product_id = mine.product_id
    left join by_country c on c.partner_id = mine.partner_id and c.quarter_id = mine.quarter_id and c.product_id = mine.product_id
      and c.country_id = mine.country_id
    where coalesce(c.median, p.median) is not null
  )`;
/** A compared row whose price is outside half to double the median. */
const farFromPeers = sql`(compared.price < compared.median / 2 or compared.price > compared.median * 2)`;

/** A listed peer-price finding's row and figures. */
interface PeerRow {
  row: number;
  product: string;
  country: string | null;
  price: string;
  median: string;
  in_country: boolean;
}

/** Where a rule's findings are: their rows in each table, in order. */
type RulePlaces = Record<"API" | "FDF", number[]>;

/** `rules`' places among `rows` (kind, row), as a JSON object of RulePlaces by rule name. */
const placesOf = (rows: SQL, rules: { name: string; breaks: SQL }[]) => sql`
  select json_build_object(${sql.join(
    rules.map(
      ({ name, breaks }) =>
        sql`${name}::text, json_build_object(${sql.join(
          SALES_KINDS.map((kind) => sql`${kind}::text, coalesce(json_agg(row order by row) filter (where ${breaks} and kind = ${kind}), '[]')`),
          sql`, `,
        )})`,
    ),
    sql`, `,
  )}) from ${rows}`;

/**
 * The rows that break a licence, contradict another report or stray from the currency table, in
 * one statement answering one row: where each rule's findings are (`places`), and the figures of the
 * rows among the first FINDINGS_LISTED_PER_RULE of a rule (`listed`), which the panel and the API
 * list; the others are only counted, and a 12,000-row report can break a rule thousands of times.
 */
async function flaggedRows({ reportId, partnerId, quarterId }: ReportChecksInput) {
  const report = oneReport({ reportId, partnerId, quarterId });
  const [found] = await selectRows<{ listed: FlaggedRow[]; places: Record<RowFlag, RulePlaces> }>(sql`
    with n as (
      select s.report_id, s.kind, s.product_id, s.country_id, s.currency_code, s.usd_exchange_rate, s.total_value, s.royalty_percent, s.royalty_due,
        row_number() over (partition by s.kind order by s.id) as row_number
      from ${salesRows} s where s.report_id = ${reportId}
    ),
    checked as materialized (
      select * from (
        select n.kind, n.row_number::int as row, ${products.name} as product, ${countries.name} as country,
          n.royalty_percent, n.royalty_due, n.total_value, ${licenceRate} as licence_rate, ${expectedDue} as expected_due,
          n.currency_code as currency, n.usd_exchange_rate, ${currencies.usdRate} as table_rate, ${partnerProducts.projectStatus} as project_status,
          ${ruleFlags(report)}
        from n ${ruleJoins(report)}
      ) all_rows
      where ${sql.join(
        ROW_FLAGS.map((flag) => sql.identifier(flag)),
        sql` or `,
      )}
    ),
    listed as (${sql.join(
      ROW_FLAGS.map((flag) => sql`(select * from checked where ${sql.identifier(flag)} order by kind, row limit ${FINDINGS_LISTED_PER_RULE})`),
      sql` union `,
    )})
    select
      (select coalesce(json_agg(json_build_object(
          'kind', kind, 'row', row, 'product', product, 'country', country, 'royalty_percent', ${text(sql`royalty_percent`)},
          'royalty_due', ${text(sql`royalty_due`)}, 'total_value', ${text(sql`total_value`)}, 'licence_rate', ${text(sql`licence_rate`)},
          'expected_due', ${text(sql`expected_due`)}, 'currency', currency, 'exchange_rate', ${text(sql`usd_exchange_rate`)},
          'table_rate', ${text(sql`table_rate`)}, 'project_status', project_status
        )), '[]') from listed) as listed,
      (${placesOf(
        sql`checked`,
        ROW_FLAGS.map((flag) => ({ name: flag, breaks: sql`${sql.identifier(flag)}` })),
      )}) as places`);
  return found;
}

/**
 * FDF rows whose price per pack is outside half to double the median of the other partners' prices
 * (each partner's mean) in the quarter: their places, and the figures of the first FINDINGS_LISTED_PER_RULE
 * (as flaggedRows).
 */
async function peerPriceRows({ reportId, partnerId, quarterId }: ReportChecksInput) {
  const [found] = await selectRows<{ listed: PeerRow[]; places: { far: RulePlaces } }>(sql`
    with numbered as (
      select s.kind, row_number() over (partition by s.kind order by s.id) as row_number, s.product_id, s.country_id, s.gross_sale_price_usd as price
      from ${salesRows} s where s.report_id = ${reportId}
    ),
    mine as (
      select ${reportId}::int as report_id, ${partnerId}::int as partner_id, ${quarterId}::int as quarter_id, row_number, product_id, country_id, price
      from numbered where kind = 'FDF' and price > 0
    ),
    ${peerComparison},
    far as materialized (select 'FDF' as kind, compared.row_number::int as row, compared.* from compared where ${farFromPeers}),
    listed as (select * from far order by row limit ${FINDINGS_LISTED_PER_RULE})
    select
      (select coalesce(json_agg(json_build_object(
          'row', listed.row, 'product', ${products.name}, 'country', ${countries.name}, 'price', ${text(sql`listed.price`)},
          'median', ${text(sql`listed.median`)}, 'in_country', listed.in_country
        ) order by listed.row), '[]')
       from listed join ${products} on ${products.id} = listed.product_id left join ${countries} on ${countries.id} = listed.country_id) as listed,
      (${placesOf(sql`far`, [{ name: "far", breaks: sql`true` }])}) as places`);
  return found;
}

const at = (table: "API" | "FDF", row: number, column: SalesColumnKey) => ({ table, row, column });

/** A finding's figures past the first FINDINGS_LISTED_PER_RULE of its rule: none (it is only counted). */
const UNLISTED: Finding["values"] = Object.freeze({});

/** Each row rule's finding of a flagged row: its cell (in the row's own table unless named), its sentence and its figures. */
const ROW_FINDINGS: Record<RowFlag, { table?: "API" | "FDF"; column: SalesColumnKey; message: string; values: (row: FlaggedRow) => Finding["values"] }> = {
  rate_off: {
    table: "FDF",
    column: "royaltyPercent",
    message: SALES_CHECK_MESSAGES.royaltyRate,
    values: (row) => ({ entered: row.royalty_percent ?? "", expected: row.licence_rate ?? "", country: row.country ?? "" }),
  },
  due_off: {
    table: "FDF",
    column: "royaltyDue",
    message: SALES_CHECK_MESSAGES.royaltyDue,
    values: (row) => ({ entered: row.royalty_due ?? "", expected: row.expected_due ?? "", rate: row.licence_rate ?? "", net: row.total_value ?? "" }),
  },
  outside: { column: "country", message: SALES_CHECK_MESSAGES.territory, values: (row) => ({ country: row.country ?? "", product: row.product ?? "" }) },
  api_unlicensed: { table: "API", column: "productName", message: SALES_CHECK_MESSAGES.apiLicence, values: (row) => ({ product: row.product ?? "" }) },
  not_filed: {
    table: "FDF",
    column: "country",
    message: SALES_CHECK_MESSAGES.filing,
    values: (row) => ({ country: row.country ?? "", product: row.product ?? "" }),
  },
  not_on_market: {
    column: "productName",
    message: SALES_CHECK_MESSAGES.projectStatus,
    values: (row) => ({ product: row.product ?? "", status: row.project_status ? PROJECT_STATUS_LABELS[row.project_status] : "" }),
  },
  rate_table_off: {
    table: "FDF",
    column: "usdExchangeRate",
    message: SALES_CHECK_MESSAGES.exchangeRate,
    values: (row) => ({ entered: row.exchange_rate ?? "", currency: row.currency ?? "", expected: row.table_rate ?? "" }),
  },
};

/**
 * The findings of a Sales Report's saved rows, in rule order; the other partners' prices only for
 * administrators and staff. Past the first FINDINGS_LISTED_PER_RULE of a rule (which the panel and
 * the API count but do not list) a finding has its place but not its figures.
 */
export async function salesFindings(input: ReportChecksInput): Promise<Finding[]> {
  const [flagged, peers] = await Promise.all([flaggedRows(input), input.withPeers ? peerPriceRows(input) : null]);
  const found: Finding[] = [];
  /** A rule's findings in the grid's order, the first FINDINGS_LISTED_PER_RULE with their figures. Spelled out, not spread: a spread per finding costs more than the rest of it. */
  const addRule = (
    { kind, rule }: Pick<Finding, "kind" | "rule">,
    places: RulePlaces,
    {
      table,
      column,
      message,
      values,
    }: { table?: "API" | "FDF"; column: SalesColumnKey; message: (row: number) => string; values: (table: "API" | "FDF", row: number) => Finding["values"] },
  ) => {
    let index = 0;
    for (const kindOfRow of SALES_KINDS) {
      for (const row of places[kindOfRow]) {
        const shown = index++ < FINDINGS_LISTED_PER_RULE ? values(kindOfRow, row) : UNLISTED;
        found.push({ kind, rule, at: at(table ?? kindOfRow, row, column), message: message(row), values: shown });
      }
    }
  };
  const listedRows = new Map(flagged.listed.map((row) => [`${row.kind}:${row.row}`, row]));
  for (const flag of ROW_FLAGS) {
    const { table, column, message, values } = ROW_FINDINGS[flag];
    addRule(ROW_RULES[flag], flagged.places[flag], { table, column, message: () => message, values: (kind, row) => values(listedRows.get(`${kind}:${row}`)!) });
  }
  if (peers) {
    const listedPeers = new Map(peers.listed.map((row) => [row.row, row]));
    addRule(PEER_RULE, peers.places.far, {
      table: "FDF",
      column: "grossSalePriceUsd",
      message: (row) => (listedPeers.get(row)?.in_country ? SALES_CHECK_MESSAGES.peerPriceInCountry : SALES_CHECK_MESSAGES.peerPrice),
      values: (_table, row) => {
        const peer = listedPeers.get(row)!;
        return { entered: peer.price, product: peer.product, median: peer.median, ...(peer.in_country ? { country: peer.country ?? "" } : {}) };
      },
    });
  }
  return found;
}

// ---------------------------------------------------------------- counted for many reports at once

/** The Sales Reports of a scope (`r`, with their quarter `q`). */
export function salesReportsIn(scope: ChecksScope): SQL {
  return sql.join(
    [
      sql`r.type = 'sales'`,
      ...(scope.partnerId === undefined ? [] : [sql`r.partner_id = ${scope.partnerId}`]),
      ...(scope.quarterId === undefined ? [] : [sql`r.quarter_id = ${scope.quarterId}`]),
    ],
    sql` and `,
  );
}

/** A kind's count of row-rule findings (the peer findings are added to theirs in `counted`). */
function kindCount(kind: FindingKind): SQL {
  const counts = ROW_FLAGS.filter((flag) => ROW_RULES[flag].kind === kind).map((flag) => sql`count(*) filter (where ${sql.identifier(flag)})`);
  return sql.join(counts.length ? counts : [sql`0`], sql` + `);
}

/**
 * Counts the findings of the Sales Reports in `scope` as an administrator sees them (with the
 * other partners' prices) by kind, in one statement, into report_check_counts: the same rules
 * as salesFindings, over every row of every report in scope.
 */
export async function refreshSalesCheckCounts(scope: ChecksScope, executor: Database | Transaction): Promise<void> {
  const byColumns: ReportContext = {
    partner: sql`n.scope_partner_id`,
    licenceCountries: sql`${licenceCountryTerms}`,
    filingReport: sql`n.scope_filing_report`,
    approvalsReached: approvalsReached(
      sql`sc.report_id`,
      sql`scope sc join ${pdtValues} on ${pdtValues.reportId} = sc.timeline`,
      sql`${pdtValues.endDate} <= sc.quarter_end`,
    ),
  };
  await executor.execute(sql`
    with scope as (
      select r.id as report_id, r.partner_id, r.quarter_id, q.end_date as quarter_end,
        ${latestReport("filing", sql`r.partner_id`, sql`q.end_date`)} as filing_report,
        ${latestReport("pdt", sql`r.partner_id`, sql`q.end_date`)} as timeline
      from ${reports} r join ${quarters} q on q.id = r.quarter_id
      where ${salesReportsIn(scope)}
    ),
    n as (
      select s.*, sc.partner_id as scope_partner_id, sc.quarter_id as scope_quarter_id, sc.filing_report as scope_filing_report
      from scope sc join ${salesRows} s on s.report_id = sc.report_id
    ),
    checked as (
      select n.report_id, n.kind, n.product_id, n.country_id, n.gross_sale_price_usd as price,
        n.scope_partner_id as partner_id, n.scope_quarter_id as quarter_id, ${ruleFlags(byColumns)}
      from n ${ruleJoins(byColumns)}
    ),
    row_found as (
      select report_id, ${sql.join(
        FINDING_KINDS.map((kind) => sql`${kindCount(kind)} as ${sql.identifier(kind)}`),
        sql`, `,
      )}
      from checked group by report_id
    ),
    mine as (select report_id, partner_id, quarter_id, product_id, country_id, price from checked where kind = 'FDF' and price > 0),
    ${peerComparison},
    peer_found as (select report_id, count(*) as found from compared where ${farFromPeers} group by report_id),
    counted as (
      select sc.report_id, ${sql.join(
        FINDING_KINDS.map(
          (kind) => sql`coalesce(f.${sql.identifier(kind)}, 0)${kind === PEER_RULE.kind ? sql` + coalesce(p.found, 0)` : sql``} as ${sql.identifier(kind)}`,
        ),
        sql`, `,
      )}
      from scope sc
      left join row_found f on f.report_id = sc.report_id
      left join peer_found p on p.report_id = sc.report_id
    )
    insert into ${reportCheckCounts} (report_id, total, ${sql.join(
      FINDING_KINDS.map((kind) => sql.identifier(kind)),
      sql`, `,
    )}, computed_at)
    select report_id, ${sql.join(
      FINDING_KINDS.map((kind) => sql.identifier(kind)),
      sql` + `,
    )}, ${sql.join(
      FINDING_KINDS.map((kind) => sql.identifier(kind)),
      sql`, `,
    )}, now()
    from counted
    on conflict (report_id) do update set total = excluded.total, ${sql.join(
      FINDING_KINDS.map((kind) => sql`${sql.identifier(kind)} = excluded.${sql.identifier(kind)}`),
      sql`, `,
    )}, computed_at = excluded.computed_at`);
}
