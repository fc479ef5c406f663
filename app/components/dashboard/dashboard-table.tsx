import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager } from "~/components/pager";
import { queryHref } from "~/reports/consolidated/paging";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { DASHBOARD_PATH, dashboardLinkValues } from "~/reports/dashboard/view";
import { DownloadLinks } from "~/reports/consolidated/table-kit";
import { useFormatters } from "~/hooks/use-formatters";
import type { DashboardCell, DashboardColumn, DashboardTable } from "~/reports/dashboard/tables";
import { ScrollRegion } from "~/components/scroll-region";

/** Where a table's file comes from: every row of the table under the same filters. */
function dashboardDownloadHref(tableId: string, format: "csv" | "xlsx", query: DashboardQuery): string {
  return queryHref(`${DASHBOARD_PATH}/${tableId}/${format}`, dashboardLinkValues(query));
}

export function TableDownloads({ tableId, query }: { tableId: string; query: DashboardQuery }) {
  return (
    <DownloadLinks
      csvHref={dashboardDownloadHref(tableId, "csv", query)}
      xlsxHref={dashboardDownloadHref(tableId, "xlsx", query)}
      basename={tableId}
      className="dashboard-card__downloads"
      dataDownload
    />
  );
}

/** Under a dashboard table: its number of rows and the pager. */
export function DashboardTableFooter({ tableId, page, query }: { tableId: string; page: DashboardTable["page"]; query: DashboardQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <>
      <p className="dashboard-card__count">{t("Rows: {{total}}", { total: format.number(page.total) })}</p>
      <Pager page={page.page} pages={page.pages} pageHref={(to) => queryHref(DASHBOARD_PATH, { ...dashboardLinkValues(query), table: tableId, page: to })} />
    </>
  );
}

/** One dashboard table in its card: title, downloads, the page of rows and the pager. */
export function DashboardTableCard({ table, query }: { table: DashboardTable; query: DashboardQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const shown = (cell: DashboardCell, column: DashboardColumn | undefined) => {
    if (cell === "Not given") return t("Not given");
    if (column?.numeric) return format.number(cell);
    if (column?.country && typeof cell === "string") return format.country(cell);
    if (column?.period && typeof cell === "string") return format.period(cell);
    return cell ?? "";
  };
  return (
    <section className="card dashboard-card" data-table={table.id} aria-labelledby={`${table.id}-title`}>
      <header className="dashboard-card__header">
        <h2 className="card__title" id={`${table.id}-title`}>
          {t(table.title)}
        </h2>
        <TableDownloads tableId={table.id} query={query} />
      </header>
      {table.rows.length ? (
        <>
          <ScrollRegion labelledBy={`${table.id}-title`}>
            <table className="table">
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column.key} scope="col" className={column.numeric ? "table__number" : undefined}>
                      {column.raw ? format.period(column.label) : t(column.label)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, index) => (
                  <tr key={index}>
                    {row.map((cell, column) =>
                      column === 0 ? (
                        <th key={column} scope="row">
                          {table.links ? <Link to={table.links[index]}>{shown(cell, table.columns[column])}</Link> : shown(cell, table.columns[column])}
                        </th>
                      ) : (
                        <td key={column} className={table.columns[column].numeric ? "table__number" : undefined}>
                          {shown(cell, table.columns[column])}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <DashboardTableFooter tableId={table.id} page={table.page} query={query} />
        </>
      ) : (
        <p className="empty">{t("No data available!")}</p>
      )}
    </section>
  );
}
