/**
 * Sales and price figures of the admin dashboard (tabs 4 to 8), read from dashboard_sales: sums kept
 * by the database's triggers whenever sales rows, a report's approval or a partner's activation
 * change, so no page view scans the sales rows. Each table is one grain of that table, grouped
 * once more; a table costs one to three queries whatever the number of sales rows.
 *
 * Sales total = sum of pack size x quantity of FDF rows (spec section 9); value = FDF total gross
 * value plus API total value, USD. Price per pack = gross value / packs; price per treatment
 * (30 days, one unit a day) = gross value x 30 / (packs x pack size), over FDF rows with a gross value
 * and a quantity and pack size above 0.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { countries, dashboardSales, partners, products } from "~/db/schema";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { PERIOD_COLUMNS, type Period } from "~/reports/dashboard/view";
import { tableWindow, type DashboardCell, type DashboardColumn, type DashboardTable } from "~/reports/dashboard/tables";
import { formatDecimal } from "~/reports/sales/rows";

type SalesDimension = "product" | "partner" | "country";

const d = dashboardSales;

const DIMENSION_ID = { product: d.productId, partner: d.partnerId, country: d.countryId } as const;
const DIMENSION_NAME = {
  product: sql<string>`${products.name}`,
  partner: sql<string>`${partners.companyName}`,
  // Country 0: rows that name none.
  country: sql<string | null>`${countries.name}`,
} as const;
const DIMENSION_LABEL: Record<SalesDimension, string> = { product: "Product", partner: "Company Name", country: "Country" };
const TIME_GRAIN: Record<SalesDimension | "all", string> = {
  product: "product_month",
  partner: "partner_month",
  country: "country_month",
  all: "month",
};

function pairGrain(a: SalesDimension, b: SalesDimension): string {
  const order: SalesDimension[] = ["product", "partner", "country"];
  const [first, second] = [a, b].sort((x, y) => order.indexOf(x) - order.indexOf(y));
  return `${first}_${second}`;
}

/** Only approved reports count unless the administrator asks for every report. */
const approvedOnly = (query: Pick<DashboardQuery, "unapproved">): SQL | undefined => eq(d.approvedOnly, !query.unapproved);

const sumText = (column: AnyPgColumn) => sql<string>`round(sum(${column}), 2)::text`;
const NOT_GIVEN = "Not given";

const figure = (value: string | null): DashboardCell => (value == null ? null : formatDecimal(value, 2));

// ---------------------------------------------------------------- cross tables

const dimensionColumn = (dimension: SalesDimension): DashboardColumn => ({
  key: dimension,
  label: DIMENSION_LABEL[dimension],
  ...(dimension === "country" ? { country: true } : {}),
});

const CROSS_COLUMNS = (a: SalesDimension, b: SalesDimension): DashboardColumn[] => [
  dimensionColumn(a),
  dimensionColumn(b),
  { key: "units", label: "Sales total", numeric: true },
  { key: "value", label: "Sales value (USD)", numeric: true },
];

/**
 * `a` x `b` with the sales total: every pair with sales, by `a`'s name, then the largest total
 * first. `all` returns every row (downloads); else the page the query names.
 */
export async function salesCrossTable(
  id: string,
  title: string,
  a: SalesDimension,
  b: SalesDimension,
  query: DashboardQuery,
  all = false,
): Promise<DashboardTable> {
  const where = and(eq(d.grain, pairGrain(a, b)), approvedOnly(query));
  // One stored sum per pair and scope: no grouping, only the names of the pairs for their order.
  const pairs = db
    .select({
      aId: sql<number>`${DIMENSION_ID[a]}`.as("a_id"),
      bId: sql<number>`${DIMENSION_ID[b]}`.as("b_id"),
      units: sql<string>`${d.units}`.as("units"),
      value: sql<string>`${d.valueUsd}`.as("value"),
    })
    .from(d)
    .where(where)
    .as("pairs");
  const idOf = (dimension: SalesDimension) => (dimension === a ? pairs.aId : dimension === b ? pairs.bId : null);
  const joinOn = (dimension: SalesDimension, column: AnyPgColumn) => {
    const id = idOf(dimension);
    return id ? eq(column, id) : sql`false`;
  };
  const aName = DIMENSION_NAME[a];
  const bName = DIMENSION_NAME[b];
  const base = () =>
    db
      .select({ aName, bName, units: sql<string>`round(${pairs.units}, 2)::text`, value: sql<string>`round(${pairs.value}, 2)::text` })
      .from(pairs)
      .leftJoin(products, joinOn("product", products.id))
      .leftJoin(partners, joinOn("partner", partners.id))
      .leftJoin(countries, joinOn("country", countries.id))
      .orderBy(asc(sql`lower(${aName})`), asc(pairs.aId), desc(pairs.units), asc(sql`lower(${bName})`), asc(pairs.bId));
  const [{ value: total }] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(d)
    .where(where);
  const window = tableWindow(query, id, Number(total), all);
  const rows = await base().limit(window.limit).offset(window.offset);
  return {
    id,
    title,
    columns: CROSS_COLUMNS(a, b),
    rows: rows.map((row) => [row.aName ?? NOT_GIVEN, row.bName ?? NOT_GIVEN, figure(row.units), figure(row.value)]),
    page: window.page,
  };
}

// ---------------------------------------------------------------- over time

/** A period as one sortable number: 2026, 20263 (Q3 2026) or 202607 (July 2026). */
const PERIOD_KEY: Record<Period, SQL<number>> = {
  year: sql<number>`${d.year}`,
  quarter: sql<number>`(${d.year} * 10 + (${d.month} + 2) / 3)`,
  month: sql<number>`(${d.year} * 100 + ${d.month})`,
};

function periodLabel(period: Period, key: number): string {
  if (period === "year") return String(key);
  if (period === "quarter") return `Q${key % 10} ${Math.floor(key / 10)}`;
  return `${Math.floor(key / 100)}-${String(key % 100).padStart(2, "0")}`;
}

/** The latest periods with sales (the month grain: a few rows a year), oldest first. */
async function latestPeriods(period: Period, query: DashboardQuery): Promise<number[]> {
  const key = PERIOD_KEY[period];
  const rows = await db
    .selectDistinct({ key: sql<number>`${key}::int` })
    .from(d)
    .where(and(eq(d.grain, TIME_GRAIN.all), approvedOnly(query)))
    .orderBy(desc(sql`${key}::int`))
    .limit(PERIOD_COLUMNS[period]);
  return rows.map((row) => Number(row.key)).reverse();
}

/** The grain a dimension's members and all-time totals are read from: its smallest pair grain. */
const MEMBER_GRAIN: Record<SalesDimension, string> = { product: "product_partner", partner: "product_partner", country: "product_country" };

/**
 * `dimension` x the latest periods (columns), with its sales total of all time (as in the cross
 * tables): one row per product, company or country that sold, by name.
 */
export async function salesOverTimeTable(id: string, title: string, dimension: SalesDimension, query: DashboardQuery, all = false): Promise<DashboardTable> {
  const name = DIMENSION_NAME[dimension];
  const dimensionId = DIMENSION_ID[dimension];
  const members = and(eq(d.grain, MEMBER_GRAIN[dimension]), approvedOnly(query));
  const [periods, [{ value: total }]] = await Promise.all([
    latestPeriods(query.period, query),
    db
      .select({ value: sql<number>`count(distinct ${dimensionId})::int` })
      .from(d)
      .where(members),
  ]);
  const window = tableWindow(query, id, Number(total), all);
  const shown = await db
    .select({ id: dimensionId, name, units: sumText(d.units) })
    .from(d)
    .leftJoin(products, eq(products.id, d.productId))
    .leftJoin(partners, eq(partners.id, d.partnerId))
    .leftJoin(countries, eq(countries.id, d.countryId))
    .where(members)
    .groupBy(dimensionId, name)
    .orderBy(asc(sql`lower(${name})`), asc(dimensionId))
    .limit(window.limit)
    .offset(window.offset);

  const key = PERIOD_KEY[query.period];
  const cells =
    shown.length && periods.length
      ? await db
          .select({ id: dimensionId, key: sql<number>`${key}::int`, units: sumText(d.units) })
          .from(d)
          .where(
            and(
              eq(d.grain, TIME_GRAIN[dimension]),
              approvedOnly(query),
              // The grain's other dimensions are 0: saying so lets the primary key find the members.
              ...(["product", "partner", "country"] as const).filter((other) => other !== dimension).map((other) => eq(DIMENSION_ID[other], 0)),
              inArray(
                dimensionId,
                shown.map((member) => member.id),
              ),
              inArray(key, periods),
            ),
          )
          .groupBy(dimensionId, key)
      : [];
  const byMember = new Map(cells.map((cell) => [`${cell.id}:${Number(cell.key)}`, cell.units]));

  return {
    id,
    title,
    columns: [
      dimensionColumn(dimension),
      ...periods.map((periodKey) => ({ key: String(periodKey), label: periodLabel(query.period, periodKey), raw: true, numeric: true })),
      { key: "units", label: "Sales total", numeric: true },
    ],
    rows: shown.map((member) => [
      member.name ?? NOT_GIVEN,
      ...periods.map((periodKey) => figure(byMember.get(`${member.id}:${periodKey}`) ?? null)),
      figure(member.units),
    ]),
    page: window.page,
  };
}

export interface PeriodFigure {
  key: number;
  label: string;
  units: string;
  value: string;
}

/** Every period's sales total and value, newest first (tab 7). */
export async function salesByPeriod(query: DashboardQuery): Promise<PeriodFigure[]> {
  const key = PERIOD_KEY[query.period];
  const rows = await db
    .select({ key: sql<number>`${key}::int`, units: sumText(d.units), value: sumText(d.valueUsd) })
    .from(d)
    .where(and(eq(d.grain, TIME_GRAIN.all), approvedOnly(query)))
    .groupBy(key)
    .orderBy(desc(key));
  return rows.map((row) => ({
    key: Number(row.key),
    label: periodLabel(query.period, Number(row.key)),
    units: formatDecimal(row.units, 2),
    value: formatDecimal(row.value, 2),
  }));
}

export interface PriceFigure {
  key: number;
  label: string;
  pricePerPack: string | null;
  pricePerTreatment: string | null;
}

/** Price per pack and per 30-day treatment (USD) by period, newest first, of one product or of all (tab 8). */
export async function priceByPeriod(query: DashboardQuery): Promise<PriceFigure[]> {
  const key = PERIOD_KEY[query.period];
  const rows = await db
    .select({
      key: sql<number>`${key}::int`,
      perPack: sql<string | null>`round(sum(${d.pricedGrossUsd}) / nullif(sum(${d.pricedPacks}), 0), 2)::text`,
      perTreatment: sql<string | null>`round(sum(${d.pricedGrossUsd}) * 30 / nullif(sum(${d.pricedUnits}), 0), 2)::text`,
    })
    .from(d)
    .where(
      and(
        query.product ? eq(d.grain, TIME_GRAIN.product) : eq(d.grain, TIME_GRAIN.all),
        query.product ? eq(d.productId, query.product) : undefined,
        approvedOnly(query),
      ),
    )
    .groupBy(key)
    .having(sql`sum(${d.pricedPacks}) <> 0`)
    .orderBy(desc(key));
  return rows.map((row) => ({
    key: Number(row.key),
    label: periodLabel(query.period, Number(row.key)),
    pricePerPack: row.perPack == null ? null : formatDecimal(row.perPack, 2),
    pricePerTreatment: row.perTreatment == null ? null : formatDecimal(row.perTreatment, 2),
  }));
}

/** The FDF products with priced sales: the Price tab's product choices. */
export async function pricedProducts(query: DashboardQuery) {
  return db
    .selectDistinct({ id: products.id, name: products.name })
    .from(d)
    .innerJoin(products, eq(products.id, d.productId))
    .where(and(eq(d.grain, TIME_GRAIN.product), approvedOnly(query), sql`${d.pricedPacks} <> 0`))
    .orderBy(asc(products.name));
}
