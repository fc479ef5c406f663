import { useTranslation } from "react-i18next";

/** Label and value pairs; an empty value shows a dash. */
export function ProfileList({ entries }: { entries: [label: string, value: string | null | undefined][] }) {
  const { t } = useTranslation();
  return (
    <section className="card">
      <dl className="profile">
        {entries.map(([label, value]) => (
          <div key={label} className="profile__row">
            <dt>{t(label)}</dt>
            <dd>{value?.trim() ? value : "-"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
