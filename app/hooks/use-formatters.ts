import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { formatDate, formatDateTime, formatMonthName, formatPeriod } from "~/utils/dates";
import { countryName, formatNumber, sortByLabel } from "~/utils/locale-format";

/** The display helpers of app/utils bound to the page's language, for components. */
export function useFormatters() {
  const { i18n } = useTranslation();
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
      sortByLabel: <T>(items: readonly T[], label: (item: T) => string) => sortByLabel(items, label, locale),
    }),
    [locale],
  );
}
