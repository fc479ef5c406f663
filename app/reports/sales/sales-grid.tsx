import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type Dispatch,
  type RefObject,
  type SetStateAction,
} from "react";
import {
  SelectCellFormatter,
  useHeaderRowSelection,
  useRowSelection,
  type CellKeyboardEvent,
  type CellKeyDownArgs,
  type Column,
  type RenderCellProps,
  type RenderEditCellProps,
  type RenderHeaderCellProps,
} from "react-data-grid";
import { useTranslation } from "react-i18next";
import type { SalesScreenLists } from "~/reports/sales/model.server";
import { cellRule, checkRow, type CheckedRow } from "~/reports/sales/rows";
import { columnsFor, type SalesColumn, type SalesKind } from "~/reports/sales/columns";
import { datalistIdFor } from "./sales-datalists";
import { applyBlock, isBlock, parseClipboardBlock } from "./sales-paste";
import {
  CellEditor,
  cellOf,
  CellValue,
  nextRowKey,
  ReportGrid,
  ROW_NUMBER_COLUMN_KEY,
  useCellRules,
  type EditableRow,
  type GridCellChange,
  type GridComments,
  type ReportGridHandle,
} from "~/reports/frame/editable-grid";
import { useGridCellChange } from "~/reports/frame/changes-view";
import type { RowChanges } from "~/reports/frame/changes";

export function emptyEditableRow(kind: SalesKind): EditableRow {
  const row: EditableRow = { _key: nextRowKey() };
  for (const column of columnsFor(kind)) row[column.key] = "";
  return row;
}

/** The row as the rules and the server read it (no grid key). */
export function rowInput(kind: SalesKind, row: EditableRow): Record<string, string> & { id?: number } {
  const input: Record<string, string> & { id?: number } = {};
  if (typeof row.id === "number") input.id = row.id;
  for (const column of columnsFor(kind)) input[column.key] = cellOf(row, column.key);
  return input;
}

/** The currency table's USD rate: the FDF exchange rate's default. */
export const usdRateLookup = (lists: SalesScreenLists) => (code: string) => lists.usdRates[code];

/** A row checked by the save's rules (invalid cells, FDF derived values), computed once per row object. */
function useCheckedRow(kind: SalesKind, lists: SalesScreenLists) {
  return useMemo(() => {
    const cache = new WeakMap<EditableRow, CheckedRow<SalesKind>>();
    const usdRate = usdRateLookup(lists);
    return (row: EditableRow): CheckedRow<SalesKind> => {
      let checked = cache.get(row);
      if (!checked) {
        checked = checkRow(kind, rowInput(kind, row), lists, usdRate);
        cache.set(row, checked);
      }
      return checked;
    };
  }, [kind, lists]);
}

/** The row being typed in the open cell editor, so that the row's derived values follow each keystroke. */
const DraftRowContext = createContext<EditableRow | null>(null);

/**
 * A cell as shown: the value typed, or for an empty FDF derived cell the value the save will fill
 * in (muted), computed from the row as it is being typed.
 */
function SalesCell({
  row,
  columnKey,
  checked,
  invalid,
  change,
}: {
  row: EditableRow;
  columnKey: string;
  checked: (row: EditableRow) => CheckedRow<SalesKind>;
  /** The rule the cell breaks, or null. */
  invalid: { id: string; text: string } | null;
  /** The cell's change since the base the page compares with, or null. */
  change: GridCellChange | null;
}) {
  const { t } = useTranslation();
  const draft = useContext(DraftRowContext);
  const current = draft?._key === row._key ? draft : row;
  const value = cellOf(current, columnKey);
  const derived = !invalid && value.trim() === "" ? (checked(current).row as Record<string, string>)[columnKey] : "";
  return derived ? (
    <span className="report-grid__derived" data-derived="true" title={t("Calculated when saved")}>
      <CellValue value={derived} invalid={null} change={change} />
    </span>
  ) : (
    <CellValue value={value} invalid={invalid} change={change} />
  );
}

/** The cell editor, telling the grid the row as it is typed (and that typing ended when it closes). */
function DraftCellEditor({
  onDraft,
  ...props
}: RenderEditCellProps<EditableRow> & {
  listId?: string;
  label: string;
  onDraft: (row: EditableRow | null) => void;
}) {
  useEffect(() => () => onDraft(null), [onDraft]);
  return (
    <CellEditor
      {...props}
      onRowChange={(row, commit) => {
        if (!commit) onDraft(row);
        props.onRowChange(row, commit);
      }}
    />
  );
}

function SrNoHeader({ label, disabled }: RenderHeaderCellProps<EditableRow> & { label: string; disabled: boolean }) {
  const { isIndeterminate, isRowSelected, onRowSelectionChange } = useHeaderRowSelection();
  const { t } = useTranslation();
  return (
    <span className="report-grid__srno">
      <SelectCellFormatter
        aria-label={t("Select all rows")}
        tabIndex={-1}
        disabled={disabled}
        indeterminate={isIndeterminate}
        value={isRowSelected}
        onChange={(checked) => onRowSelectionChange({ checked: isIndeterminate ? false : checked })}
      />
      <span>{label}</span>
    </span>
  );
}

function SrNoCell({ row, rowIdx, tabIndex }: RenderCellProps<EditableRow>) {
  const { isRowSelectionDisabled, isRowSelected, onRowSelectionChange } = useRowSelection();
  const { t } = useTranslation();
  return (
    <span className="report-grid__srno">
      <SelectCellFormatter
        aria-label={t("Select row {{n}}", { n: rowIdx + 1 })}
        tabIndex={tabIndex}
        disabled={isRowSelectionDisabled}
        value={isRowSelected}
        onChange={(checked, isShiftClick) => onRowSelectionChange({ row, checked, isShiftClick })}
      />
      <span>{rowIdx + 1}</span>
    </span>
  );
}

/** A Sales column's index in the grid: after Sr.No. */
export const gridColumnIdx = (kind: SalesKind, key: string) => columnsFor(kind).findIndex((column) => column.key === key) + 1;
/** Room for a header wrapped on three lines. */
const HEADER_ROW_HEIGHT = 56;

function widthOf(column: SalesColumn): number {
  switch (column.type) {
    case "year":
      return 80;
    case "month":
      return 120;
    case "country":
    case "product":
      return 190;
    case "currency":
      return 100;
    default:
      return Math.min(Math.max(column.label.length * 7 + 24, 110), 230);
  }
}

interface SalesGridProps {
  gridRef: RefObject<ReportGridHandle>;
  kind: SalesKind;
  rows: EditableRow[];
  setRows: Dispatch<SetStateAction<EditableRow[]>>;
  selectedKeys: ReadonlySet<number>;
  onSelectedKeysChange: (keys: Set<number>) => void;
  lists: SalesScreenLists;
  readOnly: boolean;
  productEditable: boolean;
  comments?: GridComments;
  /** The comparison the page shows (null: none): changed cells and added rows are marked. */
  changes: RowChanges | null;
}

/**
 * One tab of the Sales Report: react-data-grid with the spec's columns (Sr.No with the row
 * checkbox first), keyboard editing, invalid cells highlighted as they are typed, and blocks
 * pasted from a spreadsheet written from the selected cell rightwards and downwards.
 */
export function SalesGrid({
  gridRef,
  kind,
  rows,
  setRows,
  selectedKeys,
  onSelectedKeysChange,
  lists,
  readOnly,
  productEditable,
  comments,
  changes,
}: SalesGridProps) {
  const { t } = useTranslation();
  const changeOf = useGridCellChange(changes);
  const selectedCell = useRef<{ rowIdx: number; idx: number } | null>(null);
  const checked = useCheckedRow(kind, lists);
  const [draft, setDraft] = useState<EditableRow | null>(null);
  const salesColumns = columnsFor(kind);
  const rules = useCellRules(
    useMemo(() => Object.fromEntries(salesColumns.map((column) => [column.key, cellRule(kind, column, lists)])), [kind, salesColumns, lists]),
  );

  const isEditable = useCallback((key: string) => !readOnly && (key !== "productName" || productEditable), [readOnly, productEditable]);

  const columns = useMemo((): Column<EditableRow>[] => {
    const srNo: Column<EditableRow> = {
      key: ROW_NUMBER_COLUMN_KEY,
      name: t("Sr.No"),
      width: 90,
      minWidth: 90,
      frozen: true,
      resizable: false,
      renderHeaderCell: (props) => <SrNoHeader {...props} label={t("Sr.No")} disabled={readOnly} />,
      renderCell: (props) => <SrNoCell {...props} />,
    };
    return [
      srNo,
      ...salesColumns.map((column): Column<EditableRow> => {
        const label = t(column.label);
        const listId = datalistIdFor(kind, column);
        return {
          key: column.key,
          name: label,
          // At least its width, and a share of the free width; long headers wrap.
          width: `minmax(${widthOf(column)}px, auto)`,
          minWidth: widthOf(column),
          resizable: true,
          editable: isEditable(column.key),
          headerCellClass: "report-grid__header",
          renderHeaderCell: () => <span title={label}>{label}</span>,
          cellClass: (row) => (checked(row).invalid.includes(column.key) ? "report-grid__cell report-grid__cell--invalid" : "report-grid__cell"),
          renderCell: ({ row }) => (
            <SalesCell
              row={row}
              columnKey={column.key}
              checked={checked}
              invalid={checked(row).invalid.includes(column.key) ? rules.describe(column.key) : null}
              change={changeOf(row.id, column.key)}
            />
          ),
          renderEditCell: (props) => <DraftCellEditor {...props} listId={listId} label={label} onDraft={setDraft} />,
        };
      }),
    ];
  }, [t, salesColumns, kind, isEditable, checked, readOnly, rules, changeOf]);

  const columnKeys = useMemo(() => salesColumns.map((column) => column.key as string), [salesColumns]);

  const onCellKeyDown = useCallback(
    (args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent) => {
      if (args.mode !== "SELECT") return;
      // Ctrl+V: the browser's paste event brings the clipboard's block (handled below), not one cell.
      if ((event.ctrlKey || event.metaKey) && (event.key === "v" || event.key === "V")) {
        event.preventGridDefault();
        return;
      }
      // Delete clears the selected cell.
      if ((event.key === "Delete" || event.key === "Backspace") && isEditable(args.column.key) && args.column.key !== ROW_NUMBER_COLUMN_KEY) {
        event.preventGridDefault();
        event.preventDefault();
        const key = args.column.key;
        setRows((previous) => previous.map((row, index) => (index === args.rowIdx ? { ...row, [key]: "" } : row)));
      }
    },
    [isEditable, setRows],
  );

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    if (readOnly) return;
    const text = event.clipboardData.getData("text/plain");
    const target = event.target as HTMLElement;
    const inEditor = target instanceof HTMLInputElement;
    // A single value pasted while editing a cell goes into the editor as usual.
    if (inEditor && !isBlock(text)) return;
    const position = selectedCell.current;
    if (!position) return;
    event.preventDefault();
    const block = parseClipboardBlock(text);
    if (!block.length) return;
    // Close the editor first (it commits its cell), then write the block over it.
    if (inEditor) gridRef.current?.selectCell({ idx: position.idx, rowIdx: position.rowIdx });
    const startColumn = Math.max(position.idx - 1, 0);
    setRows((previous) =>
      applyBlock(previous, block, {
        startRow: position.rowIdx,
        startColumn,
        columnKeys,
        editable: isEditable,
        emptyRow: () => emptyEditableRow(kind),
      }),
    );
  };

  const onCopy = (event: ClipboardEvent<HTMLDivElement>) => {
    const position = selectedCell.current;
    if (!position || event.target instanceof HTMLInputElement) return;
    const key = columnKeys[position.idx - 1];
    const row = rows[position.rowIdx];
    if (!key || !row) return;
    event.preventDefault();
    event.clipboardData.setData("text/plain", cellOf(row, key));
  };

  return (
    <DraftRowContext.Provider value={draft}>
      <ReportGrid
        ref={gridRef}
        testId={`report-grid-${kind}`}
        comments={comments}
        rules={rules.element}
        wrapper={{ onPaste, onCopy }}
        aria-label={t("{{kind}} sales", { kind })}
        columns={columns}
        rows={rows}
        onRowsChange={setRows}
        selectedRows={selectedKeys}
        onSelectedRowsChange={onSelectedKeysChange}
        isRowSelectionDisabled={() => readOnly}
        onSelectedCellChange={({ rowIdx, column }) => {
          selectedCell.current = { rowIdx, idx: column.idx };
        }}
        onCellKeyDown={onCellKeyDown}
        headerRowHeight={HEADER_ROW_HEIGHT}
        renderers={{
          noRowsFallback: <div className="report-grid__empty">{t("No Data Available. Please contact Admin for more information!")}</div>,
        }}
      />
    </DraftRowContext.Provider>
  );
}
