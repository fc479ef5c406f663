import { useTranslation } from "react-i18next";
import { BarChart } from "~/components/charts/bar-chart";
import { Pager } from "~/components/pager";
import { useFormatters } from "~/hooks/use-formatters";
import type { PartnerPerformanceRow, PartnerPerformanceView, PerformanceChart, PerformanceQuery, PerformanceSort } from "~/models/partner-performance.server";
import { pickValues, queryLinks } from "~/reports/consolidated/paging";
import { DownloadLinks, FilterBar, SortHeader } from "~/reports/consolidated/table-kit";
import { FilterSelect } from "~/components/filter-select";
import { ScrollRegion } from "./scroll-region";
import { EmptyRow } from "./table-parts";

const PERFORMANCE_PATH = "/admin/partner-performance";

/** The reports a partner owes each quarter (pdt, filing, sales). */
const REPORTS_PER_QUARTER = 3;

/** The page's state as the loader read it from the query string (sort resolved). */
export type PerformanceState = Omit<PerformanceQuery, "sort"> & { sort: PerformanceSort };

/** The downloads keep the page's order (company A to Z, then the quarter newest first, by default). */
const performanceLinks = (state: PerformanceState) =>
  queryLinks(PERFORMANCE_PATH, pickValues(state, ["quarter", "partner"]), state, { downloadsKeepSort: true });

/** Quarter and partner (see FilterBar). */
export function PerformanceFilters({ state, options }: { state: PerformanceState; options: PartnerPerformanceView["options"] }) {
  const { t } = useTranslation();
  return (
    <FilterBar action={PERFORMANCE_PATH} sort={state.sort} dir={state.dir} testId="performance-filters">
      <FilterSelect
        id="performance-quarter"
        name="quarter"
        label={t("Quarter")}
        value={state.quarter}
        choices={options.quarter_filter.map((quarter) => ({ id: quarter.name, name: quarter.name }))}
        all={t("All")}
        remountOn={state.quarter ?? ""}
        className="field filter-bar__field filter-bar__field--narrow"
      />
      <FilterSelect
        id="performance-partner"
        name="partner"
        label={t("Partner")}
        value={state.partner}
        choices={options.partner_filter}
        all={t("All")}
        remountOn={String(state.partner ?? "")}
      />
    </FilterBar>
  );
}

/** "Download CSV" and "Download Excel": the rows of the current filters, every page, in the current sort. */
export function PerformanceDownloads({ state }: { state: PerformanceState }) {
  const links = performanceLinks(state);
  return <DownloadLinks csvHref={links.csv} xlsxHref={links.xlsx} basename="partner-performance" />;
}

/**
 * On time, late and not submitted reports per quarter, stacked, over the active partners (the
 * partner filter applies, the quarter filter does not: the chart spans the quarters). Its text
 * alternative gives the totals.
 */
export function PerformanceChartPanel({ chart }: { chart: PerformanceChart }) {
  const { t, i18n } = useTranslation();
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const totals = {
    partners: chart.partners,
    quarters: chart.quarters.length,
    onTime: sum(chart.onTime),
    late: sum(chart.late),
    notSubmitted: sum(chart.notSubmitted),
  };
  const description = t(
    "Reports of {{partners}} active partners over {{quarters}} quarters: {{onTime}} submitted on time, {{late}} late, {{notSubmitted}} not submitted.",
    totals,
  );
  return (
    <section className="card" data-testid="performance-chart">
      <BarChart
        title={t("Reports per quarter")}
        description={description}
        categories={chart.quarters}
        series={[
          { key: "onTime", label: t("On time"), values: chart.onTime },
          { key: "late", label: t("Late"), values: chart.late },
          { key: "notSubmitted", label: t("Not submitted"), values: chart.notSubmitted },
        ]}
        stacked
        direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
        locale={i18n.language}
        emptyText={t("No data available!")}
      />
    </section>
  );
}

function PerformanceSortHeader({ state, sort, label, numeric = false }: { state: PerformanceState; sort: PerformanceSort; label: string; numeric?: boolean }) {
  return (
    <SortHeader
      label={label}
      active={state.sort === sort}
      dir={state.dir}
      sortKey={sort}
      hrefFor={(dir) => performanceLinks(state).sorted(sort, dir)}
      className={numeric ? "table__number" : undefined}
    />
  );
}

/** The pager, as links that keep the filters and the sort. */
export function PerformancePager({ state, page, pages }: { state: PerformanceState; page: number; pages: number }) {
  return <Pager page={page} pages={pages} pageHref={performanceLinks(state).page} showSinglePage />;
}

/** The average as the page shows it: one decimal, empty when no report was approved. */
const formatAverageDays = (days: number | null) => (days === null ? "" : days.toFixed(1));

/** Company Name, Quarter, Submitted ("n / 3"), On time, Late, Average days to approval, Rejections, Reminders; every column sorts. */
export function PerformanceTable({ state, rows }: { state: PerformanceState; rows: PartnerPerformanceRow[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <ScrollRegion label={t("Partner Performance")}>
      <table className="table" data-testid="performance-table">
        <caption className="visually-hidden">{t("Partner Performance")}</caption>
        <thead>
          <tr>
            <PerformanceSortHeader state={state} sort="company" label={t("Company Name")} />
            <PerformanceSortHeader state={state} sort="quarter" label={t("Quarter")} />
            <PerformanceSortHeader state={state} sort="submitted" label={t("Submitted")} numeric />
            <PerformanceSortHeader state={state} sort="onTime" label={t("On time")} numeric />
            <PerformanceSortHeader state={state} sort="late" label={t("Late")} numeric />
            <PerformanceSortHeader state={state} sort="avgDays" label={t("Average days to approval")} numeric />
            <PerformanceSortHeader state={state} sort="rejections" label={t("Rejections")} numeric />
            <PerformanceSortHeader state={state} sort="reminders" label={t("Reminders")} numeric />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <EmptyRow columns={8} />
          ) : (
            rows.map((row) => (
              <tr key={`${row.partnerId}:${row.quarterId}`}>
                <th scope="row">{row.companyName}</th>
                <td>{row.quarterName}</td>
                <td className="table__number">{`${format.number(row.submitted)} / ${format.number(REPORTS_PER_QUARTER)}`}</td>
                <td className="table__number">{format.number(row.onTime)}</td>
                <td className="table__number">{format.number(row.late)}</td>
                <td className="table__number">{format.number(formatAverageDays(row.avgDaysToApproval))}</td>
                <td className="table__number">{format.number(row.rejections)}</td>
                <td className="table__number">{format.number(row.reminders)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
