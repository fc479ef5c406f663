import { Form, Link, useSubmit } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BarChart } from "~/components/charts/bar-chart";
import { LineChart } from "~/components/charts/line-chart";
import { WorldMap } from "~/components/charts/world-map";
import { FilterSelect } from "~/components/filter-select";
import { useFormatters } from "~/hooks/use-formatters";
import type { DashboardTabView } from "~/models/dashboard/dashboard.server";
import { queryHref } from "~/reports/consolidated/paging";
import type { DashboardQuery } from "~/reports/dashboard/query";
import {
  COUNTRY_FILING_VIEWS,
  DASHBOARD_PATH,
  DASHBOARD_TAB_LABELS,
  DASHBOARD_TABS,
  dashboardLinkValues,
  PERIOD_LABELS,
  PERIODS,
  PRODUCT_FILING_VIEWS,
  REMINDER_VIEWS,
  SUMMARY_VIEW_LABELS,
  SUMMARY_VIEWS,
} from "~/reports/dashboard/view";
import type { DashboardTable } from "~/reports/dashboard/tables";
import { PROJECT_STATUS_LABELS } from "~/utils/project-status";
import { REPORT_REGISTRY, REPORT_TYPES } from "~/reports/frame/registry";
import { DashboardTableCard, DashboardTableFooter, TableDownloads } from "./dashboard-table";
import { SummaryTable } from "./summary-table";

type TabView<Tab extends DashboardTabView["tab"]> = Extract<DashboardTabView, { tab: Tab }>;

/** The nine tabs as links: each tab is its own page view, so they work without JavaScript. */
export function DashboardTabNav({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation();
  return (
    <nav className="dashboard-tabs" aria-label={t("Dashboard")}>
      <ul className="dashboard-tabs__list">
        {DASHBOARD_TABS.map((tab) => (
          <li key={tab}>
            <Link
              to={queryHref(DASHBOARD_PATH, { ...dashboardLinkValues({ ...query, tab }), tab: tab === "product" ? undefined : tab })}
              className="dashboard-tabs__tab"
              aria-current={query.tab === tab ? "page" : undefined}
              data-tab={tab}
            >
              {t(DASHBOARD_TAB_LABELS[tab])}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A tab's filters as a plain GET form (Apply without JavaScript, applied on change with it). */
function FilterForm({ query, children, approvedRule = true }: { query: DashboardQuery; children?: ReactNode; approvedRule?: boolean }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  return (
    <Form method="get" action={DASHBOARD_PATH} className="filter-bar dashboard-filters" onChange={(event) => submit(event.currentTarget)}>
      <input type="hidden" name="tab" value={query.tab} />
      {children}
      {approvedRule ? (
        <label className="checkbox dashboard-filters__unapproved">
          <input type="checkbox" name="unapproved" value="1" defaultChecked={query.unapproved} />
          <span>{t("Include unapproved reports")}</span>
        </label>
      ) : null}
      <button type="submit" className="button button--secondary">
        {t("Apply")}
      </button>
    </Form>
  );
}

/** What the sales figures are. */
function SalesDefinitions() {
  const { t } = useTranslation();
  return (
    <p className="notice">
      {t(
        "Sales total = units of finished dosage forms sold (pack size x quantity); API sales, sold by the kilogram, count in the value only. Sales value = FDF gross sales plus API sales, USD.",
      )}
    </p>
  );
}

/** Says which reports the figures count. */
function CountedReports({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation();
  return (
    <p className="notice dashboard-rule" data-testid="counted-reports">
      {query.unapproved ? t("Figures count reports in every state, approved or not.") : t("Figures count approved reports only.")}
    </p>
  );
}

/** What a chart takes from the page's language: its direction and how it writes figures. */
function useChartLanguage(): { direction: "ltr" | "rtl"; locale: string } {
  const { i18n } = useTranslation();
  return { direction: i18n.dir() === "rtl" ? "rtl" : "ltr", locale: i18n.language };
}

// ---------------------------------------------------------------- 1. Product / Project

export function ProductTab({ view, query }: { view: TabView<"product">; query: DashboardQuery }) {
  const { t } = useTranslation();
  const language = useChartLanguage();
  const format = useFormatters();
  const total = view.tiles.reduce((sum, tile) => sum + tile.count, 0);
  return (
    <>
      <section className="card dashboard-card" aria-labelledby="project-status-title">
        <header className="dashboard-card__header">
          <h2 className="card__title" id="project-status-title">
            {t("Project count")}
          </h2>
          <TableDownloads tableId="project-status" query={query} />
        </header>
        {total ? (
          <>
            <ul className="status-tiles" data-testid="project-tiles">
              {view.tiles.map((tile) => (
                <li key={tile.status} className={`status-tile status-tile--${tile.status.toLowerCase()}`} data-status={tile.status}>
                  <span className="status-tile__count">{format.number(tile.count)}</span>
                  <span className="status-tile__label">{t(PROJECT_STATUS_LABELS[tile.status])}</span>
                </li>
              ))}
            </ul>
            <BarChart
              title={t("Projects by status")}
              description={view.tiles.map((tile) => `${t(PROJECT_STATUS_LABELS[tile.status])}: ${format.number(tile.count)}`).join(", ")}
              categories={view.tiles.map((tile) => t(PROJECT_STATUS_LABELS[tile.status]))}
              series={[{ key: "projects", label: t("Projects"), values: view.tiles.map((tile) => tile.count) }]}
              {...language}
              height={200}
              emptyText={t("No data available!")}
            />
          </>
        ) : (
          <p className="empty">{t("No data available!")}</p>
        )}
      </section>
      {view.tables.map((table) => (
        <DashboardTableCard key={table.id} table={table} query={query} />
      ))}
    </>
  );
}

// ---------------------------------------------------------------- 2. Summary

export function SummaryTab({ view, query, canRemind }: { view: TabView<"summary">; query: DashboardQuery; canRemind: boolean }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { summary } = view;
  const remindable = REMINDER_VIEWS.includes(query.view);
  const kept = dashboardLinkValues(query);
  const here = queryHref(DASHBOARD_PATH, { ...kept, table: "summary", page: summary.page.page });
  return (
    <>
      <FilterForm query={query} approvedRule={false}>
        <FilterSelect name="view" label={t("View")} value={query.view} choices={SUMMARY_VIEWS.map((id) => ({ id, name: SUMMARY_VIEW_LABELS[id] }))} translate />
        {/* Another view keeps the order. */}
        {kept.sort ? <input type="hidden" name="sort" value={kept.sort} /> : null}
        {kept.dir ? <input type="hidden" name="dir" value={kept.dir} /> : null}
      </FilterForm>
      <section className="card dashboard-card" data-table="summary" aria-labelledby="summary-title">
        <header className="dashboard-card__header">
          <h2 className="card__title" id="summary-title">
            {t(SUMMARY_VIEW_LABELS[query.view])} ({view.quarterName})
          </h2>
          <TableDownloads tableId="summary" query={query} />
        </header>
        {remindable && summary.partnerIds.length ? (
          <form method="post" action="/admin/reminders" className="dashboard-reminder" data-testid="bulk-reminder">
            {summary.partnerIds.map((id) => (
              <input key={id} type="hidden" name="partnerId" value={id} />
            ))}
            <input type="hidden" name="redirectTo" value={here} />
            <FilterSelect
              name="reportType"
              label={t("Report")}
              value="sales"
              choices={REPORT_TYPES.map((id) => ({ id, name: REPORT_REGISTRY[id].labels.name }))}
              translate
            />
            <button type="submit" className="button" disabled={!canRemind} title={canRemind ? undefined : t("Only an administrator can send reminders.")}>
              {t("Send Reminder")} ({format.number(summary.partnerIds.length)})
            </button>
          </form>
        ) : null}
        {summary.rows.length ? (
          <>
            <SummaryTable summary={summary} query={query} />
            <DashboardTableFooter tableId="summary" page={summary.page} query={query} />
          </>
        ) : (
          <p className="empty">{t("No data available!")}</p>
        )}
      </section>
    </>
  );
}

// ---------------------------------------------------------------- 3. Country Filings

/** Choices whose ids are their names. */
const namedById = (ids: readonly string[]) => ids.map((id) => ({ id, name: id }));

export function FilingsTab({ view, query }: { view: TabView<"filings">; query: DashboardQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const countries = view.map.map((country) => ({ ...country, name: format.country(country.name) }));
  const statusLabel = query.filing === "Future-Quarters" ? t("Filings planned in the next four quarters") : t(query.filing);
  return (
    <>
      <FilterForm query={query}>
        <FilterSelect name="quarter" label={t("Quarter")} value={view.quarterName} choices={namedById(view.quarters)} />
        <FilterSelect name="filing" label={t("Product Wise Country Count")} value={query.filing} choices={namedById(PRODUCT_FILING_VIEWS)} translate />
        <FilterSelect
          name="countryFiling"
          label={t("Country Wise Product Count")}
          value={query.countryFiling}
          choices={namedById(COUNTRY_FILING_VIEWS)}
          translate
        />
      </FilterForm>
      <CountedReports query={query} />
      <section className="card dashboard-card">
        <WorldMap
          title={`${t("Products per country")}: ${statusLabel} (${view.quarterName})`}
          description={
            countries.length
              ? t("{{count}} countries; most: {{list}}", {
                  count: countries.length,
                  list: countries
                    .slice(0, 5)
                    .map((country) => `${country.name} (${format.number(country.value)})`)
                    .join(", "),
                })
              : t("No data available!")
          }
          countries={countries}
          locale={format.locale}
          geometryHref={`${DASHBOARD_PATH}/world-map.svg`}
          legendLabel={t("Products")}
          emptyText={t("No data available!")}
        />
      </section>
      {view.tables.map((table) => (
        <DashboardTableCard key={table.id} table={table} query={query} />
      ))}
    </>
  );
}

// ---------------------------------------------------------------- 4-6. Sales by product, company, country

function PeriodSelect({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation();
  return <FilterSelect name="period" label={t("Period")} value={query.period} choices={PERIODS.map((id) => ({ id, name: PERIOD_LABELS[id] }))} translate />;
}

/** A tab of sales figures: the period (and other) filters, what is counted, a chart, the tables. */
function FiguresTab({
  query,
  filters,
  notice,
  chart,
  tables,
}: {
  query: DashboardQuery;
  filters?: ReactNode;
  notice: ReactNode;
  chart?: ReactNode;
  tables: DashboardTable[];
}) {
  return (
    <>
      <FilterForm query={query}>
        <PeriodSelect query={query} />
        {filters}
      </FilterForm>
      <CountedReports query={query} />
      {notice}
      {chart ? <section className="card dashboard-card">{chart}</section> : null}
      {tables.map((table) => (
        <DashboardTableCard key={table.id} table={table} query={query} />
      ))}
    </>
  );
}

export function SalesTablesTab({ view, query }: { view: TabView<"sales-product" | "sales-company" | "sales-country">; query: DashboardQuery }) {
  return <FiguresTab query={query} notice={<SalesDefinitions />} tables={view.tables} />;
}

// ---------------------------------------------------------------- 7. Sales over time

export function SalesTimeTab({ view, query }: { view: TabView<"sales-time">; query: DashboardQuery }) {
  const { t } = useTranslation();
  const language = useChartLanguage();
  const format = useFormatters();
  return (
    <FiguresTab
      query={query}
      notice={<SalesDefinitions />}
      tables={view.tables}
      chart={
        <BarChart
          title={t("Sales total by {{period}}", { period: t(PERIOD_LABELS[query.period]).toLowerCase() })}
          description={view.chart.map((point) => `${format.period(point.label)}: ${format.number(point.units)}`).join(", ") || t("No data available!")}
          categories={view.chart.map((point) => format.period(point.label))}
          series={[{ key: "units", label: t("Sales total"), values: view.chart.map((point) => Number(point.units)) }]}
          {...language}
          emptyText={t("No data available!")}
        />
      }
    />
  );
}

// ---------------------------------------------------------------- 8. Price

export function PriceTab({ view, query }: { view: TabView<"price">; query: DashboardQuery }) {
  const { t } = useTranslation();
  const language = useChartLanguage();
  const format = useFormatters();
  const value = (text: string | null) => (text == null ? null : Number(text));
  return (
    <FiguresTab
      query={query}
      filters={<FilterSelect name="product" label={t("Product")} value={query.product} choices={view.products} all={t("All products")} />}
      notice={
        <p className="notice">
          {t(
            "Price per pack = total gross sales value / packs sold. Price per treatment = total gross sales value / units sold x 30 (one unit a day for 30 days). USD, FDF sales.",
          )}
        </p>
      }
      tables={view.tables}
      chart={
        <LineChart
          title={t("Price trend (USD)")}
          description={
            view.chart
              .map((point) => `${format.period(point.label)}: ${format.number(point.pricePerPack) || "-"} / ${format.number(point.pricePerTreatment) || "-"}`)
              .join(", ") || t("No data available!")
          }
          categories={view.chart.map((point) => format.period(point.label))}
          series={[
            { key: "pack", label: t("Price per pack (USD)"), values: view.chart.map((point) => value(point.pricePerPack)) },
            { key: "treatment", label: t("Price per treatment (USD)"), values: view.chart.map((point) => value(point.pricePerTreatment)) },
          ]}
          {...language}
          emptyText={t("No data available!")}
        />
      }
    />
  );
}

// ---------------------------------------------------------------- 9. Royalties

export function RoyaltiesTab({ view, query }: { view: TabView<"royalties">; query: DashboardQuery }) {
  const { t } = useTranslation();
  return (
    <>
      <FilterForm query={query}>
        <FilterSelect name="quarter" label={t("Quarter")} value={view.quarterName} choices={namedById(view.quarters)} />
      </FilterForm>
      <CountedReports query={query} />
      <p className="notice">
        {t(
          "Royalty expected = each FDF row's net value × its licence rate (the country's rate, else the product's default rate), to the cent. A row without a licence rate (no licence terms, or a country outside the territory) expects nothing and counts in no difference.",
        )}
      </p>
      {view.tables.map((table) => (
        <DashboardTableCard key={table.id} table={table} query={query} />
      ))}
    </>
  );
}
