import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { reportStateLabel } from "~/components/report-status-icon";
import { ScrollRegion } from "~/components/scroll-region";
import { partnerListHref, parsePartnerListQuery } from "~/utils/partner-list";
import type { ReportStatusCount } from "~/models/report-overview.server";
import { REPORT_REGISTRY, REPORT_STATES, type ReportState } from "~/reports/frame/registry";

const COLUMNS: readonly ReportState[] = ["not started", ...REPORT_STATES];
const DEFAULT_LIST = parsePartnerListQuery(new URLSearchParams());

/** The open quarter's reports per state; a count links to the partner list of the partners behind it. */
export function ReportStatusCounts({ counts }: { counts: ReportStatusCount[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <section className="card">
      <h2 className="card__title" id="report-status-counts-title">
        {t("Reports of the open quarter")}
      </h2>
      <ScrollRegion labelledBy="report-status-counts-title">
        <table className="table report-status-counts" data-testid="report-status-counts">
          <thead>
            <tr>
              <th scope="col">{t("Report")}</th>
              {COLUMNS.map((state) => (
                <th key={state} scope="col">
                  {t(reportStateLabel(state))}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {counts.map((row) => (
              <tr key={row.type}>
                <th scope="row">{t(REPORT_REGISTRY[row.type].labels.name)}</th>
                {COLUMNS.map((state) => {
                  const count = state === "not started" ? row.notStarted : (row.byStatus[state] ?? 0);
                  return (
                    <td key={state}>
                      {count ? (
                        <Link
                          to={partnerListHref(DEFAULT_LIST, { report: { type: row.type, state } })}
                          className="link"
                          title={`${t("Show these partners")}: ${t(REPORT_REGISTRY[row.type].labels.status)}, ${t(reportStateLabel(state))}`}
                        >
                          {format.number(count)}
                        </Link>
                      ) : (
                        format.number(count)
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </section>
  );
}
