import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";

/** Previous / 'Page n of m' / Next links, for a report's plain form and the consolidated reports. */
export function Pager({
  page,
  pages,
  pageHref,
  showSinglePage = false,
}: {
  page: number;
  pages: number;
  pageHref: (page: number) => string;
  /** A list that says where the reader stands even on its only page. */
  showSinglePage?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (pages <= 1 && !showSinglePage) return null;
  return (
    <nav className="pager" aria-label={t("Pages")}>
      {page > 1 ? (
        <Link to={pageHref(page - 1)} className="button button--secondary" rel="prev">
          {t("Previous")}
        </Link>
      ) : null}
      <span className="pager__status">{t("Page {{page}} of {{pages}}", { page: format.number(page), pages: format.number(pages) })}</span>
      {page < pages ? (
        <Link to={pageHref(page + 1)} className="button button--secondary" rel="next">
          {t("Next")}
        </Link>
      ) : null}
    </nav>
  );
}
