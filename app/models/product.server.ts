import { and, asc, desc, eq, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { partnerProducts, products, stages, therapyAreas } from "~/db/schema";
import type { EditProductInput, ProductCategory, ProductInput, ProductListQuery } from "~/schemas/product";
import type { ProjectStatus } from "~/utils/project-status";
import { writeAudit } from "./audit.server";

export interface ProductRow {
  id: number;
  name: string;
  category: ProductCategory;
  therapyArea: string;
  isActive: boolean;
}

interface AuditActor {
  actorId: number;
  requestId?: string | null;
}

/** Why a save was refused; each maps to a field error of the form. */
type ProductSaveError = "duplicate-name" | "unknown-therapy-area" | "not-found";
export type ProductSaveResult = { ok: true; product: ProductRow } | { ok: false; reason: ProductSaveError };

const productColumns = {
  id: products.id,
  name: products.name,
  category: products.category,
  therapyArea: products.therapyArea,
  isActive: products.isActive,
};

/**
 * The admin product list: active or deactivated products, optionally of one category, by name
 * (case-insensitive); `newestFirst` (the API's `?recent=true`) lists the products added last first.
 */
export async function listProducts(query: ProductListQuery, { newestFirst = false }: { newestFirst?: boolean } = {}): Promise<ProductRow[]> {
  const direction = query.dir === "desc" ? desc : asc;
  return db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.isActive, query.status === "active"), query.category ? eq(products.category, query.category) : undefined))
    .orderBy(
      ...(newestFirst ? [desc(products.createdAt), desc(products.id)] : [direction(sql`lower(${products.name})`), direction(products.name), asc(products.id)]),
    );
}

export async function getProduct(id: number): Promise<ProductRow | undefined> {
  const [row] = await db.select(productColumns).from(products).where(eq(products.id, id));
  return row;
}

interface PartnerProductDetail {
  product: ProductRow;
  /** The partner's assignment of the product (partner_products), or null when it has none. */
  assignment: { id: number; projectStatus: ProjectStatus; isActive: boolean } | null;
}

/**
 * The product of this name (case-insensitive, as the unique index judges names) and the given
 * partner's assignment of it; undefined when no product has the name.
 */
export async function getPartnerProductDetail(partnerId: number, productName: string): Promise<PartnerProductDetail | undefined> {
  const [row] = await db
    .select({
      product: productColumns,
      assignmentId: partnerProducts.id,
      projectStatus: partnerProducts.projectStatus,
      assignmentActive: partnerProducts.isActive,
    })
    .from(products)
    .leftJoin(partnerProducts, and(eq(partnerProducts.productId, products.id), eq(partnerProducts.partnerId, partnerId)))
    .where(eq(sql`lower(${products.name})`, productName.normalize("NFC").trim().toLowerCase()))
    .limit(1);
  if (!row) return undefined;
  return {
    product: row.product,
    assignment:
      row.assignmentId != null && row.projectStatus != null
        ? { id: row.assignmentId, projectStatus: row.projectStatus, isActive: Boolean(row.assignmentActive) }
        : null,
  };
}

export async function listTherapyAreas(): Promise<string[]> {
  const rows = await db.select({ code: therapyAreas.code }).from(therapyAreas).orderBy(asc(therapyAreas.sortOrder));
  return rows.map((row) => row.code);
}

export interface StageRow {
  id: number;
  name: string;
}

/** The stages of each category, in their order (read-only list of the product form). */
export async function listStagesByCategory(): Promise<Record<ProductCategory, StageRow[]>> {
  const rows = await db
    .select({ id: stages.id, name: stages.name, category: stages.category })
    .from(stages)
    .orderBy(asc(stages.category), asc(stages.sortOrder), asc(stages.id));
  const result: Record<ProductCategory, StageRow[]> = { FDF: [], API: [] };
  for (const row of rows) result[row.category].push({ id: row.id, name: row.name });
  return result;
}

export async function listStages(category: ProductCategory): Promise<StageRow[]> {
  return db.select({ id: stages.id, name: stages.name }).from(stages).where(eq(stages.category, category)).orderBy(asc(stages.sortOrder), asc(stages.id));
}

/** The unique index on lower(name) is the one judge of duplicates, so two admins saving at once cannot both win. */
function isDuplicateNameError(error: unknown): boolean {
  for (let candidate = error as Record<string, unknown> | undefined, depth = 0; candidate && depth < 5; depth++) {
    if (candidate.code === "23505") {
      const constraint = String(candidate.constraint_name ?? candidate.constraint ?? candidate.message ?? "");
      return constraint === "" || constraint.includes("products_name_lower_uq");
    }
    candidate = candidate.cause as Record<string, unknown> | undefined;
  }
  return false;
}

class SaveRefused extends Error {
  constructor(public readonly reason: ProductSaveError) {
    super(reason);
  }
}

async function assertTherapyArea(tx: Transaction, code: string) {
  const [row] = await tx.select({ code: therapyAreas.code }).from(therapyAreas).where(eq(therapyAreas.code, code));
  if (!row) throw new SaveRefused("unknown-therapy-area");
}

async function runSave(work: () => Promise<ProductRow>): Promise<ProductSaveResult> {
  try {
    return { ok: true, product: await work() };
  } catch (error) {
    if (error instanceof SaveRefused) return { ok: false, reason: error.reason };
    if (isDuplicateNameError(error)) return { ok: false, reason: "duplicate-name" };
    throw error;
  }
}

const snapshot = ({ name, category, therapyArea, isActive }: ProductRow) => ({ name, category, therapyArea, isActive });

export function createProduct(input: ProductInput, actor: AuditActor): Promise<ProductSaveResult> {
  return runSave(() => db.transaction((tx) => insertProduct(tx, input, actor)));
}

/**
 * Creates a product with its audit entry inside the caller's transaction (the product
 * verification creates one while mapping sales rows). A refusal is thrown: `productSaveError`
 * tells which one, after the caller's transaction has rolled back.
 */
export async function insertProduct(tx: Transaction, input: ProductInput, actor: AuditActor): Promise<ProductRow> {
  await assertTherapyArea(tx, input.therapyArea);
  const [created] = await tx.insert(products).values({ name: input.name, category: input.category, therapyArea: input.therapyArea }).returning(productColumns);
  await writeAudit({ ...actor, action: "product.create", entity: "product", entityId: created.id, before: null, after: snapshot(created) }, tx);
  return created;
}

/** Why an `insertProduct` failed ("duplicate-name", "unknown-therapy-area"), or undefined for any other error. */
export function productSaveError(error: unknown): ProductSaveError | undefined {
  if (error instanceof SaveRefused) return error.reason;
  if (isDuplicateNameError(error)) return "duplicate-name";
  return undefined;
}

/** Name and therapy area only: the category of an existing product never changes (its PDT stages depend on it). */
export function updateProduct(id: number, input: EditProductInput, actor: AuditActor): Promise<ProductSaveResult> {
  return runSave(() =>
    db.transaction(async (tx) => {
      const [before] = await tx.select(productColumns).from(products).where(eq(products.id, id)).for("update");
      if (!before) throw new SaveRefused("not-found");
      await assertTherapyArea(tx, input.therapyArea);
      const [after] = await tx
        .update(products)
        .set({ name: input.name, therapyArea: input.therapyArea, updatedAt: new Date() })
        .where(eq(products.id, id))
        .returning(productColumns);
      await writeAudit({ ...actor, action: "product.update", entity: "product", entityId: id, before: snapshot(before), after: snapshot(after) }, tx);
      return after;
    }),
  );
}

/**
 * Soft delete (decisions.md section 6): the product and every report row that names it stay;
 * it leaves the active list. Returns the product, or undefined when there is none with this id.
 */
export function deactivateProduct(id: number, actor: AuditActor) {
  return setActive(id, false, actor);
}

export function reactivateProduct(id: number, actor: AuditActor) {
  return setActive(id, true, actor);
}

async function setActive(id: number, isActive: boolean, actor: AuditActor): Promise<ProductRow | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  return db.transaction(async (tx) => {
    const [before] = await tx.select(productColumns).from(products).where(eq(products.id, id)).for("update");
    if (!before) return undefined;
    if (before.isActive === isActive) return before;
    const [after] = await tx.update(products).set({ isActive, updatedAt: new Date() }).where(eq(products.id, id)).returning(productColumns);
    await writeAudit(
      {
        ...actor,
        action: isActive ? "product.reactivate" : "product.deactivate",
        entity: "product",
        entityId: id,
        before: snapshot(before),
        after: snapshot(after),
      },
      tx,
    );
    return after;
  });
}
