import { Form, useLocation, useNavigate } from "@remix-run/react";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/hooks/use-hydrated";
import { useFormatters } from "~/hooks/use-formatters";
import { ScrollRegion } from "~/components/scroll-region";
import { ColumnHeads } from "~/components/table-parts";
import type { GridCellChange } from "./editable-grid";
import {
  cellChangeOf,
  CHANGE_BASE_LABELS,
  CHANGE_BASES,
  CHANGES_MARKED,
  CHANGES_PARAM,
  NO_CHANGE_BASE,
  type CellChange,
  type ChangeBase,
  type RowChanges,
} from "./changes";

/** A column of the removed rows' table: its key, its label (a translation key), and how its values show. */
export interface ChangeColumn {
  key: string;
  label: string;
  /** country: an English name in the page's language; translated: a translation key; or the report's own way (a date as its screen writes it). */
  shows?: "country" | "translated" | ((value: string, language: string) => string);
}

/** A cell's value as the screen shows it, by the column's kind. */
function useShownChangeValue() {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  return (value: string, shows: ChangeColumn["shows"]) =>
    !value
      ? ""
      : typeof shows === "function"
        ? shows(value, i18n.language)
        : shows === "country"
          ? format.country(value)
          : shows === "translated"
            ? t(value)
            : value;
}

/**
 * "Show changes since": a GET form (works without JavaScript) that keeps the page's quarter and tab.
 * The first choice, none, shows the page as it is. With JavaScript a choice loads at once, as the quarter's does.
 */
function ChangesPicker({ base }: { base: ChangeBase | null }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const kept = ["quarter", "tab"].filter((name) => search.get(name));
  return (
    <Form method="get" className="report-changes__picker" data-testid="changes-picker">
      {kept.map((name) => (
        <input key={name} type="hidden" name={name} value={search.get(name) ?? ""} />
      ))}
      <label className="report-changes__label" htmlFor="report-changes-base">
        {t("Show changes since")}
      </label>
      <select
        id="report-changes-base"
        name={CHANGES_PARAM}
        className="input report-changes__select"
        defaultValue={base ?? ""}
        key={base ?? ""}
        onChange={(event) => {
          if (!hydrated || !event.currentTarget.form) return;
          // The form's fields, the empty ones left out: "(no comparison)" is the page without ?changes=.
          const fields = [...new FormData(event.currentTarget.form)].filter(([, value]) => value !== "") as [string, string][];
          const query = new URLSearchParams(fields).toString();
          navigate(`${location.pathname}${query ? `?${query}` : ""}`);
        }}
      >
        <option value="">{t("(no comparison)")}</option>
        {CHANGE_BASES.map((choice) => (
          <option key={choice} value={choice}>
            {t(CHANGE_BASE_LABELS[choice])}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {t("Compare")}
        </button>
      )}
    </Form>
  );
}

/**
 * The comparison the page asked for: the picker, then the counts (or why there is nothing to
 * compare with) and the removed rows with their old values. The changed cells and the added rows
 * are marked in the grid or the plain form.
 */
export function ReportChanges({
  changes,
  columns,
  tables,
}: {
  changes: RowChanges | null;
  /** The removed rows' columns, by table (Sales: API, FDF; "" for a report of one table). */
  columns: (table: string) => readonly ChangeColumn[];
  /** The tables in the order they are listed. */
  tables: readonly string[];
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const shown = useShownChangeValue();
  return (
    <div className="card report-changes" data-testid="report-changes">
      <ChangesPicker base={changes?.base ?? null} />
      {!changes ? null : !changes.found ? (
        <p className="report-changes__none" data-testid="changes-none">
          {t(NO_CHANGE_BASE[changes.reason], { quarter: changes.quarter ?? "" })}
        </p>
      ) : (
        <>
          <p className="report-changes__counts" data-testid="changes-counts">
            {changes.quarter
              ? t("Since the report of {{quarter}} ({{time}}): {{added}} added, {{changed}} changed, {{removed}} removed", {
                  quarter: changes.quarter,
                  time: format.dateTime(changes.takenAt),
                  added: format.number(changes.counts.added),
                  changed: format.number(changes.counts.changed),
                  removed: format.number(changes.counts.removed),
                })
              : t("Since {{base}} ({{time}}): {{added}} added, {{changed}} changed, {{removed}} removed", {
                  base: t(CHANGE_BASE_LABELS[changes.base]),
                  time: format.dateTime(changes.takenAt),
                  added: format.number(changes.counts.added),
                  changed: format.number(changes.counts.changed),
                  removed: format.number(changes.counts.removed),
                })}
          </p>
          {changes.counts.added + changes.counts.changed > CHANGES_MARKED ? (
            <p className="report-changes__note">{t("The first {{count, number}} changed and added rows are marked.", { count: CHANGES_MARKED })}</p>
          ) : null}
          {changes.counts.added + changes.counts.changed > 0 ? (
            <p className="report-changes__legend">
              <span className="report-changes__swatch report-changes__swatch--changed" aria-hidden="true" />{" "}
              {t("Changed cell: the old value shows on hover and focus")}{" "}
              <span className="report-changes__swatch report-changes__swatch--added" aria-hidden="true" /> {t("Added row")}
            </p>
          ) : null}
          {changes.removed.length ? (
            <div className="report-changes__removed" data-testid="changes-removed">
              <h3 className="report-changes__heading">{t("Removed rows ({{count, number}})", { count: changes.counts.removed })}</h3>
              {tables.map((table) => {
                const rows = changes.removed.filter((row) => row.table === table);
                if (!rows.length) return null;
                const listed = columns(table);
                return (
                  <ScrollRegion key={table} className="table-wrap" label={table ? t("Removed rows of {{table}}", { table }) : t("Removed rows")}>
                    <table className="table report-changes__table" data-table={table}>
                      {table ? <caption>{table}</caption> : null}
                      <ColumnHeads columns={listed.map((column) => t(column.label))} />
                      <tbody>
                        {rows.map((row, index) => (
                          <tr key={index}>
                            {listed.map((column) => (
                              <td key={column.key}>
                                <del>{shown(row.cells[column.key] ?? "", column.shows)}</del>
                              </td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </ScrollRegion>
                );
              })}
              {changes.counts.removed > changes.removed.length ? (
                <p className="report-changes__note">{t("…and {{count}} more.", { count: changes.counts.removed - changes.removed.length })}</p>
              ) : null}
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

/** What a changed cell says: its old value (as the screen shows it), or that its row was added. */
function useChangeText() {
  const { t } = useTranslation();
  return useCallback(
    (change: CellChange | null, shownOld: (value: string) => string = (value) => value) =>
      !change ? null : change.added ? t("Added row") : t("Before: {{value}}", { value: change.was ? shownOld(change.was) : t("(empty)") }),
    [t],
  );
}

/** The plain form's cell's old value, struck through under its input (no JavaScript needed). */
export function FormCellWas({ change, shown = (value) => value }: { change: CellChange | null; shown?: (value: string) => string }) {
  const { t } = useTranslation();
  if (!change || change.was === undefined) return null;
  return (
    <span className="report-form__was" data-testid="cell-was">
      <span className="visually-hidden">{t("Before:")} </span>
      <del>{change.was ? shown(change.was) : t("(empty)")}</del>
    </span>
  );
}

/** The plain form's mark of a row added since the base. */
export function AddedRowBadge({ added }: { added: boolean }) {
  const { t } = useTranslation();
  return added ? <span className="badge report-changes__added">{t("Added row")}</span> : null;
}

/** How a grid marks a cell: its change since the base, with the text its tooltip, description and focus hint say. */
export function useGridCellChange(changes: RowChanges | null, shownOld?: (cell: string, value: string) => string) {
  const text = useChangeText();
  return useCallback(
    (rowKey: string | number | undefined, cell: string): GridCellChange | null => {
      const change = cellChangeOf(changes, rowKey, cell);
      if (!change) return null;
      return { kind: change.added ? "added" : "changed", text: text(change, shownOld ? (value) => shownOld(cell, value) : undefined)! };
    },
    [changes, text, shownOld],
  );
}
