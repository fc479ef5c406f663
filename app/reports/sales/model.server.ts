/**
 * The Sales Report (spec section 2 "Sales Report screen", sections 3 to 5; decisions.md sections
 * 4 and 5): what the screen loads, the save (and submit, which saves first), the admin's
 * decisions and the messages. Rows are validated by app/reports/sales/rows.ts, the workflow is
 * app/reports/frame/workflow.server.ts.
 */
import Decimal from "decimal.js";
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { db, type Transaction } from "~/db/client.server";
import { idIn } from "~/db/sql-pieces";
import { MONTHS } from "~/db/reference-data";
import { countries, currencies, formulationTypes, products, reports, salesRows } from "~/db/schema";
import type { ReportStatus } from "~/reports/frame/workflow";
import { isEmptyRow, prepareRowsForSave, storedNumberText, type SalesReferenceLists, type SalesRowProblem, type SalesRowWarning } from "~/reports/sales/rows";
import { columnsFor, SALES_KINDS, type ApiGridRow, type FdfGridRow, type NormalisedRow, type SalesKind, type SalesRowInput } from "~/reports/sales/columns";
import type { SalesGridRows } from "~/reports/sales/contract";
import { parseId } from "~/utils/ids";
import { portalNow } from "~/utils/today.server";
import type { ProductCategory } from "~/schemas/product";
import { dropUnusedVerifications, partnerActiveProductsQuery, resolveProductNames, type PartnerProductName } from "./product-verification.server";
import { queueSalesReportChecks } from "~/jobs/checks-jobs.server";
import {
  assertMayAccess,
  saveTarget,
  findReport,
  loadReportFrame,
  performRowsAction,
  REPORT_HAS_ROWS,
  resolveQuarter,
  ROWS_NOT_IN_REPORT,
  type Actor,
  type ReportFrameView,
  type ReportViewInput,
} from "~/reports/frame/screen.server";
import { WorkflowError } from "~/reports/frame/workflow.server";
import { pendingVerificationCount } from "~/reports/sales/pending-verifications.server";

// ---------------------------------------------------------------- reference lists

export interface SalesScreenLists extends SalesReferenceLists {
  /** Currency code → USD rate as a plain decimal (the FDF exchange rate's default). */
  usdRates: Record<string, string>;
}

interface ReferenceData {
  lists: SalesScreenLists;
  /** The partner's active products, read once for the lists and the save's product names. */
  products: PartnerProductName[];
  countryIds: Map<string, number>;
  formulationIds: Map<string, number>;
}

const key = (name: string) => name.normalize("NFC").trim().toLowerCase();

/**
 * The lists a Sales Report's cells choose from, in one statement: [id, name] pairs in the grid's
 * order, currencies with their rates as text, and the partner's active products by name.
 */
async function loadSalesLists(partnerId: number) {
  const [lists] = await db
    .select({
      products: sql<
        [number, string, ProductCategory][]
      >`(select coalesce(json_agg(json_build_array(active.id, active.name, active.category) order by lower(active.name), active.id), '[]') from (${partnerActiveProductsQuery(partnerId)}) as active)`,
      countries: sql<
        [number, string][]
      >`(select coalesce(json_agg(json_build_array(${countries.id}, ${countries.name}) order by ${countries.name}), '[]') from ${countries})`,
      formulationTypes: sql<
        [number, string][]
      >`(select coalesce(json_agg(json_build_array(${formulationTypes.id}, ${formulationTypes.name}) order by ${formulationTypes.sortOrder}), '[]') from ${formulationTypes})`,
      currencies: sql<
        [string, string][]
      >`(select coalesce(json_agg(json_build_array(${currencies.code}, ${currencies.usdRate}::text) order by ${currencies.code}), '[]') from ${currencies})`,
    })
    .from(sql`(select 1) as one`);
  return lists;
}

async function loadReferenceData(partnerId: number): Promise<ReferenceData> {
  const lists = await loadSalesLists(partnerId);
  const productRows: PartnerProductName[] = lists.products.map(([id, name, category]) => ({ id, name, category }));
  const countryRows = lists.countries.map(([id, name]) => ({ id, name }));
  const formulationRows = lists.formulationTypes.map(([id, name]) => ({ id, name }));
  const currencyRows = lists.currencies.map(([code, usdRate]) => ({ code, usdRate }));
  const productNames: Record<SalesKind, string[]> = { API: [], FDF: [] };
  for (const product of productRows) productNames[product.category].push(product.name);
  return {
    lists: {
      currentYear: portalNow().getUTCFullYear(),
      months: MONTHS,
      countries: countryRows.map((row) => row.name),
      formulationTypes: formulationRows.map((row) => row.name),
      currencies: currencyRows.map((row) => row.code),
      productNames,
      usdRates: Object.fromEntries(currencyRows.map((row) => [row.code, storedNumberText(row.usdRate)])),
    },
    products: productRows,
    countryIds: new Map(countryRows.map((row) => [key(row.name), row.id])),
    formulationIds: new Map(formulationRows.map((row) => [key(row.name), row.id])),
  };
}

// ---------------------------------------------------------------- rows as the grid shows them

const NUMBER_COLUMNS = [
  "quantity",
  "totalValue",
  "packSize",
  "grossSalePriceCurrency",
  "usdExchangeRate",
  "grossSalePriceUsd",
  "totalGrossValue",
  "deductableExpenses",
  "royaltyPercent",
  "royaltyDue",
] as const;
const TEXT_COLUMNS = ["purchaser", "strength", "procurementEndCountry", "comments"] as const;

type SalesRowRecord = typeof salesRows.$inferSelect;

async function loadRows(reportId: number | undefined): Promise<SalesGridRows> {
  const result: SalesGridRows = { API: [], FDF: [] };
  if (!reportId) return result;
  const rows = await db
    .select({ row: salesRows, country: countries.name, formulation: formulationTypes.name, product: products.name })
    .from(salesRows)
    .leftJoin(countries, eq(countries.id, salesRows.countryId))
    .leftJoin(formulationTypes, eq(formulationTypes.id, salesRows.formulationTypeId))
    .leftJoin(products, eq(products.id, salesRows.productId))
    .where(eq(salesRows.reportId, reportId))
    .orderBy(asc(salesRows.kind), asc(salesRows.id));
  for (const { row, country, formulation, product } of rows) {
    const cells: Record<string, string> = {
      year: row.year == null ? "" : String(row.year),
      month: row.month == null ? "" : (MONTHS[row.month - 1] ?? ""),
      country: country ?? "",
      productName: product ?? row.productName ?? "",
      formulationType: formulation ?? "",
      currency: row.currencyCode ?? "",
    };
    for (const column of TEXT_COLUMNS) cells[column] = row[column] ?? "";
    for (const column of NUMBER_COLUMNS) cells[column] = storedNumberText(row[column]);
    const gridRow: Record<string, string | number> = { id: row.id };
    for (const column of columnsFor(row.kind)) gridRow[column.key] = cells[column.key];
    if (row.kind === "API") result.API.push(gridRow as unknown as ApiGridRow);
    else result.FDF.push(gridRow as unknown as FdfGridRow);
  }
  return result;
}

// ---------------------------------------------------------------- load

export interface SalesReportView extends ReportFrameView {
  rows: SalesGridRows;
  lists: SalesScreenLists;
}

/** Everything the Sales Report screen shows, for the viewer (a partner only for its own reports). */
export async function loadSalesReport(input: ReportViewInput): Promise<SalesReportView> {
  const frame = await loadSalesFrame(input);
  const [reference, rows] = await Promise.all([loadReferenceData(input.partnerId), loadRows(frame.report.id ?? undefined)]);
  return { ...frame, rows, lists: reference.lists };
}

/** Which of `ids` are rows of the partner's report in the quarter that are not of `kind` (a save of one table may not delete the other's rows). */
export async function rowsOfOtherKind({
  viewer,
  partnerId,
  quarterName,
  kind,
  ids,
}: ReportViewInput & {
  kind: SalesKind;
  ids: readonly number[];
}) {
  assertMayAccess(viewer, partnerId);
  const report = await findReport(partnerId, (await resolveQuarter(quarterName)).id, "sales");
  if (!report || !ids.length) return new Set<number>();
  const rows = await db
    .select({ id: salesRows.id })
    .from(salesRows)
    .where(and(eq(salesRows.reportId, report.id), idIn(salesRows.id, [...ids]), ne(salesRows.kind, kind)));
  return new Set(rows.map((row) => row.id));
}

function loadSalesFrame(input: ReportViewInput) {
  return loadReportFrame({ ...input, type: "sales", pendingVerifications: (reportId) => pendingVerificationCount(db, reportId) });
}

/** The report's frame and the ids of its saved rows, without the rows: what replacing them needs. */
export async function loadSalesRowIds(input: ReportViewInput) {
  const frame = await loadSalesFrame(input);
  const rowIds = frame.report.id
    ? (await db.select({ id: salesRows.id }).from(salesRows).where(eq(salesRows.reportId, frame.report.id))).map((row) => row.id)
    : [];
  return { frame, rowIds };
}

// ---------------------------------------------------------------- save

export interface SaveCounts {
  /** Rows of the report after the save. */
  total: number;
  /** Rows of the report before the save. */
  previousTotal: number;
  /** Rows deleted by this save (listed for deletion, or emptied). */
  deleted: number;
  /** Rows added by this save. */
  added: number;
  /** Rows changed by this save. */
  updated: number;
}

export interface SaveSalesReportInput {
  actor: Actor;
  partnerId: number;
  quarterId: number;
  /** The version the editor loaded (0 for a report not started). */
  expectedVersion?: number | null;
  api: readonly SalesRowInput[];
  fdf: readonly SalesRowInput[];
  /** Saved rows deleted in the grid. */
  deletedIds?: readonly number[];
  /** A save, a submission (which saves first), or an administrator's decision taken with unsaved edits. */
  action: "save" | "submit" | "approve" | "reject" | "reopen";
  /** "Nothing to report this quarter": a submission refused when the report has rows. */
  nothingToReport?: boolean;
  comment?: string | null;
  requestId?: string | null;
}

export type SaveSalesReportResult =
  | { ok: false; problems: Record<SalesKind, SalesRowProblem[]> }
  | {
      ok: true;
      reportId: number;
      status: ReportStatus;
      version: number;
      isLate: boolean;
      /** Submitted with no rows: "Nothing to report this quarter". */
      isEmpty: boolean;
      snapshotSha256: string | null;
      counts: SaveCounts;
      /** Non-blocking: entered FDF values that disagree with the derived ones. */
      warnings: Record<SalesKind, SalesRowWarning[]>;
    };

type SalesRowValues = Omit<typeof salesRows.$inferInsert, "id" | "createdAt" | "reportId">;

const COMPARED_COLUMNS = [
  "kind",
  "year",
  "month",
  "countryId",
  "purchaser",
  "productId",
  "productName",
  "productVerificationId",
  "strength",
  "formulationTypeId",
  "currencyCode",
  "procurementEndCountry",
  "comments",
] as const;

/**
 * One value in a PostgreSQL array's text: quoted, a backslash or quote escaped (only searched for),
 * NULL for none. A lone UTF-16 surrogate needs nothing here: the text is sent as UTF-8, which
 * writes it as U+FFFD (tested on both drivers).
 */
function arrayElement(value: string | number | null | undefined): string {
  if (value == null) return "NULL";
  const text = String(value);
  return text.includes("\\") || text.includes('"') ? `"${text.replace(/[\\"]/g, "\\$&")}"` : `"${text}"`;
}

const arrayText = (values: readonly (string | number | null | undefined)[]) => `{${values.map(arrayElement).join(",")}}`;

/**
 * Rows as one array parameter per column, read back side by side by `unnest`, in their order: one
 * statement for any number of rows, without a placeholder per value (for 10,000 rows, building
 * those cost more than the database's own work), and without naming every column again in every
 * row as JSON would (a 10,000-row insert: 1.9 MB of parameters instead of 4 MB, read in half the
 * time). `v` names its columns as the table does.
 */
function rowsRecordset(rows: ({ id?: number } & SalesRowValues)[]) {
  const keys = Object.keys(rows[0]) as (keyof SalesRowValues | "id")[];
  const columns = keys.map((key) => salesRows[key]);
  const arrays = keys.map(
    (key, index) =>
      sql`${arrayText(rows.map((row) => row[key] as string | number | null))}::${sql.raw(columns[index] === salesRows.id ? "integer" : columns[index].getSQLType())}[]`,
  );
  const names = columns.map((column) => column.name);
  return {
    names,
    from: sql`unnest(${sql.join(arrays, sql`, `)}) with ordinality as v(${sql.join(
      [...names, "position"].map((name) => sql.identifier(name)),
      sql`, `,
    )})`,
  };
}

async function insertRows(tx: Transaction, reportId: number, rows: SalesRowValues[]) {
  if (!rows.length) return;
  const { names, from } = rowsRecordset(rows);
  const columns = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  const values = sql.join(
    names.map((name) => sql`v.${sql.identifier(name)}`),
    sql`, `,
  );
  await tx.execute(sql`insert into ${salesRows} (report_id, ${columns}) select ${reportId}, ${values} from ${from} order by v.position`);
}

async function updateRows(tx: Transaction, reportId: number, rows: { id: number; values: SalesRowValues }[]) {
  if (!rows.length) return;
  const { names, from } = rowsRecordset(rows.map(({ id, values }) => ({ id, ...values })));
  const assignments = sql.join(
    names.filter((name) => name !== "id").map((name) => sql`${sql.identifier(name)} = v.${sql.identifier(name)}`),
    sql`, `,
  );
  await tx.execute(sql`update ${salesRows} as s set ${assignments} from ${from} where s.id = v.id and s.report_id = ${reportId}`);
}

function sameValues(existing: SalesRowRecord, next: SalesRowValues): boolean {
  for (const column of COMPARED_COLUMNS) if ((existing[column] ?? null) !== (next[column] ?? null)) return false;
  for (const column of NUMBER_COLUMNS) {
    const a = existing[column];
    const b = next[column] ?? null;
    if (a == null || b == null ? a !== b : !new Decimal(a).equals(new Decimal(b))) return false;
  }
  return true;
}

interface PreparedKind {
  kind: SalesKind;
  rows: NormalisedRow[];
  /** Saved rows emptied completely in the grid: deleted. */
  emptiedIds: number[];
}

/**
 * Saves the quarter's sales rows (and submits when asked) in one transaction: rows listed in
 * `deletedIds` and saved rows emptied completely are deleted, rows with an id are updated,
 * rows without one are added; rows not sent are left as they are (the form without
 * JavaScript is paged). Invalid rows in either table: nothing is saved and the problems are
 * returned. Ids that are not rows of this report refuse the whole save.
 */
export async function saveSalesReport(input: SaveSalesReportInput): Promise<SaveSalesReportResult> {
  const { actor, partnerId, quarterId, action } = input;
  const quarter = await saveTarget(actor, partnerId, quarterId);

  const reference = await loadReferenceData(partnerId);
  const usdRate = (code: string) => reference.lists.usdRates[code];
  const prepared: PreparedKind[] = [];
  const problems: Record<SalesKind, SalesRowProblem[]> = { API: [], FDF: [] };
  const warnings: Record<SalesKind, SalesRowWarning[]> = { API: [], FDF: [] };
  for (const kind of SALES_KINDS) {
    const raw = (kind === "API" ? input.api : input.fdf).map((row) => ({ ...row, id: parseId(row.id) }));
    const result = prepareRowsForSave(kind, raw, reference.lists, usdRate);
    problems[kind] = result.problems;
    warnings[kind] = result.warnings;
    const emptiedIds = raw.filter((row) => row.id != null && isEmptyRow(kind, row)).map((row) => row.id!);
    prepared.push({ kind, rows: result.rows as NormalisedRow[], emptiedIds });
  }
  if (problems.API.length || problems.FDF.length) return { ok: false, problems };

  const deletedIds = new Set<number>();
  for (const value of input.deletedIds ?? []) {
    const id = parseId(value);
    if (id == null) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);
    deletedIds.add(id);
  }
  for (const { emptiedIds } of prepared) for (const id of emptiedIds) deletedIds.add(id);

  const counts: SaveCounts = { total: 0, previousTotal: 0, deleted: 0, added: 0, updated: 0 };
  const rowsByKind: Record<SalesKind, number> = { API: 0, FDF: 0 };
  let isEmpty = false;

  const writeRows = async (tx: Transaction, reportId: number, report: Pick<typeof reports.$inferSelect, "isEmpty">) => {
    // Rows per kind before, then what this save deletes and adds: the counts after, without reading them again.
    for (const { kind, value } of await tx
      .select({ kind: salesRows.kind, value: count() })
      .from(salesRows)
      .where(eq(salesRows.reportId, reportId))
      .groupBy(salesRows.kind)) {
      rowsByKind[kind] = Number(value);
    }
    counts.previousTotal = rowsByKind.API + rowsByKind.FDF;
    if (input.nothingToReport && counts.previousTotal > 0) throw new WorkflowError(REPORT_HAS_ROWS, 409);

    // Every id named must be a row of this report (of the right kind for an update).
    const updates = prepared.flatMap(({ kind, rows }) => rows.filter((row) => row.id != null && !deletedIds.has(row.id)).map((row) => ({ kind, row })));
    // Rows to update are read whole (to compare); rows to delete are checked by what the delete
    // removes (an upload that replaces 12,000 rows names them all). The ids go as one array.
    const updatedIds = [...new Set(updates.map(({ row }) => row.id!))];
    const existing = new Map<number, SalesRowRecord>();
    if (updatedIds.length) {
      for (const row of await tx
        .select()
        .from(salesRows)
        .where(and(eq(salesRows.reportId, reportId), idIn(salesRows.id, updatedIds))))
        existing.set(row.id, row);
    }
    if (updates.some(({ kind, row }) => existing.get(row.id!)?.kind !== kind)) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);

    if (deletedIds.size) {
      const removed = await tx
        .delete(salesRows)
        .where(and(eq(salesRows.reportId, reportId), idIn(salesRows.id, [...deletedIds])))
        .returning({ kind: salesRows.kind });
      // An id that is not a row of this report refuses the save (the transaction undoes the rest).
      if (removed.length !== deletedIds.size) throw new WorkflowError(ROWS_NOT_IN_REPORT, 400);
      for (const row of removed) rowsByKind[row.kind] -= 1;
      counts.deleted += removed.length;
    }

    // Product names → products, or pending verifications (per category: API rows name API products).
    const productOf = new Map<SalesKind, Map<string, { productId: number | null; verificationId: number | null }>>();
    for (const { kind, rows } of prepared) {
      productOf.set(
        kind,
        await resolveProductNames(tx, { partnerId, reportId, category: kind, names: rows.map((row) => row.productName), activeProducts: reference.products }),
      );
    }

    const valuesOf = (kind: SalesKind, row: NormalisedRow): SalesRowValues => {
      const cells = row as Record<string, string>;
      const text = (value: string | undefined) => (value ? value : null);
      const product = cells.productName ? productOf.get(kind)!.get(key(cells.productName)) : undefined;
      const values: SalesRowValues = {
        kind,
        year: cells.year ? Number(cells.year) : null,
        month: cells.month ? MONTHS.indexOf(cells.month as (typeof MONTHS)[number]) + 1 : null,
        countryId: cells.country ? reference.countryIds.get(key(cells.country))! : null,
        purchaser: text(cells.purchaser),
        productId: product?.productId ?? null,
        productName: text(cells.productName),
        productVerificationId: product?.verificationId ?? null,
        strength: null,
        formulationTypeId: null,
        currencyCode: null,
        procurementEndCountry: null,
        comments: null,
      };
      for (const column of NUMBER_COLUMNS) values[column] = null;
      for (const column of columnsFor(kind)) {
        if ((NUMBER_COLUMNS as readonly string[]).includes(column.key)) values[column.key as (typeof NUMBER_COLUMNS)[number]] = cells[column.key] || "0";
      }
      if (kind === "FDF") {
        values.strength = text(cells.strength);
        values.formulationTypeId = cells.formulationType ? reference.formulationIds.get(key(cells.formulationType))! : null;
        values.currencyCode = text(cells.currency);
        values.procurementEndCountry = text(cells.procurementEndCountry);
        values.comments = text(cells.comments);
      }
      return values;
    };

    const changedRows = updates
      .map(({ kind, row }) => ({ id: row.id!, values: valuesOf(kind, row) }))
      .filter(({ id, values }) => !sameValues(existing.get(id)!, values));
    await updateRows(tx, reportId, changedRows);
    counts.updated = changedRows.length;

    const inserts = prepared.flatMap(({ kind, rows }) => rows.filter((row) => row.id == null).map((row) => valuesOf(kind, row)));
    await insertRows(tx, reportId, inserts);
    counts.added = inserts.length;
    for (const row of inserts) rowsByKind[row.kind] += 1;
    counts.total = rowsByKind.API + rowsByKind.FDF;

    await dropUnusedVerifications(tx, reportId);

    // "Nothing to report this quarter": a submission without rows. A partner's save makes it a draft again;
    // an admin's correction keeps the flag while the report stays without rows.
    isEmpty = action === "submit" ? counts.total === 0 : actor.role === "ADMIN" ? report.isEmpty && counts.total === 0 : false;
    if (isEmpty !== report.isEmpty) await tx.update(reports).set({ isEmpty }).where(eq(reports.id, reportId));
    const changed = counts.added + counts.updated + counts.deleted > 0;
    await queueSalesReportChecks(tx, { partnerId, quarterId }, changed);
    return { changed };
  };

  const result = await performRowsAction("sales", { ...input, quarter }, writeRows, () => ({
    nothingToReport: counts.total === 0,
    rows: { message: "Rows: {{total}} (API: {{api}}, FDF: {{fdf}})", values: { total: counts.total, api: rowsByKind.API, fdf: rowsByKind.FDF } },
  }));

  return {
    ok: true,
    reportId: result.reportId,
    status: result.status,
    version: result.version,
    isLate: result.isLate,
    isEmpty,
    snapshotSha256: result.snapshotSha256,
    counts,
    warnings,
  };
}

/**
 * 'Data successfully recorded. Total Rows: n' with ', Deleted Rows: m' when the report has
 * fewer rows than before the save or ', Newly Added Rows: m' when it has more (m: the
 * difference). One translation key per variant, as a toast carries it.
 */
export function saveMessage(counts: Pick<SaveCounts, "total" | "previousTotal">): {
  message: string;
  values: { total: number; count: number };
  text: string;
} {
  const difference = counts.total - counts.previousTotal;
  const values = { total: counts.total, count: Math.abs(difference) };
  const message =
    difference < 0
      ? "Data successfully recorded. Total Rows: {{total}}, Deleted Rows: {{count}}"
      : difference > 0
        ? "Data successfully recorded. Total Rows: {{total}}, Newly Added Rows: {{count}}"
        : "Data successfully recorded. Total Rows: {{total}}";
  const text = message.replace("{{total}}", String(values.total)).replace("{{count}}", String(values.count));
  return { message, values, text };
}
