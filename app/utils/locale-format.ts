/**
 * Figures, country names and sorting in the page's language (Intl). Apart from the display settings
 * (display.ts) because it carries the country list: only the pages that show figures load it.
 */
import { COUNTRIES } from "~/db/reference-data";

const numberFormats = new Map<string, Intl.NumberFormat>();
const DECIMAL = /^-?\d+(?:\.(\d+))?$/;

/**
 * A figure in the page's language (grouping, decimal sign, digits). A decimal string keeps its
 * exact value and its number of decimals (money stays '12.50'); a number shows at most 2 decimals.
 * Text that is not a number is shown as it is; null is empty.
 */
export function formatNumber(value: number | string | null | undefined, locale: string): string {
  if (value == null || value === "") return "";
  let decimals: number | undefined;
  if (typeof value === "string") {
    const decimal = DECIMAL.exec(value.trim());
    if (!decimal) return value;
    decimals = decimal[1]?.length ?? 0;
  }
  const key = `${locale}:${decimals ?? "n"}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      decimals === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    );
    numberFormats.set(key, format);
  }
  // Intl formats a decimal string exactly (no rounding through a float); the types only know numbers.
  return format.format(typeof value === "string" ? (value.trim() as unknown as number) : value);
}

const ISO_BY_NAME = new Map(COUNTRIES.map((country) => [country.name, country.isoCode]));
const regionNames = new Map<string, Intl.DisplayNames>();

/** A country stored under its English name, named in the page's language from the platform's CLDR data. */
export function countryName(englishName: string, locale: string): string {
  const isoCode = ISO_BY_NAME.get(englishName);
  if (!isoCode || locale === "en") return englishName;
  let names = regionNames.get(locale);
  if (!names) regionNames.set(locale, (names = new Intl.DisplayNames([locale], { type: "region", fallback: "none" })));
  return names.of(isoCode) ?? englishName;
}

const collators = new Map<string, Intl.Collator>();

/** The items in the alphabetical order of the page's language, by the label they are shown with. */
export function sortByLabel<T>(items: readonly T[], label: (item: T) => string, locale: string): T[] {
  let collator = collators.get(locale);
  if (!collator) collators.set(locale, (collator = new Intl.Collator(locale, { numeric: true })));
  const compare = collator.compare;
  return items
    .map((item) => ({ item, text: label(item) }))
    .sort((a, b) => compare(a.text, b.text))
    .map(({ item }) => item);
}
