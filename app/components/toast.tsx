import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Toast } from "~/utils/toast.server";

/** A message after a redirect. Without JavaScript it simply stays on the page. */
export function ToastMessage({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className={`toast toast--${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
      <span className="toast__message">{t(toast.message, toast.values)}</span>
      <button type="button" className="toast__close" aria-label={t("Close")} onClick={() => setVisible(false)}>
        ×
      </button>
    </div>
  );
}
