import { useCallback, useMemo, useState } from "react";
import type { Column, RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import type { PdtGridRow, PdtReportView } from "~/reports/pdt/model.server";
import { SAVE_CHANGES_FIRST, type RowProblem } from "~/reports/frame/contract";
import { PDT_EMPTY, PDT_TABLE, pdtFieldName } from "~/reports/pdt/contract";
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
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import type { ReportScreen } from "~/reports/frame/report-page";
import { EditorShell, typedBeforeHydration, type CheckedChanges } from "~/reports/frame/editor-shell";
import { CellEditor, cellOf, CellValue, nextRowKey, ReportGrid, SelectCellEditor, useCellRules, type EditableRow } from "~/reports/frame/editable-grid";

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
 * The rows with what was typed into the plain form before the grid took over (a slow link). Its
 * date inputs hold ISO dates, shown as the grid's dates.
 */
function withTypedCells(loaded: EditableRow[]): EditableRow[] {
  const typed = typedBeforeHydration("pdt");
  if (!typed.size) return loaded;
  return loaded.map((row, index) => {
    const next = { ...row };
    for (const key of EDITABLE) {
      const value = typed.get(pdtFieldName(index, key));
      if (value !== undefined) next[key] = key === "startDate" || key === "endDate" ? formatPdtDate(value || null) : value;
    }
    return next;
  });
}

function StatusEditor(props: RenderEditCellProps<EditableRow> & { label: string }) {
  const { t } = useTranslation();
  return (
    <SelectCellEditor {...props}>
      {PDT_STATUSES.map((status) => (
        <option key={status} value={status}>
          {t(PROJECT_STATUS_LABELS[status])}
        </option>
      ))}
    </SelectCellEditor>
  );
}

/**
 * The timeline with JavaScript: react-data-grid grouped by product (the product's name on its first
 * stage), status (one per product: changing it on a stage changes the product's), notes and the
 * quarter's dates editable, earlier quarters and the slip read-only. Only changed rows are posted.
 */
export function PdtGridEditor({ view, screen }: { view: PdtReportView; screen: ReportScreen }) {
  const { t } = useTranslation();
  const readOnly = !view.canEditRows;
  const loaded = useMemo(() => view.rows.map(gridRow), [view.rows]);
  const [rows, setRowsState] = useState<EditableRow[]>(() => (readOnly ? loaded : withTypedCells(loaded)));
  const byKey = useMemo(() => new Map(view.rows.map((row) => [`${row.productId}:${row.stageId}`, row])), [view.rows]);
  const earlierQuarters = useMemo(() => view.quarterOrder.slice(0, -1).map((quarter) => quarter.name), [view.quarterOrder]);

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

  const checkedChanges = (): CheckedChanges => {
    const found: RowProblem[] = [];
    rows.forEach((row, index) => {
      const invalid = [...invalidCells(row)] as PdtColumnKey[];
      if (invalid.length) found.push({ rowNumber: index + 1, keys: invalid, columns: invalid.map((key) => PDT_COLUMN_LABELS[key]) });
    });
    return found.length ? { problems: { [PDT_TABLE]: found } } : { payload: { rows: changed } };
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
    <EditorShell
      screen={screen}
      dirty={dirty}
      // A timeline always has its rows: "nothing to report" submits the plan as it stands, so only unsaved edits hold it back.
      nothingToReportBlocker={dirty ? SAVE_CHANGES_FIRST : null}
      checkedChanges={checkedChanges}
    >
      <ReportGrid
        testId="report-grid-PDT"
        rules={rules.element}
        aria-label={t("Development Timeline")}
        columns={columns}
        rows={rows}
        onRowsChange={setRows}
        renderers={{ noRowsFallback: <div className="report-grid__empty">{t(PDT_EMPTY)}</div> }}
      />
    </EditorShell>
  );
}
