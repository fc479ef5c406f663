import { describe, expect, it } from "vitest";
import { filingCountryListParams, readFilingCountryList, shownFilingRows } from "~/reports/filing/country-list";
import { countryName, sortByLabel } from "~/utils/locale-format";

/** Four countries in the grid's order (by English name), two products each; "0" is an empty cell. */
const ROWS = [
  { countryId: 1, country: "Côte d'Ivoire", cells: { "7": "0", "8": "0" } },
  { countryId: 2, country: "Germany", cells: { "7": "0", "8": "Registered" } },
  { countryId: 3, country: "Kenya", cells: { "7": "0", "8": "0" } },
  { countryId: 4, country: "Zambia", cells: { "7": "Filed", "8": "0" } },
];
/** The page's naming in a language, as useFormatters gives it. */
const namingIn = (locale: string) => ({
  country: (name: string) => countryName(name, locale),
  sortByLabel: <T>(items: readonly T[], label: (item: T) => string) => sortByLabel(items, label, locale),
});
const english = namingIn("en");
const names = (shown: { row: { country: string } }[]) => shown.map(({ row }) => row.country);

describe("readFilingCountryList", () => {
  it("reads ?country= (trimmed, at most 100 characters) and ?order=filed; anything else is every country A to Z", () => {
    expect(readFilingCountryList(new URLSearchParams("country=%20ken%20&order=filed"))).toEqual({ country: "ken", order: "filed" });
    expect(readFilingCountryList(new URLSearchParams(""))).toEqual({ country: "", order: "name" });
    expect(readFilingCountryList(new URLSearchParams("order=size&country=%00"))).toEqual({ country: "", order: "name" });
    expect(readFilingCountryList(new URLSearchParams(`country=${"k".repeat(150)}`)).country).toHaveLength(100);
  });

  it("writes back only what differs from the whole list", () => {
    expect(filingCountryListParams({ country: "ken", order: "filed" })).toEqual({ country: "ken", order: "filed" });
    expect(filingCountryListParams({ country: "", order: "name" })).toEqual({ country: null, order: null });
  });
});

describe("shownFilingRows", () => {
  it("keeps the countries whose name contains the text, without regard to case or accents, with their place among all rows", () => {
    expect(shownFilingRows(ROWS, { country: "KEN", order: "name" }, english)).toEqual([{ index: 2, row: ROWS[2] }]);
    expect(names(shownFilingRows(ROWS, { country: "cote", order: "name" }, english))).toEqual(["Côte d'Ivoire"]);
    expect(names(shownFilingRows(ROWS, { country: "ÍVOIRE", order: "name" }, english))).toEqual(["Côte d'Ivoire"]);
    expect(shownFilingRows(ROWS, { country: "atlantis", order: "name" }, english)).toEqual([]);
    expect(names(shownFilingRows(ROWS, { country: "  ", order: "name" }, english))).toEqual(["Côte d'Ivoire", "Germany", "Kenya", "Zambia"]);
  });

  it("matches the name shown in the page's language as well as the English one", () => {
    const spanish = namingIn("es");
    expect(names(shownFilingRows(ROWS, { country: "alemania", order: "name" }, spanish))).toEqual(["Germany"]);
    expect(names(shownFilingRows(ROWS, { country: "germ", order: "name" }, spanish))).toEqual(["Germany"]);
    expect(names(shownFilingRows(ROWS, { country: "kenia", order: "name" }, spanish))).toEqual(["Kenya"]);
  });

  it("lists A to Z by the name shown: Germany is 'Alemania' first in Spanish and 'Allemagne' in French, filed or not", () => {
    expect(names(shownFilingRows(ROWS, { country: "", order: "name" }, namingIn("es")))).toEqual(["Germany", "Côte d'Ivoire", "Kenya", "Zambia"]);
    const french = shownFilingRows(ROWS, { country: "", order: "filed" }, namingIn("fr"));
    expect(names(french)).toEqual(["Germany", "Zambia", "Côte d'Ivoire", "Kenya"]);
    expect(french.map(({ index }) => index)).toEqual([1, 3, 0, 2]);
    expect(names(shownFilingRows(ROWS, { country: "", order: "name" }, namingIn("fr")))).toEqual(["Germany", "Côte d'Ivoire", "Kenya", "Zambia"]);
  });

  it("ordered 'filed', puts the countries holding a status first, each group in the list's order", () => {
    const shown = shownFilingRows(ROWS, { country: "", order: "filed" }, english);
    expect(names(shown)).toEqual(["Germany", "Zambia", "Côte d'Ivoire", "Kenya"]);
    expect(shown.map(({ index }) => index)).toEqual([1, 3, 0, 2]);
    expect(names(shownFilingRows(ROWS, { country: "a", order: "filed" }, english))).toEqual(["Germany", "Zambia", "Kenya"]);
  });
});
