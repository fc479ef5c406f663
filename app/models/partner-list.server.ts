import { and, asc, desc, eq, exists, ilike, inArray, isNull, notExists, or, sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { apiTokens, partnerProducts, partners, products, reports, sessions, users } from "~/db/schema";
import type { PartnerListQuery } from "~/utils/partner-list";
import { owedReportTypes, type ReportState, type ReportTypeKey } from "~/utils/reports";
import { writeAudit } from "./audit.server";
import { getOpenQuarter } from "./quarter.server";

// ---------------------------------------------------------------- the list

export interface PartnerListRow {
  id: number;
  companyName: string;
  email: string;
  isActive: boolean;
  products: { id: number; name: string }[];
  statuses: Record<ReportTypeKey, ReportState>;
  /** The reports of the open quarter it still owes: what its reminder menu offers. */
  owed: ReportTypeKey[];
}

export interface PartnerList {
  quarterName: string;
  rows: PartnerListRow[];
}

/** `%`, `_` and `\` typed by a user are searched for literally. */
function likePattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The admin partner list: one query for the partners, one for their active products and one for
 * their reports of the open quarter (no query per partner).
 */
export async function listPartners(query: PartnerListQuery): Promise<PartnerList> {
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
  const partnerRows = await db
    .select({ id: partners.id, companyName: partners.companyName, email: partners.email, isActive: partners.isActive })
    .from(partners)
    .where(and(...filters))
    .orderBy(order(sql`lower(${partners.companyName})`), order(partners.companyName), asc(partners.id));

  const ids = partnerRows.map((partner) => partner.id);
  if (!ids.length) return { quarterName: quarter.name, rows: [] };

  const [productRows, reportRows] = await Promise.all([
    db
      .select({ partnerId: partnerProducts.partnerId, id: products.id, name: products.name })
      .from(partnerProducts)
      .innerJoin(products, eq(products.id, partnerProducts.productId))
      .where(and(inArray(partnerProducts.partnerId, ids), eq(partnerProducts.isActive, true), eq(products.isActive, true)))
      .orderBy(asc(sql`lower(${products.name})`), asc(products.name), asc(products.id)),
    db
      .select({ partnerId: reports.partnerId, type: reports.type, status: reports.status })
      .from(reports)
      .where(and(eq(reports.quarterId, quarter.id), inArray(reports.partnerId, ids))),
  ]);

  const rows = partnerRows.map<PartnerListRow>((partner) => ({
    ...partner,
    products: [],
    statuses: { pdt: "not started", filing: "not started", sales: "not started" },
    owed: [],
  }));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const product of productRows) byId.get(product.partnerId)?.products.push({ id: product.id, name: product.name });
  for (const report of reportRows) {
    const row = byId.get(report.partnerId);
    if (row) row.statuses[report.type] = report.status;
  }
  for (const row of rows) row.owed = owedReportTypes(row.statuses);
  return { quarterName: quarter.name, rows };
}

// ---------------------------------------------------------------- deactivate / reactivate

export async function getPartnerSummary(partnerId: number) {
  const [partner] = await db
    .select({ id: partners.id, companyName: partners.companyName, email: partners.email, isActive: partners.isActive })
    .from(partners)
    .where(eq(partners.id, partnerId));
  return partner;
}

export type PartnerActivationResult = "changed" | "unchanged" | "not-found";

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
    const logins = await tx
      .select({ id: users.id, isActive: users.isActive })
      .from(users)
      .where(eq(users.partnerId, partnerId));
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
