import type { MouseEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { FINDING_KIND_LABELS, FINDING_KINDS, findingRowAnchor, GO_TO_CELL_EVENT, type GoToCell, type ReportChecks } from "~/reports/frame/checks";
import { FORM_PAGE_SIZE } from "~/reports/frame/contract";

/**
 * The report's Checks: what its checks found in the saved rows, grouped by kind with counts, each
 * finding linking to its row. Without JavaScript a link opens the plain form's page of the row at
 * that row; with it, the grid selects the cell (GO_TO_CELL_EVENT). Findings never block a save.
 */
export function ChecksPanel({
  checks,
  href,
  columnLabel,
}: {
  checks: ReportChecks;
  /** This page with the given query parameters (the quarter kept). */
  href: (params: Record<string, string | number | null>) => string;
  /** A column's label (a translation key), by table and key. */
  columnLabel: (table: string, column: string) => string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const shown = useShownValues();
  if (checks.total === 0) {
    return (
      <p className="checks-panel checks-panel--clear" id="checks" data-testid="checks-panel">
        {t("Checks: nothing found in the saved rows.")}
      </p>
    );
  }
  const summary = FINDING_KINDS.filter((kind) => checks.counts[kind] > 0)
    .map((kind) => `${t(FINDING_KIND_LABELS[kind])}: ${format.number(checks.counts[kind])}`)
    .join(" · ");
  return (
    <details className="checks-panel" id="checks" data-testid="checks-panel">
      <summary className="checks-panel__summary">
        <span className="checks-panel__title">{t("Checks")}</span> <span className="badge checks-panel__count">{format.number(checks.total)}</span>{" "}
        <span className="checks-panel__counts">{summary}</span>
      </summary>
      <p className="checks-panel__note">{t("Findings do not stop a save. Check each one and correct the row, or explain it to the administrator.")}</p>
      {FINDING_KINDS.filter((kind) => checks.counts[kind] > 0).map((kind) => {
        const findings = checks.findings.filter((finding) => finding.kind === kind);
        const more = checks.counts[kind] - findings.length;
        return (
          <section key={kind} className="checks-panel__group" data-kind={kind}>
            <h2 className="checks-panel__heading">
              {t(FINDING_KIND_LABELS[kind])} ({format.number(checks.counts[kind])})
            </h2>
            <ul className="checks-panel__list">
              {findings.map((finding) => {
                const { table, row, column } = finding.at;
                return (
                  <li key={`${finding.rule}:${table}:${row}`} data-rule={finding.rule}>
                    <CellLink at={finding.at} href={href}>
                      {t("{{table}} row {{n}}, {{column}}:", { table, n: row, column: t(columnLabel(table, column)) })}
                    </CellLink>{" "}
                    {t(finding.message, shown(finding.values))}
                  </li>
                );
              })}
            </ul>
            {more > 0 ? <p className="checks-panel__more">{t("…and {{count}} more.", { count: more })}</p> : null}
          </section>
        );
      })}
    </details>
  );
}

/**
 * A link to a row's cell: without JavaScript it opens the plain form's page of the row at that row;
 * with it, the grid selects the cell (GO_TO_CELL_EVENT) and the page stays where it is.
 */
export function CellLink({ at, href, children }: { at: GoToCell; href: (params: Record<string, string | number | null>) => string; children: ReactNode }) {
  const page = Math.ceil(at.row / FORM_PAGE_SIZE);
  const goTo = (event: MouseEvent<HTMLAnchorElement>) => {
    const handled = !window.dispatchEvent(new CustomEvent<GoToCell>(GO_TO_CELL_EVENT, { detail: at, cancelable: true }));
    if (handled) event.preventDefault();
  };
  return (
    <a href={`${href({ tab: at.table, page: page > 1 ? page : null })}#${findingRowAnchor(at.table, at.row)}`} onClick={goTo}>
      {children}
    </a>
  );
}

/** Values shown as they are: names, codes and quarters. */
const VALUES_AS_THEY_ARE = new Set(["product", "currency", "table", "quarter"]);
/** Values that are dates (YYYY-MM-DD). */
const DATE_VALUES = new Set(["from", "to"]);

/**
 * A finding's or a change's values as the page shows them: a country, a status, a measure or a date
 * in the page's language, names as they are, figures in the page's number format.
 */
export function useShownValues() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (values: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => [
        key,
        key === "country"
          ? format.country(value)
          : key === "status" || key === "measure" || key === "stage"
            ? t(value)
            : DATE_VALUES.has(key)
              ? format.date(value)
              : VALUES_AS_THEY_ARE.has(key)
                ? value
                : format.number(value),
      ]),
    );
}
