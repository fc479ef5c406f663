import { useTranslation } from "react-i18next";

/**
 * Errors are English keys from the shared zod schemas; shown translated. Apart from forms.tsx so
 * that pages using only this (the report pages) do not load the form library with it.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert">
      <ul className="field__errors">
        {errors.map((error) => (
          <li key={error}>{t(error)}</li>
        ))}
      </ul>
    </div>
  );
}
