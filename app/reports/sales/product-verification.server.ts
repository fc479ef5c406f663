/**
 * Product verification (decisions.md section 5): a product name that a partner enters on a
 * sales row and that is not one of its products is kept on the row and waits for the admin,
 * who maps it to an existing product or creates one (and assigns it to the partner), or
 * rejects it. A pending verification holds up the approval of the report that carries it.
 */
import { and, asc, desc, eq, exists, inArray, isNotNull, notExists, or, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { partnerProducts, partners, products, productVerifications, reports, salesRows } from "~/db/schema";
import { PROJECT_STATUSES, type ProjectStatus } from "~/utils/project-status";
import { DUPLICATE_PRODUCT_NAME, type ProductCategory } from "~/schemas/product";
import { writeAudit } from "~/models/audit.server";
import { insertProduct, listTherapyAreas, productSaveError } from "~/models/product.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import type { AuthUser } from "~/models/user.server";
import { NOT_AUTHORIZED } from "~/utils/messages";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";
import { PRODUCT_NAME_MAX } from "~/schemas/product";
import { verificationFormProblems, VERIFICATION_MESSAGES } from "~/reports/sales/product-verification-rules";
import { queuePartnerSalesChecks } from "~/jobs/checks-jobs.server";

type Reader = Pick<typeof db, "select">;

// ---------------------------------------------------------------- the partner's products

export interface PartnerProductName {
  id: number;
  name: string;
  category: ProductCategory;
}

/** The partner's active products (active assignment of an active product), by name: a query, also read inside other statements. */
export function partnerActiveProductsQuery(partnerId: number, executor: Reader = db) {
  return executor
    .select({ id: products.id, name: products.name, category: products.category })
    .from(partnerProducts)
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true), eq(products.isActive, true)))
    .orderBy(asc(sql`lower(${products.name})`), asc(products.id));
}

export async function partnerActiveProducts(partnerId: number, executor: Reader = db): Promise<PartnerProductName[]> {
  return partnerActiveProductsQuery(partnerId, executor);
}

const lower = (name: string) => name.normalize("NFC").trim().toLowerCase();

interface ResolvedProduct {
  productId: number | null;
  verificationId: number | null;
}

/**
 * Maps the product names of one category of sales rows to products, inside the save's
 * transaction. Keyed by the lower-cased name:
 * - a name of one of the partner's active products of the category: that product;
 * - a name the admin approved before (for this partner and category): the product it was mapped to;
 * - a name waiting for verification: that pending verification (one per partner, category and name);
 * - a name the admin rejected for this same report (raised by it, or carried by its rows): stays
 *   unmapped, linked to the rejection (re-saving the report does not ask again);
 * - any other name: a new pending verification linked to the report.
 */
export async function resolveProductNames(
  tx: Transaction,
  {
    partnerId,
    reportId,
    category,
    names,
    activeProducts,
  }: {
    partnerId: number;
    reportId: number;
    category: ProductCategory;
    names: Iterable<string>;
    /** The partner's active products as the save already read them (read here when left out). */
    activeProducts?: readonly PartnerProductName[];
  },
): Promise<Map<string, ResolvedProduct>> {
  const spelling = new Map<string, string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed && !spelling.has(lower(trimmed))) spelling.set(lower(trimmed), trimmed);
  }
  const resolved = new Map<string, ResolvedProduct>();
  if (!spelling.size) return resolved;

  for (const product of activeProducts ?? (await partnerActiveProducts(partnerId, tx))) {
    if (product.category === category && spelling.has(lower(product.name)) && !resolved.has(lower(product.name))) {
      resolved.set(lower(product.name), { productId: product.id, verificationId: null });
    }
  }
  const unknown = [...spelling.keys()].filter((key) => !resolved.has(key));
  if (!unknown.length) return resolved;

  const earlier = await tx
    .select()
    .from(productVerifications)
    .where(
      and(
        eq(productVerifications.partnerId, partnerId),
        eq(productVerifications.category, category),
        inArray(sql`lower(${productVerifications.productName})`, unknown),
      ),
    )
    .orderBy(desc(productVerifications.createdAt), desc(productVerifications.id));
  // A rejection this report's rows already carry (raised here, or by an earlier report whose pending name they reused).
  const carried = new Set(
    (
      await tx
        .selectDistinct({ id: salesRows.productVerificationId })
        .from(salesRows)
        .where(and(eq(salesRows.reportId, reportId), isNotNull(salesRows.productVerificationId)))
    ).map((row) => row.id),
  );

  for (const key of unknown) {
    const candidates = earlier.filter((v) => lower(v.productName) === key);
    const pending = candidates.find((v) => v.status === "pending");
    const approved = candidates.find((v) => v.status === "approved" && v.productId != null);
    const rejectedHere = candidates.find((v) => v.status === "rejected" && (v.reportId === reportId || carried.has(v.id)));
    if (pending) resolved.set(key, { productId: null, verificationId: pending.id });
    else if (approved) resolved.set(key, { productId: approved.productId, verificationId: approved.id });
    else if (rejectedHere) resolved.set(key, { productId: null, verificationId: rejectedHere.id });
    else
      resolved.set(key, {
        productId: null,
        verificationId: await claimPendingVerification(tx, partnerId, reportId, category, spelling.get(key)!),
      });
  }
  return resolved;
}

/** The pending verification of (partner, category, name), created when there is none (the partial unique index settles races). */
async function claimPendingVerification(tx: Transaction, partnerId: number, reportId: number, category: ProductCategory, productName: string) {
  const [created] = await tx
    .insert(productVerifications)
    .values({ partnerId, reportId, category, productName })
    .onConflictDoNothing()
    .returning({ id: productVerifications.id });
  if (created) return created.id;
  const [existing] = await tx
    .select({ id: productVerifications.id })
    .from(productVerifications)
    .where(
      and(
        eq(productVerifications.partnerId, partnerId),
        eq(productVerifications.category, category),
        eq(productVerifications.status, "pending"),
        eq(sql`lower(${productVerifications.productName})`, lower(productName)),
      ),
    );
  return existing.id;
}

/** Pending verifications raised by this report that no sales row carries any more (the name was corrected or the row deleted). */
export async function dropUnusedVerifications(tx: Transaction, reportId: number) {
  await tx
    .delete(productVerifications)
    .where(
      and(
        eq(productVerifications.reportId, reportId),
        eq(productVerifications.status, "pending"),
        notExists(tx.select({ id: salesRows.id }).from(salesRows).where(eq(salesRows.productVerificationId, productVerifications.id))),
      ),
    );
}

// ---------------------------------------------------------------- the admin's dialog

/** One line of the product verification dialog (spec section 3: pending_products and existing_products). */
export interface ProductVerificationItem {
  product_verification_id: number;
  product_name: string;
  /** null while pending; true approved; false rejected. */
  is_approved: boolean | null;
  category: ProductCategory;
  /** Of the product it was mapped to (null while pending or when rejected). */
  therapy_area: string | null;
  /** The partner's project status of the mapped product. */
  product_status: ProjectStatus | null;
  product_id: number | null;
  mapped_product_name: string | null;
  /** A product of this name and category already exists (approving maps to it; no therapy area needed). */
  does_product_exist: boolean;
  existing_product_id: number | null;
  /** Sales rows that carry this name. */
  row_count: number;
  created_at: Date;
  decided_at: Date | null;
}

export interface ProductVerificationList {
  pendingProducts: ProductVerificationItem[];
  existingProducts: ProductVerificationItem[];
  /** Active products the admin can map a name to, per category. */
  catalogue: Record<ProductCategory, { id: number; name: string; therapyArea: string }[]>;
  therapyAreas: string[];
  projectStatuses: readonly ProjectStatus[];
}

/**
 * The partner's verifications: pending ones (with a report: only those that hold up that
 * report) and decided ones, newest first.
 */
export async function listProductVerifications(partnerId: number, reportId?: number | null): Promise<ProductVerificationList> {
  // Counted per verification through sales_rows_product_verification_idx: only the rows that carry it are read.
  const rowCount = db.$count(salesRows, eq(salesRows.productVerificationId, productVerifications.id));
  const forReport = reportId
    ? or(
        eq(productVerifications.reportId, reportId),
        exists(
          db
            .select({ id: salesRows.id })
            .from(salesRows)
            .where(and(eq(salesRows.productVerificationId, productVerifications.id), eq(salesRows.reportId, reportId))),
        ),
      )
    : undefined;
  const pendingOnly = and(eq(productVerifications.status, "pending"), forReport);

  const rows = await db
    .select({
      id: productVerifications.id,
      productName: productVerifications.productName,
      status: productVerifications.status,
      category: productVerifications.category,
      productId: productVerifications.productId,
      mappedName: products.name,
      therapyArea: products.therapyArea,
      projectStatus: partnerProducts.projectStatus,
      rowCount,
      createdAt: productVerifications.createdAt,
      decidedAt: productVerifications.decidedAt,
    })
    .from(productVerifications)
    .leftJoin(products, eq(products.id, productVerifications.productId))
    .leftJoin(
      partnerProducts,
      and(eq(partnerProducts.partnerId, productVerifications.partnerId), eq(partnerProducts.productId, productVerifications.productId)),
    )
    .where(and(eq(productVerifications.partnerId, partnerId), or(pendingOnly, inArray(productVerifications.status, ["approved", "rejected"]))))
    .orderBy(desc(productVerifications.createdAt), desc(productVerifications.id));

  const catalogueRows = await db
    .select({ id: products.id, name: products.name, category: products.category, therapyArea: products.therapyArea })
    .from(products)
    .where(eq(products.isActive, true))
    .orderBy(asc(sql`lower(${products.name})`), asc(products.id));
  const catalogue: ProductVerificationList["catalogue"] = { API: [], FDF: [] };
  for (const product of catalogueRows) catalogue[product.category].push({ id: product.id, name: product.name, therapyArea: product.therapyArea });

  const toItem = (row: (typeof rows)[number]): ProductVerificationItem => {
    const existing = catalogue[row.category].find((product) => lower(product.name) === lower(row.productName));
    return {
      product_verification_id: row.id,
      product_name: row.productName,
      is_approved: row.status === "pending" ? null : row.status === "approved",
      category: row.category,
      therapy_area: row.therapyArea,
      product_status: row.projectStatus,
      product_id: row.productId,
      mapped_product_name: row.mappedName,
      does_product_exist: Boolean(existing),
      existing_product_id: existing?.id ?? null,
      row_count: Number(row.rowCount ?? 0),
      created_at: row.createdAt,
      decided_at: row.decidedAt,
    };
  };
  return {
    pendingProducts: rows.filter((row) => row.status === "pending").map(toItem),
    existingProducts: rows.filter((row) => row.status !== "pending").map(toItem),
    catalogue,
    therapyAreas: await listTherapyAreas(),
    projectStatuses: PROJECT_STATUSES,
  };
}

interface DecideProductVerificationInput {
  actor: Pick<AuthUser, "id" | "role">;
  verificationId: number;
  decision: "approve" | "reject";
  /** Approve by mapping the name to this existing product (of the verification's category)... */
  mapToProductId?: number | null;
  /** ...or to the product of this name: an existing one of the category, else a new one (therapy area required). */
  newProduct?: { name?: string | null; therapyArea?: string | null } | null;
  /** The partner's project status of the product: required to approve. */
  projectStatus?: string | null;
  requestId?: string | null;
}

type DecideProductVerificationResult =
  | { ok: true; status: "approved" | "rejected"; productId: number | null; createdProduct: boolean; rowsMapped: number; message: string }
  | { ok: false; errors: Record<string, string[]> };

class FieldRefusal extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super("refused");
  }
}

/** The admin approves (mapping to an existing product or creating one, and assigning it to the partner) or rejects a name. */
export async function decideProductVerification(input: DecideProductVerificationInput): Promise<DecideProductVerificationResult> {
  const { actor, verificationId, decision } = input;
  if (actor.role !== "ADMIN") throw new WorkflowError(NOT_AUTHORIZED, 403);
  const projectStatus = input.projectStatus || null;
  const errors: Record<string, string[]> = verificationFormProblems({ decision, projectStatus });
  if (errors.decision) return { ok: false, errors };
  if (!Number.isSafeInteger(verificationId) || verificationId <= 0) throw new WorkflowError(VERIFICATION_MESSAGES.notFound, 404);

  const mapTo = input.mapToProductId ?? null;
  const newName = input.newProduct?.name?.trim() ?? "";
  const therapyArea = input.newProduct?.therapyArea?.trim() ?? "";
  if (decision === "approve") {
    if (mapTo == null && !newName) errors.productName = [VERIFICATION_MESSAGES.productName];
    const nameProblem = mapTo == null ? textProblem(newName, PRODUCT_NAME_MAX) : null;
    if (nameProblem) errors.productName = [nameProblem];
    const therapyAreaProblem = mapTo == null ? textProblem(therapyArea, TEXT_MAX.name) : null;
    if (therapyAreaProblem) errors.therapyArea = [therapyAreaProblem];
    if (mapTo != null && (!Number.isSafeInteger(mapTo) || mapTo <= 0)) errors.productName = [VERIFICATION_MESSAGES.wrongProduct];
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  try {
    return await db.transaction(async (tx) => {
      const [verification] = await tx.select().from(productVerifications).where(eq(productVerifications.id, verificationId)).for("update");
      if (!verification) throw new WorkflowError(VERIFICATION_MESSAGES.notFound, 404);
      if (verification.status !== "pending") throw new WorkflowError(VERIFICATION_MESSAGES.alreadyDecided, 409);
      const now = new Date();
      const before = { status: verification.status, productName: verification.productName, category: verification.category };

      if (decision === "reject") {
        await tx
          .update(productVerifications)
          .set({ status: "rejected", decidedBy: actor.id, decidedAt: now })
          .where(eq(productVerifications.id, verificationId));
        await writeAudit(
          {
            actorId: actor.id,
            action: "product-verification.reject",
            entity: "product-verification",
            entityId: verificationId,
            before,
            after: { status: "rejected", partnerId: verification.partnerId },
            requestId: input.requestId,
          },
          tx,
        );
        return {
          ok: true as const,
          status: "rejected" as const,
          productId: null,
          createdProduct: false,
          rowsMapped: 0,
          message: VERIFICATION_MESSAGES.rejected,
        };
      }

      // The product: the chosen one, else the one of that name, else a new one.
      let product: { id: number; category: ProductCategory; isActive: boolean } | undefined;
      let createdProduct = false;
      if (mapTo != null) {
        [product] = await tx.select({ id: products.id, category: products.category, isActive: products.isActive }).from(products).where(eq(products.id, mapTo));
        if (!product || !product.isActive || product.category !== verification.category) {
          throw new FieldRefusal({ productName: [VERIFICATION_MESSAGES.wrongProduct] });
        }
      } else {
        [product] = await tx
          .select({ id: products.id, category: products.category, isActive: products.isActive })
          .from(products)
          .where(eq(sql`lower(${products.name})`, lower(newName)));
        if (product && (!product.isActive || product.category !== verification.category)) {
          throw new FieldRefusal({ productName: [DUPLICATE_PRODUCT_NAME] });
        }
        if (!product) {
          if (!therapyArea) throw new FieldRefusal({ therapyArea: [VERIFICATION_MESSAGES.therapyArea] });
          const created = await insertProduct(
            tx,
            { name: newName, category: verification.category, therapyArea },
            { actorId: actor.id, requestId: input.requestId },
          );
          product = { id: created.id, category: created.category, isActive: true };
          createdProduct = true;
        }
      }

      // Assign it to the partner with the chosen status (an existing assignment is reactivated).
      const chosenStatus = projectStatus as ProjectStatus;
      const [assignment] = await tx
        .insert(partnerProducts)
        .values({ partnerId: verification.partnerId, productId: product.id, projectStatus: chosenStatus })
        .onConflictDoUpdate({
          target: [partnerProducts.partnerId, partnerProducts.productId],
          set: { isActive: true, projectStatus: chosenStatus },
        })
        .returning({ projectStatus: partnerProducts.projectStatus });

      await tx
        .update(productVerifications)
        .set({ status: "approved", productId: product.id, decidedBy: actor.id, decidedAt: now })
        .where(eq(productVerifications.id, verificationId));
      const mapped = await tx
        .update(salesRows)
        .set({ productId: product.id })
        .where(
          and(
            eq(salesRows.productVerificationId, verificationId),
            inArray(salesRows.reportId, tx.select({ id: reports.id }).from(reports).where(eq(reports.partnerId, verification.partnerId))),
          ),
        )
        .returning({ id: salesRows.id });
      // The rows now count in the partner's means and checks; the product's status is read by every quarter's.
      await queuePartnerSalesChecks(tx, verification.partnerId);

      await writeAudit(
        {
          actorId: actor.id,
          action: "product-verification.approve",
          entity: "product-verification",
          entityId: verificationId,
          before,
          after: {
            status: "approved",
            partnerId: verification.partnerId,
            productId: product.id,
            createdProduct,
            projectStatus: assignment.projectStatus,
            rowsMapped: mapped.length,
          },
          requestId: input.requestId,
        },
        tx,
      );
      return {
        ok: true as const,
        status: "approved" as const,
        productId: product.id,
        createdProduct,
        rowsMapped: mapped.length,
        message: VERIFICATION_MESSAGES.approved,
      };
    });
  } catch (error) {
    if (error instanceof FieldRefusal) return { ok: false, errors: error.errors };
    const reason = productSaveError(error);
    if (reason === "duplicate-name") return { ok: false, errors: { productName: [DUPLICATE_PRODUCT_NAME] } };
    if (reason === "unknown-therapy-area") return { ok: false, errors: { therapyArea: [VERIFICATION_MESSAGES.therapyArea] } };
    throw error;
  }
}

/** The partner a verification belongs to (the route checks it against the page's partner). */
export async function verificationPartnerId(verificationId: number): Promise<number | undefined> {
  if (!Number.isSafeInteger(verificationId) || verificationId <= 0) return undefined;
  const [row] = await db
    .select({ partnerId: productVerifications.partnerId })
    .from(productVerifications)
    .innerJoin(partners, eq(partners.id, productVerifications.partnerId))
    .where(eq(productVerifications.id, verificationId));
  return row?.partnerId;
}
