import { useTranslation } from "react-i18next";

/** How many days a planned date moved since last quarter's plan: later in the danger colour, earlier in the muted one. */
export function SlipBadge({ days }: { days: number | null }) {
  const { t } = useTranslation();
  if (days === null || days === 0) return null;
  const later = days > 0;
  return (
    <span
      className={`slip slip--${later ? "later" : "earlier"}`}
      title={t(later ? "{{days}} days later than last quarter's plan" : "{{days}} days earlier than last quarter's plan", { days: Math.abs(days) })}
    >
      {later ? `+${days}` : `−${Math.abs(days)}`}
    </span>
  );
}
