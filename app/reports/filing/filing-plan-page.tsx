import { useLocation } from "@remix-run/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { FILING_NOTHING_TO_REPORT, FILING_PROBLEM_HEADINGS } from "~/reports/filing/contract";
import { filingCountryListParams, readFilingCountryList, shownFilingRows } from "~/reports/filing/country-list";
import type { FilingPlanPageData } from "~/reports/filing/page.server";
import { FILING_EMPTY } from "~/reports/filing/statuses";
import { ReportPage, useReportScreen, type ReportTexts } from "~/reports/frame/report-page";
import type { ReportPageProps } from "~/reports/frame/report-route";
import { FilingCountryFinder, NO_COUNTRY_MATCHES } from "./filing-country-finder";
import { FilingFormTable } from "./filing-form-table";
import type { FilingGridEditor } from "./filing-grid-editor";
import { lazyEditor } from "~/reports/frame/lazy-editor";

const FILING_TEXTS: ReportTexts = {
  name: "Filing Plans",
  problemHeadings: FILING_PROBLEM_HEADINGS,
  nothingToReportDescription: FILING_NOTHING_TO_REPORT,
  // A removed row is a cell emptied: its country, its product and the status it held.
  changes: {
    tables: [""],
    columns: () => [
      { key: "country", label: "Country", shows: "country" },
      { key: "product", label: "Product" },
      { key: "status", label: "Status" },
    ],
  },
};

/**
 * The list of countries the address asks for (`?country=&order=`), which the finder then changes
 * without a round trip; a new list in the address (a link, the back button) replaces it.
 */
function useCountryList() {
  const { search } = useLocation();
  const fromAddress = useMemo(() => readFilingCountryList(new URLSearchParams(search)), [search]);
  const addressKey = `${fromAddress.order}:${fromAddress.country}`;
  const [state, setState] = useState({ addressKey, list: fromAddress });
  if (state.addressKey !== addressKey) setState({ addressKey, list: fromAddress });
  const list = state.addressKey === addressKey ? state.list : fromAddress;
  return { list, addressKey, setList: (next: typeof list) => setState({ addressKey, list: next }) };
}

/** The grid editor (react-data-grid, the status lists), loaded after the page. */
const useFilingGridEditor = lazyEditor<typeof FilingGridEditor>(() => import("./filing-grid-editor").then((module) => module.FilingGridEditor), "Filing Plans");

/** The Filing Plans screen in the report frame: the finder, then the grid of countries by product, or its plain form. */
export function FilingPlanPage({ data, actionData }: ReportPageProps<FilingPlanPageData>) {
  const { t } = useTranslation();
  const format = useFormatters();
  const screen = useReportScreen(data, actionData, FILING_TEXTS);
  const GridEditor = useFilingGridEditor(screen.hydrated);
  const { view } = data;
  const hasFilings = view.rows.some((row) => Object.values(row.cells).some((value) => value !== FILING_EMPTY));
  const { list, addressKey, setList } = useCountryList();
  // By the plan as loaded: a row being edited does not jump to the other group.
  const shown = useMemo(() => shownFilingRows(view.rows, list, format), [view.rows, list, format]);
  const noRowsText = t(NO_COUNTRY_MATCHES, { country: list.country.trim() });
  // The pager keeps the list it pages through.
  const plainForm = {
    ...screen.plainForm,
    pageHref: (page: number, params: Record<string, string> = {}) => screen.href({ page, ...filingCountryListParams(list), ...params }),
  };

  return (
    <ReportPage
      data={data}
      screen={screen}
      title={t("Filing Plans for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
      notices={
        <>
          {view.carriedOverFrom ? (
            <p className="notice" data-testid="carried-over">
              {t("This quarter starts from the plan of {{quarter}}: save to keep it.", { quarter: view.carriedOverFrom })}
            </p>
          ) : null}
          {view.products.length ? (
            <FilingCountryFinder
              key={addressKey}
              list={list}
              onChange={setList}
              hydrated={screen.hydrated}
              quarter={view.quarter.historic ? view.quarter.name : null}
              shown={shown.length}
              total={view.rows.length}
            />
          ) : null}
        </>
      }
      editor={GridEditor ? <GridEditor view={view} screen={screen} shown={shown} noRowsText={noRowsText} threads={data.threads} /> : null}
      plainForm={<FilingFormTable view={view} form={plainForm} shown={shown} noRowsText={noRowsText} changes={data.comparison} threads={data.threads} />}
      nothingToReport={!hasFilings}
    />
  );
}
