/**
 * The editable-grid kit the report grids share (react-data-grid): rows with a key of their own,
 * the text cell editor, invalid cells marked for assistive technology too, and the grid's height.
 */
import { useEffect, useState } from "react";
import type { RenderEditCellProps } from "react-data-grid";
import { GRID_HEIGHT_OFFSET } from "~/reports/frame/contract";

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
