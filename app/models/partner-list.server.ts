import { and, asc, count, desc, eq, exists, ilike, inArray, isNull, notExists, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db } from "~/db/client.server";
import { apiTokens, partnerProducts, partners, products, reportCheckCounts, reportMessages, reports, sessions, users } from "~/db/schema";
import type { PartnerListQuery } from "~/utils/partner-list";
import type { ProjectStatus } from "~/utils/project-status";
import { owedReportTypes, type ReportState, type ReportTypeKey } from "~/reports/frame/registry";
import { writeAudit } from "./audit.server";
import { getOpenQuarter } from "./quarter.server";
import { unreadBy, type MessageSide } from "~/reports/frame/workflow.server";

// ---------------------------------------------------------------- the list

export interface PartnerListRow {
  id: number;
  companyName: string;
  email: string;
  isActive: boolean;
  /** Its active products with its project status of each, as the partner form shows them. */
  products: { id: number; name: string; status: ProjectStatus }[];
  statuses: Record<ReportTypeKey, ReportState>;
  /** Its reports of the open quarter (a type left out: not started), messages as administrators see them. */
  reports: PartnerReports;
  /** The reports of the open quarter it still owes: what its reminder menu offers. */
  owed: ReportTypeKey[];
  /** Open findings of its open-quarter Sales Report (as administrators see them); null: no report, or not counted yet. */
  findings: number | null;
}

interface PartnerList {
  quarterName: string;
  rows: PartnerListRow[];
  /** Where the rows stand in the whole list (one page holding every row when the list is not paged). */
  page: { page: number; pages: number; total: number; pageSize: number };
}

/** `%`, `_` and `\` typed by a user are searched for literally. */
function likePattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ListedReport {
  status: (typeof reports.$inferSelect)["status"];
  submittedAt: Date | null;
  decidedAt: Date | null;
  updatedAt: Date;
  /** Messages from the other side that `side` has not opened. */
  unreadMessageCount: number;
}

export type PartnerReports = Partial<Record<ReportTypeKey, ListedReport>>;

/** The partners' reports of a quarter with their unread message counts for `side`, by partner, in one statement. */
export async function reportsOfQuarter(partnerIds: number[], quarterId: number, side: MessageSide): Promise<Map<number, PartnerReports>> {
  const rows = partnerIds.length
    ? await db
        .select({
          partnerId: reports.partnerId,
          type: reports.type,
          status: reports.status,
          submittedAt: reports.submittedAt,
          decidedAt: reports.decidedAt,
          updatedAt: reports.updatedAt,
          unreadMessageCount: count(reportMessages.id),
        })
        .from(reports)
        .leftJoin(reportMessages, and(eq(reportMessages.reportId, reports.id), unreadBy(side)))
        .where(and(eq(reports.quarterId, quarterId), inArray(reports.partnerId, partnerIds)))
        .groupBy(reports.id)
    : [];
  const byPartner = new Map<number, PartnerReports>(partnerIds.map((id) => [id, {}]));
  for (const { partnerId, type, ...report } of rows) byPartner.get(partnerId)![type] = report;
  return byPartner;
}

/**
 * The admin partner list in four statements whatever the number of partners: the open quarter,
 * the partners with their Sales Report's open findings (stored by the "report-checks" job) and how
 * many match, their active products and their reports of the open quarter. With `pageSize`, the
 * query's page of that many partners (past the last page: the last, in two statements more).
 */
export async function listPartners(query: PartnerListQuery, { pageSize }: { pageSize?: number } = {}): Promise<PartnerList> {
  const quarter = await getOpenQuarter();
  const filters = [eq(partners.isActive, query.status === "active")];
  if (query.q) {
    const pattern = likePattern(query.q);
    filters.push(or(ilike(partners.companyName, pattern), ilike(partners.email, pattern))!);
  }
  if (query.report) {
    const { type, state } = query.report;
    const partnersReport = (...conditions: SQL[]) =>
      db
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.partnerId, partners.id), eq(reports.quarterId, quarter.id), eq(reports.type, type), ...conditions));
    filters.push(state === "not started" ? notExists(partnersReport()) : exists(partnersReport(eq(reports.status, state))));
  }
  const order = query.dir === "desc" ? desc : asc;
  const byCompany = (by: typeof asc) => [by(sql`lower(${partners.companyName})`), by(partners.companyName), asc(partners.id)];
  const salesReport = alias(reports, "open_sales_report");
  const listed = db
    .select({
      id: partners.id,
      companyName: partners.companyName,
      email: partners.email,
      isActive: partners.isActive,
      findings: reportCheckCounts.total,
      matching: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(partners)
    .leftJoin(salesReport, and(eq(salesReport.partnerId, partners.id), eq(salesReport.quarterId, quarter.id), eq(salesReport.type, "sales")))
    .leftJoin(reportCheckCounts, eq(reportCheckCounts.reportId, salesReport.id))
    .where(and(...filters))
    // Partners without a count come last either way.
    .orderBy(...(query.sort === "findings" ? [sql`${reportCheckCounts.total} ${sql.raw(query.dir)} nulls last`, ...byCompany(asc)] : byCompany(order)))
    .$dynamic();
  const partnerRows = await (pageSize ? listed.limit(pageSize).offset((query.page - 1) * pageSize) : listed);
  if (pageSize && !partnerRows.length && query.page > 1) {
    const [{ matching }] = await db
      .select({ matching: count() })
      .from(partners)
      .where(and(...filters));
    const last = Math.max(1, Math.ceil(matching / pageSize));
    if (last < query.page) return listPartners({ ...query, page: last }, { pageSize });
  }
  const matching = partnerRows[0]?.matching ?? 0;
  const page = pageSize
    ? { page: query.page, pages: Math.max(1, Math.ceil(matching / pageSize)), total: matching, pageSize }
    : { page: 1, pages: 1, total: matching, pageSize: matching };

  const ids = partnerRows.map((partner) => partner.id);
  if (!ids.length) return { quarterName: quarter.name, rows: [], page };

  const [productRows, reportsByPartner] = await Promise.all([
    db
      .select({ partnerId: partnerProducts.partnerId, id: products.id, name: products.name, status: partnerProducts.projectStatus })
      .from(partnerProducts)
      .innerJoin(products, eq(products.id, partnerProducts.productId))
      .where(and(inArray(partnerProducts.partnerId, ids), eq(partnerProducts.isActive, true), eq(products.isActive, true)))
      .orderBy(asc(sql`lower(${products.name})`), asc(products.name), asc(products.id)),
    // The list is read by administrators and staff: the administrators' side of the messages.
    reportsOfQuarter(ids, quarter.id, "admin"),
  ]);

  const rows = partnerRows.map<PartnerListRow>(({ matching: _matching, ...partner }) => {
    const partnerReports = reportsByPartner.get(partner.id)!;
    const statuses: Record<ReportTypeKey, ReportState> = {
      pdt: partnerReports.pdt?.status ?? "not started",
      filing: partnerReports.filing?.status ?? "not started",
      sales: partnerReports.sales?.status ?? "not started",
    };
    return { ...partner, products: [], statuses, reports: partnerReports, owed: owedReportTypes(statuses) };
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { partnerId, ...product } of productRows) byId.get(partnerId)!.products.push(product);
  return { quarterName: quarter.name, rows, page };
}

// ---------------------------------------------------------------- deactivate / reactivate

export async function getPartnerSummary(partnerId: number) {
  const [partner] = await db
    .select({ id: partners.id, companyName: partners.companyName, email: partners.email, isActive: partners.isActive })
    .from(partners)
    .where(eq(partners.id, partnerId));
  return partner;
}

type PartnerActivationResult = "changed" | "unchanged" | "not-found";

interface Actor {
  actorId: number;
  requestId?: string | null;
}

/**
 * Soft delete (decisions.md section 6): the partner and its login are marked inactive, its data
 * stays, its sessions end and its API tokens are revoked. A deactivated partner cannot sign in.
 */
export function deactivatePartner(partnerId: number, actor: Actor): Promise<PartnerActivationResult> {
  return setPartnerActive(partnerId, false, actor);
}

/** Undoes a deactivation: the partner and its login are active again (the partner sets no new password). */
export function reactivatePartner(partnerId: number, actor: Actor): Promise<PartnerActivationResult> {
  return setPartnerActive(partnerId, true, actor);
}

async function setPartnerActive(partnerId: number, active: boolean, actor: Actor): Promise<PartnerActivationResult> {
  return db.transaction(async (tx) => {
    const [partner] = await tx
      .select({ id: partners.id, companyName: partners.companyName, email: partners.email, isActive: partners.isActive })
      .from(partners)
      .where(eq(partners.id, partnerId))
      .for("update");
    if (!partner) return "not-found";
    const logins = await tx.select({ id: users.id, isActive: users.isActive }).from(users).where(eq(users.partnerId, partnerId));
    if (partner.isActive === active && logins.every((login) => login.isActive === active)) return "unchanged";

    const now = new Date();
    await tx.update(partners).set({ isActive: active, updatedAt: now }).where(eq(partners.id, partnerId));
    await tx.update(users).set({ isActive: active, updatedAt: now }).where(eq(users.partnerId, partnerId));
    const userIds = logins.map((login) => login.id);
    let sessionsEnded = 0;
    if (!active && userIds.length) {
      const ended = await tx.delete(sessions).where(inArray(sessions.userId, userIds)).returning({ id: sessions.id });
      sessionsEnded = ended.length;
      await tx
        .update(apiTokens)
        .set({ revokedAt: now })
        .where(and(inArray(apiTokens.userId, userIds), isNull(apiTokens.revokedAt)));
    }

    const state = (partnerActive: boolean, loginActive: (login: { isActive: boolean }) => boolean) => ({
      companyName: partner.companyName,
      email: partner.email,
      isActive: partnerActive,
      users: logins.map((login) => ({ id: login.id, isActive: loginActive(login) })),
    });
    await writeAudit(
      {
        actorId: actor.actorId,
        action: active ? "partner.reactivate" : "partner.deactivate",
        entity: "partner",
        entityId: partnerId,
        before: state(partner.isActive, (login) => login.isActive),
        after: { ...state(active, () => active), ...(active ? {} : { sessionsEnded }) },
        requestId: actor.requestId,
      },
      tx,
    );
    return "changed";
  });
}
