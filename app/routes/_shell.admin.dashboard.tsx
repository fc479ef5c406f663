import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { getOpenQuarter } from "~/models/quarter.server";
import { reportStatusCounts } from "~/models/report-overview.server";
import { getCutOffDate } from "~/models/settings.server";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { REPORT_STATES, REPORT_TYPE_LABELS } from "~/utils/reports";

export const meta: MetaFunction = () => [{ title: "Dashboard | MPP Data Portal" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminOrStaff(request);
  const quarter = await getOpenQuarter();
  const [counts, cutOffDate] = await Promise.all([reportStatusCounts(quarter.id), getCutOffDate()]);
  return { quarterName: quarter.name, counts, cutOffDate: cutOffDate ?? null };
}

export default function AdminDashboard() {
  const { t } = useTranslation();
  const { quarterName, counts, cutOffDate } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Dashboard")} />
      <p className="notice">
        {t("Open quarter")}: <strong>{quarterName}</strong>
        {cutOffDate ? (
          <>
            {" · "}
            {t("Report submission date")}: <strong>{formatDate(cutOffDate)}</strong>
          </>
        ) : null}
      </p>
      <section className="card">
        <h2 className="card__title">{t("Reports of the open quarter")}</h2>
        <div className="table-wrap">
          <table className="table" data-testid="report-status-counts">
            <thead>
              <tr>
                <th scope="col">{t("Report")}</th>
                <th scope="col">{t("Not started")}</th>
                {REPORT_STATES.map((state) => (
                  <th key={state} scope="col">
                    {t(state)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {counts.map((row) => (
                <tr key={row.type}>
                  <th scope="row">{t(REPORT_TYPE_LABELS[row.type])}</th>
                  <td>{row.notStarted}</td>
                  {REPORT_STATES.map((state) => (
                    <td key={state}>{row.byStatus[state] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
