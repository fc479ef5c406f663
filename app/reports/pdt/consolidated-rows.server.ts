/**
 * The rows of the Development Timeline consolidated report: the selected quarter's PDT rows with
 * their report, partner, product, stage and the partner's project status, the filters on them, and
 * the plans of the three quarters before (as the PDT screen shows them: each quarter's own report,
 * empty when it has none), read by a query of their own (the unique indexes).
 */
import { and, eq, or, type SQL } from "drizzle-orm";
import { alias, type PgSelect } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, quarters, reports, stages } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import { resolveQuarter } from "~/reports/frame/screen.server";
import type { Quarter } from "~/models/quarter.server";
import { addQuarters, quarterName, type QuarterRef } from "~/utils/quarters";
import type { PdtConsolidatedRow, PdtPlanDates, PdtQuery } from "./consolidated.server";

/** Earlier quarters shown beside the selected one (the PDT screen's three). */
const HISTORY_QUARTERS = 3;

export interface HistoryQuarter {
  name: string;
  /** null: the quarter has no row yet, so no report either. */
  id: number | null;
}

/** The three quarters before `quarter`, oldest first, with their ids when they exist. */
export async function historyQuarters(quarter: QuarterRef): Promise<HistoryQuarter[]> {
  const refs = Array.from({ length: HISTORY_QUARTERS }, (_, index) => addQuarters(quarter, index - HISTORY_QUARTERS));
  const found = await db
    .select({ id: quarters.id, year: quarters.year, quarter: quarters.quarter })
    .from(quarters)
    .where(or(...refs.map((ref) => and(eq(quarters.year, ref.year), eq(quarters.quarter, ref.quarter)))));
  return refs.map((ref) => ({ name: quarterName(ref), id: found.find((row) => row.year === ref.year && row.quarter === ref.quarter)?.id ?? null }));
}

export interface ResolvedQuarter {
  quarter: Quarter;
  earlier: HistoryQuarter[];
}

/** The query's quarter (the open one when none; an unknown or future one: WorkflowError 404) and the three before it. */
export async function resolveReportQuarter(query: Pick<PdtQuery, "quarter">): Promise<ResolvedQuarter> {
  const quarter = await resolveQuarter(query.quarter);
  return { quarter, earlier: await historyQuarters(quarter) };
}

/** A row's product as the partner holds it (its project status). */
export const PARTNER_PRODUCT = and(eq(partnerProducts.partnerId, reports.partnerId), eq(partnerProducts.productId, pdtValues.productId));

/** A select from pdt_values joined to the rows' report, partner, product, stage and the partner's product. */
export function joinedRows<Query extends PgSelect>(query: Query) {
  return query
    .innerJoin(reports, eq(reports.id, pdtValues.reportId))
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(products, eq(products.id, pdtValues.productId))
    .innerJoin(stages, eq(stages.id, pdtValues.stageId))
    .leftJoin(partnerProducts, PARTNER_PRODUCT);
}

/** The row query without its filter, order and limit: the selected quarter's rows (their earlier quarters' plans come from withEarlierPlans). */
export function selectRows() {
  return joinedRows(
    db
      .select({
        valueId: pdtValues.id,
        reportId: reports.id,
        partnerId: partners.id,
        companyName: partners.companyName,
        productId: products.id,
        productName: products.name,
        stageId: stages.id,
        stageName: stages.name,
        stageOrder: stages.sortOrder,
        status: partnerProducts.projectStatus,
        reportStatus: reports.status,
        startDate: pdtValues.startDate,
        endDate: pdtValues.endDate,
      })
      .from(pdtValues)
      .$dynamic(),
  );
}

export type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectRows>["execute"]>>[number];

const earlierReports = alias(reports, "earlier_report");
const earlierValues = alias(pdtValues, "earlier_value");

/**
 * The rows with the plans of the earlier quarters beside them: for each row, its partner's report
 * of each earlier quarter and that report's row for the same product and stage (both by unique
 * indexes). A query of its own: joined into the row query, its four more tables cost the planner
 * more than the rows cost to read.
 */
export async function withEarlierPlans(selected: readonly SelectedRow[], earlier: readonly HistoryQuarter[]): Promise<PdtConsolidatedRow[]> {
  const quarterIds = earlier.flatMap((quarter) => (quarter.id === null ? [] : [quarter.id]));
  const plans =
    selected.length && quarterIds.length
      ? await db
          .select({ valueId: pdtValues.id, quarterId: earlierReports.quarterId, startDate: earlierValues.startDate, endDate: earlierValues.endDate })
          .from(pdtValues)
          .innerJoin(reports, eq(reports.id, pdtValues.reportId))
          .innerJoin(
            earlierReports,
            and(eq(earlierReports.partnerId, reports.partnerId), eq(earlierReports.type, "pdt"), idIn(earlierReports.quarterId, quarterIds)),
          )
          .innerJoin(
            earlierValues,
            and(eq(earlierValues.reportId, earlierReports.id), eq(earlierValues.productId, pdtValues.productId), eq(earlierValues.stageId, pdtValues.stageId)),
          )
          .where(
            idIn(
              pdtValues.id,
              selected.map((row) => row.valueId),
            ),
          )
      : [];
  const planOf = new Map(plans.map((plan) => [`${plan.valueId}:${plan.quarterId}`, plan]));
  return selected.map((row) => {
    const earlierDates = earlier.map((quarter): PdtPlanDates => {
      const plan = quarter.id === null ? undefined : planOf.get(`${row.valueId}:${quarter.id}`);
      return { startDate: plan?.startDate ?? null, endDate: plan?.endDate ?? null };
    });
    return {
      reportId: row.reportId,
      partnerId: row.partnerId,
      companyName: row.companyName,
      productId: row.productId,
      productName: row.productName,
      stageId: row.stageId,
      stageName: row.stageName,
      status: row.status,
      reportStatus: row.reportStatus,
      dates: [...earlierDates, { startDate: row.startDate, endDate: row.endDate }],
    };
  });
}

/** The filters that concern a report (its quarter, partner and state). */
export function reportFilters(query: PdtQuery, quarterId: number): SQL[] {
  return [
    eq(reports.quarterId, quarterId),
    eq(reports.type, "pdt"),
    ...(query.partner ? [eq(reports.partnerId, query.partner)] : []),
    ...(query.reportStatus ? [eq(reports.status, query.reportStatus)] : []),
  ];
}

/** The filters that concern a row (product, stage, the product's project status). */
export function rowFilters(query: PdtQuery): SQL[] {
  return [
    ...(query.product ? [eq(pdtValues.productId, query.product)] : []),
    ...(query.stage ? [eq(pdtValues.stageId, query.stage)] : []),
    ...(query.status ? [eq(partnerProducts.projectStatus, query.status)] : []),
  ];
}
