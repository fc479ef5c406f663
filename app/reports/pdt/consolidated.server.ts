/**
 * The Development Timeline consolidated report (spec section 2 "Admin consolidated reports",
 * section 7 `/report/pdt/`): every stored row of the quarter's PDT reports, whatever the report's
 * state (drafts too), one per partner, product and stage, with the product's project status, the
 * report's state and the planned start and end dates of the quarter and of the three quarters
 * before it (consolidated-rows.server.ts); downloaded by consolidated-download.server.ts.
 *
 * The page is one COUNT(*) and one LIMIT/OFFSET query with the same filters (on the narrow join);
 * the page's rows are then read whole, and their earlier quarters' plans by a query of their own.
 * The count and the filters' lists (consolidated-options.server.ts) are kept under the quarter's
 * reports fingerprint (quarter-cache.server.ts).
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import * as z from "zod";
import { db } from "~/db/client.server";
import { partnerProducts, partners, pdtValues, products, reports, stages } from "~/db/schema";
import { idIn } from "~/db/sql-pieces";
import { baseQuery, choiceFilter, idFilter } from "~/reports/consolidated/query";
import { CONSOLIDATED_PAGE_SIZES, pageWindow, type Page, type FilterOption, type ReportFilterLists } from "~/reports/consolidated/paging";
import { quarterDropdown } from "~/reports/consolidated/filter-lists.server";
import { cachedUnder, reportsFingerprint } from "~/reports/consolidated/quarter-cache.server";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { ReportStatus } from "~/reports/frame/workflow";
import { resolveQuarter } from "~/reports/frame/screen.server";
import { PROJECT_STATUSES, type ProjectStatus } from "~/utils/project-status";
import { filterOptions } from "./consolidated-options.server";
import { historyQuarters, PARTNER_PRODUCT, reportFilters, rowFilters, joinedRows, selectRows, withEarlierPlans } from "./consolidated-rows.server";

// ---------------------------------------------------------------- query

/** Columns the table sorts by (`?sort=`); the company is the default. */
export const PDT_SORTS = ["company", "product", "stage", "status", "reportStatus"] as const;
export type PdtSort = (typeof PDT_SORTS)[number];

/**
 * `?quarter=Q1 2026&partner=3&product=7&stage=12&status=FILED&reportStatus=Saved&sort=product&dir=desc&page=2`:
 * `status` is the product's project status, `reportStatus` the report's workflow state.
 */
export const pdtQuerySchema = z.object({
  ...baseQuery,
  partner: idFilter,
  product: idFilter,
  stage: idFilter,
  status: choiceFilter(PROJECT_STATUSES),
  reportStatus: choiceFilter(REPORT_STATES),
});
export type PdtQuery = z.infer<typeof pdtQuerySchema>;

export const pdtSortOf = (query: Pick<PdtQuery, "sort">): PdtSort =>
  (PDT_SORTS as readonly string[]).includes(query.sort ?? "") ? (query.sort as PdtSort) : "company";

// ---------------------------------------------------------------- rows

export interface PdtPlanDates {
  /** ISO dates (YYYY-MM-DD), null when the quarter's report has none. */
  startDate: string | null;
  endDate: string | null;
}

export interface PdtConsolidatedRow {
  reportId: number;
  partnerId: number;
  companyName: string;
  productId: number;
  productName: string;
  stageId: number;
  stageName: string;
  /** The product's project status for the partner (null: the product is no longer the partner's). */
  status: ProjectStatus | null;
  reportStatus: ReportStatus;
  /** One pair per quarter of `quarterOrder` (oldest first, the selected quarter last). */
  dates: PdtPlanDates[];
}

export interface PdtConsolidatedView {
  page: Page<PdtConsolidatedRow>;
  quarter: { id: number; name: string };
  /** The three quarters before the selected one, oldest first, then the selected quarter. */
  quarterOrder: string[];
  options: ReportFilterLists & {
    stage_filter: FilterOption[];
    status_filter: FilterOption<ProjectStatus>[];
  };
}

/** The rest of every order: company, product, the stage's place in its category; unique per row of a quarter. */
const TIE_BREAK: (AnyPgColumn | SQL)[] = [partners.companyName, partners.id, products.name, products.id, stages.sortOrder, stages.id];

/** What a sort orders by first (in the asked direction); the tie-break follows, ascending. */
const SORT_KEYS: Record<PdtSort, (AnyPgColumn | SQL)[]> = {
  company: [partners.companyName, partners.id],
  product: [products.name, products.id],
  stage: [stages.name, stages.id],
  status: [sql`coalesce(${partnerProducts.projectStatus}::text, '')`],
  reportStatus: [sql`${reports.status}::text`],
};

function orderOf(sort: PdtSort, dir: "asc" | "desc"): SQL[] {
  const first = SORT_KEYS[sort];
  const rest = TIE_BREAK.filter((key) => !first.includes(key));
  return [...first.map((key) => (dir === "desc" ? desc(key) : asc(key))), ...rest.map((key) => asc(key))];
}

// ---------------------------------------------------------------- the page

/** One page of the report with its filters' choices (an unknown or future quarter: WorkflowError 404). */
export async function listPdtConsolidated(
  query: PdtQuery,
  { pageSize = CONSOLIDATED_PAGE_SIZES.pdt }: { pageSize?: number } = {},
): Promise<PdtConsolidatedView> {
  const quarter = await resolveQuarter(query.quarter);
  const where = and(...reportFilters(query, quarter.id), ...rowFilters(query));
  const fingerprint = reportsFingerprint(quarter.id, "pdt");
  const countRows = async () => {
    const [{ total }] = await db
      .select({ total: count() })
      .from(pdtValues)
      .innerJoin(reports, eq(reports.id, pdtValues.reportId))
      .leftJoin(partnerProducts, PARTNER_PRODUCT)
      .where(where);
    return total;
  };
  const { partner, reportStatus, product, stage, status } = query;
  // The project status is the partner's product's, changed on the partner's page and not by a
  // report: a count filtered by it is not kept under the reports' fingerprint.
  const counted = status ? countRows() : cachedUnder(fingerprint, `pdt-count|${JSON.stringify({ partner, reportStatus, product, stage })}`, countRows);
  const [earlier, total, options, dropdown] = await Promise.all([
    historyQuarters(quarter),
    counted,
    filterOptions(query, quarter.id, fingerprint),
    quarterDropdown(),
  ]);
  const window = pageWindow(query.page, total, pageSize);
  // The page's rows are found on the narrow join (order, offset, limit), then read with the earlier quarters' plans.
  const ids = total
    ? (
        await joinedRows(db.select({ id: pdtValues.id }).from(pdtValues).$dynamic())
          .where(where)
          .orderBy(...orderOf(pdtSortOf(query), query.dir))
          .limit(window.limit)
          .offset(window.offset)
      ).map((row) => row.id)
    : [];
  const position = new Map(ids.map((id, index) => [id, index]));
  const selected = ids.length ? (await selectRows().where(idIn(pdtValues.id, ids))).sort((a, b) => position.get(a.valueId)! - position.get(b.valueId)!) : [];
  const rows = await withEarlierPlans(selected, earlier);
  return {
    page: { rows, total, page: window.page, pageSize, pages: window.pages },
    quarter: { id: quarter.id, name: quarter.name },
    quarterOrder: [...earlier.map((q) => q.name), quarter.name],
    options: { quarter_filter: dropdown, ...options },
  };
}
