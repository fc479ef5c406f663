import { useCallback, useLayoutEffect, useMemo, useRef, useState, type FocusEvent } from "react";
import type { Column, RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import type { PdtGridRow, PdtReportView } from "~/reports/pdt/model.server";
import { enteredValues, SAVE_CHANGES_FIRST, type RowProblem } from "~/reports/frame/contract";
import { PDT_EMPTY, PDT_FIELD_PATTERN, PDT_TABLE, pdtFieldName } from "~/reports/pdt/contract";
import {
  isAmbiguousPdtDate,
  namedPdtDate,
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
import { useGridCellChange } from "~/reports/frame/changes-view";
import { EditorShell, focusedBeforeHydration, typedBeforeHydration, type CheckedChanges } from "~/reports/frame/editor-shell";
import {
  CellEditor,
  cellOf,
  CellValue,
  nextRowKey,
  ReportGrid,
  SelectCellEditor,
  useCellRules,
  type EditableRow,
  type ReportGridHandle,
  useGoToCell,
} from "~/reports/frame/editable-grid";
import { openThreadPlaces, type ReportThreadsView } from "~/reports/frame/threads";
import { DatePicker, usePdtDateText } from "./pdt-date";

const EDITABLE: readonly PdtColumnKey[] = ["status", "notes", "startDate", "endDate"];
const isDateKey = (key: PdtColumnKey) => key === "startDate" || key === "endDate";

/** The header row holds two lines: a column's name with its quarter may wrap. */
const HEADER_ROW_HEIGHT = 52;
/** Room for "read as 30 September 2026". */
const DATE_WIDTH = 210;

/** A grid row: the loaded row's cells (dates as ISO, which the editor shows and the cell names). */
export function gridRow(row: PdtGridRow): EditableRow {
  return {
    _key: nextRowKey(),
    id: row.id ?? undefined,
    productId: row.productId,
    stageId: row.stageId,
    productName: row.productName,
    stageName: row.stageName,
    status: row.status,
    notes: row.notes,
    startDate: row.startDate ?? "",
    endDate: row.endDate ?? "",
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

/** The rows with what was typed into the plain form before the grid took over (a slow link). */
function withTypedCells(loaded: EditableRow[]): EditableRow[] {
  const typed = typedBeforeHydration("pdt");
  if (!typed.size) return loaded;
  return loaded.map((row, index) => {
    const next = { ...row };
    for (const key of EDITABLE) {
      const value = typed.get(pdtFieldName(index, key));
      if (value !== undefined) next[key] = value;
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

/** A date typed as text (M/D/YYYY or ISO), or picked from the calendar beside it: a day picked is committed at once. */
function DateEditor(props: RenderEditCellProps<EditableRow> & { label: string }) {
  const { row, column, onRowChange, onClose } = props;
  // The text field and the calendar button are one editor: moving between them does not close it.
  const closeWhenLeft = (event: FocusEvent<HTMLSpanElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) onClose(true, false);
  };
  return (
    <span className="pdt-date-editor" onBlur={closeWhenLeft}>
      <CellEditor {...props} onClose={() => undefined} />
      <DatePicker value={cellOf(row, column.key)} onPick={(iso) => onRowChange({ ...row, [column.key]: iso }, true)} />
    </span>
  );
}

function PencilIcon() {
  return (
    <svg className="pdt-grid__pencil" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The timeline with JavaScript: react-data-grid grouped by product (the product's name on its first
 * stage). This quarter's columns come first, after the product, the stage and the status, headed
 * with the quarter and styled as editable: status (one per product: changing it on a stage changes
 * the product's), start and end date, slip, notes; earlier quarters' plans follow, newest first,
 * read-only. Dates show their month's name in the page's language. Only changed rows are posted.
 */
export function PdtGridEditor({ view, screen, threads }: { view: PdtReportView; screen: ReportScreen; threads: ReportThreadsView | null }) {
  const { t, i18n } = useTranslation();
  const readOnly = !view.canEditRows;
  const loaded = useMemo(() => view.rows.map(gridRow), [view.rows]);
  const [rows, setRowsState] = useState<EditableRow[]>(() => (readOnly ? loaded : withTypedCells(loaded)));
  // The plain form's field being typed in as the grid took over: the typing carries on in its cell.
  const [typingIn] = useState(() => (readOnly ? null : focusedBeforeHydration("pdt")));
  const carriedOn = useRef(false);
  const gridRef = useRef<ReportGridHandle>(null);
  const byKey = useMemo(() => new Map(view.rows.map((row) => [`${row.productId}:${row.stageId}`, row])), [view.rows]);
  const earlierQuarters = useMemo(
    () =>
      view.quarterOrder
        .map((quarter) => quarter.name)
        .slice(0, -1)
        .reverse(),
    [view.quarterOrder],
  );
  const dateText = usePdtDateText();
  const locale = i18n.language;
  // The comparison the page shows: a changed date's old value as the grid writes dates.
  const shownOld = useCallback((cell: string, value: string) => (isDateKey(cell as PdtColumnKey) ? namedPdtDate(value, locale) : value), [locale]);
  const changeOf = useGridCellChange(screen.comparison, shownOld);
  const openPlaces = useMemo(() => openThreadPlaces(threads), [threads]);

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
      if (invalid.length)
        found.push({
          rowNumber: index + 1,
          keys: invalid,
          columns: invalid.map((key) => PDT_COLUMN_LABELS[key]),
          entered: enteredValues(invalid, (key) => cellOf(row, key)),
        });
    });
    return found.length ? { problems: { [PDT_TABLE]: found } } : { payload: { rows: changed } };
  };

  const rules = useCellRules(PDT_CELL_RULES);

  const columns = useMemo((): Column<EditableRow>[] => {
    const text = (key: string, name: string, width: number): Column<EditableRow> => ({ key, name, width, resizable: true });
    const withQuarter = (key: PdtColumnKey, quarter: string) => t("{{column}} ({{quarter}})", { column: t(PDT_COLUMN_LABELS[key]), quarter });
    const editable = (key: PdtColumnKey, width: number, label: string): Column<EditableRow> => ({
      key,
      name: label,
      width,
      resizable: true,
      editable: !readOnly,
      headerCellClass: "report-grid__header",
      renderHeaderCell: () => (
        <span className="pdt-grid__header" title={label}>
          {readOnly ? null : <PencilIcon />}
          <span>{label}</span>
        </span>
      ),
      cellClass: (row) => {
        const classes = ["report-grid__cell"];
        if (!readOnly) classes.push("pdt-grid__editable");
        if (invalidCells(row).has(key)) classes.push("report-grid__cell--invalid");
        else if (isDateKey(key) && isAmbiguousPdtDate(cellOf(row, key))) classes.push("pdt-date--read-as");
        return classes.join(" ");
      },
      renderCell: ({ row }) => {
        const value = cellOf(row, key);
        const shown =
          key === "status"
            ? t(PROJECT_STATUS_LABELS[value as keyof typeof PROJECT_STATUS_LABELS] ?? value)
            : isDateKey(key)
              ? (dateText(value)?.text ?? value)
              : value;
        return (
          <CellValue
            value={shown}
            invalid={invalidCells(row).has(key) ? rules.describe(key) : null}
            change={key === "status" ? null : changeOf(`${cellOf(row, "productId")}:${cellOf(row, "stageId")}`, key)}
          />
        );
      },
      renderEditCell: (props) =>
        key === "status" ? (
          <StatusEditor {...props} label={label} />
        ) : isDateKey(key) ? (
          <DateEditor {...props} label={label} />
        ) : (
          <CellEditor {...props} label={label} />
        ),
    });
    const history = (key: "startDate" | "endDate", quarter: string): Column<EditableRow> => ({
      key: `${key}-${quarter}`,
      name: withQuarter(key, quarter),
      width: 150,
      headerCellClass: "report-grid__header",
      cellClass: "pdt-grid__history",
      renderCell: ({ row }) => namedPdtDate(byKey.get(`${row.productId}:${row.stageId}`)?.history[quarter]?.[key], locale),
    });
    return [
      {
        ...text("productName", t("Product"), 220),
        frozen: true,
        renderCell: ({ row, rowIdx }) => (rowIdx === 0 || rows[rowIdx - 1]?.productId !== row.productId ? cellOf(row, "productName") : ""),
      },
      { ...text("stageName", t("Stage"), 220), frozen: true, renderCell: ({ row }) => t(cellOf(row, "stageName")) },
      editable("status", 160, t(PDT_COLUMN_LABELS.status)),
      editable("startDate", DATE_WIDTH, withQuarter("startDate", view.quarter.name)),
      editable("endDate", DATE_WIDTH, withQuarter("endDate", view.quarter.name)),
      {
        key: "slip",
        name: t("Slip (days)"),
        width: 90,
        headerCellClass: "report-grid__header",
        renderCell: ({ row }) => {
          const previous = byKey.get(`${row.productId}:${row.stageId}`)?.previous;
          const end = normalisePdtRow(cellsOf(row));
          if (!previous || !end.ok) return "";
          const days = slipDays(previous.endDate, end.row.endDate) ?? slipDays(previous.startDate, end.row.startDate);
          return days ? (days > 0 ? `+${days}` : `−${Math.abs(days)}`) : "";
        },
      },
      editable("notes", 220, t(PDT_COLUMN_LABELS.notes)),
      ...earlierQuarters.flatMap((quarter) => [history("startDate", quarter), history("endDate", quarter)]),
    ];
  }, [t, readOnly, invalidCells, earlierQuarters, byKey, rows, rules, dateText, locale, view.quarter.name, changeOf]);

  useGoToCell(gridRef, PDT_TABLE, columns);

  useLayoutEffect(() => {
    const field = typingIn && PDT_FIELD_PATTERN.exec(typingIn.name);
    if (!field || carriedOn.current) return;
    carriedOn.current = true;
    gridRef.current?.continueTyping({ rowIdx: Number(field[1]), idx: columns.findIndex((column) => column.key === field[2]) }, typingIn.caret);
  }, [typingIn, columns]);

  return (
    <EditorShell
      screen={screen}
      dirty={dirty}
      // A timeline always has its rows: "nothing to report" submits the plan as it stands, so only unsaved edits hold it back.
      nothingToReportBlocker={dirty ? SAVE_CHANGES_FIRST : null}
      checkedChanges={checkedChanges}
    >
      <ReportGrid
        ref={gridRef}
        testId="report-grid-PDT"
        rules={rules.element}
        aria-label={t("Development Timeline")}
        columns={columns}
        headerRowHeight={HEADER_ROW_HEIGHT}
        rows={rows}
        onRowsChange={setRows}
        comments={threads ? { table: PDT_TABLE, open: openPlaces, canWrite: threads.canWrite } : undefined}
        renderers={{ noRowsFallback: <div className="report-grid__empty">{t(PDT_EMPTY)}</div> }}
      />
    </EditorShell>
  );
}
