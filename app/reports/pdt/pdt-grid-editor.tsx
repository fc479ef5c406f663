import { useCallback, useEffect, useMemo, useState } from "react";
import DataGrid, { type CellKeyboardEvent, type CellKeyDownArgs, type Column, type RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import type { PdtGridRow, PdtReportView } from "~/reports/pdt/model.server";
import { carriesRows, SAVE_CHANGES_FIRST, type DecisionIntent, type RowProblem, type TableProblems } from "~/reports/frame/contract";
import { PDT_EMPTY, PDT_NOTHING_TO_REPORT, PDT_PROBLEM_HEADINGS, PDT_TABLE, pdtFieldName } from "~/reports/pdt/contract";
import {
  formatPdtDate,
  normalisePdtRow,
  normalisePdtStatus,
  PDT_CELL_RULES,
  PDT_COLUMN_LABELS,
  PDT_STATUSES,
  slipDays,
  type PdtColumnKey,
} from "~/reports/pdt/rows";
import { useDisplay } from "~/hooks/use-display";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { InvalidDataDialog } from "~/reports/frame/dialogs";
import { postReport, type ReportScreen } from "~/reports/frame/report-page";
import { WorkflowToolbar } from "~/reports/frame/workflow-toolbar";
import { CellEditor, cellOf, CellValue, nextRowKey, tabLeavesGrid, useCellRules, useGridHeight, type EditableRow } from "~/reports/frame/editable-grid";

const EDITABLE: readonly PdtColumnKey[] = ["status", "notes", "startDate", "endDate"];

/** A grid row: the loaded row's cells as the grid shows them (dates as MM/DD/YYYY). */
export function gridRow(row: PdtGridRow): EditableRow {
  return {
    _key: nextRowKey(),
    productId: row.productId,
    stageId: row.stageId,
    productName: row.productName,
    stageName: row.stageName,
    status: row.status,
    notes: row.notes,
    startDate: formatPdtDate(row.startDate),
    endDate: formatPdtDate(row.endDate),
  };
}

const cellsOf = (row: EditableRow) => ({
  status: cellOf(row, "status"),
  notes: cellOf(row, "notes"),
  startDate: cellOf(row, "startDate"),
  endDate: cellOf(row, "endDate"),
});

/** The save body's rows: those changed since loading, each with its product's status. */
export function changedPdtRows(rows: readonly EditableRow[], loaded: readonly EditableRow[]) {
  return rows
    .filter((row, index) => EDITABLE.some((key) => cellOf(row, key) !== cellOf(loaded[index], key)))
    .map((row) => ({
      productId: row.productId,
      stageId: row.stageId,
      status: normalisePdtStatus(cellOf(row, "status")) ?? cellOf(row, "status"),
      notes: cellOf(row, "notes"),
      startDate: cellOf(row, "startDate"),
      endDate: cellOf(row, "endDate"),
    }));
}

/**
 * What was typed into the plain form before the grid took over (a slow link): the changed inputs
 * still on the page, by row position. Date inputs hold ISO dates, shown as the grid's dates.
 */
function typedBeforeHydration(): Map<number, Partial<Record<PdtColumnKey, string>>> {
  const typed = new Map<number, Partial<Record<PdtColumnKey, string>>>();
  if (typeof document === "undefined") return typed;
  document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[name^="pdt["]').forEach((field) => {
    const match = /^pdt\[(\d+)\]\[(status|notes|startDate|endDate)\]$/.exec(field.name);
    if (!match) return;
    const initial = field instanceof HTMLSelectElement ? ([...field.options].find((option) => option.defaultSelected)?.value ?? "") : field.defaultValue;
    if (field.value === initial || field.name !== pdtFieldName(Number(match[1]), match[2] as PdtColumnKey)) return;
    const key = match[2] as PdtColumnKey;
    const value = field.type === "date" ? formatPdtDate(field.value || null) : field.value;
    typed.set(Number(match[1]), { ...typed.get(Number(match[1])), [key]: value });
  });
  return typed;
}

function StatusEditor({ row, onRowChange, onClose, label }: RenderEditCellProps<EditableRow> & { label: string }) {
  const { t } = useTranslation();
  return (
    <select
      className="report-grid__editor"
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the cell's editor takes the focus when the user starts editing the cell
      autoFocus
      aria-label={label}
      value={cellOf(row, "status")}
      onChange={(event) => onRowChange({ ...row, status: event.target.value }, true)}
      onBlur={() => onClose(false)}
    >
      {PDT_STATUSES.map((status) => (
        <option key={status} value={status}>
          {t(PROJECT_STATUS_LABELS[status])}
        </option>
      ))}
    </select>
  );
}

/**
 * The timeline with JavaScript: react-data-grid grouped by product (the product's name on its first
 * stage), status (one per product: changing it on a stage changes the product's), notes and the
 * quarter's dates editable, earlier quarters and the slip read-only. Only changed rows are posted.
 */
export function PdtGridEditor({ view, viewerRole, screen }: { view: PdtReportView; viewerRole: "ADMIN" | "STAFF" | "PARTNER"; screen: ReportScreen }) {
  const { result, busy } = screen;
  const { t, i18n } = useTranslation();
  const display = useDisplay();
  const height = useGridHeight();
  const readOnly = !view.canEditRows;
  const loaded = useMemo(() => view.rows.map(gridRow), [view.rows]);
  const [rows, setRowsState] = useState<EditableRow[]>(() => {
    const typed = readOnly ? new Map() : typedBeforeHydration();
    return loaded.map((row, index) => (typed.has(index) ? { ...row, ...typed.get(index) } : row));
  });
  const [problems, setProblems] = useState<TableProblems | null>(null);
  const byKey = useMemo(() => new Map(view.rows.map((row) => [`${row.productId}:${row.stageId}`, row])), [view.rows]);
  const earlierQuarters = useMemo(() => view.quarterOrder.slice(0, -1).map((quarter) => quarter.name), [view.quarterOrder]);

  useEffect(() => {
    if (result?.kind === "problems") setProblems(result.problems);
  }, [result]);

  /** A status changed on one stage is the product's: every stage of it follows. */
  const setRows = useCallback((next: EditableRow[]) => {
    setRowsState((previous) => {
      const changedStatus = new Map<unknown, string>();
      next.forEach((row, index) => {
        if (row.status !== previous[index]?.status) changedStatus.set(row.productId, cellOf(row, "status"));
      });
      return changedStatus.size ? next.map((row) => (changedStatus.has(row.productId) ? { ...row, status: changedStatus.get(row.productId)! } : row)) : next;
    });
  }, []);

  const changed = useMemo(() => changedPdtRows(rows, loaded), [rows, loaded]);
  const dirty = changed.length > 0;

  const invalidCells = useMemo(() => {
    const cache = new WeakMap<EditableRow, ReadonlySet<string>>();
    return (row: EditableRow): ReadonlySet<string> => {
      let invalid = cache.get(row);
      if (!invalid) {
        const checked = normalisePdtRow(cellsOf(row));
        invalid = new Set(checked.ok ? [] : checked.invalid);
        cache.set(row, invalid);
      }
      return invalid;
    };
  }, []);

  const send = (intent: string, comment?: string): boolean => {
    if (!carriesRows(intent, dirty)) {
      postReport(screen, intent, { comment });
      return true;
    }
    const found: RowProblem[] = [];
    rows.forEach((row, index) => {
      const invalid = [...invalidCells(row)] as PdtColumnKey[];
      if (invalid.length) found.push({ rowNumber: index + 1, keys: invalid, columns: invalid.map((key) => PDT_COLUMN_LABELS[key]) });
    });
    if (found.length) {
      setProblems({ [PDT_TABLE]: found });
      return false;
    }
    postReport(screen, intent, { payload: { rows: changed }, comment });
    return true;
  };

  const rules = useCellRules(PDT_CELL_RULES);

  const columns = useMemo((): Column<EditableRow>[] => {
    const text = (key: string, name: string, width: number): Column<EditableRow> => ({ key, name, width, resizable: true });
    const editable = (key: PdtColumnKey, width: number): Column<EditableRow> => {
      const label = t(PDT_COLUMN_LABELS[key]);
      return {
        key,
        name: label,
        width,
        resizable: true,
        editable: !readOnly,
        cellClass: (row) => (invalidCells(row).has(key) ? "report-grid__cell report-grid__cell--invalid" : "report-grid__cell"),
        renderCell: ({ row }) => {
          const value =
            key === "status"
              ? t(PROJECT_STATUS_LABELS[cellOf(row, "status") as keyof typeof PROJECT_STATUS_LABELS] ?? cellOf(row, "status"))
              : cellOf(row, key);
          return <CellValue value={value} invalid={invalidCells(row).has(key) ? rules.describe(key) : null} />;
        },
        renderEditCell: (props) => (key === "status" ? <StatusEditor {...props} label={label} /> : <CellEditor {...props} label={label} />),
      };
    };
    return [
      {
        ...text("productName", t("Product"), 220),
        frozen: true,
        renderCell: ({ row, rowIdx }) => (rowIdx === 0 || rows[rowIdx - 1]?.productId !== row.productId ? cellOf(row, "productName") : ""),
      },
      { ...text("stageName", t("Stage"), 220), frozen: true, renderCell: ({ row }) => t(cellOf(row, "stageName")) },
      editable("status", 170),
      editable("notes", 220),
      ...earlierQuarters.flatMap((quarter): Column<EditableRow>[] => [
        {
          key: `start-${quarter}`,
          name: `${quarter} ${t("Start Date")}`,
          width: 130,
          renderCell: ({ row }) => formatPdtDate(byKey.get(`${row.productId}:${row.stageId}`)?.history[quarter]?.startDate),
        },
        {
          key: `end-${quarter}`,
          name: `${quarter} ${t("End Date")}`,
          width: 130,
          renderCell: ({ row }) => formatPdtDate(byKey.get(`${row.productId}:${row.stageId}`)?.history[quarter]?.endDate),
        },
      ]),
      editable("startDate", 130),
      editable("endDate", 130),
      {
        key: "slip",
        name: t("Slip (days)"),
        width: 100,
        renderCell: ({ row }) => {
          const previous = byKey.get(`${row.productId}:${row.stageId}`)?.previous;
          const end = normalisePdtRow(cellsOf(row));
          if (!previous || !end.ok) return "";
          const days = slipDays(previous.endDate, end.row.endDate) ?? slipDays(previous.startDate, end.row.startDate);
          return days ? (days > 0 ? `+${days}` : `−${Math.abs(days)}`) : "";
        },
      },
    ];
  }, [t, readOnly, invalidCells, earlierQuarters, byKey, rows, rules]);

  return (
    <div className="report-editor" data-dirty={dirty ? "true" : undefined}>
      <WorkflowToolbar
        view={view}
        viewerRole={viewerRole}
        label="Development Timeline"
        dirty={dirty}
        busy={busy}
        // A timeline always has its rows: "nothing to report" submits the plan as it stands, so only unsaved edits hold it back.
        nothingToReportBlocker={dirty ? SAVE_CHANGES_FIRST : null}
        result={result}
        nothingToReportDescription={PDT_NOTHING_TO_REPORT}
        onSave={() => send("save")}
        onDecision={(intent: DecisionIntent, comment) => send(intent, comment)}
      />
      <div className="report-grid" data-testid="report-grid-PDT">
        <DataGrid
          className={`report-grid__grid ${display.theme === "dark" ? "rdg-dark" : "rdg-light"}`}
          aria-label={t("Development Timeline")}
          columns={columns}
          rows={rows}
          onRowsChange={setRows}
          rowKeyGetter={(row) => row._key}
          onCellKeyDown={(args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent) => tabLeavesGrid(args, event)}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          style={{ blockSize: height }}
          renderers={{ noRowsFallback: <div className="report-grid__empty">{t(PDT_EMPTY)}</div> }}
        />
        {rules.element}
      </div>
      <InvalidDataDialog problems={problems} headings={PDT_PROBLEM_HEADINGS} onClose={() => setProblems(null)} />
    </div>
  );
}
