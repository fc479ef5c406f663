import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { FilterSelect } from "~/components/filter-select";
import { FILING_COUNTRY_FILTER_MAX, type FilingCountryList, type FilingCountryOrder } from "~/reports/filing/country-list";

export const NO_COUNTRY_MATCHES = "No country matches “{{country}}”.";

/** The orders of the list, as the query names them ("": A to Z by name). */
const ORDER_CHOICES = [
  { id: "", name: "Countries A–Z" },
  { id: "filed", name: "Countries with a filing first" },
];

/**
 * Find a country and order the list: a GET form (`?country=ken&order=filed`, the quarter kept), so
 * it works without JavaScript; with JavaScript the list follows each keystroke and choice at once.
 */
export function FilingCountryFinder({
  list,
  onChange,
  hydrated,
  quarter,
  shown,
  total,
}: {
  list: FilingCountryList;
  onChange: (list: FilingCountryList) => void;
  hydrated: boolean;
  /** The historic quarter shown (null: the open quarter). */
  quarter: string | null;
  shown: number;
  total: number;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Form
      method="get"
      role="search"
      className="filter-bar filing-finder"
      data-testid="filing-finder"
      onSubmit={(event) => {
        // The list already follows the fields.
        if (hydrated) event.preventDefault();
      }}
    >
      {quarter ? <input type="hidden" name="quarter" value={quarter} /> : null}
      <div className="stacked-field">
        <label htmlFor="filing-country">{t("Find a country")}</label>
        <input
          id="filing-country"
          type="search"
          name="country"
          className="input filing-finder__country"
          defaultValue={list.country}
          maxLength={FILING_COUNTRY_FILTER_MAX}
          autoComplete="off"
          onChange={(event) => onChange({ ...list, country: event.target.value })}
        />
      </div>
      <FilterSelect
        id="filing-order"
        name="order"
        label={t("Order")}
        value={list.order === "filed" ? "filed" : ""}
        choices={ORDER_CHOICES}
        translate
        className="stacked-field"
        onChange={(event) => onChange({ ...list, order: (event.target.value || "name") as FilingCountryOrder })}
      />
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {t("Show")}
        </button>
      )}
      <p className="filing-finder__count" role="status" data-testid="filing-finder-count">
        {!list.country.trim()
          ? null
          : shown === 0
            ? t(NO_COUNTRY_MATCHES, { country: list.country.trim() })
            : t("Countries shown: {{shown}} of {{total}}", { shown: format.number(shown), total: format.number(total) })}
      </p>
    </Form>
  );
}
