import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Toast } from "~/utils/toast.server";

/**
 * A message after a redirect. Without JavaScript it simply stays on the page (the next post
 * loads a page without it). With JavaScript it goes when the page posts again: a refused post
 * (a failed upload, say) must not stand next to the earlier success.
 */
export function ToastMessage({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const submitting = useNavigation().state === "submitting";
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (submitting) setVisible(false);
  }, [submitting]);
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
