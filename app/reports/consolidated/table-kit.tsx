/**
 * The pieces the report tables and their filter forms share (the consolidated reports, Partner
 * Performance and the dashboard): a sortable column header, the "Download CSV" / "Download Excel"
 * pair, a filter form and a labelled filter list. Each report keeps its own links and values; these
 * only draw them.
 */
import { Form, Link, useNavigate } from "@remix-run/react";
import type { ChangeEventHandler, FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { queryHref, type FilterOption } from "~/reports/consolidated/paging";

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
 * A labelled list of a GET form. With an `id`, a label beside the list (in a div of `className`);
 * without, the list inside its label. `all` heads the list as the empty choice.
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  choices,
  all,
  translate = false,
  nameOf,
  alphabetical = false,
  keepUnknown = false,
  remountOn,
  className = "field filter-bar__field",
  onChange,
}: {
  id?: string;
  name: string;
  label: string;
  /** The chosen value; none or "": the first choice. */
  value: string | number | null | undefined;
  choices: readonly FilterOption<string | number>[];
  /** The label of a first, empty choice ("All"). */
  all?: string;
  /** Translate the choices' names. */
  translate?: boolean;
  /** How a choice is named (a country or a month in the page's language); default its name, translated when `translate`. */
  nameOf?: (name: string) => string;
  /** List the choices in the page's alphabetical order of their shown names. */
  alphabetical?: boolean;
  /** A chosen value that is not among the choices is still listed (after `all`) and kept. */
  keepUnknown?: boolean;
  /** The list's key: when it changes the list is drawn anew with its value (after a client-side navigation). */
  remountOn?: string;
  className?: string;
  onChange?: ChangeEventHandler<HTMLSelectElement>;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const chosen = value == null ? "" : String(value);
  const shownName = nameOf ?? ((name: string) => (translate ? t(name) : name));
  const listed = alphabetical ? format.sortByLabel(choices, (choice) => shownName(choice.name)) : choices;
  const unknown = keepUnknown && chosen !== "" && !choices.some((choice) => String(choice.id) === chosen);
  const select = (
    <select key={remountOn} id={id} name={name} className="input" defaultValue={chosen} onChange={onChange}>
      {all === undefined ? null : <option value="">{all}</option>}
      {unknown ? <option value={chosen}>{chosen}</option> : null}
      {listed.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {shownName(choice.name)}
        </option>
      ))}
    </select>
  );
  return id ? (
    <div className={className}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {select}
    </div>
  ) : (
    <label className={className}>
      <span className="field__label">{label}</span>
      {select}
    </label>
  );
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
