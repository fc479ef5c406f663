/**
 * The editable-grid kit the report grids share (react-data-grid): the grid with the theme, the
 * direction, the window's height and Tab that leaves it; rows with a key of their own, the text
 * and list cell editors, and invalid cells marked for assistive technology too.
 */
import { forwardRef, useEffect, useId, useMemo, useRef, useState, type HTMLAttributes, type ReactNode } from "react";
import DataGrid, { type CellKeyboardEvent, type CellKeyDownArgs, type DataGridHandle, type DataGridProps, type RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import { useDisplay } from "~/hooks/use-display";
import { GRID_HEIGHT_OFFSET, type CellRule } from "~/reports/frame/contract";

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

const autoFocusAndSelect = (input: HTMLInputElement | null) => {
  input?.focus();
  input?.select();
};

/** The cell editor: a text input; list columns suggest their values from a datalist (typing stays free, validation flags the rest). */
export function CellEditor({ row, column, onRowChange, onClose, listId, label }: RenderEditCellProps<EditableRow> & { listId?: string; label: string }) {
  return (
    <input
      className="report-grid__editor"
      ref={autoFocusAndSelect}
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

/**
 * A cell's value. When `invalid` carries the broken rule, the grid cell gets aria-invalid and the
 * rule as its description, and the rule shows as a tooltip. react-data-grid renders the cell
 * element itself and takes no attributes for it, so they are set on it from here.
 */
export function CellValue({ value, invalid }: { value: string; invalid: { id: string; text: string } | null }) {
  const ref = useRef<HTMLSpanElement>(null);
  const ruleId = invalid?.id;
  useEffect(() => {
    const cell = ref.current?.closest('[role="gridcell"]');
    if (!cell) return;
    if (ruleId) {
      cell.setAttribute("aria-invalid", "true");
      cell.setAttribute("aria-describedby", ruleId);
    } else {
      cell.removeAttribute("aria-invalid");
      cell.removeAttribute("aria-describedby");
    }
  }, [ruleId]);
  return (
    <span ref={ref} data-invalid={invalid ? "true" : undefined} title={invalid?.text}>
      {value}
    </span>
  );
}

/**
 * Tab on a selected cell leaves the grid (the next control gets the focus, Shift+Tab comes back to
 * the same cell) instead of walking thousands of cells; the arrow keys move inside.
 */
function tabLeavesGrid(args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent): boolean {
  if (args.mode !== "SELECT" || event.key !== "Tab") return false;
  event.preventGridDefault();
  return true;
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

type ReportGridProps = Omit<DataGridProps<EditableRow, unknown, number>, "className" | "direction" | "rowKeyGetter" | "style"> & {
  testId: string;
  /** The hidden texts of the column rules (`useCellRules(…).element`). */
  rules: ReactNode;
  /** The wrapper's clipboard handlers (Sales: copy and paste of blocks). */
  wrapper?: Pick<HTMLAttributes<HTMLDivElement>, "onCopy" | "onPaste">;
};

/**
 * A report's grid: react-data-grid in the theme's colours and the page's direction, as high as the
 * window allows, its rows by their own key, and Tab leaving it before the report's own keys.
 */
export const ReportGrid = forwardRef<DataGridHandle, ReportGridProps>(function ReportGrid({ testId, rules, wrapper, onCellKeyDown, ...grid }, ref) {
  const { i18n } = useTranslation();
  const display = useDisplay();
  const height = useGridHeight();
  return (
    <div className="report-grid" data-testid={testId} {...wrapper}>
      <DataGrid
        ref={ref}
        className={`report-grid__grid ${display.theme === "dark" ? "rdg-dark" : "rdg-light"}`}
        rowKeyGetter={(row) => row._key}
        direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
        style={{ blockSize: height }}
        onCellKeyDown={(args, event) => {
          if (!tabLeavesGrid(args, event)) onCellKeyDown?.(args, event);
        }}
        {...grid}
      />
      {rules}
    </div>
  );
});
