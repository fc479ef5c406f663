import { Form, Link, useNavigate } from "@remix-run/react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { SalesConsolidatedRow, SalesConsolidatedView, SalesSort } from "~/reports/sales/consolidated.server";
import { pickValues, queryHref, queryLinks, type FilterOption, type QueryValues } from "~/reports/consolidated/paging";
import { Pager } from "~/components/pager";
import { useFormatters } from "~/hooks/use-formatters";
import { columnsFor, SALES_KINDS, type SalesColumn, type SalesColumnKey } from "~/reports/sales/columns";
import { DownloadLinks, SortHeader } from "~/reports/consolidated/table-kit";
import { FilterSelect } from "~/components/filter-select";
import { ScrollRegion } from "~/components/scroll-region";

const SALES_REPORT_PATH = "/admin/report/sales-report";

/** The grid columns a header link sorts by (the others are not sortable). */
const SORT_OF_COLUMN: Partial<Record<SalesColumnKey, SalesSort>> = {
  year: "year",
  month: "month",
  country: "country",
  purchaser: "purchaser",
  productName: "product",
  quantity: "quantity",
  totalValue: "totalValue",
};

/** Numbers (a year too) read right-aligned in their column. */
const isNumberColumn = (column: SalesColumn) => column.type === "number" || column.type === "year";

type View = SalesConsolidatedView;
type Query = View["query"];

const SALES_FILTERS = [
  "partner",
  "year",
  "month",
  "country",
  "purchaser",
  "product",
  "reportStatus",
  "strength",
  "formulationType",
  "currency",
  "procurementEndCountry",
  "comments",
] as const;

/** The filters of the tab, the quarter and the tab itself: what a new filter, a sort and the downloads carry. */
function filterValues(view: View): QueryValues {
  return {
    tab: view.query.tab === "API" ? undefined : view.query.tab,
    quarter: view.quarter.name === view.options.quarters[0] ? undefined : view.quarter.name,
    ...pickValues(view.query, SALES_FILTERS),
  };
}

const salesReportLinks = (view: View) => queryLinks(SALES_REPORT_PATH, filterValues(view), { sort: view.sort, dir: view.query.dir });

/** The report below its header: tabs, filters, the count, the table and the pager. */
export function SalesReportTable({ view }: { view: View }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { page } = view;
  return (
    <section className="card" data-testid="sales-report">
      <SalesReportTabs view={view} />
      <SalesReportFilters view={view} />
      <p className="pager__status" data-testid="sales-report-count">
        {t("Rows: {{total}}", { total: format.number(page.total) })}
      </p>
      {page.rows.length ? (
        <>
          <ScrollRegion label={t("Sales Report")}>
            <SalesRowsTable view={view} />
          </ScrollRegion>
          <SalesReportPager view={view} />
        </>
      ) : (
        <p className="empty">{t("No data available!")}</p>
      )}
    </section>
  );
}

/** API and FDF: links that keep the quarter (each tab has its own filters). */
function SalesReportTabs({ view }: { view: View }) {
  const { t } = useTranslation();
  const quarter = filterValues(view).quarter;
  return (
    <nav className="report-tabs" aria-label={t("Sales Report")}>
      {SALES_KINDS.map((kind) => (
        <Link
          key={kind}
          to={queryHref(SALES_REPORT_PATH, { quarter, tab: kind === "API" ? undefined : kind })}
          className={`report-tabs__tab${view.tab === kind ? " report-tabs__tab--active" : ""}`}
          aria-current={view.tab === kind ? "page" : undefined}
        >
          {kind}
        </Link>
      ))}
    </nav>
  );
}

/** What the filter form sends: the tab, the quarter, the filters and the sort. */
const FILTER_FIELDS = ["tab", "quarter", ...SALES_FILTERS, "sort", "dir"] as const;

/**
 * The filters, the quarter among them: a plain GET form that works without JavaScript; with it, the
 * empty choices are left out of the address. A new filter starts at page 1 and keeps the sort.
 */
function SalesReportFilters({ view }: { view: View }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigate = useNavigate();
  const { query, options, tab } = view;
  const openQuarter = options.quarters[0];
  const id = (name: string) => `sales-report-${name}`;

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values: QueryValues = {};
    for (const name of FILTER_FIELDS) values[name] = String(data.get(name) ?? "").trim();
    if (values.tab === "API") values.tab = undefined;
    if (values.sort === "company" && values.dir === "asc") values.sort = values.dir = undefined;
    navigate(queryHref(SALES_REPORT_PATH, values));
  };

  // A value of the link that the quarter's rows do not have is still shown (and kept) as chosen.
  const select = (
    name: keyof Query,
    label: string,
    choices: readonly FilterOption<string | number>[],
    { translate = false, nameOf, alphabetical = false }: { translate?: boolean; nameOf?: (name: string) => string; alphabetical?: boolean } = {},
  ) => (
    <FilterSelect
      id={id(name)}
      name={name}
      label={label}
      value={query[name]}
      choices={choices}
      all={t("All")}
      translate={translate}
      nameOf={nameOf}
      alphabetical={alphabetical}
      keepUnknown
      remountOn={String(query[name] ?? "")}
    />
  );

  const text = (name: "purchaser" | "strength" | "procurementEndCountry" | "comments", label: string, list?: readonly string[]) => (
    <div className="field filter-bar__field">
      <label className="field__label" htmlFor={id(name)}>
        {label}
      </label>
      <input
        key={query[name] ?? ""}
        id={id(name)}
        name={name}
        type="search"
        className="input"
        maxLength={200}
        defaultValue={query[name] ?? ""}
        list={list ? id(`${name}-list`) : undefined}
        autoComplete="off"
      />
      {list ? (
        <datalist id={id(`${name}-list`)}>
          {list.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      ) : null}
    </div>
  );

  return (
    <Form method="get" className="filter-bar" action={SALES_REPORT_PATH} onSubmit={apply} aria-label={t("Filter")} data-testid="sales-report-filters">
      <input type="hidden" name="tab" value={tab} />
      <FilterSelect
        id={id("quarter")}
        name="quarter"
        label={t("Quarter")}
        value={view.quarter.name === openQuarter ? "" : view.quarter.name}
        choices={options.quarters.map((name, index) => ({ id: index === 0 ? "" : name, name }))}
        remountOn={view.quarter.name}
        className="field filter-bar__field filter-bar__field--narrow"
      />
      {select("partner", t("Partner"), options.partners)}
      {select("year", t("Year"), options.years)}
      {select("month", t("Month"), options.months, { nameOf: format.month })}
      {select("country", t("Country"), options.countries, { nameOf: format.country, alphabetical: true })}
      {text("purchaser", t("Purchaser"), options.purchasers)}
      {select("product", t("Product"), options.products)}
      {tab === "FDF" ? (
        <>
          {text("strength", t("Strength"))}
          {select("formulationType", t("Formulation Type"), options.formulationTypes, { nameOf: format.referenceName })}
          {select(
            "currency",
            t("Currency"),
            options.currencies.map((code) => ({ id: code, name: code })),
          )}
          {text("procurementEndCountry", t("Procurement Agency End-Country"))}
          {text("comments", t("Comments"))}
        </>
      ) : null}
      {select(
        "reportStatus",
        t("Report Status"),
        options.statuses.map((status) => ({ id: status, name: status })),
        { translate: true },
      )}
      {view.sort !== "company" || view.query.dir !== "asc" ? (
        <>
          <input type="hidden" name="sort" value={view.sort} />
          <input type="hidden" name="dir" value={view.query.dir} />
        </>
      ) : null}
      <button type="submit" className="button button--secondary">
        {t("Filter")}
      </button>
    </Form>
  );
}

/** "Download CSV" and "Download Excel": every row of the current filters, all pages. */
export function SalesReportDownloads({ view }: { view: View }) {
  const links = salesReportLinks(view);
  return <DownloadLinks csvHref={links.csv} xlsxHref={links.xlsx} basename={`sales-report-${view.tab.toLowerCase()}`} />;
}

function SalesSortHeader({ view, sort, label }: { view: View; sort: SalesSort; label: string }) {
  return (
    <SortHeader label={label} active={view.sort === sort} dir={view.query.dir} sortKey={sort} hrefFor={(dir) => salesReportLinks(view).sorted(sort, dir)} />
  );
}

/** Company Name, Report Status, then the grid's columns of the tab (spec section 2 "Sales Report screen"). */
function SalesRowsTable({ view }: { view: View }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const columns = columnsFor(view.tab);
  const shown = (column: SalesColumn, value: string | undefined) => {
    if (column.type === "country" && value !== undefined) return format.country(value);
    if (column.type === "month" && value !== undefined) return format.month(value);
    if (column.type === "formulation" && value !== undefined) return format.referenceName(value);
    // A year is a name, not a quantity: no grouping.
    return column.type === "number" ? format.number(value) : (value ?? "");
  };
  return (
    <table className="table" data-testid="sales-report-table">
      <thead>
        <tr>
          <SalesSortHeader view={view} sort="company" label={t("Company Name")} />
          <th scope="col">{t("Report Status")}</th>
          {columns.map((column) => {
            const sort = SORT_OF_COLUMN[column.key];
            return sort ? (
              <SalesSortHeader key={column.key} view={view} sort={sort} label={t(column.label)} />
            ) : (
              <th key={column.key} scope="col">
                {t(column.label)}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {view.page.rows.map((row: SalesConsolidatedRow) => (
          <tr key={row.id} data-row-id={row.id}>
            <th scope="row">{row.companyName}</th>
            <td>{t(row.reportStatus)}</td>
            {columns.map((column) => (
              <td key={column.key} className={isNumberColumn(column) ? "table__number" : undefined}>
                {shown(column, row[column.key])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The pager, as links that keep the tab, the filters and the sort. */
function SalesReportPager({ view }: { view: View }) {
  return <Pager page={view.page.page} pages={view.page.pages} pageHref={salesReportLinks(view).page} showSinglePage />;
}
