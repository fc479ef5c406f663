/**
 * The editable-grid kit the report grids share (react-data-grid): the grid with the theme, the
 * direction, the window's height and one Tab rule; rows with a key of their own, the text and list
 * cell editors, and invalid cells marked for assistive technology too.
 */
import {
  createContext,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type HTMLAttributes,
  type MutableRefObject,
  type ReactNode,
  type RefObject,
} from "react";
import DataGrid, {
  type CellClickArgs,
  type CellMouseEvent,
  type CellKeyboardEvent,
  type CellKeyDownArgs,
  type Column,
  type DataGridHandle,
  type DataGridProps,
  type RenderCellProps,
  type RenderEditCellProps,
} from "react-data-grid";
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/hooks/use-display";
import { usePrinting } from "~/hooks/use-printing";
import { GRID_HEIGHT_OFFSET, type CellRule } from "~/reports/frame/contract";
import { GO_TO_CELL_EVENT, type GoToCell } from "~/reports/frame/checks";
import { COMMENT_ON_CELL_EVENT, type CommentOnCell } from "~/reports/frame/threads";

/** One grid row: the cells as typed, the saved row's id, and a key of its own for React and selection. */
export interface EditableRow {
  _key: number;
  id?: number;
  [column: string]: string | number | undefined;
}

let lastKey = 0;
export const nextRowKey = () => ++lastKey;

export const cellOf = (row: EditableRow, key: string) => {
  const value = row[key];
  return value == null ? "" : String(value);
};

/** Where the caret goes in the next cell editor opened (typing carried on from elsewhere); null: the text is selected. */
const EditorCaretContext = createContext<MutableRefObject<[number, number] | null> | null>(null);

/** The cell editor: a text input; list columns suggest their values from a datalist (typing stays free, validation flags the rest). */
export function CellEditor({ row, column, onRowChange, onClose, listId, label }: RenderEditCellProps<EditableRow> & { listId?: string; label: string }) {
  const caret = useContext(EditorCaretContext);
  const focusOnOpen = useCallback(
    (input: HTMLInputElement | null) => {
      if (!input) return;
      input.focus();
      const kept = caret?.current;
      if (kept) {
        input.setSelectionRange(...kept);
        caret.current = null;
      } else input.select();
    },
    [caret],
  );
  return (
    <input
      className="report-grid__editor"
      ref={focusOnOpen}
      aria-label={label}
      list={listId}
      value={cellOf(row, column.key)}
      onChange={(event) => onRowChange({ ...row, [column.key]: event.target.value })}
      onBlur={() => onClose(true, false)}
    />
  );
}

/** A cell editor that picks from a list (the options are the children): the choice is committed at once. */
export function SelectCellEditor({
  row,
  column,
  onRowChange,
  onClose,
  label,
  children,
}: RenderEditCellProps<EditableRow> & { label: string; children: ReactNode }) {
  return (
    <select
      className="report-grid__editor"
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the cell's editor takes the focus when the user starts editing the cell
      autoFocus
      aria-label={label}
      value={cellOf(row, column.key)}
      onChange={(event) => onRowChange({ ...row, [column.key]: event.target.value }, true)}
      onBlur={() => onClose(false)}
    >
      {children}
    </select>
  );
}

/**
 * The rules of a grid's columns as hidden texts, by rule name, for invalid cells to point to.
 * Returns the element to render once inside the grid's wrapper and the description of a rule.
 */
export function useCellRules(rules: Record<string, CellRule>) {
  const { t } = useTranslation();
  const prefix = useId();
  return useMemo(() => {
    const describe = (name: string) => ({ id: `${prefix}rule-${name}`, text: t(rules[name].text, rules[name].values) });
    const element = (
      <div hidden>
        {Object.keys(rules).map((name) => {
          const { id, text } = describe(name);
          return (
            <span key={name} id={id}>
              {text}
            </span>
          );
        })}
      </div>
    );
    return { describe, element };
  }, [t, prefix, rules]);
}

/** A cell's change since the base the page compares with: what it says (its old value, or its row added). */
export interface GridCellChange {
  kind: "changed" | "added";
  text: string;
}

/**
 * A cell's value. When `invalid` carries the broken rule, the grid cell gets aria-invalid and the
 * rule as its description, and the rule shows as a tooltip. A `change` marks the cell (changed, or
 * in an added row) with its text as the cell's tooltip and description; the grid shows it under
 * itself while the cell has the focus. react-data-grid renders the cell element itself and takes
 * no attributes for it, so they are set on it from here.
 */
export function CellValue({ value, invalid, change }: { value: string; invalid: { id: string; text: string } | null; change?: GridCellChange | null }) {
  const ref = useRef<HTMLSpanElement>(null);
  const changeId = useId();
  const ruleId = invalid?.id;
  const changeKind = change?.kind;
  const changeText = change?.text;
  useEffect(() => {
    const cell = ref.current?.closest('[role="gridcell"]');
    if (!cell) return;
    if (ruleId) cell.setAttribute("aria-invalid", "true");
    else cell.removeAttribute("aria-invalid");
    const described = [ruleId, changeText ? changeId : undefined].filter(Boolean).join(" ");
    if (described) cell.setAttribute("aria-describedby", described);
    else cell.removeAttribute("aria-describedby");
    if (changeKind && changeText) {
      cell.setAttribute("data-change", changeKind);
      cell.setAttribute("data-change-text", changeText);
      cell.setAttribute("title", changeText);
    } else {
      cell.removeAttribute("data-change");
      cell.removeAttribute("data-change-text");
      cell.removeAttribute("title");
    }
  }, [ruleId, changeKind, changeText, changeId]);
  return (
    <>
      <span ref={ref} data-invalid={invalid ? "true" : undefined} title={invalid?.text}>
        {value}
      </span>
      {changeText ? (
        <span id={changeId} hidden>
          {changeText}
        </span>
      ) : null}
    </>
  );
}

export type CellPosition = { idx: number; rowIdx: number };

/**
 * The cell Tab (or Shift+Tab) moves to from `from`, row after row: the next editable cell, or in a
 * grid without editable cells the next cell; null at the grid's end. Frozen columns come first in
 * every report grid, so a column's place in `columns` is its index in the grid.
 */
function nextTabStop(columns: readonly Column<EditableRow>[], rows: readonly EditableRow[], from: CellPosition, backwards: boolean): CellPosition | null {
  const editable = (idx: number, rowIdx: number) => {
    const rule = columns[idx].editable;
    return typeof rule === "function" ? rule(rows[rowIdx]) : rule === true;
  };
  const anyEditable = columns.some((column) => column.editable);
  let { idx, rowIdx } = from;
  for (;;) {
    idx += backwards ? -1 : 1;
    if (idx >= columns.length) [idx, rowIdx] = [0, rowIdx + 1];
    if (idx < 0) [idx, rowIdx] = [columns.length - 1, rowIdx - 1];
    if (rowIdx < 0 || rowIdx >= rows.length) return null;
    if (!anyEditable || editable(idx, rowIdx)) return { idx, rowIdx };
  }
}

const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta"]);

/**
 * The report grids' one Tab rule. Tab and Shift+Tab move between the editable cells, row after row
 * (an open editor commits first), instead of leaving the grid or walking its headers; Escape then
 * Tab leaves the grid for the next control (Shift+Tab for the one before), and coming back lands on
 * the cell left. Returns whether the key was taken.
 */
function useTabRule(columns: readonly Column<EditableRow>[], rows: readonly EditableRow[], grid: MutableRefObject<DataGridHandle | null>) {
  const escaped = useRef(false);
  return (args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent): boolean => {
    if (MODIFIER_KEYS.has(event.key)) return false;
    if (event.key !== "Tab") {
      escaped.current = event.key === "Escape";
      // The grid's Escape: the page's own (closing an open popover elsewhere) would take the focus away.
      if (escaped.current) event.preventDefault();
      return false;
    }
    event.preventGridDefault();
    if (escaped.current) {
      // The browser's own Tab takes the focus out: the other cells are not in the tab order.
      escaped.current = false;
      return true;
    }
    const next = nextTabStop(columns, rows, { idx: args.column.idx, rowIdx: args.rowIdx }, event.shiftKey);
    if (!next) return true;
    event.preventDefault();
    grid.current?.selectCell(next);
    return true;
  };
}

/** The grid's height: the window's height minus 230 px (at least 300 px). */
function useGridHeight() {
  const [height, setHeight] = useState(() => (typeof window === "undefined" ? 600 : window.innerHeight));
  useEffect(() => {
    const update = () => setHeight(window.innerHeight);
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return Math.max(height - GRID_HEIGHT_OFFSET, 300);
}

/** The key of a grid's row-number column: printed as the row's number (its cell is the grid's own selection box). */
export const ROW_NUMBER_COLUMN_KEY = "srNo";

/**
 * The grid's rows as a plain table, rendered only while the page prints: every row (the grid draws
 * only those in view), the headers repeated on each printed page, each cell as the grid shows it.
 */
function PrintedGrid({ columns, rows }: { columns: readonly Column<EditableRow>[]; rows: readonly EditableRow[] }) {
  const noChange = () => {};
  return (
    <table className="report-grid__print">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col">
              {column.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, rowIdx) => (
          <tr key={row._key}>
            {columns.map((column) => (
              <td key={column.key}>
                {column.key === ROW_NUMBER_COLUMN_KEY
                  ? rowIdx + 1
                  : column.renderCell
                    ? column.renderCell({
                        row,
                        rowIdx,
                        column,
                        isCellEditable: false,
                        tabIndex: -1,
                        onRowChange: noChange,
                      } as unknown as RenderCellProps<EditableRow>)
                    : cellOf(row, column.key)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Comments on the grid's saved rows: the table they are in, the open threads by place (openThreadPlaces), and whether the viewer may write. */
export interface GridComments {
  table: string;
  open: ReadonlyMap<string, number>;
  canWrite: boolean;
  /**
   * Where a comment on a cell goes, for a grid whose stored rows are its cells (Filing Plans): the
   * stored row, its row number and no column; null where there is none. Left out, a cell is its
   * grid row's (`row.id`) column.
   */
  placeOf?: (row: EditableRow, column: string) => Omit<CommentOnCell, "table"> | null;
}

/** The place of a comment on a cell: the grid's own rule, else its row's column (the row's whole for the row number). */
function commentPlace(comments: GridComments, rows: readonly EditableRow[], row: EditableRow, column: string): Omit<CommentOnCell, "table"> | null {
  if (comments.placeOf) return comments.placeOf(row, column);
  if (row.id === undefined) return null;
  return { rowId: row.id, row: rows.indexOf(row) + 1, column: column === ROW_NUMBER_COLUMN_KEY ? null : column };
}

/** The grid's columns with the cells that have open threads marked (a whole row's on its first column). */
function useDiscussedColumns(columns: readonly Column<EditableRow>[], comments: GridComments | undefined): readonly Column<EditableRow>[] {
  return useMemo(() => {
    if (!comments || comments.open.size === 0) return columns;
    const { table, open, placeOf } = comments;
    return columns.map((column, index) => {
      const base = column.cellClass;
      const discussed = (row: EditableRow) => {
        if (placeOf) {
          const place = placeOf(row, column.key);
          return place !== null && open.has(`${table}:${place.rowId}${place.column ? `:${place.column}` : ""}`);
        }
        return row.id !== undefined && (open.has(`${table}:${row.id}:${column.key}`) || (index === 0 && open.has(`${table}:${row.id}`)));
      };
      return {
        ...column,
        cellClass: (row: EditableRow) => {
          const classes = typeof base === "function" ? base(row) : base;
          return discussed(row) ? `${classes ?? ""} report-grid__cell--discussed` : classes;
        },
      };
    });
  }, [columns, comments]);
}

/** Ctrl+Alt+M (⌘⌥M): a new comment on the selected cell. */
const isCommentShortcut = (event: CellKeyboardEvent) => (event.ctrlKey || event.metaKey) && event.altKey && event.code === "KeyM";

/**
 * Asking for a new thread on a cell (the panel opens its form): from the shortcut or the cell's
 * context menu; a row not saved yet is told to be saved first.
 */
function useCommentOnCell(comments: GridComments | undefined, rows: readonly EditableRow[]) {
  const { t } = useTranslation();
  const [menu, setMenu] = useState<{ x: number; y: number; row: EditableRow; column: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const ask = (row: EditableRow, column: string) => {
    setMenu(null);
    const place = comments ? commentPlace(comments, rows, row, column) : null;
    if (!comments || !place) {
      setNotice(SAVE_ROW_TO_COMMENT);
      return;
    }
    setNotice(null);
    const detail: CommentOnCell = { table: comments.table, ...place };
    window.dispatchEvent(new CustomEvent<CommentOnCell>(COMMENT_ON_CELL_EVENT, { detail }));
  };
  const enabled = Boolean(comments?.canWrite);
  return {
    onKeyDown: (args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent) => {
      if (!enabled || args.mode !== "SELECT" || !isCommentShortcut(event)) return false;
      event.preventGridDefault();
      event.preventDefault();
      ask(args.row, args.column.key);
      return true;
    },
    onContextMenu: enabled
      ? (args: CellClickArgs<EditableRow>, event: CellMouseEvent) => {
          event.preventGridDefault();
          event.preventDefault();
          args.selectCell();
          setMenu({ x: event.clientX, y: event.clientY, row: args.row, column: args.column.key });
        }
      : undefined,
    element: (
      <>
        {menu ? <CommentMenu x={menu.x} y={menu.y} onChoose={() => ask(menu.row, menu.column)} onClose={() => setMenu(null)} /> : null}
        <p className="report-grid__notice" role="status">
          {notice ? t(notice) : null}
        </p>
      </>
    ),
  };
}

/** Said when a comment is asked for on a row not saved yet. */
const SAVE_ROW_TO_COMMENT = "Save the row first, then comment on it.";

/** The cell's context menu: one item, "Comment on this cell", focused as it opens; Escape or leaving it closes it. */
function CommentMenu({ x, y, onChoose, onClose }: { x: number; y: number; onChoose: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const item = useRef<HTMLButtonElement>(null);
  useEffect(() => item.current?.focus(), []);
  return (
    <div
      className="report-grid__menu"
      role="menu"
      tabIndex={-1}
      style={{ insetBlockStart: y, insetInlineStart: x }}
      onKeyDown={(event) => event.key === "Escape" && onClose()}
    >
      <button type="button" role="menuitem" ref={item} onClick={onChoose} onBlur={onClose}>
        {t("Comment on this cell")}
      </button>
    </div>
  );
}

type ReportGridProps = Omit<DataGridProps<EditableRow, unknown, number>, "className" | "columns" | "direction" | "rowKeyGetter" | "style"> & {
  columns: readonly Column<EditableRow>[];
  /** Comments on the rows: cells with open threads marked, the shortcut and context menu that open a new one. */
  comments?: GridComments;
  testId: string;
  /** The hidden texts of the column rules (`useCellRules(…).element`). */
  rules: ReactNode;
  /** The wrapper's clipboard handlers (Sales: copy and paste of blocks). */
  wrapper?: Pick<HTMLAttributes<HTMLDivElement>, "onCopy" | "onPaste">;
};

/** The grid's handle, and typing carried on in a cell: its editor opens with the caret where it was. */
export type ReportGridHandle = DataGridHandle & { continueTyping: (position: CellPosition, caret: [number, number]) => void };

/** The grid's cell a link goes to: its row's number as given, its column by key (the first column for a whole row). */
const cellAtNumber = (at: GoToCell, columns: readonly Column<EditableRow>[]): CellPosition => ({
  rowIdx: at.row - 1,
  idx: Math.max(
    0,
    columns.findIndex((column) => column.key === at.column),
  ),
});

/**
 * The links of the Checks and Comments panels to a cell of a report's only grid (GO_TO_CELL_EVENT,
 * the report's `table`): the cell is scrolled to and selected, and the page stays where it is.
 * `locate` finds the cell where the grid does not number its rows as the links do (null: not shown).
 */
export function useGoToCell(
  gridRef: RefObject<ReportGridHandle>,
  table: string,
  columns: readonly Column<EditableRow>[],
  locate?: (at: GoToCell) => CellPosition | null,
) {
  useEffect(() => {
    const onGoTo = (event: Event) => {
      const at = (event as CustomEvent<GoToCell>).detail;
      if (at.table !== table) return;
      const position = locate ? locate(at) : cellAtNumber(at, columns);
      if (!position) return;
      event.preventDefault();
      gridRef.current?.scrollToCell(position);
      gridRef.current?.selectCell(position);
    };
    window.addEventListener(GO_TO_CELL_EVENT, onGoTo);
    return () => window.removeEventListener(GO_TO_CELL_EVENT, onGoTo);
  }, [gridRef, table, columns, locate]);
}

/**
 * A report's grid: react-data-grid in the theme's colours and the page's direction, as high as the
 * window allows, its rows by their own key, and the Tab rule before the report's own keys. Tabbing
 * into a grid without a selected cell lands on its first editable cell, not on the headers.
 */
export const ReportGrid = forwardRef<ReportGridHandle, ReportGridProps>(function ReportGrid({ testId, rules, wrapper, onCellKeyDown, comments, ...grid }, ref) {
  const { i18n } = useTranslation();
  const display = useDisplay();
  const height = useGridHeight();
  const gridRef = useRef<DataGridHandle | null>(null);
  const caret = useRef<[number, number] | null>(null);
  const tabRule = useTabRule(grid.columns, grid.rows, gridRef);
  const printing = usePrinting();
  const columns = useDiscussedColumns(grid.columns, comments);
  const commentOnCell = useCommentOnCell(comments, grid.rows);
  useImperativeHandle(ref, () => ({
    get element() {
      return gridRef.current?.element ?? null;
    },
    scrollToCell: (position) => gridRef.current?.scrollToCell(position),
    selectCell: (position, enableEditor) => gridRef.current?.selectCell(position, enableEditor),
    continueTyping: (position, at) => {
      caret.current = at;
      gridRef.current?.selectCell(position, true);
    },
  }));
  // The focused cell's change (its old value), shown under the grid: a tooltip needs a mouse.
  const [changeHint, setChangeHint] = useState<string | null>(null);
  const showChange = (event: FocusEvent<HTMLDivElement>) => {
    const cell = event.target.closest('[role="gridcell"]');
    setChangeHint(cell?.getAttribute("data-change-text") ?? null);
  };
  const enterOnFirstCell = (event: FocusEvent<HTMLDivElement>) => {
    showChange(event);
    const header = event.target;
    // Only the keyboard's way in: a click on a header stays there.
    if (header.getAttribute("role") !== "columnheader" || !header.matches(":focus-visible")) return;
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    const first = nextTabStop(grid.columns, grid.rows, { idx: -1, rowIdx: 0 }, false);
    if (first) gridRef.current?.selectCell(first);
  };
  return (
    <div className="report-grid" data-testid={testId} onFocus={enterOnFirstCell} {...wrapper}>
      <EditorCaretContext.Provider value={caret}>
        <DataGrid
          ref={gridRef}
          className={`report-grid__grid ${display.theme === "dark" ? "rdg-dark" : "rdg-light"}`}
          rowKeyGetter={(row) => row._key}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          style={{ blockSize: height }}
          onCellKeyDown={(args, event) => {
            if (!tabRule(args, event) && !commentOnCell.onKeyDown(args, event)) onCellKeyDown?.(args, event);
          }}
          onCellContextMenu={commentOnCell.onContextMenu}
          {...grid}
          columns={columns}
        />
      </EditorCaretContext.Provider>
      {commentOnCell.element}
      {printing ? <PrintedGrid columns={grid.columns} rows={grid.rows} /> : null}
      {rules}
      <p className="report-grid__change-hint" role="status" data-testid="changed-cell-hint">
        {changeHint}
      </p>
    </div>
  );
});
