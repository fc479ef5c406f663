import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import type { FilingConsolidatedView, FilingQuery, FilingSort } from "~/reports/filing/consolidated.server";
import { pickValues, queryHref, queryLinks, type FilterOption, type QueryValues, type QueryLinks } from "~/reports/consolidated/paging";
import { Pager } from "~/components/pager";
import { useFormatters } from "~/hooks/use-formatters";
import { DownloadLinks, SortHeader } from "~/reports/consolidated/table-kit";
import { FilterSelect } from "~/components/filter-select";
import { ScrollRegion } from "~/components/scroll-region";

const FILING_REPORT_PATH = "/admin/report/filing-plans";

const FILING_FILTERS = ["quarter", "partner", "country", "reportStatus", "product", "productStatus"] as const;

const filingReportLinks = (query: FilingQuery) => queryLinks(FILING_REPORT_PATH, pickValues(query, FILING_FILTERS), query);

/**
 * The Filing Plans consolidated report: the filters (a GET form: quarter, partner, country,
 * report status, and one product's status), the downloads with the same filters, the count, the
 * table (Company Name and Country stay on the left when it scrolls sideways, a column per
 * product), and the pager. Everything works without JavaScript.
 */
export function FilingReport({ view, query }: { view: FilingConsolidatedView; query: FilingQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const links = filingReportLinks(query);
  return (
    <>
      <PageHeader title={t("Filing Plans")}>
        <DownloadLinks csvHref={links.csv} xlsxHref={links.xlsx} basename="filing-plans" />
      </PageHeader>
      <section className="card filing-report">
        <FilingReportFilters view={view} query={query} />
        <p className="filing-report__count" data-testid="filing-report-count">
          {t("Rows: {{total}}", { total: format.number(view.page.total) })}
        </p>
        <FilingReportTable view={view} links={links} query={query} />
        <Pager page={view.page.page} pages={view.page.pages} pageHref={links.page} />
      </section>
    </>
  );
}

/** A filter list's field. */
const LIST_CLASS = "field filter-bar__field filing-report__filter";

function FilingReportFilters({ view, query }: { view: FilingConsolidatedView; query: FilingQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigation = useNavigation();
  const navigate = useNavigate();
  /** With JavaScript the form's values become a clean link (no empty parameters); without, the browser sends the form as it is. */
  const apply = (form: HTMLFormElement | null) => {
    if (!form) return;
    const values: QueryValues = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") values[name] = value;
    navigate(queryHref(FILING_REPORT_PATH, values));
  };
  const { options } = view;
  const quarterValue = view.quarter.isOpen ? "" : view.quarter.name;
  /** Every list but the quarter: an "All" first choice, and the query's value chosen. */
  const select = (
    id: string,
    name: "partner" | "country" | "reportStatus" | "product" | "productStatus",
    label: string,
    choices: readonly FilterOption<string | number>[],
    more: { nameOf?: (name: string) => string; alphabetical?: boolean; translate?: boolean } = {},
  ) => (
    <FilterSelect className={LIST_CLASS} all={t("All")} id={`filing-report-${id}`} name={name} label={label} value={query[name]} choices={choices} {...more} />
  );
  // A new filter shows its first page; the sort stays. The lists of the other filters are the
  // quarter's: with JavaScript a new quarter loads at once (without, the Filter button sends it).
  return (
    <Form
      method="get"
      action={FILING_REPORT_PATH}
      className="filter-bar"
      aria-label={t("Filter")}
      key={JSON.stringify(query)}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
    >
      {query.sort ? <input type="hidden" name="sort" value={query.sort} /> : null}
      {query.sort ? <input type="hidden" name="dir" value={query.dir} /> : null}
      <FilterSelect
        className={LIST_CLASS}
        id="filing-report-quarter"
        name="quarter"
        label={t("Quarter")}
        value={quarterValue}
        choices={options.quarter_filter.map((quarter, index) => ({ id: index === 0 ? "" : quarter.name, name: quarter.name }))}
        onChange={(event) => apply(event.currentTarget.form)}
      />
      {select("partner", "partner", t("Partner"), options.partner_filter)}
      {select("country", "country", t("Country"), options.country_filter, { nameOf: format.country, alphabetical: true })}
      {select("status", "reportStatus", t("Report Status"), options.report_status_filter, { translate: true })}
      {select("product", "product", t("Product"), options.product_filter)}
      {select("product-status", "productStatus", t("Status"), options.status_filter, { nameOf: format.referenceName })}
      <div className="filing-report__actions">
        <button type="submit" className="button button--primary" disabled={navigation.state === "loading"}>
          {t("Filter")}
        </button>
        <Link to={queryHref(FILING_REPORT_PATH, { quarter: query.quarter })} className="button button--secondary">
          {t("Clear filters")}
        </Link>
      </div>
    </Form>
  );
}

const SORT_LABELS: Record<FilingSort, string> = { company: "Company Name", country: "Country", reportStatus: "Report Status" };

function FilingSortHeader({ sort, links, query, className }: { sort: FilingSort; links: QueryLinks; query: FilingQuery; className?: string }) {
  const { t } = useTranslation();
  return (
    <SortHeader
      label={t(SORT_LABELS[sort])}
      active={(query.sort ?? "company") === sort}
      dir={query.dir}
      hrefFor={(dir) => links.sorted(sort, dir)}
      className={className}
    />
  );
}

function FilingReportTable({ view, links, query }: { view: FilingConsolidatedView; links: QueryLinks; query: FilingQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (!view.page.rows.length) return <p className="empty">{t("No data available!")}</p>;
  return (
    <ScrollRegion className="table-wrap filing-report__wrap" label={t("Filing Plans")}>
      <table className="table filing-report__table" data-testid="filing-report">
        <caption className="visually-hidden">{t("Filing Plans")}</caption>
        <thead>
          <tr>
            <FilingSortHeader sort="company" links={links} query={query} className="filing-report__company" />
            <FilingSortHeader sort="country" links={links} query={query} className="filing-report__country" />
            <FilingSortHeader sort="reportStatus" links={links} query={query} />
            {view.products.map((product) => (
              <th key={product.id} scope="col" data-product-id={product.id} className={product.id === query.product ? "filing-report__filtered" : undefined}>
                {product.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.page.rows.map((row) => (
            <tr key={`${row.reportId}:${row.countryId}`} data-report-id={row.reportId} data-country-id={row.countryId}>
              <th scope="row" className="filing-report__company" title={row.companyName}>
                <span className="filing-report__name">{row.companyName}</span>
              </th>
              <td className="filing-report__country" title={format.country(row.country)}>
                <span className="filing-report__name">{format.country(row.country)}</span>
              </td>
              <td data-report-status={row.reportStatus}>{t(row.reportStatus)}</td>
              {view.products.map((product) => (
                <td key={product.id}>{format.referenceName(row.cells[String(product.id)] ?? "")}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
