import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilingIcon, SalesIcon, TimelineIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { useFormatters } from "~/hooks/use-formatters";
import { partnerReportTiles } from "~/models/report-overview.server";
import { getCutOffDate } from "~/models/settings.server";
import { requirePartner } from "~/utils/auth.server";
import { PARTNER_REPORT_PATHS, REPORT_TYPE_LABELS, REPORT_TYPES, type ReportTypeKey } from "~/utils/reports";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Dashboard" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  const [tiles, cutOffDate] = await Promise.all([partnerReportTiles(user.partnerId), getCutOffDate()]);
  return { tiles, cutOffDate: cutOffDate ?? null };
}

const TILE_ICONS: Record<ReportTypeKey, () => JSX.Element> = { pdt: TimelineIcon, filing: FilingIcon, sales: SalesIcon };

export default function PartnerDashboard() {
  const { t } = useTranslation();
  const format = useFormatters();
  const { tiles, cutOffDate } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Welcome to MPP Data Portal")} />
      {cutOffDate ? (
        <p className="notice" data-testid="cut-off-date">
          {t("Report submission date")}: <strong>{format.date(cutOffDate)}</strong>
        </p>
      ) : null}
      <div className="tiles">
        {REPORT_TYPES.map((type) => {
          const tile = tiles[type];
          const Icon = TILE_ICONS[type];
          return (
            <Link key={type} to={PARTNER_REPORT_PATHS[type]} className="tile" data-testid={`tile-${type}`}>
              <span className="tile__icon">
                <Icon />
              </span>
              <h2 className="tile__title">{t(REPORT_TYPE_LABELS[type])}</h2>
              {tile ? (
                <dl className="tile__facts">
                  <dt>{t("Quarter")}</dt>
                  <dd>{tile.quarterName}</dd>
                  <dt>{t("Last submission date")}</dt>
                  <dd>{tile.submittedAt ? format.dateTime(tile.submittedAt) : "-"}</dd>
                  <dt>{t("Report Status")}</dt>
                  <dd>
                    <span className={`status status--${tile.status.toLowerCase()}`}>{t(tile.status)}</span>
                  </dd>
                  <dt>{t("Last message")}</dt>
                  <dd className="tile__message">{tile.lastMessage ?? "-"}</dd>
                </dl>
              ) : (
                <p className="empty">{t("No data available!")}</p>
              )}
            </Link>
          );
        })}
      </div>
    </>
  );
}
