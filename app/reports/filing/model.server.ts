/**
 * Filing Plans (spec section 2 "Filing Plans screen", section 5 "Filing"; decisions.md section 5):
 * a row per country, a column per active product of the partner, each cell one status of its
 * product's category list (`0`: empty). A quarter starts from the last quarter's plan: until its
 * report has been saved, it shows the latest earlier plan, and the first save stores it.
 * The workflow is frame/workflow.server.ts.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { countries, filingValues, quarters, reports } from "~/db/schema";
import { queuePartnerChecks } from "~/jobs/checks-jobs.server";
import { enteredValues, type RowProblem } from "~/reports/frame/contract";
import { FILING_MAX_COUNTRIES, FILING_MAX_PRODUCTS, FILING_STATUS_MAX_CHARS } from "~/reports/filing/contract";
import { FILING_EMPTY, normaliseFilingCell } from "~/reports/filing/statuses";
import { parseId } from "~/utils/ids";
import { quarterIndex, type QuarterRef } from "~/utils/quarters";
import { storedQuarterRow } from "~/models/quarter.server";
import { listFilingStatuses, type FilingCategory } from "./statuses.server";
import { partnerActiveProducts, type PartnerProductName } from "~/reports/sales/product-verification.server";
import {
  saveTarget,
  loadReportFrame,
  performRowsAction,
  REPORT_HAS_ROWS,
  ROWS_NOT_IN_REPORT,
  type Actor,
  type ReportFrameView,
  type ReportViewInput,
} from "~/reports/frame/screen.server";
import { inSlices, WorkflowError } from "~/reports/frame/workflow.server";

type Reader = Pick<typeof db, "select">;

export type FilingProduct = PartnerProductName;

interface FilingCountry {
  id: number;
  name: string;
}

export interface FilingPlanRow {
  countryId: number;
  country: string;
  /** By product id: the status, or "0" (FILING_EMPTY) for an empty cell. */
  cells: Record<string, string>;
  /** By product id: the stored cell's id in this quarter's report (comments are on it); a cell not stored yet has none. */
  ids: Record<string, number>;
}

export interface FilingPlanView extends ReportFrameView {
  /** The partner's active products: the grid's columns, by name. */
  products: FilingProduct[];
  /** Every country, by name: the grid's rows. */
  rows: FilingPlanRow[];
  /** The statuses a cell may hold, per product category, for the viewed quarter. */
  statusLists: Record<FilingCategory, string[]>;
  /** The quarter whose plan is shown because this quarter's report has not been saved yet (null: its own). */
  carriedOverFrom: string | null;
}

/** Every country, in the grid's order (by name). */
export async function listFilingCountries(executor: Reader = db): Promise<FilingCountry[]> {
  return executor.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name), asc(countries.id));
}

const cellKey = (countryId: number, productId: number) => `${countryId}:${productId}`;

interface StoredCell {
  id: number;
  status: string;
}

/** One report's stored cells, by country and product. */
async function storedCells(executor: Reader, reportId: number): Promise<Map<string, StoredCell>> {
  const rows = await executor
    .select({ id: filingValues.id, countryId: filingValues.countryId, productId: filingValues.productId, status: filingValues.status })
    .from(filingValues)
    .where(eq(filingValues.reportId, reportId));
  return new Map(rows.map((row) => [cellKey(row.countryId, row.productId), { id: row.id, status: row.status }]));
}

/**
 * The plan a quarter shows: its own report's cells once that report stores values or has been
 * saved (a plan emptied on purpose stays empty), else the latest earlier quarter's plan by the
 * same rule. Stored cells of products the partner no longer has are kept but not shown.
 */
async function effectivePlan(
  executor: Reader,
  partnerId: number,
  quarter: QuarterRef,
): Promise<{ cells: Map<string, StoredCell>; carriedOverFrom: string | null }> {
  const candidates = await executor
    .select({ reportId: reports.id, savedAt: reports.savedAt, quarterName: quarters.name, year: quarters.year, quarter: quarters.quarter })
    .from(reports)
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, "filing")))
    .orderBy(desc(quarters.year), desc(quarters.quarter));
  const own = quarterIndex(quarter);
  for (const candidate of candidates.filter((c) => quarterIndex(c) <= own)) {
    const stored = await storedCells(executor, candidate.reportId);
    if (stored.size || candidate.savedAt) return { cells: stored, carriedOverFrom: quarterIndex(candidate) === own ? null : candidate.quarterName };
  }
  return { cells: new Map(), carriedOverFrom: null };
}

/** Everything the Filing Plans screen shows, for the viewer (a partner only for its own reports). */
export async function loadFilingPlan(input: ReportViewInput): Promise<FilingPlanView> {
  const { partnerId } = input;
  const frame = await loadReportFrame({ ...input, type: "filing" });
  const quarter = storedQuarterRow(frame.quarter);
  const [products, countryList, statusLists, plan] = await Promise.all([
    partnerActiveProducts(partnerId),
    listFilingCountries(),
    listFilingStatuses(quarter),
    effectivePlan(db, partnerId, quarter),
  ]);
  const rows = countryList.map((country): FilingPlanRow => {
    const stored = products.map((product) => [String(product.id), plan.cells.get(cellKey(country.id, product.id))] as const);
    return {
      countryId: country.id,
      country: country.name,
      cells: Object.fromEntries(stored.map(([productId, cell]) => [productId, cell?.status ?? FILING_EMPTY])),
      // A plan carried over from an earlier quarter is not this report's: its cells take comments once saved.
      ids: plan.carriedOverFrom ? {} : Object.fromEntries(stored.flatMap(([productId, cell]) => (cell ? [[productId, cell.id]] : []))),
    };
  });
  return { ...frame, products, rows, statusLists, carriedOverFrom: plan.carriedOverFrom };
}

// ---------------------------------------------------------------- save

/** A posted cell: which country and product, and the status as typed ("" or "0" empties it). */
export interface FilingPostedCell {
  countryId: number;
  productId: number;
  status: string;
}

/** Why a posted map of cells is not one save. */
export const FILING_POSTED_REFUSALS = {
  countryKey: "Not a country id.",
  productKey: "Not a product id.",
  byProduct: "A map of product id to status.",
  status: `A status is text of up to ${FILING_STATUS_MAX_CHARS} characters.`,
  tooMany: "Too many rows in one save.",
} as const;

/**
 * The save body's cells (spec section 7: a map of country id to product id to status; "", "0"
 * or null empties a cell) as saveFilingPlan takes them. Ids are canonical digits ("012" is
 * refused); at most FILING_MAX_COUNTRIES countries and FILING_MAX_PRODUCTS products each. The
 * first wrong entry is named by its path in the map.
 */
export function filingCellsFromMap(
  map: Readonly<Record<string, unknown>>,
): { ok: true; cells: FilingPostedCell[] } | { ok: false; path: string[]; reason: keyof typeof FILING_POSTED_REFUSALS } {
  const keyId = (key: string) => {
    const id = parseId(key);
    return id !== null && String(id) === key ? id : null;
  };
  const byCountry = Object.entries(map);
  if (byCountry.length > FILING_MAX_COUNTRIES) return { ok: false, path: [], reason: "tooMany" };
  const cells: FilingPostedCell[] = [];
  for (const [countryKey, byProduct] of byCountry) {
    const countryId = keyId(countryKey);
    if (countryId === null) return { ok: false, path: [countryKey], reason: "countryKey" };
    if (typeof byProduct !== "object" || byProduct === null || Array.isArray(byProduct)) return { ok: false, path: [countryKey], reason: "byProduct" };
    const entries = Object.entries(byProduct as Record<string, unknown>);
    if (entries.length > FILING_MAX_PRODUCTS) return { ok: false, path: [countryKey], reason: "tooMany" };
    for (const [productKey, value] of entries) {
      const productId = keyId(productKey);
      if (productId === null) return { ok: false, path: [countryKey, productKey], reason: "productKey" };
      if (value != null && (typeof value !== "string" || value.length > FILING_STATUS_MAX_CHARS))
        return { ok: false, path: [countryKey, productKey], reason: "status" };
      cells.push({ countryId, productId, status: value ?? "" });
    }
  }
  return { ok: true, cells };
}

interface SaveFilingPlanInput {
  actor: Actor;
  partnerId: number;
  quarterId: number;
  expectedVersion?: number | null;
  /** The changed cells (the grid) or the cells of one page (the plain form); the others stay as they are. */
  cells: readonly FilingPostedCell[];
  action: "save" | "submit" | "approve" | "reject" | "reopen";
  nothingToReport?: boolean;
  comment?: string | null;
  requestId?: string | null;
}

type SaveFilingPlanResult = { ok: false; problems: RowProblem[] } | { ok: true; reportId: number; version: number; counts: { total: number; updated: number } };

/**
 * Saves the quarter's Filing Plans (and submits or decides when asked) in one transaction: the
 * quarter's plan (carried over on a first save) with the posted cells applied is stored, only
 * the cells that differ from what the report stores being written ("0" deletes a cell). An
 * unknown status anywhere saves nothing and returns the rows to check, by their position in the
 * grid; a country or product that is not part of the grid refuses the save.
 */
export async function saveFilingPlan(input: SaveFilingPlanInput): Promise<SaveFilingPlanResult> {
  const { actor, partnerId, quarterId, action } = input;
  const quarter = await saveTarget(actor, partnerId, quarterId);
  const [products, countryList, statusLists, shown] = await Promise.all([
    partnerActiveProducts(partnerId),
    listFilingCountries(),
    listFilingStatuses(quarter),
    effectivePlan(db, partnerId, quarter),
  ]);
  const productById = new Map(products.map((product) => [product.id, product]));
  const position = new Map(countryList.map((country, index) => [country.id, index]));

  const posted = new Map<string, string>();
  /** The refused cells' posted text by product id, by row index. */
  const problems = new Map<number, Map<number, string>>();
  for (const cell of input.cells) {
    const index = position.get(cell.countryId);
    const product = productById.get(cell.productId);
    if (index === undefined || !product) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);
    const key = cellKey(cell.countryId, cell.productId);
    // A cell posted as it stands is kept, even a planned quarter that has since opened: only what
    // the partner changed is checked against this quarter's list (the plain form posts whole pages).
    const unchanged = cell.status.trim() === (shown.cells.get(key)?.status ?? FILING_EMPTY);
    const checked = unchanged ? { ok: true as const, value: cell.status.trim() } : normaliseFilingCell(cell.status, statusLists[product.category]);
    if (checked.ok) posted.set(key, checked.value);
    else problems.set(index, (problems.get(index) ?? new Map()).set(product.id, cell.status));
  }
  if (problems.size) {
    const list = [...problems.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, refused]): RowProblem => {
        const columns = products.filter((product) => refused.has(product.id));
        const keys = columns.map((product) => String(product.id));
        return {
          rowNumber: index + 1,
          keys,
          columns: columns.map((product) => product.name),
          entered: enteredValues(keys, (key) => refused.get(Number(key))),
        };
      });
    return { ok: false, problems: list };
  }

  const counts = { total: 0, updated: 0 };
  const writeRows = async (tx: Transaction, reportId: number) => {
    const stored = await storedCells(tx, reportId);
    const plan = await effectivePlan(tx, partnerId, quarter);
    const gridKeys = countryList.flatMap((country) => products.map((product) => ({ countryId: country.id, productId: product.id })));
    const current = (key: string) => plan.cells.get(key)?.status ?? FILING_EMPTY;
    if (input.nothingToReport && gridKeys.some(({ countryId, productId }) => current(cellKey(countryId, productId)) !== FILING_EMPTY)) {
      throw new WorkflowError(REPORT_HAS_ROWS, 409);
    }
    const upserts: (typeof filingValues.$inferInsert)[] = [];
    const deletes: number[] = [];
    for (const { countryId, productId } of gridKeys) {
      const key = cellKey(countryId, productId);
      const next = posted.get(key) ?? current(key);
      const before = stored.get(key);
      if (next !== FILING_EMPTY) counts.total += 1;
      if (next === FILING_EMPTY) {
        if (before) deletes.push(before.id);
      } else if (before?.status !== next) {
        upserts.push({ reportId, countryId, productId, status: next });
      }
    }
    await inSlices(deletes, (slice) => tx.delete(filingValues).where(and(eq(filingValues.reportId, reportId), inArray(filingValues.id, slice))));
    await inSlices(upserts, (slice) =>
      tx
        .insert(filingValues)
        .values(slice)
        .onConflictDoUpdate({
          target: [filingValues.reportId, filingValues.countryId, filingValues.productId],
          set: { status: sql`excluded.status` },
        }),
    );
    counts.updated = upserts.length + deletes.length;

    // "Nothing to report this quarter": a submission without filings. A partner's save makes it a draft
    // again; an admin's correction keeps the flag while the plan stays empty.
    const [report] = await tx.select({ isEmpty: reports.isEmpty }).from(reports).where(eq(reports.id, reportId));
    const isEmpty = action === "submit" ? counts.total === 0 : actor.role === "ADMIN" ? report.isEmpty && counts.total === 0 : false;
    if (isEmpty !== report.isEmpty) await tx.update(reports).set({ isEmpty }).where(eq(reports.id, reportId));
    // The Sales Reports' checks read the latest Filing Plans (this quarter's, and later ones' until they have their own).
    if (counts.updated > 0) await queuePartnerChecks(tx, partnerId);
    return { changed: counts.updated > 0 };
  };

  const result = await performRowsAction("filing", { ...input, quarter }, writeRows, () => ({
    nothingToReport: Boolean(input.nothingToReport),
    rows: { message: "Rows: {{total}}", values: { total: counts.total } },
  }));
  return { ok: true, reportId: result.reportId, version: result.version, counts };
}
