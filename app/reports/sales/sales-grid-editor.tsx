import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import type { SalesReportView } from "~/reports/sales/model.server";
import { NOTHING_TO_REPORT_NEEDS_EMPTY, type RowProblem } from "~/reports/frame/contract";
import { ADD_ROWS_MAX, FORM_FIELD_PATTERN, formFieldName, GRID_PADDING_ROWS, type SalesPayload } from "~/reports/sales/contract";
import { isEmptyRow, validateTable } from "~/reports/sales/rows";
import { columnsFor, SALES_KINDS, type SalesKind } from "~/reports/sales/columns";
import type { ReportScreen } from "~/reports/frame/report-page";
import { EditorShell, focusedBeforeHydration, typedBeforeHydration, type CheckedChanges } from "~/reports/frame/editor-shell";
import { GO_TO_CELL_EVENT, type GoToCell } from "~/reports/frame/checks";
import { openThreadPlaces, type ReportThreadsView } from "~/reports/frame/threads";
import { nextRowKey, type EditableRow, type ReportGridHandle } from "~/reports/frame/editable-grid";
import { emptyEditableRow, gridColumnIdx, rowInput, SalesGrid, usdRateLookup } from "./sales-grid";

/** The saved rows ticked for deletion in the plain form before the grid took over (a slow link). */
function deletionsBeforeHydration(): number[] {
  if (typeof document === "undefined") return [];
  const boxes = [...document.querySelectorAll<HTMLInputElement>('input[name="deleteIds"]:checked')];
  return boxes.map((box) => Number(box.value)).filter((id) => Number.isSafeInteger(id));
}

/**
 * A table's rows in the grid: the saved rows, empty rows to type into (when editable), and what was
 * typed into the plain form before the grid took over. Returns them with whether anything was typed.
 */
function initialRows(kind: SalesKind, loaded: readonly Record<string, unknown>[], editable: boolean): { rows: EditableRow[]; typed: boolean } {
  const rows: EditableRow[] = loaded.map((row) => ({ ...(row as Record<string, string | number>), _key: nextRowKey() }));
  if (!editable) return { rows, typed: false };
  for (let i = 0; i < GRID_PADDING_ROWS; i++) rows.push(emptyEditableRow(kind));
  const typed = typedBeforeHydration(kind.toLowerCase());
  if (!typed.size) return { rows, typed: false };
  const typedRows = rows.map((row, index) => {
    const next = { ...row };
    for (const column of columnsFor(kind)) {
      const value = typed.get(formFieldName(kind, index, column.key));
      if (value !== undefined) next[column.key] = value;
    }
    return next;
  });
  return { rows: typedRows, typed: true };
}

/** The cell of the plain form's field being typed in as the grid took over, with its caret; null when none. */
function cellTypedInBeforeHydration(kind: SalesKind) {
  const focused = focusedBeforeHydration(kind.toLowerCase());
  const match = focused ? FORM_FIELD_PATTERN.exec(focused.name) : null;
  if (!focused || !match) return null;
  return { position: { rowIdx: Number(match[2]), idx: gridColumnIdx(kind, match[3]) }, caret: focused.caret };
}

/** Where rows added with Add Row go: after the last saved or filled row, before the empty ones. */
function filledRowCount(kind: SalesKind, rows: readonly EditableRow[]): number {
  for (let index = rows.length - 1; index >= 0; index--) {
    if (rows[index].id != null || !isEmptyRow(kind, rowInput(kind, rows[index]))) return index + 1;
  }
  return 0;
}

/** The first cell typed into in a row: Year, after Sr.No. */
const FIRST_CELL_IDX = 1;

const sameCells = (kind: SalesKind, a: Record<string, unknown>, b: Record<string, unknown>) =>
  columnsFor(kind).every((column) => String(a[column.key] ?? "") === String(b[column.key] ?? ""));

/**
 * What a save carries of one table: only the new rows and the saved rows changed since they were
 * loaded (an emptied saved row is deleted), each with its grid position.
 */
export function changedRows(kind: SalesKind, rows: readonly EditableRow[], loaded: ReadonlyMap<number, Record<string, unknown>>) {
  const inputs: ReturnType<typeof rowInput>[] = [];
  const positions: number[] = [];
  rows.forEach((row, index) => {
    const input = rowInput(kind, row);
    const original = input.id != null ? loaded.get(input.id) : undefined;
    const changed = original ? !sameCells(kind, original, input) : !isEmptyRow(kind, input);
    if (!changed) return;
    inputs.push(input);
    positions.push(index);
  });
  return { inputs, positions };
}

interface SalesGridEditorProps {
  view: SalesReportView;
  initialTab: SalesKind;
  screen: ReportScreen;
  /** The report's comments: cells with open threads marked, a new one from the cell's menu or Ctrl+Alt+M. */
  threads: ReportThreadsView | null;
}

/**
 * The Sales Report with JavaScript: API and FDF tabs of editable grids, Add Row, Delete Selected
 * Rows, Save, Submit Report (partner) or Approve / Reject (admin). The page remounts it when the
 * report's version changes (after a save); a refused save keeps the unsaved grid as it is.
 */
export function SalesGridEditor({ view, initialTab, screen, threads }: SalesGridEditorProps) {
  const openPlaces = useMemo(() => openThreadPlaces(threads), [threads]);
  const { t } = useTranslation();
  const readOnly = !view.canEditRows;
  const productEditable = view.canEditRows && !view.quarter.historic;

  const [tab, setTab] = useState<SalesKind>(initialTab);
  // Whatever was typed into the plain form before the grid replaced it is kept, as unsaved changes.
  const [initial] = useState(() => ({
    API: initialRows("API", view.rows.API, !readOnly),
    FDF: initialRows("FDF", view.rows.FDF, !readOnly),
    deletedIds: readOnly ? [] : deletionsBeforeHydration(),
    typingIn: readOnly ? null : cellTypedInBeforeHydration(initialTab),
  }));
  const gridRef = useRef<ReportGridHandle>(null);
  const [rows, setRows] = useState<Record<SalesKind, EditableRow[]>>({ API: initial.API.rows, FDF: initial.FDF.rows });
  const [deletedIds, setDeletedIds] = useState<number[]>(initial.deletedIds);
  const [selected, setSelected] = useState<Record<SalesKind, ReadonlySet<number>>>({ API: new Set(), FDF: new Set() });
  const [dirty, setDirty] = useState(initial.API.typed || initial.FDF.typed || initial.deletedIds.length > 0);
  const [addCount, setAddCount] = useState("0");
  const [addClamped, setAddClamped] = useState(false);
  const [added, setAdded] = useState<{ kind: SalesKind; first: number; last: number } | null>(null);
  const loaded = useMemo(
    () => ({
      API: new Map(view.rows.API.map((row) => [row.id!, row as Record<string, unknown>])),
      FDF: new Map(view.rows.FDF.map((row) => [row.id!, row as Record<string, unknown>])),
    }),
    [view.rows],
  );

  const setters = useMemo(() => {
    const setterFor =
      (kind: SalesKind): Dispatch<SetStateAction<EditableRow[]>> =>
      (update) => {
        setDirty(true);
        setRows((previous) => ({ ...previous, [kind]: typeof update === "function" ? update(previous[kind]) : update }));
      };
    return { API: setterFor("API"), FDF: setterFor("FDF") };
  }, []);

  // Typing in the plain form as the grid took over carries on in the grid's cell, caret and all.
  useLayoutEffect(() => {
    if (initial.typingIn) gridRef.current?.continueTyping(initial.typingIn.position, initial.typingIn.caret);
  }, [initial]);

  // A finding of the Checks panel: its tab, then its cell, selected once the tab's grid is there.
  const [goTo, setGoTo] = useState<{ kind: SalesKind; position: { rowIdx: number; idx: number } } | null>(null);
  useEffect(() => {
    const onGoTo = (event: Event) => {
      const { table, row, column } = (event as CustomEvent<GoToCell>).detail;
      const kind: SalesKind = table === "FDF" ? "FDF" : "API";
      event.preventDefault();
      setTab(kind);
      setGoTo({ kind, position: { rowIdx: row - 1, idx: gridColumnIdx(kind, column) } });
    };
    window.addEventListener(GO_TO_CELL_EVENT, onGoTo);
    return () => window.removeEventListener(GO_TO_CELL_EVENT, onGoTo);
  }, []);
  useEffect(() => {
    if (!goTo || goTo.kind !== tab) return;
    // After the frame that draws the tab's new grid: a cell selected while it mounts is not kept.
    const frame = requestAnimationFrame(() => {
      gridRef.current?.scrollToCell(goTo.position);
      gridRef.current?.selectCell(goTo.position);
      setGoTo(null);
    });
    return () => cancelAnimationFrame(frame);
  }, [goTo, tab]);

  useEffect(() => {
    if (!added) return;
    const firstNew = { rowIdx: added.first - 1, idx: FIRST_CELL_IDX };
    gridRef.current?.scrollToCell(firstNew);
    gridRef.current?.selectCell(firstNew);
  }, [added]);

  const clearSelection = useCallback(() => setSelected({ API: new Set(), FDF: new Set() }), []);

  /** The new and changed rows, checked by the same rules as the server. */
  const checkedChanges = (): CheckedChanges => {
    const api = changedRows("API", rows.API, loaded.API);
    const fdf = changedRows("FDF", rows.FDF, loaded.FDF);
    const at =
      (positions: number[]) =>
      (problem: RowProblem): RowProblem => ({ ...problem, rowNumber: positions[problem.rowNumber - 1] + 1 });
    const usdRate = usdRateLookup(view.lists);
    const found = {
      API: validateTable("API", api.inputs, view.lists, usdRate).map(at(api.positions)),
      FDF: validateTable("FDF", fdf.inputs, view.lists, usdRate).map(at(fdf.positions)),
    };
    if (found.API.length || found.FDF.length) return { problems: found };
    return { payload: { API: api.inputs, FDF: fdf.inputs, positions: { API: api.positions, FDF: fdf.positions }, deletedIds } satisfies SalesPayload };
  };

  const addRows = () => {
    const asked = Math.max(Math.trunc(Number(addCount)) || 0, 0);
    const count = Math.min(asked, ADD_ROWS_MAX);
    setAddClamped(asked > ADD_ROWS_MAX);
    if (asked > ADD_ROWS_MAX) setAddCount(String(ADD_ROWS_MAX));
    if (!count) return;
    const at = filledRowCount(tab, rows[tab]);
    setters[tab]((previous) => [...previous.slice(0, at), ...Array.from({ length: count }, () => emptyEditableRow(tab)), ...previous.slice(at)]);
    setAdded({ kind: tab, first: at + 1, last: at + count });
  };

  const deleteSelected = () => {
    const keys = selected[tab];
    const removed = rows[tab].filter((row) => keys.has(row._key));
    const savedIds = removed.map((row) => row.id).filter((id): id is number => typeof id === "number");
    if (savedIds.length) setDeletedIds((previous) => [...previous, ...savedIds]);
    setters[tab]((previous) => previous.filter((row) => !keys.has(row._key)));
    setSelected((previous) => ({ ...previous, [tab]: new Set() }));
  };

  const selectedCount = selected[tab].size;
  const unsaved = dirty || deletedIds.length > 0;
  // "Nothing to report" is for a report without rows: none saved, none typed.
  const gridHasRows = useMemo(
    () => deletedIds.length > 0 || SALES_KINDS.some((kind) => rows[kind].some((row) => row.id != null || !isEmptyRow(kind, rowInput(kind, row)))),
    [rows, deletedIds],
  );

  return (
    <EditorShell
      screen={screen}
      dirty={unsaved}
      nothingToReportBlocker={gridHasRows ? NOTHING_TO_REPORT_NEEDS_EMPTY : null}
      tab={tab}
      checkedChanges={checkedChanges}
      onProblems={clearSelection}
    >
      <div className="report-tabs" role="tablist" aria-label={t("Sales Report")}>
        {SALES_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            role="tab"
            id={`sales-tab-${kind}`}
            aria-selected={tab === kind}
            aria-controls={`sales-panel-${kind}`}
            className={`report-tabs__tab${tab === kind ? " report-tabs__tab--active" : ""}`}
            onClick={() => setTab(kind)}
          >
            {kind}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`sales-panel-${tab}`} aria-labelledby={`sales-tab-${tab}`} className="report-tabs__panel">
        <div className="report-grid-toolbar">
          <label className="report-grid-toolbar__add">
            <span>{t("Add Row")}</span>
            <input
              type="number"
              className="input"
              min={0}
              max={ADD_ROWS_MAX}
              step={1}
              value={addCount}
              disabled={readOnly}
              onChange={(event) => setAddCount(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  addRows();
                }
              }}
            />
          </label>
          <button type="button" className="button button--secondary" disabled={readOnly} onClick={addRows} aria-label={t("Add rows")}>
            +
          </button>
          <button type="button" className="button button--danger" disabled={readOnly || selectedCount === 0} onClick={deleteSelected}>
            {t("Delete Selected Rows")}
          </button>
          <span className="report-toolbar__note" role="status" data-testid="rows-added">
            {addClamped ? t("At most {{max, number}} rows can be added at a time: {{max, number}} rows were added.", { max: ADD_ROWS_MAX }) : null}{" "}
            {added?.kind === tab
              ? added.first === added.last
                ? t("Row {{n, number}} added", { n: added.first })
                : t("Rows {{first, number}} to {{last, number}} added", { first: added.first, last: added.last })
              : null}
          </span>
        </div>
        <SalesGrid
          key={tab}
          gridRef={gridRef}
          kind={tab}
          rows={rows[tab]}
          setRows={setters[tab]}
          selectedKeys={selected[tab]}
          onSelectedKeysChange={(keys) => setSelected((previous) => ({ ...previous, [tab]: keys }))}
          lists={view.lists}
          readOnly={readOnly}
          productEditable={productEditable}
          comments={threads ? { table: tab, open: openPlaces, canWrite: threads.canWrite } : undefined}
          changes={screen.comparison}
        />
      </div>
    </EditorShell>
  );
}
