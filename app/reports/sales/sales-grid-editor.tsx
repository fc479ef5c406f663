import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import type { SalesReportView } from "~/reports/sales/model.server";
import { carriesRows, NOTHING_TO_REPORT_NEEDS_EMPTY, type DecisionIntent, type RowProblem, type TableProblems } from "~/reports/frame/contract";
import { ADD_ROWS_MAX, formFieldName, GRID_PADDING_ROWS, NOTHING_TO_REPORT_DESCRIPTION, type SalesIntent, type SalesPayload } from "~/reports/sales/contract";
import { useDisplay } from "~/hooks/use-display";
import { columnsFor, isEmptyRow, SALES_KINDS, validateTable, VALIDATION_HEADINGS, type SalesKind } from "~/reports/sales/rows";
import { InvalidDataDialog } from "~/reports/frame/dialogs";
import { postReport, type ReportScreen } from "~/reports/frame/report-page";
import { WorkflowToolbar } from "~/reports/frame/workflow-toolbar";
import { nextRowKey, useGridHeight, type EditableRow } from "~/reports/frame/editable-grid";
import { emptyEditableRow, rowInput, SalesGrid, usdRateLookup } from "./sales-grid";

/**
 * What was typed into the form without JavaScript before the grid took over (a slow link): the
 * changed inputs of the form still on the page, by row position, and the rows ticked for deletion.
 */
function typedBeforeHydration(kind: SalesKind): { cells: Map<number, Record<string, string>>; deleteIds: number[] } {
  const cells = new Map<number, Record<string, string>>();
  const deleteIds: number[] = [];
  if (typeof document === "undefined") return { cells, deleteIds };
  for (const column of columnsFor(kind)) {
    const fields = document.querySelectorAll<HTMLInputElement | HTMLSelectElement>(`[name^="${kind.toLowerCase()}["][name$="[${column.key}]"]`);
    fields.forEach((field) => {
      const initial = field instanceof HTMLSelectElement ? ([...field.options].find((option) => option.defaultSelected)?.value ?? "") : field.defaultValue;
      if (field.value === initial) return;
      const index = Number(/\[(\d+)\]/.exec(field.name)?.[1]);
      if (!Number.isSafeInteger(index) || field.name !== formFieldName(kind, index, column.key)) return;
      cells.set(index, { ...cells.get(index), [column.key]: field.value });
    });
  }
  if (kind === "API") {
    document.querySelectorAll<HTMLInputElement>('input[name="deleteIds"]:checked').forEach((box) => {
      const id = Number(box.value);
      if (Number.isSafeInteger(id)) deleteIds.push(id);
    });
  }
  return { cells, deleteIds };
}

function initialRows(kind: SalesKind, loaded: readonly Record<string, unknown>[], pad: boolean, typed: Map<number, Record<string, string>>): EditableRow[] {
  const rows: EditableRow[] = loaded.map((row) => ({ ...(row as Record<string, string | number>), _key: nextRowKey() }));
  if (pad) for (let i = 0; i < GRID_PADDING_ROWS; i++) rows.push(emptyEditableRow(kind));
  for (const [index, cells] of typed) if (rows[index]) rows[index] = { ...rows[index], ...cells };
  return rows;
}

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
  viewerRole: "ADMIN" | "STAFF" | "PARTNER";
  initialTab: SalesKind;
  screen: ReportScreen;
}

/**
 * The Sales Report with JavaScript: API and FDF tabs of editable grids, Add Row, Delete Selected
 * Rows, Save, Submit Report (partner) or Approve / Reject (admin). The page remounts it when the
 * report's version changes (after a save); a refused save keeps the unsaved grid as it is.
 */
export function SalesGridEditor({ view, viewerRole, initialTab, screen }: SalesGridEditorProps) {
  const { result, busy } = screen;
  const { t, i18n } = useTranslation();
  const display = useDisplay();
  const height = useGridHeight();
  const readOnly = !view.canEditRows;
  const productEditable = view.canEditRows && !view.quarter.historic;

  const [tab, setTab] = useState<SalesKind>(initialTab);
  // Whatever was typed into the plain form before the grid replaced it is kept, as unsaved changes.
  const [typed] = useState(() => ({ API: typedBeforeHydration("API"), FDF: typedBeforeHydration("FDF") }));
  const [rows, setRows] = useState<Record<SalesKind, EditableRow[]>>(() => ({
    API: initialRows("API", view.rows.API, !readOnly, typed.API.cells),
    FDF: initialRows("FDF", view.rows.FDF, !readOnly, typed.FDF.cells),
  }));
  const [deletedIds, setDeletedIds] = useState<number[]>(() => (readOnly ? [] : typed.API.deleteIds));
  const [selected, setSelected] = useState<Record<SalesKind, ReadonlySet<number>>>({ API: new Set(), FDF: new Set() });
  const [dirty, setDirty] = useState(() => !readOnly && typed.API.cells.size + typed.FDF.cells.size + typed.API.deleteIds.length > 0);
  const [addCount, setAddCount] = useState("0");
  const [addClamped, setAddClamped] = useState(false);
  const [problems, setProblems] = useState<TableProblems | null>(null);
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

  const clearSelection = () => setSelected({ API: new Set(), FDF: new Set() });

  // What the server answered (a successful post redirects and remounts this editor with the saved rows).
  useEffect(() => {
    if (result?.kind !== "problems") return;
    setProblems(result.problems);
    clearSelection();
  }, [result]);

  /** The new and changed rows, checked by the same rules as the server: invalid rows open 'Invalid data!' and nothing is posted. */
  const changes = (): SalesPayload | null => {
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
    if (found.API.length || found.FDF.length) {
      setProblems(found);
      clearSelection();
      return null;
    }
    return { API: api.inputs, FDF: fdf.inputs, positions: { API: api.positions, FDF: fdf.positions }, deletedIds };
  };

  const send = (intent: SalesIntent, { withRows, comment }: { withRows: boolean; comment?: string }): boolean => {
    const payload = withRows ? changes() : undefined;
    if (payload === null) return false;
    postReport(screen, intent, { payload, comment, tab });
    return true;
  };

  const addRows = () => {
    const asked = Math.max(Math.trunc(Number(addCount)) || 0, 0);
    const count = Math.min(asked, ADD_ROWS_MAX);
    setAddClamped(asked > ADD_ROWS_MAX);
    if (asked > ADD_ROWS_MAX) setAddCount(String(ADD_ROWS_MAX));
    if (!count) return;
    setters[tab]((previous) => [...previous, ...Array.from({ length: count }, () => emptyEditableRow(tab))]);
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
    <div className="report-editor" data-dirty={unsaved ? "true" : undefined}>
      <WorkflowToolbar
        view={view}
        viewerRole={viewerRole}
        label="Sales Report"
        dirty={unsaved}
        busy={busy}
        nothingToReportBlocker={gridHasRows ? NOTHING_TO_REPORT_NEEDS_EMPTY : null}
        result={result}
        nothingToReportDescription={NOTHING_TO_REPORT_DESCRIPTION}
        onSave={() => send("save", { withRows: true })}
        onDecision={(intent: DecisionIntent, comment) => send(intent, { withRows: carriesRows(intent, unsaved), comment })}
      />

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
          <span className="report-toolbar__note" role="status">
            {addClamped ? t("At most {{max, number}} rows can be added at a time: {{max, number}} rows were added.", { max: ADD_ROWS_MAX }) : null}
          </span>
        </div>
        <SalesGrid
          key={tab}
          kind={tab}
          rows={rows[tab]}
          setRows={setters[tab]}
          selectedKeys={selected[tab]}
          onSelectedKeysChange={(keys) => setSelected((previous) => ({ ...previous, [tab]: keys }))}
          lists={view.lists}
          readOnly={readOnly}
          productEditable={productEditable}
          height={height}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          dark={display.theme === "dark"}
        />
      </div>

      <InvalidDataDialog problems={problems} headings={VALIDATION_HEADINGS} onClose={() => setProblems(null)} />
    </div>
  );
}
