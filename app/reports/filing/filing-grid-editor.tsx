import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { CellKeyboardEvent, CellKeyDownArgs, Column, RenderEditCellProps, RowsChangeData } from "react-data-grid";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import type { FilingPlanView, FilingProduct } from "~/reports/filing/model.server";
import type { ShownRow } from "~/reports/filing/country-list";
import { enteredValues, NOTHING_TO_REPORT_NEEDS_EMPTY, type RowProblem } from "~/reports/frame/contract";
import { FILING_NO_DATA, FILING_TABLE, filingFieldName, type FilingPayload } from "~/reports/filing/contract";
import { FILING_CELL_RULES, FILING_EMPTY, normaliseFilingCell } from "~/reports/filing/statuses";
import type { ReportScreen } from "~/reports/frame/report-page";
import { EditorShell, typedBeforeHydration, type CheckedChanges } from "~/reports/frame/editor-shell";
import { ChoiceOptions } from "~/reports/frame/plain-form";
import { useGridCellChange } from "~/reports/frame/changes-view";
import {
  cellOf,
  CellValue,
  nextRowKey,
  ReportGrid,
  SelectCellEditor,
  useCellRules,
  useGoToCell,
  type CellPosition,
  type EditableRow,
  type GridComments,
  type ReportGridHandle,
} from "~/reports/frame/editable-grid";
import type { GoToCell } from "~/reports/frame/checks";
import { openThreadPlaces, type ReportThreadsView } from "~/reports/frame/threads";

/** The grid row key of a product's cell. */
export const productKey = (productId: number) => `p${productId}`;
/** The grid row key of the stored id of a product's cell (comments are on it). */
const storedIdKey = (columnKey: string) => `${columnKey}:id`;

const PRODUCT_COLUMN_WIDTH = 170;
/** The grid's own header height, the least a header row takes. */
const MIN_HEADER_ROW_HEIGHT = 35;
/** Room above and below a wrapped header's lines. */
const HEADER_ROW_PADDING = 8;

function ProductHeader({ product }: { product: FilingProduct }) {
  return (
    <span title={product.name}>
      {product.name} <small className="filing-grid__category">{product.category}</small>
    </span>
  );
}

/**
 * The header row's height that shows every product's name whole, wrapped at its column's width
 * (as resized): measured on hidden copies of the headers, since the grid draws only the columns in
 * view. Returns the height and the hidden copies to render.
 */
function useHeaderRowHeight(products: readonly FilingProduct[], widths: Readonly<Record<string, number>>) {
  const probe = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(MIN_HEADER_ROW_HEIGHT);
  useLayoutEffect(() => {
    const headers = [...(probe.current?.children ?? [])];
    const tallest = Math.max(0, ...headers.map((header) => header.getBoundingClientRect().height));
    setHeight(Math.max(MIN_HEADER_ROW_HEIGHT, Math.ceil(tallest) + HEADER_ROW_PADDING));
  }, [products, widths]);
  const copies = (
    <div ref={probe} className="report-grid__grid filing-grid__header-probe" aria-hidden="true">
      {products.map((product) => (
        <div key={product.id} className="report-grid__header" style={{ inlineSize: widths[productKey(product.id)] ?? PRODUCT_COLUMN_WIDTH }}>
          <ProductHeader product={product} />
        </div>
      ))}
    </div>
  );
  return { height, copies };
}

/** The save body of the grid: only the cells changed since loading, as country → product → status. */
export function filingChanges(rows: readonly EditableRow[], loaded: readonly EditableRow[], products: readonly { id: number }[]) {
  const cells: FilingPayload["cells"] = {};
  let count = 0;
  rows.forEach((row, index) => {
    for (const product of products) {
      const key = productKey(product.id);
      if (cellOf(row, key) === cellOf(loaded[index], key)) continue;
      (cells[String(row.countryId)] ??= {})[String(product.id)] = cellOf(row, key);
      count += 1;
    }
  });
  return { cells, count };
}

function StatusEditor({ options, ...props }: RenderEditCellProps<EditableRow> & { options: readonly string[]; label: string }) {
  const { t } = useTranslation();
  return (
    <SelectCellEditor {...props}>
      <ChoiceOptions options={options} value={cellOf(props.row, props.column.key)} none={{ value: FILING_EMPTY, label: t("0 (none)") }} />
    </SelectCellEditor>
  );
}

/**
 * Filing Plans with JavaScript: a row per country the finder shows (fixed on the left), a column per
 * active product; a cell is one status of its product type's list, chosen from a dropdown; Delete
 * empties it to '0'. Only the changed cells are posted, as the map country → product → status, the
 * countries the finder hides included.
 */
export function FilingGridEditor({
  view,
  screen,
  shown,
  noRowsText,
  threads,
}: {
  view: FilingPlanView;
  screen: ReportScreen;
  shown: readonly ShownRow<unknown>[];
  /** Said where the rows would be when the finder shows none. */
  noRowsText: string;
  /** The report's comments: each stored cell takes one, open ones are marked. */
  threads: ReportThreadsView | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const readOnly = !view.canEditRows;
  const loaded = useMemo(
    () =>
      view.rows.map((row, index): EditableRow => {
        const cells: EditableRow = { _key: nextRowKey(), n: index + 1, countryId: row.countryId, country: row.country };
        for (const product of view.products) {
          cells[productKey(product.id)] = row.cells[String(product.id)] ?? FILING_EMPTY;
          cells[storedIdKey(productKey(product.id))] = row.ids[String(product.id)];
        }
        return cells;
      }),
    [view.rows, view.products],
  );
  const [rows, setRows] = useState<EditableRow[]>(() => {
    // What was chosen in the plain form before the grid took over (a slow link), by country and product.
    const typed = readOnly ? new Map<string, string>() : typedBeforeHydration("filing");
    if (!typed.size) return loaded;
    return loaded.map((row) => {
      const next = { ...row };
      for (const product of view.products) {
        const value = typed.get(filingFieldName(Number(row.countryId), product.id));
        if (value !== undefined) next[productKey(product.id)] = value;
      }
      return next;
    });
  });
  const optionsOf = useMemo(() => new Map(view.products.map((product) => [product.id, view.statusLists[product.category]])), [view.products, view.statusLists]);
  const isInvalid = useCallback((productId: number, value: string) => !normaliseFilingCell(value, optionsOf.get(productId) ?? []).ok, [optionsOf]);

  const changes = useMemo(() => filingChanges(rows, loaded, view.products), [rows, loaded, view.products]);
  const dirty = changes.count > 0;

  const checkedChanges = (): CheckedChanges => {
    const found: RowProblem[] = [];
    rows.forEach((row, index) => {
      // Only changed cells are checked: a planned quarter that has since opened stays as it was until changed.
      const bad = view.products.filter((product) => {
        const key = productKey(product.id);
        return cellOf(row, key) !== cellOf(loaded[index], key) && isInvalid(product.id, cellOf(row, key));
      });
      if (bad.length) {
        const keys = bad.map((product) => String(product.id));
        found.push({
          rowNumber: index + 1,
          keys,
          columns: bad.map((product) => product.name),
          entered: enteredValues(keys, (key) => cellOf(row, productKey(Number(key)))),
        });
      }
    });
    return found.length ? { problems: { [FILING_TABLE]: found } } : { payload: { cells: changes.cells } satisfies FilingPayload };
  };

  const rules = useCellRules(FILING_CELL_RULES);
  const [widths, setWidths] = useState<Record<string, number>>({});
  const header = useHeaderRowHeight(view.products, widths);

  // The grid edits the shown rows; a change lands on the row's place among all the rows.
  const shownRows = useMemo(() => shown.map(({ index }) => rows[index]), [shown, rows]);
  const onShownRowsChange = (changed: EditableRow[], { indexes }: RowsChangeData<EditableRow>) =>
    setRows((previous) => {
      const next = [...previous];
      for (const index of indexes) next[shown[index].index] = changed[index];
      return next;
    });

  // The comparison the page shows: a stored row is one cell, its country's row and its product's column.
  const changeOf = useGridCellChange(screen.comparison);
  const columns = useMemo(
    (): Column<EditableRow>[] => [
      { key: "country", name: t("Country"), width: 200, frozen: true, resizable: true, renderCell: ({ row }) => format.country(cellOf(row, "country")) },
      ...view.products.map((product): Column<EditableRow> => {
        const key = productKey(product.id);
        const options = view.statusLists[product.category];
        return {
          key,
          name: product.name,
          width: PRODUCT_COLUMN_WIDTH,
          resizable: true,
          editable: !readOnly,
          headerCellClass: "report-grid__header",
          renderHeaderCell: () => <ProductHeader product={product} />,
          cellClass: (row) => {
            const value = cellOf(row, key);
            if (isInvalid(product.id, value)) return "report-grid__cell report-grid__cell--invalid";
            return value === FILING_EMPTY ? "report-grid__cell filing-grid__empty" : "report-grid__cell";
          },
          renderCell: ({ row }) => {
            const value = cellOf(row, key);
            return (
              <CellValue
                value={value}
                invalid={isInvalid(product.id, value) ? rules.describe("status") : null}
                change={changeOf(`${cellOf(row, "countryId")}:${product.id}`, "status")}
              />
            );
          },
          renderEditCell: (props) => <StatusEditor {...props} options={options} label={`${product.name}, ${format.country(cellOf(props.row, "country"))}`} />,
        };
      }),
    ],
    [t, format, view.products, view.statusLists, readOnly, isInvalid, rules, changeOf],
  );

  const gridRef = useRef<ReportGridHandle>(null);
  // A stored row is one cell: a comment is on a country's row at a product's column.
  const comments = useMemo((): GridComments | undefined => {
    if (!threads) return undefined;
    const placeOf = (row: EditableRow, column: string) => {
      const rowId = row[storedIdKey(column)];
      return typeof rowId === "number" ? { rowId, row: Number(row.n), column: null } : null;
    };
    return { table: FILING_TABLE, open: openThreadPlaces(threads), canWrite: threads.canWrite, placeOf };
  }, [threads]);
  const locate = useCallback(
    (at: GoToCell): CellPosition | null => {
      if (at.rowId === undefined) return null;
      for (const [rowIdx, row] of shownRows.entries()) {
        const idx = columns.findIndex((column) => row[storedIdKey(column.key)] === at.rowId);
        if (idx >= 0) return { rowIdx, idx };
      }
      return null;
    },
    [shownRows, columns],
  );
  useGoToCell(gridRef, FILING_TABLE, columns, locate);

  const onCellKeyDown = (args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent) => {
    if (args.mode !== "SELECT" || readOnly || args.column.key === "country") return;
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventGridDefault();
      event.preventDefault();
      const key = args.column.key;
      const place = shown[args.rowIdx].index;
      setRows((previous) => previous.map((row, index) => (index === place ? { ...row, [key]: FILING_EMPTY } : row)));
    }
  };

  const hasRows = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY)) || dirty;

  return (
    <EditorShell screen={screen} dirty={dirty} nothingToReportBlocker={hasRows ? NOTHING_TO_REPORT_NEEDS_EMPTY : null} checkedChanges={checkedChanges}>
      {view.products.length === 0 ? (
        <p className="empty">{t(FILING_NO_DATA)}</p>
      ) : (
        <>
          <ReportGrid
            ref={gridRef}
            testId="report-grid-Filing"
            comments={comments}
            rules={rules.element}
            aria-label={t("Filing Plans")}
            columns={columns}
            rows={shownRows}
            onRowsChange={onShownRowsChange}
            onCellKeyDown={onCellKeyDown}
            headerRowHeight={header.height}
            onColumnResize={(index, width) => setWidths((previous) => ({ ...previous, [columns[index].key]: width }))}
            renderers={{ noRowsFallback: <div className="report-grid__empty">{noRowsText}</div> }}
          />
          {header.copies}
        </>
      )}
    </EditorShell>
  );
}
