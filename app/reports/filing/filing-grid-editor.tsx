import { useCallback, useEffect, useMemo, useState } from "react";
import DataGrid, { type CellKeyboardEvent, type CellKeyDownArgs, type Column, type RenderEditCellProps } from "react-data-grid";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import type { FilingPlanView } from "~/reports/filing/model.server";
import { carriesRows, NOTHING_TO_REPORT_NEEDS_EMPTY, type DecisionIntent, type RowProblem, type TableProblems } from "~/reports/frame/contract";
import {
  FILING_NO_DATA,
  FILING_NOTHING_TO_REPORT,
  FILING_PROBLEM_HEADINGS,
  FILING_TABLE,
  filingFieldName,
  type FilingPayload,
} from "~/reports/filing/contract";
import { FILING_CELL_RULES, FILING_EMPTY, normaliseFilingCell } from "~/reports/filing/statuses";
import { useDisplay } from "~/hooks/use-display";
import { InvalidDataDialog } from "~/reports/frame/dialogs";
import { postReport, type ReportScreen } from "~/reports/frame/report-page";
import { WorkflowToolbar } from "~/reports/frame/workflow-toolbar";
import { cellOf, CellValue, nextRowKey, tabLeavesGrid, useCellRules, useGridHeight, type EditableRow } from "~/reports/frame/editable-grid";

/** The grid row key of a product's cell. */
export const productKey = (productId: number) => `p${productId}`;

/** What was chosen in the plain form before the grid took over (a slow link), by country and product. */
function typedBeforeHydration(): Map<string, string> {
  const typed = new Map<string, string>();
  if (typeof document === "undefined") return typed;
  document.querySelectorAll<HTMLSelectElement>('select[name^="filing["]').forEach((field) => {
    const initial = [...field.options].find((option) => option.defaultSelected)?.value ?? "";
    if (field.value !== initial) typed.set(field.name, field.value);
  });
  return typed;
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

function StatusEditor({ row, column, onRowChange, onClose, options, label }: RenderEditCellProps<EditableRow> & { options: readonly string[]; label: string }) {
  const { t } = useTranslation();
  const value = cellOf(row, column.key);
  return (
    <select
      className="report-grid__editor"
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the cell's editor takes the focus when the user starts editing the cell
      autoFocus
      aria-label={label}
      value={value}
      onChange={(event) => onRowChange({ ...row, [column.key]: event.target.value }, true)}
      onBlur={() => onClose(false)}
    >
      <option value={FILING_EMPTY}>{t("0 (none)")}</option>
      {!options.includes(value) && value !== FILING_EMPTY ? <option value={value}>{value}</option> : null}
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}

/**
 * Filing Plans with JavaScript: a row per country (fixed on the left), a column per active product;
 * a cell is one status of its product type's list, chosen from a dropdown; Delete empties it to '0'.
 * Only the changed cells are posted, as the map country → product → status.
 */
export function FilingGridEditor({ view, viewerRole, screen }: { view: FilingPlanView; viewerRole: "ADMIN" | "STAFF" | "PARTNER"; screen: ReportScreen }) {
  const { result, busy } = screen;
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const display = useDisplay();
  const height = useGridHeight();
  const readOnly = !view.canEditRows;
  const loaded = useMemo(
    () =>
      view.rows.map((row): EditableRow => {
        const cells: EditableRow = { _key: nextRowKey(), countryId: row.countryId, country: row.country };
        for (const product of view.products) cells[productKey(product.id)] = row.cells[String(product.id)] ?? FILING_EMPTY;
        return cells;
      }),
    [view.rows, view.products],
  );
  const [rows, setRows] = useState<EditableRow[]>(() => {
    const typed = readOnly ? new Map<string, string>() : typedBeforeHydration();
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
  const [problems, setProblems] = useState<TableProblems | null>(null);

  useEffect(() => {
    if (result?.kind === "problems") setProblems(result.problems);
  }, [result]);

  const optionsOf = useMemo(() => new Map(view.products.map((product) => [product.id, view.statusLists[product.category]])), [view.products, view.statusLists]);
  const isInvalid = useCallback((productId: number, value: string) => !normaliseFilingCell(value, optionsOf.get(productId) ?? []).ok, [optionsOf]);

  const changes = useMemo(() => filingChanges(rows, loaded, view.products), [rows, loaded, view.products]);
  const dirty = changes.count > 0;

  const send = (intent: string, comment?: string): boolean => {
    if (!carriesRows(intent, dirty)) {
      postReport(screen, intent, { comment });
      return true;
    }
    const found: RowProblem[] = [];
    rows.forEach((row, index) => {
      // Only changed cells are checked: a planned quarter that has since opened stays as it was until changed.
      const bad = view.products.filter((product) => {
        const key = productKey(product.id);
        return cellOf(row, key) !== cellOf(loaded[index], key) && isInvalid(product.id, cellOf(row, key));
      });
      if (bad.length) found.push({ rowNumber: index + 1, keys: bad.map((product) => String(product.id)), columns: bad.map((product) => product.name) });
    });
    if (found.length) {
      setProblems({ [FILING_TABLE]: found });
      return false;
    }
    postReport(screen, intent, { payload: { cells: changes.cells } satisfies FilingPayload, comment });
    return true;
  };

  const rules = useCellRules(FILING_CELL_RULES);

  const columns = useMemo(
    (): Column<EditableRow>[] => [
      { key: "country", name: t("Country"), width: 200, frozen: true, resizable: true, renderCell: ({ row }) => format.country(cellOf(row, "country")) },
      ...view.products.map((product): Column<EditableRow> => {
        const key = productKey(product.id);
        const options = view.statusLists[product.category];
        return {
          key,
          name: product.name,
          width: 170,
          resizable: true,
          editable: !readOnly,
          renderHeaderCell: () => (
            <span title={`${product.name} (${product.category})`}>
              {product.name} <small className="filing-grid__category">{product.category}</small>
            </span>
          ),
          cellClass: (row) => {
            const value = cellOf(row, key);
            if (isInvalid(product.id, value)) return "report-grid__cell report-grid__cell--invalid";
            return value === FILING_EMPTY ? "report-grid__cell filing-grid__empty" : "report-grid__cell";
          },
          renderCell: ({ row }) => {
            const value = cellOf(row, key);
            return <CellValue value={value} invalid={isInvalid(product.id, value) ? rules.describe("status") : null} />;
          },
          renderEditCell: (props) => <StatusEditor {...props} options={options} label={`${product.name}, ${format.country(cellOf(props.row, "country"))}`} />,
        };
      }),
    ],
    [t, format, view.products, view.statusLists, readOnly, isInvalid, rules],
  );

  const onCellKeyDown = (args: CellKeyDownArgs<EditableRow>, event: CellKeyboardEvent) => {
    if (tabLeavesGrid(args, event) || args.mode !== "SELECT" || readOnly || args.column.key === "country") return;
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventGridDefault();
      event.preventDefault();
      const key = args.column.key;
      setRows((previous) => previous.map((row, index) => (index === args.rowIdx ? { ...row, [key]: FILING_EMPTY } : row)));
    }
  };

  const hasRows = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY)) || dirty;

  return (
    <div className="report-editor" data-dirty={dirty ? "true" : undefined}>
      <WorkflowToolbar
        view={view}
        viewerRole={viewerRole}
        label="Filing Plans"
        dirty={dirty}
        busy={busy}
        nothingToReportBlocker={hasRows ? NOTHING_TO_REPORT_NEEDS_EMPTY : null}
        result={result}
        nothingToReportDescription={FILING_NOTHING_TO_REPORT}
        onSave={() => send("save")}
        onDecision={(intent: DecisionIntent, comment) => send(intent, comment)}
      />
      {view.products.length === 0 ? (
        <p className="empty">{t(FILING_NO_DATA)}</p>
      ) : (
        <div className="report-grid" data-testid="report-grid-Filing">
          <DataGrid
            className={`report-grid__grid ${display.theme === "dark" ? "rdg-dark" : "rdg-light"}`}
            aria-label={t("Filing Plans")}
            columns={columns}
            rows={rows}
            onRowsChange={setRows}
            onCellKeyDown={onCellKeyDown}
            rowKeyGetter={(row) => row._key}
            direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
            style={{ blockSize: height }}
          />
          {rules.element}
        </div>
      )}
      <InvalidDataDialog problems={problems} headings={FILING_PROBLEM_HEADINGS} onClose={() => setProblems(null)} />
    </div>
  );
}
