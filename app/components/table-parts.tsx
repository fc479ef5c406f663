/** Pieces of the portal's tables: a header row of plain column names, and the row a table shows when it has none. */
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** A column of a header row: its name, or its name and class (a number column); false or null: no column. */
type ColumnHead = ReactNode | { label: ReactNode; className: string } | false | null;

const isClassed = (column: ColumnHead): column is { label: ReactNode; className: string } =>
  typeof column === "object" && column !== null && "className" in column;

/** The `<thead>` of a table whose columns do not sort (a sortable table draws SortHeader cells). */
export function ColumnHeads({ columns }: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) =>
          column === false || column === null ? null : (
            <th key={index} scope="col" className={isClassed(column) ? column.className : undefined}>
              {isClassed(column) ? column.label : column}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** The one row of a table with no rows: 'No data available!' across its `columns`. */
export function EmptyRow({ columns }: { columns: number }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td colSpan={columns} className="empty">
        {t("No data available!")}
      </td>
    </tr>
  );
}
