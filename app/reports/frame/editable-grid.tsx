/**
 * The editable-grid kit the report grids share (react-data-grid): rows with a key of their own,
 * the text cell editor, invalid cells marked for assistive technology too, Tab that leaves the
 * grid, and the grid's height.
 */
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { CellKeyboardEvent, CellKeyDownArgs, RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import { GRID_HEIGHT_OFFSET } from "~/reports/frame/contract";
import type { CellRule } from "~/reports/sales/rows";

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
 * the same cell) instead of walking thousands of cells; the arrow keys move inside. Call it first
 * in the grid's onCellKeyDown.
 */
export function tabLeavesGrid(args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent): boolean {
  if (args.mode !== "SELECT" || event.key !== "Tab") return false;
  event.preventGridDefault();
  return true;
}

/** The grid's height: the window's height minus 230 px (at least 300 px). */
export function useGridHeight() {
  const [height, setHeight] = useState(() => (typeof window === "undefined" ? 600 : window.innerHeight));
  useEffect(() => {
    const update = () => setHeight(window.innerHeight);
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return Math.max(height - GRID_HEIGHT_OFFSET, 300);
}
