import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Icon } from "./icons";
import { useTranslation } from "react-i18next";
import { REPORT_REGISTRY, type ReportState, type ReportTypeKey } from "~/reports/frame/registry";

/** The English key of a state (also its translation key). */
export function reportStateLabel(state: ReportState): string {
  return state === "not started" ? "Not started" : state;
}

/** `not-started`, `saved`, … : the modifier of `.report-status--*` (and of the existing `.status--*` colours). */
export function reportStateSlug(state: ReportState): string {
  return state === "not started" ? "not-started" : state.toLowerCase();
}

/** One distinct shape per state, so the state never depends on colour alone. */
const SHAPES: Record<ReportState, ReactNode> = {
  "not started": <circle cx="12" cy="12" r="8.5" strokeDasharray="3 3.2" />,
  Saved: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M8.5 15.5l.7-2.6 5-5 1.9 1.9-5 5z" />
    </>
  ),
  Submitted: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 16.5v-9M8.5 11 12 7.5l3.5 3.5" />
    </>
  ),
  Resubmitted: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M16 12a4 4 0 1 1-1.2-2.85" />
      <path d="M15.4 6.4v2.9h-2.9" />
    </>
  ),
  Approved: (
    <>
      <circle cx="12" cy="12" r="9" fill="currentColor" fillOpacity="0.16" />
      <path d="m8 12.3 2.7 2.7L16.2 9" strokeWidth="2.2" />
    </>
  ),
  Rejected: (
    <>
      <circle cx="12" cy="12" r="9" fill="currentColor" fillOpacity="0.16" />
      <path d="m9 9 6 6M15 9l-6 6" strokeWidth="2.2" />
    </>
  ),
};

/**
 * A report's state as an icon: a tooltip (`title`) and a visually hidden text such as
 * "PDT: Submitted" for screen readers. With `to`, the icon links to the report.
 */
export function ReportStatusIcon({ type, state, to }: { type: ReportTypeKey; state: ReportState; to?: string }) {
  const { t } = useTranslation();
  const label = `${t(REPORT_REGISTRY[type].labels.status)}: ${t(reportStateLabel(state))}`;
  const slug = reportStateSlug(state);
  const content = (
    <>
      <Icon width="22" height="22">
        {SHAPES[state]}
      </Icon>
      <span className="visually-hidden">{label}</span>
    </>
  );
  const className = `report-status report-status--${slug}`;
  return to ? (
    <Link to={to} className={className} title={label} data-state={slug} data-report-type={type}>
      {content}
    </Link>
  ) : (
    <span className={className} title={label} data-state={slug} data-report-type={type}>
      {content}
    </span>
  );
}
