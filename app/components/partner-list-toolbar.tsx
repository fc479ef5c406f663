import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { reportStateLabel } from "./report-status-icon";
import { REPORT_REGISTRY } from "~/reports/frame/registry";
import { ShowInactiveToggle } from "./show-inactive-toggle";
import { PARTNER_LIST_PATH, partnerListHref, type PartnerListQuery } from "~/utils/partner-list";

/**
 * Search, the "Show inactive" filter and the report state filter (kept while searching): a GET
 * form, so the list's state is in the address, works without JavaScript and survives a reload.
 * JavaScript only applies the filter at once.
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
        {query.report ? (
          <>
            <input type="hidden" name="report" value={query.report.type} />
            <input type="hidden" name="state" value={query.report.state} />
          </>
        ) : null}
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
        {query.report ? (
          <span data-testid="report-filter">
            {" · "}
            {t(REPORT_REGISTRY[query.report.type].labels.status)}: <strong>{t(reportStateLabel(query.report.state))}</strong>{" "}
            <Link to={partnerListHref(query, { report: null })} className="link">
              {t("Show every partner")}
            </Link>
          </span>
        ) : null}
      </p>
    </div>
  );
}
