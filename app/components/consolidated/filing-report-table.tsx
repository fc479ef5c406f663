import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import type { FilingConsolidatedView, FilingQuery, FilingSort } from "~/models/consolidated/filing.server";
import { queryHref } from "~/reports/consolidated/query";
import { Pager } from "~/components/report/plain-form";

export const FILING_REPORT_PATH = "/admin/report/filing-plans";
export const FILING_REPORT_CSV_PATH = "/admin/report/filing-plans/csv";
export const FILING_REPORT_XLSX_PATH = "/admin/report/filing-plans/xlsx";

type Values = Record<string, string | number | null | undefined>;

/** The query's values as the links carry them (the quarter as the link named it: none for the open quarter). */
function valuesOf(query: FilingQuery): Values {
  return {
    quarter: query.quarter,
    partner: query.partner,
    country: query.country,
    reportStatus: query.reportStatus,
    product: query.product,
    productStatus: query.productStatus,
    sort: query.sort,
    dir: query.sort ? query.dir : undefined,
  };
}

/**
 * The Filing Plans consolidated report: the filters (a GET form: quarter, partner, country,
 * report status, and one product's status), the downloads with the same filters, the count, the
 * table (Company Name and Country stay on the left when it scrolls sideways, a column per
 * product), and the pager. Everything works without JavaScript.
 */
export function FilingReport({ view, query }: { view: FilingConsolidatedView; query: FilingQuery }) {
  const { t } = useTranslation();
  const values = { ...valuesOf(query), page: view.page.page };
  const filters = { ...values, page: undefined };
  return (
    <>
      <PageHeader title={t("Filing Plans")}>
        <a href={queryHref(FILING_REPORT_CSV_PATH, { ...filters, sort: undefined, dir: undefined })} className="button button--secondary" download="filing-plans.csv">
          {t("Download CSV")}
        </a>
        <a href={queryHref(FILING_REPORT_XLSX_PATH, { ...filters, sort: undefined, dir: undefined })} className="button button--secondary" download="filing-plans.xlsx">
          {t("Download Excel")}
        </a>
      </PageHeader>
      <section className="card filing-report">
        <FilingReportFilters view={view} query={query} />
        <p className="filing-report__count" data-testid="filing-report-count">
          {t("Rows: {{total}}", { total: view.page.total })}
        </p>
        <FilingReportTable view={view} values={values} query={query} />
        <FilingReportPager view={view} values={values} />
      </section>
    </>
  );
}

function FilingReportFilters({ view, query }: { view: FilingConsolidatedView; query: FilingQuery }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  /** With JavaScript the form's values become a clean link (no empty parameters); without, the browser sends the form as it is. */
  const apply = (form: HTMLFormElement | null) => {
    if (!form) return;
    const values: Values = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") values[name] = value;
    navigate(queryHref(FILING_REPORT_PATH, values));
  };
  const { options } = view;
  const quarterValue = view.quarter.isOpen ? "" : view.quarter.name;
  // A new filter shows its first page; the sort stays. The lists of the other filters are the
  // quarter's: with JavaScript a new quarter loads at once (without, the Filter button sends it).
  return (
    <Form
      method="get"
      action={FILING_REPORT_PATH}
      className="filing-report__filters"
      aria-label={t("Filter")}
      key={JSON.stringify(query)}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
    >
      {query.sort ? <input type="hidden" name="sort" value={query.sort} /> : null}
      {query.sort ? <input type="hidden" name="dir" value={query.dir} /> : null}
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-quarter">
          {t("Quarter")}
        </label>
        <select id="filing-report-quarter" name="quarter" className="input" defaultValue={quarterValue} onChange={(event) => apply(event.currentTarget.form)}>
          {options.quarter_filter.map((quarter, index) => (
            <option key={quarter.id} value={index === 0 ? "" : quarter.name}>
              {quarter.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-partner">
          {t("Partner")}
        </label>
        <select id="filing-report-partner" name="partner" className="input" defaultValue={query.partner ?? ""}>
          <option value="">{t("All")}</option>
          {options.partner_filter.map((partner) => (
            <option key={partner.id} value={partner.id}>
              {partner.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-country">
          {t("Country")}
        </label>
        <select id="filing-report-country" name="country" className="input" defaultValue={query.country ?? ""}>
          <option value="">{t("All")}</option>
          {options.country_filter.map((country) => (
            <option key={country.id} value={country.id}>
              {country.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-status">
          {t("Report Status")}
        </label>
        <select id="filing-report-status" name="reportStatus" className="input" defaultValue={query.reportStatus ?? ""}>
          <option value="">{t("All")}</option>
          {options.report_status_filter.map((state) => (
            <option key={state.id} value={state.id}>
              {t(state.name)}
            </option>
          ))}
        </select>
      </div>
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-product">
          {t("Product")}
        </label>
        <select id="filing-report-product" name="product" className="input" defaultValue={query.product ?? ""}>
          <option value="">{t("All")}</option>
          {options.product_filter.map((product) => (
            <option key={product.id} value={product.id}>
              {product.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field filing-report__filter">
        <label className="field__label" htmlFor="filing-report-product-status">
          {t("Status")}
        </label>
        <select id="filing-report-product-status" name="productStatus" className="input" defaultValue={query.productStatus ?? ""}>
          <option value="">{t("All")}</option>
          {options.status_filter.map((status) => (
            <option key={status.id} value={status.id}>
              {status.name}
            </option>
          ))}
        </select>
      </div>
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

function SortHeader({ sort, values, query, className }: { sort: FilingSort; values: Values; query: FilingQuery; className?: string }) {
  const { t } = useTranslation();
  const current = (query.sort ?? "company") === sort;
  const nextDir = current && query.dir === "asc" ? "desc" : "asc";
  const sorted = current ? (query.dir === "asc" ? "ascending" : "descending") : undefined;
  return (
    <th scope="col" className={className} aria-sort={sorted}>
      <Link
        to={queryHref(FILING_REPORT_PATH, { ...values, sort, dir: nextDir, page: undefined })}
        className="table__sort"
        title={nextDir === "desc" ? t("Sort descending") : t("Sort ascending")}
      >
        {t(SORT_LABELS[sort])}
        {current ? (
          <span className="table__sort-icon" aria-hidden="true">
            {query.dir === "asc" ? "▲" : "▼"}
          </span>
        ) : null}
      </Link>
    </th>
  );
}

function FilingReportTable({ view, values, query }: { view: FilingConsolidatedView; values: Values; query: FilingQuery }) {
  const { t } = useTranslation();
  if (!view.page.rows.length) return <p className="empty">{t("No data available!")}</p>;
  return (
    <div className="table-wrap filing-report__wrap">
      <table className="table filing-report__table" data-testid="filing-report">
        <caption className="visually-hidden">{t("Filing Plans")}</caption>
        <thead>
          <tr>
            <SortHeader sort="company" values={values} query={query} className="filing-report__company" />
            <SortHeader sort="country" values={values} query={query} className="filing-report__country" />
            <SortHeader sort="reportStatus" values={values} query={query} />
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
              <td className="filing-report__country" title={row.country}>
                <span className="filing-report__name">{row.country}</span>
              </td>
              <td data-report-status={row.reportStatus}>{t(row.reportStatus)}</td>
              {view.products.map((product) => (
                <td key={product.id} data-product-id={product.id}>
                  {row.cells[String(product.id)] ?? ""}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FilingReportPager({ view, values }: { view: FilingConsolidatedView; values: Values }) {
  return <Pager page={view.page.page} pages={view.page.pages} pageHref={(to) => queryHref(FILING_REPORT_PATH, { ...values, page: to })} />;
}
