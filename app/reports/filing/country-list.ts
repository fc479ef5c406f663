/**
 * Which countries the Filing Plans screen lists, and in what order: `?country=ken` keeps those whose
 * name contains the text (without regard to case or accents), `?order=filed` puts the countries
 * holding a filing first. One rule for the plain form (drawn from the query) and the grid (as the
 * user types). No database access in this module.
 */
import { queryText } from "~/utils/text-rules";
import { FILING_EMPTY } from "./statuses";

export type FilingCountryOrder = "name" | "filed";

export interface FilingCountryList {
  /** The text a country's name must contain ("" keeps every country). */
  country: string;
  order: FilingCountryOrder;
}

/** The query parameters of the list: a save returns to the list the user was looking at. */
export const FILING_COUNTRY_LIST_PARAMS = ["country", "order"] as const;
export const FILING_COUNTRY_FILTER_MAX = 100;

/** The list a query string asks for; anything unknown falls back to every country, A to Z. */
export function readFilingCountryList(search: URLSearchParams): FilingCountryList {
  return {
    country: (queryText(search.get("country")) ?? "").slice(0, FILING_COUNTRY_FILTER_MAX),
    order: search.get("order") === "filed" ? "filed" : "name",
  };
}

/** The list's query parameters for a link (null: left out). */
export function filingCountryListParams(list: FilingCountryList): Record<(typeof FILING_COUNTRY_LIST_PARAMS)[number], string | null> {
  return { country: list.country || null, order: list.order === "filed" ? "filed" : null };
}

/** A name as the filter compares it: lower case, accents taken off ("Côte" → "cote"). */
const folded = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();

interface CountryRow {
  country: string;
  cells: Record<string, string>;
}

/** A row the list shows, with its position among all the rows. */
export interface ShownRow<Row> {
  index: number;
  row: Row;
}

/** How the page names a country and sorts by name, in its language (useFormatters). */
interface CountryNaming {
  country: (englishName: string) => string;
  sortByLabel: <T>(items: readonly T[], label: (item: T) => string) => T[];
}

/**
 * The rows the list shows, each with its position among all the rows (what a refused save and
 * the plain form's echo refer to), A to Z by the name the page shows. A country matches by that
 * name or by its English name. Ordered "filed", the countries whose cells hold a status come first.
 */
export function shownFilingRows<Row extends CountryRow>(rows: readonly Row[], list: FilingCountryList, naming: CountryNaming): ShownRow<Row>[] {
  const wanted = folded(list.country.trim());
  const matches = (row: Row) => !wanted || folded(naming.country(row.country)).includes(wanted) || folded(row.country).includes(wanted);
  const shown = naming.sortByLabel(
    rows.map((row, index) => ({ index, row })).filter(({ row }) => matches(row)),
    ({ row }) => naming.country(row.country),
  );
  if (list.order !== "filed") return shown;
  const hasFiling = ({ row }: ShownRow<Row>) => Object.values(row.cells).some((status) => status !== FILING_EMPTY);
  return [...shown.filter(hasFiling), ...shown.filter((entry) => !hasFiling(entry))];
}
