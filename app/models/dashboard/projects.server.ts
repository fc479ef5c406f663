/**
 * Product / Project (dashboard tab 1): the project status of every active product of every active
 * partner (partner_products, edited by the partner form and the Development Timeline). A current
 * state, not a report figure: the approved-only rule does not apply.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { partnerProducts, partners, products } from "~/db/schema";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { pagedTable, type DashboardTable } from "~/reports/dashboard/tables";
import { PROJECT_STATUS_LABELS, type ProjectStatus } from "~/utils/project-status";

/** The statuses the dashboard counts (spec section 2; PLANNED is not one of them). */
export const DASHBOARD_PROJECT_STATUSES = ["ON_HOLD", "UNDER_DEVELOPMENT", "DROPPED", "FILED", "APPROVED"] as const satisfies readonly ProjectStatus[];

const activeProjects = and(eq(partnerProducts.isActive, true), eq(partners.isActive, true), eq(products.isActive, true));

const statusCounts = DASHBOARD_PROJECT_STATUSES.map((status) => sql<number>`(count(*) filter (where ${partnerProducts.projectStatus} = ${status}))::int`);
const countedStatus = sql`${partnerProducts.projectStatus} in (${sql.join(
  DASHBOARD_PROJECT_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)})`;

const STATUS_COLUMNS = DASHBOARD_PROJECT_STATUSES.map((status) => ({ key: status, label: PROJECT_STATUS_LABELS[status], numeric: true }));

/** How many projects are in each status (the tiles). */
export async function projectStatusCounts(): Promise<{ status: (typeof DASHBOARD_PROJECT_STATUSES)[number]; count: number }[]> {
  const rows = await db
    .select({ status: partnerProducts.projectStatus, count: sql<number>`count(*)::int` })
    .from(partnerProducts)
    .innerJoin(partners, eq(partners.id, partnerProducts.partnerId))
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(activeProjects, countedStatus))
    .groupBy(partnerProducts.projectStatus);
  return DASHBOARD_PROJECT_STATUSES.map((status) => ({ status, count: Number(rows.find((row) => row.status === status)?.count ?? 0) }));
}

export function projectStatusTable(counts: Awaited<ReturnType<typeof projectStatusCounts>>, query: DashboardQuery, all = false): DashboardTable {
  return pagedTable(
    "project-status",
    "Project count",
    [
      { key: "status", label: "Status" },
      { key: "count", label: "Projects", numeric: true },
    ],
    counts.map((row) => [PROJECT_STATUS_LABELS[row.status], row.count]),
    query,
    all,
  );
}

/**
 * 'Product Wise Company Count': per product, how many partners have it in each status;
 * 'Company Wise Product Count': per partner, how many of its products are in each status.
 */
const STATUS_COUNT_TABLES = {
  "product-status-count": { title: "Product Wise Company Count", column: { key: "product", label: "Product" }, id: products.id, name: products.name },
  "company-status-count": {
    title: "Company Wise Product Count",
    column: { key: "company", label: "Company Name" },
    id: partners.id,
    name: partners.companyName,
  },
};

export async function statusCountTable(tableId: keyof typeof STATUS_COUNT_TABLES, query: DashboardQuery, all = false): Promise<DashboardTable> {
  const { title, column, id, name } = STATUS_COUNT_TABLES[tableId];
  const rows = await db
    .select({ name, counts: sql<number[]>`array[${sql.join(statusCounts, sql`, `)}]` })
    .from(partnerProducts)
    .innerJoin(partners, eq(partners.id, partnerProducts.partnerId))
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(activeProjects, countedStatus))
    .groupBy(id, name)
    .orderBy(asc(sql`lower(${name})`), asc(id));
  return pagedTable(
    tableId,
    title,
    [column, ...STATUS_COLUMNS],
    rows.map((row) => [row.name, ...row.counts.map(Number)]),
    query,
    all,
  );
}
