/**
 * The pieces the report tables and their filter forms share (the consolidated reports, Partner
 * Performance and the dashboard): a sortable column header, the "Download CSV" / "Download Excel"
 * pair and a filter form (its lists are FilterSelect, ~/components/filter-select). Each report keeps
 * its own links and values; these only draw them.
 */
import { Form, Link, useNavigate } from "@remix-run/react";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { queryHref } from "~/reports/consolidated/paging";

type SortDir = "asc" | "desc";

/**
 * A column header that sorts by its column: a link to the other direction when the column is the
 * sorted one, else to ascending; the sorted column says so (aria-sort) and shows an arrow.
 */
export function SortHeader({
  label,
  active,
  dir,
  hrefFor,
  sortKey,
  className,
}: {
  label: string;
  /** This column is the one sorted by. */
  active: boolean;
  /** The current direction of the sort. */
  dir: SortDir;
  /** The page's link sorted by this column in the given direction. */
  hrefFor: (dir: SortDir) => string;
  /** Written as data-sort on the link. */
  sortKey?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const nextDir: SortDir = active && dir === "asc" ? "desc" : "asc";
  return (
    <th scope="col" aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined} className={className}>
      <Link to={hrefFor(nextDir)} className="table__sort" title={nextDir === "desc" ? t("Sort descending") : t("Sort ascending")} data-sort={sortKey}>
        {label}
        {active ? (
          <span className="table__sort-icon" aria-hidden="true">
            {dir === "desc" ? " ▼" : " ▲"}
          </span>
        ) : null}
      </Link>
    </th>
  );
}

/** "Download CSV" and "Download Excel", saved as `basename`.csv and `basename`.xlsx. */
export function DownloadLinks({
  csvHref,
  xlsxHref,
  basename,
  className,
  dataDownload = false,
}: {
  csvHref: string;
  xlsxHref: string;
  basename: string;
  /** The two links inside a span of this class (none: side by side in the parent). */
  className?: string;
  /** Mark each link with data-download="csv" / "xlsx". */
  dataDownload?: boolean;
}) {
  const { t } = useTranslation();
  const links = (
    <>
      <a href={csvHref} className="button button--secondary" download={`${basename}.csv`} data-download={dataDownload ? "csv" : undefined}>
        {t("Download CSV")}
      </a>
      <a href={xlsxHref} className="button button--secondary" download={`${basename}.xlsx`} data-download={dataDownload ? "xlsx" : undefined}>
        {t("Download Excel")}
      </a>
    </>
  );
  return className ? <span className={className}>{links}</span> : links;
}

/**
 * A report's filters as a plain GET form to `action` that keeps the sort (works without JavaScript;
 * with it, the empty choices and the default sort, company A to Z, are left out of the address). A
 * new filter starts at page 1.
 */
export function FilterBar({ action, sort, dir, testId, children }: { action: string; sort: string; dir: SortDir; testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values: Record<string, string | undefined> = {};
    for (const [name, value] of new FormData(event.currentTarget)) values[name] = String(value);
    if (values.sort === "company" && values.dir === "asc") values.sort = values.dir = undefined;
    navigate(queryHref(action, values));
  };
  return (
    <Form method="get" className="filter-bar" action={action} onSubmit={apply} aria-label={t("Filter")} data-testid={testId}>
      {children}
      <input type="hidden" name="sort" value={sort} />
      <input type="hidden" name="dir" value={dir} />
      <button type="submit" className="button button--secondary">
        {t("Filter")}
      </button>
    </Form>
  );
}
