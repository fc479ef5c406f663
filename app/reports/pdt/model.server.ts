/**
 * The Product Development Timeline (spec section 2 "Development timeline (PDT) screen", section 5;
 * decisions.md section 5): a row per active product of the partner and stage of its category,
 * with the product's project status, notes and the planned start and end dates per quarter.
 * A quarter starts from the last quarter's plan: until its report stores a row, the row shows
 * the latest earlier plan, and the first save stores it. The workflow is frame/workflow.server.ts.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { partnerProducts, pdtValues, products, quarters, reports, stages } from "~/db/schema";
import { queuePartnerChecks } from "~/jobs/checks-jobs.server";
import { PDT_COLUMN_LABELS, normalisePdtRow, slipDays, type PdtCells, type PdtColumnKey, type PdtStatus } from "~/reports/pdt/rows";
import { enteredValues, type RowProblem } from "~/reports/frame/contract";
import { addQuarters, parseQuarterName, quarterBounds, quarterIndex, quarterName } from "~/utils/quarters";
import { storedQuarterRow } from "~/models/quarter.server";
import { writeAudit } from "~/models/audit.server";
import {
  saveTarget,
  loadReportFrame,
  performRowsAction,
  ROWS_NOT_IN_REPORT,
  type Actor,
  type ReportFrameView,
  type ReportViewInput,
} from "~/reports/frame/screen.server";
import { inSlices, WorkflowError } from "~/reports/frame/workflow.server";

/** Earlier quarters whose plans the grid shows beside the quarter's own. */
const HISTORY_QUARTERS = 3;

interface Plan {
  startDate: string | null;
  endDate: string | null;
}

export interface PdtGridRow {
  /** The stored row's id (comments are on it); null until the quarter's plan is first saved. */
  id: number | null;
  productId: number;
  productName: string;
  category: "API" | "FDF";
  stageId: number;
  stageName: string;
  /** The product's project status (the same on each of its stages). */
  status: PdtStatus;
  notes: string;
  /** The quarter's plan: stored, or carried over from the latest earlier plan. */
  startDate: string | null;
  endDate: string | null;
  /** The plan of the quarter just before (null: none reported), and how many days each date moved since. */
  previous: Plan | null;
  slip: { start: number | null; end: number | null };
  /** Earlier quarters' plans, by quarter name (the quarters of `quarterOrder` before this one). */
  history: Record<string, Plan>;
}

export interface PdtReportView extends ReportFrameView {
  rows: PdtGridRow[];
  /** The earlier quarters shown, oldest first, then the quarter itself. */
  quarterOrder: { name: string; startDate: string; endDate: string }[];
}

interface PdtStructureRow {
  productId: number;
  productName: string;
  category: "API" | "FDF";
  status: PdtStatus;
  stageId: number;
  stageName: string;
}

/** The partner's active products with the stages of their category, in the grid's order. */
export async function pdtStructure(partnerId: number, executor: Pick<typeof db, "select"> = db): Promise<PdtStructureRow[]> {
  return executor
    .select({
      productId: products.id,
      productName: products.name,
      category: products.category,
      status: partnerProducts.projectStatus,
      stageId: stages.id,
      stageName: stages.name,
    })
    .from(partnerProducts)
    .innerJoin(products, eq(products.id, partnerProducts.productId))
    .innerJoin(stages, eq(stages.category, products.category))
    .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true), eq(products.isActive, true)))
    .orderBy(asc(products.name), asc(products.id), asc(stages.sortOrder));
}

const rowKey = (productId: number, stageId: number) => `${productId}:${stageId}`;

interface StoredPlan extends Plan {
  notes: string | null;
}

/** A stored row of a report, with its id. */
interface SavedPlan extends StoredPlan {
  id: number;
}

/** The partner's PDT reports up to the quarter (newest first), each with its stored rows. */
async function plansUpTo(executor: Pick<typeof db, "select">, partnerId: number, quarter: { year: number; quarter: number }, limit: number) {
  const earlierOrSame = await executor
    .select({ reportId: reports.id, quarterName: quarters.name, year: quarters.year, quarter: quarters.quarter })
    .from(reports)
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, "pdt")))
    .orderBy(desc(quarters.year), desc(quarters.quarter));
  const reportsUpTo = earlierOrSame.filter((r) => quarterIndex(r) <= quarterIndex(quarter)).slice(0, limit);
  const ids = reportsUpTo.map((r) => r.reportId);
  const values = ids.length ? await executor.select().from(pdtValues).where(inArray(pdtValues.reportId, ids)) : [];
  const byReport = new Map<number, Map<string, SavedPlan>>();
  for (const value of values) {
    const plans = byReport.get(value.reportId) ?? new Map<string, SavedPlan>();
    plans.set(rowKey(value.productId, value.stageId), { id: value.id, startDate: value.startDate, endDate: value.endDate, notes: value.notes });
    byReport.set(value.reportId, plans);
  }
  return reportsUpTo.map((r) => ({ ...r, plans: byReport.get(r.reportId) ?? new Map<string, SavedPlan>() }));
}

/**
 * The quarter's rows as the grid shows them: each row's own stored plan, or the latest earlier
 * one carried over (notes included), with the previous quarter's plan and the slip since.
 */
async function loadPdtRows(
  executor: Pick<typeof db, "select">,
  partnerId: number,
  quarter: { id: number; name: string; year: number; quarter: number },
  reportId: number | null,
): Promise<{ rows: PdtGridRow[]; earlierQuarters: string[] }> {
  const [structure, plans] = await Promise.all([pdtStructure(partnerId, executor), plansUpTo(executor, partnerId, quarter, 40)]);
  const own = plans.find((plan) => plan.reportId === reportId);
  const earlier = plans.filter((plan) => plan.reportId !== reportId && plan.quarterName !== quarter.name);
  // The quarters just before this one, reported or not, newest first.
  const earlierQuarters = [1, 2, 3].slice(0, HISTORY_QUARTERS).map((back) => quarterName(addQuarters(quarter, -back)));
  const planOf = new Map(earlier.map((plan) => [plan.quarterName, plan.plans]));
  const rows = structure.map((row): PdtGridRow => {
    const key = rowKey(row.productId, row.stageId);
    const carried = own?.plans.get(key) ?? earlier.find((plan) => plan.plans.has(key))?.plans.get(key);
    const previousQuarter = planOf.get(earlierQuarters[0])?.get(key) ?? null;
    const startDate = carried?.startDate ?? null;
    const endDate = carried?.endDate ?? null;
    const history: Record<string, Plan> = {};
    for (const name of earlierQuarters) {
      const value = planOf.get(name)?.get(key);
      if (value) history[name] = { startDate: value.startDate, endDate: value.endDate };
    }
    return {
      ...row,
      id: own?.plans.get(key)?.id ?? null,
      notes: carried?.notes ?? "",
      startDate,
      endDate,
      previous: previousQuarter ? { startDate: previousQuarter.startDate, endDate: previousQuarter.endDate } : null,
      slip: {
        start: slipDays(previousQuarter?.startDate ?? null, startDate),
        end: slipDays(previousQuarter?.endDate ?? null, endDate),
      },
      history,
    };
  });
  return { rows, earlierQuarters: [...earlierQuarters].reverse() };
}

/** Everything the PDT screen shows, for the viewer (a partner only for its own reports). */
export async function loadPdtReport(input: ReportViewInput): Promise<PdtReportView> {
  const { partnerId } = input;
  const frame = await loadReportFrame({ ...input, type: "pdt" });
  const quarter = storedQuarterRow(frame.quarter);
  const { rows, earlierQuarters } = await loadPdtRows(db, partnerId, quarter, frame.report.id);
  const quarterOrder = [...earlierQuarters, quarter.name].map((name) => ({ name, ...quarterBounds(parseQuarterName(name)!) }));
  return { ...frame, rows, quarterOrder };
}

// ---------------------------------------------------------------- save

/** A posted row: which product and stage, and its cells as typed. */
export interface PdtPostedRow {
  productId: number;
  stageId: number;
  notes: string;
  startDate: string;
  endDate: string;
}

/** A posted row as the grid, the plain form and the API send it: a status on a row changes its product's status. */
export interface PdtPostedCells extends PdtPostedRow {
  /** Empty or missing: the product's status stays as it is. */
  status?: string | null;
}

/** Why posted rows are not one save. */
export const PDT_POSTED_REFUSALS = {
  repeatedRow: "This product and stage are posted more than once.",
  statusDiffers: "Another posted row gives this product another status; a product has one status.",
} as const;

/**
 * Posted rows as savePdtReport takes them: the rows, and the statuses they change by product id.
 * A row posted twice, or rows of one product that disagree on its status, are not one save: the
 * first such row is named by its position in the post.
 */
export function splitPdtPostedRows(
  posted: readonly PdtPostedCells[],
): { ok: true; rows: PdtPostedRow[]; statuses: Record<number, string> } | { ok: false; index: number; reason: keyof typeof PDT_POSTED_REFUSALS } {
  const statuses: Record<number, string> = {};
  const seen = new Set<string>();
  const rows: PdtPostedRow[] = [];
  for (const [index, { status, ...row }] of posted.entries()) {
    const key = rowKey(row.productId, row.stageId);
    if (seen.has(key)) return { ok: false, index, reason: "repeatedRow" };
    seen.add(key);
    if (status != null && status !== "") {
      if (statuses[row.productId] !== undefined && statuses[row.productId] !== status) return { ok: false, index, reason: "statusDiffers" };
      statuses[row.productId] = status;
    }
    rows.push({ productId: row.productId, stageId: row.stageId, notes: row.notes, startDate: row.startDate, endDate: row.endDate });
  }
  return { ok: true, rows, statuses };
}

interface SavePdtInput {
  actor: Actor;
  partnerId: number;
  quarterId: number;
  expectedVersion?: number | null;
  /** The changed rows (the grid) or the rows of one page (the plain form); the others stay as they are. */
  rows: readonly PdtPostedRow[];
  /** Changed project statuses by product id. */
  statuses: Readonly<Record<number, string>>;
  action: "save" | "submit" | "approve" | "reject" | "reopen";
  /** "Nothing to report this quarter": the plan is submitted as it stands (carried over when never saved). */
  nothingToReport?: boolean;
  comment?: string | null;
  requestId?: string | null;
}

type SavePdtResult = { ok: false; problems: RowProblem[] } | { ok: true; reportId: number; version: number; counts: { total: number; updated: number } };

const label = (keys: PdtColumnKey[]) => keys.map((key) => PDT_COLUMN_LABELS[key]);

/**
 * Saves the quarter's timeline (and submits or decides when asked) in one transaction: the
 * quarter's plan is stored for every row (carried-over rows included), the posted rows and
 * statuses applied; an invalid cell anywhere saves nothing and returns the rows to check, by
 * their position in the grid. A row or product that is not the partner's refuses the save.
 */
export async function savePdtReport(input: SavePdtInput): Promise<SavePdtResult> {
  const { actor, partnerId, quarterId } = input;
  const quarter = await saveTarget(actor, partnerId, quarterId);
  const structure = await pdtStructure(partnerId);
  const position = new Map(structure.map((row, index) => [rowKey(row.productId, row.stageId), index]));
  const statusOf = new Map(structure.map((row) => [row.productId, row.status]));

  const newStatuses = new Map<number, PdtStatus>();
  /** The refused cells' posted text by column, by row index. */
  const problems = new Map<number, Map<PdtColumnKey, string>>();
  const flag = (index: number, key: PdtColumnKey, value: string) => problems.set(index, (problems.get(index) ?? new Map()).set(key, value));
  for (const [rawId, raw] of Object.entries(input.statuses)) {
    const productId = Number(rawId);
    if (!statusOf.has(productId)) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);
    const checked = normalisePdtRow({ status: raw, notes: "", startDate: "", endDate: "" });
    if (checked.ok && checked.row.status) newStatuses.set(productId, checked.row.status);
    else
      flag(
        structure.findIndex((row) => row.productId === productId),
        "status",
        raw,
      );
  }
  const posted = new Map<string, StoredPlan>();
  for (const row of input.rows) {
    const key = rowKey(row.productId, row.stageId);
    const index = position.get(key);
    if (index === undefined) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);
    const cells: PdtCells = {
      status: newStatuses.get(row.productId) ?? statusOf.get(row.productId)!,
      notes: row.notes,
      startDate: row.startDate,
      endDate: row.endDate,
    };
    const checked = normalisePdtRow(cells);
    if (!checked.ok) for (const column of checked.invalid) flag(index, column, cells[column]);
    else posted.set(key, { startDate: checked.row.startDate, endDate: checked.row.endDate, notes: checked.row.notes });
  }
  if (problems.size) {
    const list = [...problems.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, refused]) => {
        const keys = [...refused.keys()];
        return { rowNumber: index + 1, keys, columns: label(keys), entered: enteredValues(keys, (key) => refused.get(key as PdtColumnKey)) };
      });
    return { ok: false, problems: list };
  }

  const counts = { total: structure.length, updated: 0 };
  const writeRows = async (tx: Transaction, reportId: number) => {
    const stored = await tx.select().from(pdtValues).where(eq(pdtValues.reportId, reportId));
    const { rows: shown } = await loadPdtRows(tx, partnerId, quarter, reportId);
    const storedKeys = new Set(stored.map((row) => rowKey(row.productId, row.stageId)));
    const writes = shown.flatMap((row) => {
      const key = rowKey(row.productId, row.stageId);
      const next = posted.get(key) ?? { startDate: row.startDate, endDate: row.endDate, notes: row.notes || null };
      const same = storedKeys.has(key) && next.startDate === row.startDate && next.endDate === row.endDate && (next.notes ?? "") === row.notes;
      return same ? [] : [{ reportId, productId: row.productId, stageId: row.stageId, ...next }];
    });
    await inSlices(writes, (slice) =>
      tx
        .insert(pdtValues)
        .values(slice)
        .onConflictDoUpdate({
          target: [pdtValues.reportId, pdtValues.productId, pdtValues.stageId],
          set: { startDate: sql`excluded.start_date`, endDate: sql`excluded.end_date`, notes: sql`excluded.notes` },
        }),
    );
    counts.updated = writes.length;
    let statusChanges = 0;
    for (const [productId, status] of newStatuses) {
      const before = statusOf.get(productId);
      if (before === status) continue;
      await tx
        .update(partnerProducts)
        .set({ projectStatus: status })
        .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.productId, productId)));
      await writeAudit(
        {
          actorId: actor.id,
          action: "product.status",
          entity: "partner_product",
          entityId: `${partnerId}:${productId}`,
          before: { projectStatus: before },
          after: { projectStatus: status },
          requestId: input.requestId,
        },
        tx,
      );
      statusChanges += 1;
    }
    const changed = writes.length + statusChanges > 0;
    // The Sales Reports' checks read the timeline's approval stages and the project statuses (of every quarter).
    if (changed) await queuePartnerChecks(tx, partnerId);
    return { changed };
  };

  const result = await performRowsAction("pdt", { ...input, quarter }, writeRows, () => ({
    nothingToReport: Boolean(input.nothingToReport),
    rows: { message: "Rows: {{total}}", values: { total: counts.total } },
  }));
  return { ok: true, reportId: result.reportId, version: result.version, counts };
}
