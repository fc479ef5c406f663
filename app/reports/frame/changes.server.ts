/**
 * A report's saved rows against a base (./changes.ts): its last submission's or last approval's
 * snapshot (rows matched by id), or the latest snapshot of the previous quarter's report (rows
 * matched by the natural key the report declares, numbered within duplicates in id order).
 * Compared in the database: the snapshot is read as typed columns beside the rows
 * (jsonb_to_recordset), so a 12,000-row snapshot is neither sent to the server nor parsed there;
 * only the counts, the first changed cells' old values and the first removed rows come back.
 */
import { and, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { db, selectRows } from "~/db/client.server";
import { quarters, reports, reportSnapshots } from "~/db/schema";
import { minuteStore } from "~/utils/minute-cache.server";
import { addQuarters, parseQuarterName, quarterName } from "~/utils/quarters";
import { pageWindow } from "~/reports/consolidated/paging";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import type { ReportTypeKey } from "~/reports/frame/registry";
import { CHANGES_MARKED, REMOVED_LISTED, type ChangeBase, type RemovedRow, type RowChanges } from "./changes";
import { assertMayAccess, findReport, resolveQuarter, type Actor, type ReportFrameView } from "./screen.server";
import { latestSnapshot, listReportHistory, type ReportHistoryEntry, type ReportDeclaration } from "./workflow.server";

/** A stored column of a row (by its key in the row table, camelCase), in the statement that compares rows. */
export type RowField = (column: string) => SQL;

/** A cell the user sees: the stored columns it shows, and how it shows them (text; names, not ids). */
export interface ShownCell {
  key: string;
  shown: (row: RowField) => SQL;
}

/** What a report declares for its changes to be worked out (its declaration's `changes`). */
export interface RowChangesDeclaration {
  /** The key a screen finds a row by, as text (Sales: its id). */
  rowKey: (row: RowField) => SQL;
  /** The table a row is in (Sales: its kind); "" when the report has one. */
  table?: (row: RowField) => SQL;
  /** The columns a row of another quarter is matched by (rows of the same key numbered in id order). */
  naturalKey: (row: RowField) => SQL[];
  /** The cells compared: the stored columns each shows, and how. */
  cells: readonly (ShownCell & { columns: readonly string[] })[];
  /** Cells a removed row is listed with besides the compared ones (what names the row: its product, its country). */
  identity?: readonly ShownCell[];
  /**
   * A value that changes when the rows change without a new report version (Sales: a product
   * verification decided rewrites the rows that named it); the report's row version otherwise.
   */
  stamp?: (reportId: number) => SQL;
}

type Declared = ReportDeclaration & { changes: RowChangesDeclaration };

/** The SQL type a snapshot's field is read as: the column's own (a serial is an integer). */
const fieldType = (column: PgColumn) => {
  const type = column.getSQLType();
  return type === "serial" ? "integer" : type === "bigserial" ? "bigint" : type;
};

const field =
  (alias: string): RowField =>
  (column) =>
    sql`${sql.identifier(alias)}.${sql.identifier(column)}`;

interface Base {
  snapshotId: number;
  takenAt: Date;
  /** The base is another report (the previous quarter's): rows match by natural key. */
  otherReport: boolean;
}

/**
 * What the statements comparing a report's rows (report `reportId`) with the snapshot `base` share:
 * the base's rows (`b`), the report's (`c`) and each row's change (`d`: its ids on either side,
 * which cells differ, and added, changed, removed or null).
 */
function comparison(declaration: Declared, reportId: number, base: Base) {
  const { rowTable } = declaration;
  const spec = declaration.changes;
  // Only the columns the comparison reads (a snapshot's other fields are not parsed): those the
  // declaration's expressions name, found by asking them once.
  const used = new Set<string>(["id"]);
  const track: RowField = (column) => {
    used.add(column);
    return sql`${sql.identifier(column)}`;
  };
  spec.rowKey(track);
  spec.table?.(track);
  spec.naturalKey(track);
  for (const cell of [...spec.cells, ...(spec.identity ?? [])]) cell.shown(track);
  for (const cell of spec.cells) cell.columns.forEach((column) => used.add(column));
  const columns = (Object.entries(getTableColumns(rowTable)) as [string, PgColumn][]).filter(([key]) => used.has(key));
  const definition = sql.join(
    columns.map(([key, column]) => sql`${sql.identifier(key)} ${sql.raw(fieldType(column))}`),
    sql`, `,
  );
  const current = sql.join(
    columns.map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const b = field("b");
  const c = field("c");
  const keyOf = (row: RowField) => sql`row(${sql.join(spec.naturalKey(row), sql`, `)})::text`;
  const numbered = (row: RowField) =>
    base.otherReport ? sql`, ${keyOf(row)} as k, row_number() over (partition by ${keyOf(row)} order by ${row("id")}) as n` : sql``;
  const match = base.otherReport ? sql`c.k = b.k and c.n = b.n` : sql`c.id = b.id`;
  const differs = spec.cells.map(
    ({ columns: stored }) =>
      sql`row(${sql.join(
        stored.map((name) => b(name)),
        sql`, `,
      )}) is distinct from row(${sql.join(
        stored.map((name) => c(name)),
        sql`, `,
      )})`,
  );
  const tableIn = (row: RowField) => (spec.table ? sql`(${spec.table(row)})::text` : sql`''`);
  /** Each changed cell's value as `row` shows it, by the cell's key (the unchanged cells are left out). */
  const changedCells = (row: RowField) =>
    sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(
      spec.cells.map(
        (cell, index) => sql`${cell.key}::text, case when d.flags[${sql.raw(String(index + 1))}] then coalesce((${cell.shown(row)})::text, '') end`,
      ),
      sql`, `,
    )}))`;
  const statement = sql`
    with b as materialized (
      select b.*${numbered(b)}
      from ${reportSnapshots} s, jsonb_to_recordset(s.rows) as b(${definition})
      where s.id = ${base.snapshotId}
    ),
    c as materialized (
      select c.*${numbered(c)} from (select ${current} from ${rowTable} where ${rowTable.reportId} = ${reportId}) c
    ),
    d as (
      select c.id as cid, b.id as bid, coalesce(c.id, b.id) as id, f.flags,
        case when c.id is null then 'removed' when b.id is null then 'added' when true = any(f.flags) then 'changed' end as change
      from c full join b on ${match}
      cross join lateral (select array[${sql.join(differs, sql`, `)}] as flags) f
    )`;
  return {
    spec,
    b,
    c,
    changedCells,
    with: statement,
    /** A listed row's key and table (`d` joined to `c` and `b`): a removed row's from the base. */
    rowOf: sql`(case when d.change = 'removed' then ${spec.rowKey(b)} else ${spec.rowKey(c)} end)::text`,
    tableOf: sql`coalesce(${tableIn(c)}, ${tableIn(b)})`,
  };
}

/**
 * The comparison of a report's rows (report `reportId`) with the snapshot `base`, as the screens
 * mark it: one statement. Exported for the benchmark, which measures it on a 12,000-row report.
 */
export async function compareRows(declaration: Declared, reportId: number, base: Base) {
  const { spec, b, rowOf, tableOf, changedCells, with: compared } = comparison(declaration, reportId, base);
  const listedCells = sql.join(
    [...(spec.identity ?? []), ...spec.cells].map((cell) => sql`${cell.key}::text, coalesce((${cell.shown(b)})::text, '')`),
    sql`, `,
  );

  const rows = await selectRows<{
    change: "added" | "changed" | "removed";
    total: number;
    row_key: string;
    tbl: string | null;
    cells: Record<string, string> | null;
  }>(sql`
    ${compared},
    listed as (
      select d.*, count(*) over (partition by d.change)::integer as total,
        row_number() over (partition by d.change order by d.id) as nth
      from d where d.change is not null
    )
    select d.change, d.total,
      ${rowOf} as row_key, ${tableOf} as tbl,
      case d.change
        when 'changed' then ${changedCells(b)}
        when 'removed' then jsonb_build_object(${listedCells})
      end as cells
    from listed d
    left join c on c.id = d.cid
    left join b on b.id = d.bid
    where d.nth <= case d.change when 'removed' then ${sql.raw(String(REMOVED_LISTED))} else ${sql.raw(String(CHANGES_MARKED))} end
    order by d.change, d.id
  `);
  const counts = { added: 0, changed: 0, removed: 0 };
  const changed: Record<string, Record<string, string>> = {};
  const added: string[] = [];
  const removed: RemovedRow[] = [];
  for (const row of rows) {
    counts[row.change] = Number(row.total);
    if (row.change === "changed") changed[row.row_key] = row.cells ?? {};
    else if (row.change === "added") added.push(row.row_key);
    else removed.push({ table: row.tbl ?? "", cells: row.cells ?? {} });
  }
  return { counts, changed, added, removed };
}

/** A row of a page of changes: a changed row's changed cells, an added row's cells now, a removed row's cells as they were. */
interface ChangedRow {
  change: "added" | "changed" | "removed";
  /** The row's table (Sales: API or FDF; "" for a report of one table). */
  table: string;
  /** The key a screen finds the row by (Sales: its id; a removed row's is the base's). */
  rowKey: string;
  /** By the cell's key: the value as the base showed it and as it shows now (null: no such row on that side; "" an empty cell). */
  cells: Record<string, { was: string | null; now: string | null }>;
}

/**
 * Rows `offset` + 1 to `offset` + `limit` of the comparison, added, then changed, then removed, each
 * in row id order. An added or removed row lists its cells that hold a value.
 */
async function changedRowsPage(declaration: Declared, reportId: number, base: Base, { offset, limit }: { offset: number; limit: number }) {
  const { spec, b, c, rowOf, tableOf, changedCells, with: compared } = comparison(declaration, reportId, base);
  const filledCells = (row: RowField) =>
    sql`jsonb_strip_nulls(jsonb_build_object(${sql.join(
      [...(spec.identity ?? []), ...spec.cells].map((cell) => sql`${cell.key}::text, nullif((${cell.shown(row)})::text, '')`),
      sql`, `,
    )}))`;
  const rows = await selectRows<{
    change: ChangedRow["change"];
    row_key: string;
    tbl: string | null;
    was: Record<string, string> | null;
    now: Record<string, string> | null;
  }>(sql`
    ${compared}
    select d.change,
      ${rowOf} as row_key, ${tableOf} as tbl,
      case d.change when 'changed' then ${changedCells(b)} when 'removed' then ${filledCells(b)} end as was,
      case d.change when 'changed' then ${changedCells(c)} when 'added' then ${filledCells(c)} end as now
    from d
    left join c on c.id = d.cid
    left join b on b.id = d.bid
    where d.change is not null
    order by d.change, d.id
    offset ${offset} limit ${limit}
  `);
  return rows.map((row): ChangedRow => {
    const keys = new Set([...Object.keys(row.was ?? {}), ...Object.keys(row.now ?? {})]);
    return {
      change: row.change,
      table: row.tbl ?? "",
      rowKey: row.row_key,
      cells: Object.fromEntries([...keys].map((key) => [key, { was: row.was?.[key] ?? null, now: row.now?.[key] ?? null }])),
    };
  });
}

/** The latest snapshot of the partner's report of this type in the quarter before `quarter`, if any. */
async function previousQuarterBase(partnerId: number, type: ReportTypeKey, quarter: { year: number; quarter: number }) {
  const previous = addQuarters(quarter, -1);
  const [snapshot] = await db
    .select({ id: reportSnapshots.id, createdAt: reportSnapshots.createdAt })
    .from(reportSnapshots)
    .innerJoin(reports, eq(reports.id, reportSnapshots.reportId))
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .where(and(eq(reports.partnerId, partnerId), eq(reports.type, type), eq(quarters.year, previous.year), eq(quarters.quarter, previous.quarter)))
    .orderBy(desc(reportSnapshots.id))
    .limit(1);
  return { name: quarterName(previous), snapshot };
}

/** The comparisons worked out, for a minute per state of the rows and base. */
const cachedComparisons = minuteStore(100);

/**
 * The rows' state: the report's row version (its xmin: every save updates the report, and a row
 * version never comes back, not even in a database emptied and filled again), and what the report declares besides.
 */
async function rowsState(declaration: Declared, reportId: number) {
  const stamp = declaration.changes.stamp?.(reportId) ?? sql`''`;
  const [state] = await db
    .select({ version: sql<string>`${reports}.xmin::text`, stamp: sql<string | null>`(${stamp})::text` })
    .from(reports)
    .where(eq(reports.id, reportId));
  return `${state?.version}|${state?.stamp}`;
}

interface ReportChangesInput {
  type: ReportTypeKey;
  partnerId: number;
  quarter: { year: number; quarter: number };
  /** The report (null: not saved yet) and its history, newest first (listReportHistory). */
  reportId: number | null;
  history: readonly ReportHistoryEntry[];
  base: ChangeBase;
}

/** The report's rows against the base asked for, and the base's snapshot (null: no base). */
async function changesAgainstBase({
  type,
  partnerId,
  quarter,
  reportId,
  history,
  base,
}: ReportChangesInput): Promise<{ changes: RowChanges; found: Base | null }> {
  const declaration = REPORT_DECLARATIONS[type] as Declared;
  let snapshot: { id: number; createdAt: Date } | undefined;
  let previousName: string | null = null;
  if (base === "previous-quarter") {
    const previous = await previousQuarterBase(partnerId, type, quarter);
    previousName = previous.name;
    snapshot = previous.snapshot;
  } else {
    const entry = latestSnapshot(history, base === "submission" ? "submit" : "approve");
    snapshot = entry ? { id: entry.snapshotId, createdAt: entry.at } : undefined;
  }
  if (!reportId) return { changes: { base, found: false, reason: "unsaved", quarter: previousName }, found: null };
  if (!snapshot) return { changes: { base, found: false, reason: base, quarter: previousName }, found: null };
  const found = { snapshotId: snapshot.id, takenAt: snapshot.createdAt, otherReport: base === "previous-quarter" };
  const state = await rowsState(declaration, reportId);
  const compared = await cachedComparisons(`${type}|${reportId}|${snapshot.id}|${state}`, () => compareRows(declaration, reportId, found));
  return { changes: { base, found: true, takenAt: snapshot.createdAt.toISOString(), quarter: previousName, ...compared }, found };
}

/** The report's rows against the base asked for; `found: false` with the reason when there is none. */
export async function reportChanges(input: ReportChangesInput): Promise<RowChanges> {
  return (await changesAgainstBase(input)).changes;
}

/**
 * The frame's report against the base asked for, and a page of its changed rows with their cells'
 * old and new values (`page` 1-based; past the end: the last page). `snapshotId` and the rows are
 * null and empty when there is no base. The frame is the viewer's already (a partner only its own report).
 */
export async function loadReportChangesPage(frame: ReportFrameView, base: ChangeBase, { page, pageSize }: { page: number; pageSize: number }) {
  const reportId = frame.report.id;
  const { changes, found } = await changesAgainstBase({
    type: frame.type,
    partnerId: frame.partner.id,
    quarter: parseQuarterName(frame.quarter.name)!,
    reportId,
    history: reportId ? await listReportHistory(reportId) : [],
    base,
  });
  const total = changes.found ? changes.counts.added + changes.counts.changed + changes.counts.removed : 0;
  const window = pageWindow(page, total, pageSize);
  const rows = found && reportId && total ? await changedRowsPage(REPORT_DECLARATIONS[frame.type] as Declared, reportId, found, window) : [];
  return { changes, snapshotId: found?.snapshotId ?? null, rows, page: { total, page: window.page, pageSize, pages: window.pages } };
}

/**
 * The changes of a partner's report in a quarter for the viewer: a partner only its own report,
 * ADMIN and STAFF any (the report page's own rule). For callers without the page's view (the API, tests).
 */
export async function loadReportChanges({
  viewer,
  partnerId,
  quarterName: name,
  type,
  base,
}: {
  viewer: Actor;
  partnerId: number;
  quarterName?: string | null;
  type: ReportTypeKey;
  base: ChangeBase;
}): Promise<RowChanges> {
  assertMayAccess(viewer, partnerId);
  const quarter = await resolveQuarter(name);
  const report = await findReport(partnerId, quarter.id, type);
  const history = report ? await listReportHistory(report.id) : [];
  return reportChanges({ type, partnerId, quarter, reportId: report?.id ?? null, history, base });
}
