import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Toast } from "~/utils/toast.server";

/**
 * A message after a redirect. Success and information leave after 6 s; an error stays until it
 * is closed. Without JavaScript the stylesheet fades the others out. With JavaScript any of them
 * goes when the page posts again: a refused post (a failed upload, say) must not stand next to
 * the earlier success.
 */
export function ToastMessage({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const persistent = toast.type === "error";
  const submitting = useNavigation().state === "submitting";
  useEffect(() => {
    if (persistent) return;
    const timer = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(timer);
  }, [persistent]);
  useEffect(() => {
    if (submitting) setVisible(false);
  }, [submitting]);
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
