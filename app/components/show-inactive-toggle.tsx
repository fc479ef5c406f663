import { useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * The "Show inactive" checkbox of a GET filter form (`status=inactive`). With JavaScript the
 * list updates at once; without it the form's own button applies it.
 */
export function ShowInactiveToggle({ checked, className }: { checked: boolean; className: string }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  return (
    <label className={`checkbox ${className}`}>
      <input
        key={String(checked)}
        type="checkbox"
        name="status"
        value="inactive"
        defaultChecked={checked}
        onChange={(event) => submit(event.currentTarget.form)}
      />
      <span>{t("Show inactive")}</span>
    </label>
  );
}
