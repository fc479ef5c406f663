import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Toast } from "~/utils/toast.server";

/**
 * A message after a redirect. Success and information leave after 6 s; an error stays until it
 * is closed. Without JavaScript the stylesheet fades the others out.
 */
export function ToastMessage({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const persistent = toast.type === "error";
  useEffect(() => {
    if (persistent) return;
    const timer = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(timer);
  }, [persistent]);
  if (!visible) return null;
  return (
    <div className={`toast toast--${toast.type}`} role={persistent ? "alert" : "status"}>
      <span className="toast__message">{t(toast.message, toast.values)}</span>
      <button type="button" className="toast__close" aria-label={t("Close")} onClick={() => setVisible(false)}>
        ×
      </button>
    </div>
  );
}
