import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilingIcon, SalesIcon, TimelineIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { reportStateLabel, reportStateSlug } from "~/components/report-status-icon";
import { partnerGuidance, type PartnerNextStep } from "~/models/report-overview.server";
import { requirePartner } from "~/utils/auth.server";
import { REPORT_REGISTRY, type ReportTypeKey } from "~/reports/frame/registry";
import { useFormatters } from "~/hooks/use-formatters";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Dashboard" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePartner(request);
  return partnerGuidance(user.partnerId);
}

const TILE_ICONS: Record<ReportTypeKey, () => JSX.Element> = { pdt: TimelineIcon, filing: FilingIcon, sales: SalesIcon };

const NEXT_STEP_LABELS: Record<NonNullable<PartnerNextStep>, string> = {
  start: "Start",
  continue: "Continue",
  fix: "Fix the rejected report",
};

export default function PartnerDashboard() {
  const { t } = useTranslation();
  const format = useFormatters();
  const { quarterName, cutOff, tiles, owed } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Welcome to MPP Data Portal")} />
      <p className="notice partner-deadline" data-testid="cut-off-date">
        {t("Open quarter")}: <strong>{quarterName}</strong>
        {cutOff ? (
          <>
            {" · "}
            {t("Report submission date")}: <strong>{format.date(cutOff.date)}</strong>
            {" · "}
            {cutOff.daysLeft < 0 ? (
              <strong className="partner-deadline__overdue">{t("Overdue")}</strong>
            ) : (
              <>
                {t("Days left")}: <strong>{format.number(cutOff.daysLeft)}</strong>
              </>
            )}
          </>
        ) : null}
      </p>
      <p className="partner-owed" data-testid="reports-owed">
        {owed === 0
          ? t("All reports submitted")
          : cutOff
            ? t("Reports to submit by {{date}}: {{count}}", { date: format.date(cutOff.date), count: owed })
            : t("Reports to submit: {{count}}", { count: owed })}
      </p>
      <div className="tiles">
        {tiles.map((tile) => {
          const Icon = TILE_ICONS[tile.type];
          const path = REPORT_REGISTRY[tile.type].partnerPath;
          return (
            <section key={tile.type} className="tile" data-testid={`tile-${tile.type}`} aria-labelledby={`tile-${tile.type}-title`}>
              <span className="tile__icon">
                <Icon />
              </span>
              <h2 className="tile__title" id={`tile-${tile.type}-title`}>
                <Link to={path}>{t(REPORT_REGISTRY[tile.type].labels.name)}</Link>
              </h2>
              {tile.sentBack ? (
                <p className="tile__sent-back" data-testid={`sent-back-${tile.type}`}>
                  <strong>{t(tile.sentBack.by === "rejected" ? "Rejected by the administrator" : "Reopened by the administrator")}</strong>
                  <span className="tile__message" data-testid={`rejection-${tile.type}`}>
                    {tile.sentBack.comment}
                  </span>
                  {tile.sentBack.openComments > 0 ? (
                    <Link className="tile__comments" to={`${path}#threads`} data-testid={`open-comments-${tile.type}`}>
                      {t("Open comments on rows: {{count}}", { count: tile.sentBack.openComments })}
                    </Link>
                  ) : null}
                </p>
              ) : null}
              <dl className="tile__facts">
                <dt>{t("Quarter")}</dt>
                <dd>{quarterName}</dd>
                <dt>{t("Report Status")}</dt>
                <dd>
                  <span className={`status status--${reportStateSlug(tile.state)}`}>{t(reportStateLabel(tile.state))}</span>
                </dd>
                {tile.state === "not started" ? null : (
                  <>
                    <dt>{t("Last submission date")}</dt>
                    <dd>{tile.submittedAt ? format.dateTime(tile.submittedAt) : "-"}</dd>
                    <dt>{t("Last message")}</dt>
                    <dd className="tile__message">{tile.lastMessage ?? "-"}</dd>
                  </>
                )}
              </dl>
              {tile.state === "not started" ? <p className="empty tile__empty">{t("No data available!")}</p> : null}
              {tile.nextStep ? (
                <Link to={path} className="button button--primary tile__action" aria-describedby={`tile-${tile.type}-title`}>
                  {t(NEXT_STEP_LABELS[tile.nextStep])}
                </Link>
              ) : null}
            </section>
          );
        })}
      </div>
    </>
  );
}
