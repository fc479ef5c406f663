/**
 * The Sales Report's checks: each saved row against the partner's licence terms, its other reports
 * (Filing Plans, Development Timeline, the API licence) and the usual figures (the currency table's
 * rate; for administrators and staff, the other partners' prices). Each rule is computed set-wise
 * in one statement over the report's rows; rows are numbered as the grid numbers them (by id in
 * each tab).
 */
import { sql } from "drizzle-orm";
import { selectRows } from "~/db/client.server";
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
  reports,
  salesRows,
  stages,
} from "~/db/schema";
import type { Finding } from "~/reports/frame/checks";
import type { ReportChecksInput } from "~/reports/frame/workflow.server";
import { PROJECT_STATUS_LABELS, type ProjectStatus } from "~/utils/project-status";
import type { SalesColumnKey } from "./rows";

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

interface FlaggedRow {
  kind: "API" | "FDF";
  row: number;
  product: string;
  country: string | null;
  royaltyPercent: string | null;
  royaltyDue: string | null;
  totalValue: string | null;
  licenceRate: string | null;
  expectedDue: string | null;
  currency: string | null;
  exchangeRate: string | null;
  tableRate: string | null;
  projectStatus: ProjectStatus | null;
  rateOff: boolean;
  dueOff: boolean;
  outside: boolean;
  apiUnlicensed: boolean;
  notFiled: boolean;
  notOnMarket: boolean;
  rateTableOff: boolean;
}

const text = (value: unknown) => sql`trim_scale(${value})::text`;

/** The partner's latest report of a type in the quarter or before it (its Filing Plans, its timeline). */
const latestReport = (type: "filing" | "pdt", partnerId: number, quarterId: number) => sql`(
  select ${reports.id} from ${reports} join ${quarters} on ${quarters.id} = ${reports.quarterId}
  where ${reports.partnerId} = ${partnerId} and ${reports.type} = ${type}
    and ${quarters.endDate} <= (select ${quarters.endDate} from ${quarters} where ${quarters.id} = ${quarterId})
  order by ${quarters.endDate} desc limit 1)`;

/** The rows that break a licence, contradict another report or stray from the currency table, with the figures to say so. */
async function flaggedRows({ reportId, partnerId, quarterId }: ReportChecksInput): Promise<FlaggedRow[]> {
  const rate = sql`coalesce(${licenceCountryTerms.royaltyRate}, ${licenceTerms.royaltyRate})`;
  const expectedDue = sql`round(n.total_value * ${rate} / 100, 2)`;
  const filingReport = latestReport("filing", partnerId, quarterId);
  const timeline = latestReport("pdt", partnerId, quarterId);
  const flags = {
    rateOff: sql`n.kind = 'FDF' and ${licenceTerms.id} is not null and coalesce(${licenceCountryTerms.isLicensed}, true) and n.royalty_percent <> ${rate}`,
    dueOff: sql`n.kind = 'FDF' and ${licenceTerms.id} is not null and coalesce(${licenceCountryTerms.isLicensed}, true)
      and abs(n.royalty_due - ${expectedDue}) > ${ROYALTY_DUE_TOLERANCE}::numeric`,
    outside: sql`coalesce(${licenceCountryTerms.isLicensed}, true) = false`,
    apiUnlicensed: sql`n.kind = 'API' and ${licenceTerms.id} is not null and not ${licenceTerms.apiLicensed}`,
    notFiled: sql`n.kind = 'FDF' and ${filingReport} is not null and coalesce(${filingValues.status}, '') not in ${MAY_SELL}`,
    notOnMarket: sql`${partnerProducts.projectStatus} in ${NOT_ON_MARKET} and not exists (
      select 1 from ${pdtValues} join ${stages} on ${stages.id} = ${pdtValues.stageId}
      where ${pdtValues.reportId} = ${timeline} and ${pdtValues.productId} = n.product_id
        and ${stages.name} ilike '%approval%'
        and ${pdtValues.endDate} <= (select ${quarters.endDate} from ${quarters} where ${quarters.id} = ${quarterId}))`,
    rateTableOff: sql`n.kind = 'FDF' and n.usd_exchange_rate > 0 and ${currencies.usdRate} > 0
      and abs(n.usd_exchange_rate - ${currencies.usdRate}) > ${currencies.usdRate} * ${EXCHANGE_RATE_TOLERANCE}::numeric`,
  };
  const rows = await selectRows(sql`
    with n as (
      select s.*, row_number() over (partition by s.kind order by s.id) as row_number
      from ${salesRows} s where s.report_id = ${reportId}
    ),
    checked as (
      select n.kind, n.row_number::int as row, ${products.name} as product, ${countries.name} as country,
        ${text(sql`n.royalty_percent`)} as royalty_percent, ${text(sql`n.royalty_due`)} as royalty_due,
        ${text(sql`n.total_value`)} as total_value, ${text(rate)} as licence_rate, ${text(expectedDue)} as expected_due,
        n.currency_code as currency, ${text(sql`n.usd_exchange_rate`)} as exchange_rate, ${text(currencies.usdRate)} as table_rate,
        ${partnerProducts.projectStatus} as project_status,
        coalesce(${flags.rateOff}, false) as rate_off, coalesce(${flags.dueOff}, false) as due_off,
        coalesce(${flags.outside}, false) as outside, coalesce(${flags.apiUnlicensed}, false) as api_unlicensed,
        coalesce(${flags.notFiled}, false) as not_filed, coalesce(${flags.notOnMarket}, false) as not_on_market,
        coalesce(${flags.rateTableOff}, false) as rate_table_off
      from n
      join ${products} on ${products.id} = n.product_id
      left join ${countries} on ${countries.id} = n.country_id
      left join ${licenceTerms} on ${licenceTerms.partnerId} = ${partnerId} and ${licenceTerms.productId} = n.product_id
      left join ${licenceCountryTerms} on ${licenceCountryTerms.licenceTermId} = ${licenceTerms.id} and ${licenceCountryTerms.countryId} = n.country_id
      left join ${currencies} on ${currencies.code} = n.currency_code
      left join ${partnerProducts} on ${partnerProducts.partnerId} = ${partnerId} and ${partnerProducts.productId} = n.product_id
      left join ${filingValues} on ${filingValues.reportId} = ${filingReport}
        and ${filingValues.countryId} = n.country_id and ${filingValues.productId} = n.product_id
    )
    select * from checked
    where rate_off or due_off or outside or api_unlicensed or not_filed or not_on_market or rate_table_off
    order by kind, row`);
  return rows.map((row) => ({
    kind: row.kind as FlaggedRow["kind"],
    row: Number(row.row),
    product: String(row.product),
    country: row.country as string | null,
    royaltyPercent: row.royalty_percent as string | null,
    royaltyDue: row.royalty_due as string | null,
    totalValue: row.total_value as string | null,
    licenceRate: row.licence_rate as string | null,
    expectedDue: row.expected_due as string | null,
    currency: row.currency as string | null,
    exchangeRate: row.exchange_rate as string | null,
    tableRate: row.table_rate as string | null,
    projectStatus: row.project_status as ProjectStatus | null,
    rateOff: row.rate_off === true,
    dueOff: row.due_off === true,
    outside: row.outside === true,
    apiUnlicensed: row.api_unlicensed === true,
    notFiled: row.not_filed === true,
    notOnMarket: row.not_on_market === true,
    rateTableOff: row.rate_table_off === true,
  }));
}

/** FDF rows whose price per pack is outside half to double the median of the other partners' prices (each partner's mean) in the quarter. */
async function peerPriceRows({ reportId, partnerId, quarterId }: ReportChecksInput) {
  const rows = await selectRows(sql`
    with mine as (
      select s.kind, row_number() over (partition by s.kind order by s.id) as row_number, s.product_id, s.country_id, s.gross_sale_price_usd as price
      from ${salesRows} s where s.report_id = ${reportId}
    ),
    peer_prices as (
      select r.partner_id, s.product_id, s.country_id, s.gross_sale_price_usd as price
      from ${reports} r join ${salesRows} s on s.report_id = r.id and s.kind = 'FDF'
      where r.quarter_id = ${quarterId} and r.type = 'sales' and r.partner_id <> ${partnerId} and s.gross_sale_price_usd > 0
        and s.product_id in (select product_id from mine where kind = 'FDF')
    ),
    by_product as (
      select product_id, percentile_cont(0.5) within group (order by price) as median
      from (select partner_id, product_id, avg(price) as price from peer_prices group by partner_id, product_id) per_partner
      group by product_id having count(*) >= ${PEERS_FOR_PRODUCT_MEDIAN}
    ),
    by_country as (
      select product_id, country_id, percentile_cont(0.5) within group (order by price) as median
      from (select partner_id, product_id, country_id, avg(price) as price from peer_prices group by partner_id, product_id, country_id) per_partner
      group by product_id, country_id having count(*) >= ${PEERS_FOR_COUNTRY_MEDIAN}
    ),
    compared as (
      select m.row_number::int as row, m.product_id, m.country_id, m.price,
        round(coalesce(c.median, p.median)::numeric, 2) as median, c.median is not null as in_country
      from mine m
      left join by_product p on p.product_id = m.product_id
      left join by_country c on c.product_id = m.product_id and c.country_id = m.country_id
      where m.kind = 'FDF' and m.price > 0 and coalesce(c.median, p.median) is not null
    )
    select compared.row, ${products.name} as product, ${countries.name} as country, ${text(sql`compared.price`)} as price,
      ${text(sql`compared.median`)} as median, compared.in_country
    from compared
    join ${products} on ${products.id} = compared.product_id
    left join ${countries} on ${countries.id} = compared.country_id
    where compared.price < compared.median / 2 or compared.price > compared.median * 2
    order by compared.row`);
  return rows.map((row) => ({
    row: Number(row.row),
    product: String(row.product),
    country: row.country as string | null,
    price: String(row.price),
    median: String(row.median),
    inCountry: row.in_country === true,
  }));
}

const at = (table: "API" | "FDF", row: number, column: SalesColumnKey) => ({ table, row, column });

/** The findings of a Sales Report's saved rows, in rule order; the other partners' prices only for administrators and staff. */
export async function salesFindings(input: ReportChecksInput): Promise<Finding[]> {
  const [flagged, peers] = await Promise.all([flaggedRows(input), input.withPeers ? peerPriceRows(input) : []]);
  const m = SALES_CHECK_MESSAGES;
  const rule = (name: string, kind: Finding["kind"], pick: (row: FlaggedRow) => boolean, finding: (row: FlaggedRow) => Omit<Finding, "kind" | "rule">) =>
    flagged.filter(pick).map((row): Finding => ({ kind, rule: name, ...finding(row) }));
  return [
    ...rule(
      "royalty-rate",
      "licence",
      (row) => row.rateOff,
      (row) => ({
        at: at("FDF", row.row, "royaltyPercent"),
        message: m.royaltyRate,
        values: { entered: row.royaltyPercent ?? "", expected: row.licenceRate ?? "", country: row.country ?? "" },
      }),
    ),
    ...rule(
      "royalty-due",
      "licence",
      (row) => row.dueOff,
      (row) => ({
        at: at("FDF", row.row, "royaltyDue"),
        message: m.royaltyDue,
        values: { entered: row.royaltyDue ?? "", expected: row.expectedDue ?? "", rate: row.licenceRate ?? "", net: row.totalValue ?? "" },
      }),
    ),
    ...rule(
      "territory",
      "licence",
      (row) => row.outside,
      (row) => ({ at: at(row.kind, row.row, "country"), message: m.territory, values: { country: row.country ?? "", product: row.product } }),
    ),
    ...rule(
      "api-licence",
      "contradiction",
      (row) => row.apiUnlicensed,
      (row) => ({ at: at("API", row.row, "productName"), message: m.apiLicence, values: { product: row.product } }),
    ),
    ...rule(
      "filing",
      "contradiction",
      (row) => row.notFiled,
      (row) => ({ at: at("FDF", row.row, "country"), message: m.filing, values: { country: row.country ?? "", product: row.product } }),
    ),
    ...rule(
      "project-status",
      "contradiction",
      (row) => row.notOnMarket,
      (row) => ({
        at: at(row.kind, row.row, "productName"),
        message: m.projectStatus,
        values: { product: row.product, status: row.projectStatus ? PROJECT_STATUS_LABELS[row.projectStatus] : "" },
      }),
    ),
    ...rule(
      "exchange-rate",
      "unusual",
      (row) => row.rateTableOff,
      (row) => ({
        at: at("FDF", row.row, "usdExchangeRate"),
        message: m.exchangeRate,
        values: { entered: row.exchangeRate ?? "", currency: row.currency ?? "", expected: row.tableRate ?? "" },
      }),
    ),
    ...peers.map((row): Finding => ({
      kind: "unusual",
      rule: "peer-price",
      at: at("FDF", row.row, "grossSalePriceUsd"),
      message: row.inCountry ? m.peerPriceInCountry : m.peerPrice,
      values: { entered: row.price, product: row.product, median: row.median, ...(row.inCountry ? { country: row.country ?? "" } : {}) },
    })),
  ];
}
