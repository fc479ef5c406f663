import { useTranslation } from "react-i18next";
import type { PdtConsolidatedRow, PdtConsolidatedView, PdtQuery, PdtSort } from "~/reports/pdt/consolidated.server";
import { pickValues, queryLinks, type FilterOption } from "~/reports/consolidated/paging";
import { Pager } from "~/components/pager";
import { formatPdtDate } from "~/reports/pdt/rows";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { DownloadLinks, FilterBar, SortHeader } from "~/reports/consolidated/table-kit";
import { FilterSelect } from "~/components/filter-select";
import { ScrollRegion } from "~/components/scroll-region";
import { EmptyRow } from "~/components/table-parts";

const PDT_REPORT_PATH = "/admin/report/development-timeline";

/** The report's state as the loader read it from the query string (sort resolved). */
export type PdtReportState = Omit<PdtQuery, "sort"> & { sort: PdtSort };

const PDT_FILTERS = ["quarter", "partner", "product", "stage", "status", "reportStatus"] as const;

const pdtReportLinks = (state: PdtReportState) => queryLinks(PDT_REPORT_PATH, pickValues(state, PDT_FILTERS), state);

/** The filters, the quarter among them (see FilterBar). */
export function PdtReportFilters({ state, options }: { state: PdtReportState; options: PdtConsolidatedView["options"] }) {
  const { t } = useTranslation();
  const openQuarter = options.quarter_filter[0]?.name;
  const select = (name: string, label: string, value: string | number | undefined, choices: FilterOption<string | number>[], translate = false) => (
    <FilterSelect
      id={`pdt-report-${name}`}
      name={name}
      label={label}
      value={value}
      choices={choices}
      all={t("All")}
      translate={translate}
      remountOn={String(value ?? "")}
    />
  );
  return (
    <FilterBar action={PDT_REPORT_PATH} sort={state.sort} dir={state.dir} testId="pdt-report-filters">
      <FilterSelect
        id="pdt-report-quarter"
        name="quarter"
        label={t("Quarter")}
        value={state.quarter && state.quarter !== openQuarter ? state.quarter : ""}
        choices={options.quarter_filter.map((quarter, index) => ({ id: index === 0 ? "" : quarter.name, name: quarter.name }))}
        remountOn={state.quarter ?? ""}
        className="field filter-bar__field filter-bar__field--narrow"
      />
      {select("partner", t("Partner"), state.partner, options.partner_filter)}
      {select("product", t("Product"), state.product, options.product_filter)}
      {select("stage", t("Stage"), state.stage, options.stage_filter, true)}
      {select("status", t("Status"), state.status, options.status_filter, true)}
      {select("reportStatus", t("Report Status"), state.reportStatus, options.report_status_filter, true)}
    </FilterBar>
  );
}

/** "Download CSV" and "Download Excel": the rows of the current filters, every page. */
export function PdtReportDownloads({ state }: { state: PdtReportState }) {
  const links = pdtReportLinks(state);
  return <DownloadLinks csvHref={links.csv} xlsxHref={links.xlsx} basename="pdt-report" />;
}

function PdtSortHeader({ state, sort, label }: { state: PdtReportState; sort: PdtSort; label: string }) {
  return <SortHeader label={label} active={state.sort === sort} dir={state.dir} sortKey={sort} hrefFor={(dir) => pdtReportLinks(state).sorted(sort, dir)} />;
}

/** The pager, as links that keep the filters and the sort. */
export function PdtReportPager({ state, page, pages }: { state: PdtReportState; page: number; pages: number }) {
  return <Pager page={page} pages={pages} pageHref={pdtReportLinks(state).page} showSinglePage />;
}

/**
 * Company Name, Product, Stage, Status, Report Status (sortable), then a Start Date and End Date
 * per quarter: the three before the selected one, oldest first, and the selected quarter.
 */
export function PdtReportTable({ state, rows, quarterOrder }: { state: PdtReportState; rows: PdtConsolidatedRow[]; quarterOrder: string[] }) {
  const { t } = useTranslation();
  const columns = 5 + quarterOrder.length * 2;
  return (
    <ScrollRegion label={t("Development Timeline")}>
      <table className="table" data-testid="pdt-report">
        <thead>
          <tr>
            <PdtSortHeader state={state} sort="company" label={t("Company Name")} />
            <PdtSortHeader state={state} sort="product" label={t("Product")} />
            <PdtSortHeader state={state} sort="stage" label={t("Stage")} />
            <PdtSortHeader state={state} sort="status" label={t("Status")} />
            <PdtSortHeader state={state} sort="reportStatus" label={t("Report Status")} />
            {quarterOrder.flatMap((quarter) => [
              <th key={`${quarter}-start`} scope="col" data-quarter={quarter}>
                {t("Start Date")}
                <br />
                {quarter}
              </th>,
              <th key={`${quarter}-end`} scope="col" data-quarter={quarter}>
                {t("End Date")}
                <br />
                {quarter}
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <EmptyRow columns={columns} />
          ) : (
            rows.map((row) => (
              <tr key={`${row.reportId}:${row.productId}:${row.stageId}`}>
                <th scope="row">{row.companyName}</th>
                <td>{row.productName}</td>
                <td>{t(row.stageName)}</td>
                <td>{row.status ? t(PROJECT_STATUS_LABELS[row.status]) : "-"}</td>
                <td>{t(row.reportStatus)}</td>
                {row.dates.flatMap((pair, index) => [
                  <td key={`${index}-start`}>{formatPdtDate(pair.startDate)}</td>,
                  <td key={`${index}-end`}>{formatPdtDate(pair.endDate)}</td>,
                ])}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
