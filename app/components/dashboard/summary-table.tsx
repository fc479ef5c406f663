import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReportStatusIcon } from "~/components/report-status-icon";
import { ScrollRegion } from "~/components/scroll-region";
import { useFormatters } from "~/hooks/use-formatters";
import type { DashboardTabView } from "~/models/dashboard/dashboard.server";
import { queryHref } from "~/reports/consolidated/paging";
import { SortHeader } from "~/reports/consolidated/table-kit";
import type { DashboardQuery } from "~/reports/dashboard/query";
import { DASHBOARD_PATH, dashboardLinkValues, type SummarySort } from "~/reports/dashboard/view";
import { REPORT_REGISTRY, REPORT_TYPES } from "~/reports/frame/registry";

type Summary = Extract<DashboardTabView, { tab: "summary" }>["summary"];

/**
 * The Summary's partners: company, e-mail, their reports' states and their Sales Report's open
 * findings (linking to its checks); sorted by company or by findings through the link.
 */
export function SummaryTable({ summary, query }: { summary: Summary; query: DashboardQuery }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const sortHeader = (sort: SummarySort, label: string, className?: string) => (
    <SortHeader
      label={label}
      active={query.sort === sort}
      dir={query.dir}
      sortKey={sort}
      hrefFor={(dir) => queryHref(DASHBOARD_PATH, dashboardLinkValues({ ...query, sort, dir }))}
      className={className}
    />
  );
  return (
    <ScrollRegion labelledBy="summary-title">
      <table className="table">
        <thead>
          <tr>
            {sortHeader("company", t("Company Name"))}
            <th scope="col">{t("E-mail")}</th>
            <th scope="col">{t("Reports")}</th>
            {sortHeader("findings", t("Findings"), "table__number")}
          </tr>
        </thead>
        <tbody>
          {summary.rows.map((row) => {
            const findings = summary.findings[row.partnerId];
            return (
              <tr key={row.partnerId} data-partner={row.companyName}>
                <th scope="row">{row.companyName}</th>
                <td>{row.email}</td>
                <td className="dashboard-summary__reports">
                  {REPORT_TYPES.map((type) =>
                    query.view === "awaiting-approval" && !["Submitted", "Resubmitted"].includes(row.statuses[type]) ? null : (
                      <ReportStatusIcon key={type} type={type} state={row.statuses[type]} to={`${REPORT_REGISTRY[type].adminPath}/${row.partnerId}`} />
                    ),
                  )}
                </td>
                <td className="table__number">
                  {findings === undefined ? null : <Link to={`${REPORT_REGISTRY.sales.adminPath}/${row.partnerId}#checks`}>{format.number(findings)}</Link>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
