import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime, formatMonthName, formatPeriod } from "~/utils/dates";
import { countryName, formatNumber, sortByLabel } from "~/utils/locale-format";

/** The display helpers of app/utils bound to the page's language, for components. */
export function useFormatters() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(
    () => ({
      locale,
      number: (value: number | string | null | undefined) => formatNumber(value, locale),
      date: (value: Date | string | null | undefined) => formatDate(value, locale),
      dateTime: (value: Date | string | null | undefined) => formatDateTime(value, locale),
      period: (label: string) => formatPeriod(label, locale),
      month: (englishName: string) => formatMonthName(englishName, locale),
      country: (englishName: string) => countryName(englishName, locale),
      /** A formulation type or a filing status, stored by its English name; a quarter name (a planned filing) and a name without a translation stay as they are. */
      referenceName: (englishName: string) => t(englishName),
      sortByLabel: <T>(items: readonly T[], label: (item: T) => string) => sortByLabel(items, label, locale),
    }),
    [locale, t],
  );
}
