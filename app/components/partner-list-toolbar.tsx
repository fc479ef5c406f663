import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShowInactiveToggle } from "./show-inactive-toggle";
import { PARTNER_LIST_PATH, partnerListHref, type PartnerListQuery } from "~/utils/partner-list";

/**
 * Search and the "Show inactive" filter: a GET form, so the list's state is in the address,
 * works without JavaScript and survives a reload. JavaScript only applies the filter at once.
 */
export function PartnerListToolbar({ query, quarterName }: { query: PartnerListQuery; quarterName: string }) {
  const { t } = useTranslation();
  return (
    <div className="partner-list__toolbar">
      <Form method="get" action={PARTNER_LIST_PATH} role="search" className="partner-list__search">
        <label htmlFor="partner-list-q" className="field__label">
          {t("Search")}
        </label>
        <input
          key={query.q}
          id="partner-list-q"
          type="search"
          name="q"
          defaultValue={query.q}
          maxLength={100}
          className="input partner-list__search-input"
          placeholder={t("Company name or e-mail")}
        />
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <ShowInactiveToggle checked={query.status === "inactive"} className="partner-list__inactive" />
        <button type="submit" className="button button--secondary">
          {t("Search")}
        </button>
        {query.q ? (
          <Link to={partnerListHref(query, { q: "" })} className="link">
            {t("Clear search")}
          </Link>
        ) : null}
      </Form>
      <p className="notice partner-list__quarter">
        {t("Open quarter")}: <strong>{quarterName}</strong>
      </p>
    </div>
  );
}
