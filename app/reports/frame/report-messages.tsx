import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReportFrameView } from "~/reports/frame/screen.server";
import { useFormatters } from "~/hooks/use-formatters";
import { ScrollRegion } from "~/components/scroll-region";

/**
 * The report's messages behind a `<details>` with the unread count. Opening it marks them read
 * for the viewer's side (a background post) and shows 0; without JavaScript the messages are
 * simply shown and a "Mark as read" button posts the same intent. STAFF read without marking.
 */
export function ReportMessages({ frame, canMarkRead, hydrated }: { frame: ReportFrameView; canMarkRead: boolean; hydrated: boolean }) {
  const { t } = useTranslation();
  const { messages, unreadMessageCount: unreadCount } = frame;
  const quarterId = frame.quarter.id;
  const format = useFormatters();
  const fetcher = useFetcher({ key: "report-messages-read" });
  const [count, setCount] = useState(unreadCount);
  useEffect(() => setCount(unreadCount), [unreadCount]);

  const markRead = () => {
    if (!canMarkRead || count === 0) return;
    setCount(0);
    fetcher.submit({ intent: "read-messages", quarterId: String(quarterId) }, { method: "post" });
  };

  return (
    <details
      className="messages-popover"
      data-popup
      data-testid="report-messages"
      onToggle={(event) => {
        if (event.currentTarget.open) markRead();
      }}
    >
      <summary className="button button--secondary messages-popover__summary">
        {t("Messages")}
        <span className={`badge messages-popover__badge${count ? "" : " messages-popover__badge--zero"}`} data-testid="unread-count">
          {count}
        </span>
        <span className="visually-hidden">{t("unread")}</span>
      </summary>
      <ScrollRegion className="messages-popover__panel" label={t("Messages")}>
        {messages.length === 0 ? (
          <p className="empty">{t("No messages yet.")}</p>
        ) : (
          <ol className="messages-popover__list">
            {messages.map((message) => (
              <li
                key={message.id}
                className={`messages-popover__item${message.isPartnerMessage ? " messages-popover__item--partner" : " messages-popover__item--admin"}`}
              >
                <p className="messages-popover__meta">
                  <strong>{message.author ?? (message.isPartnerMessage ? t("Partner") : t("Administrator"))}</strong>{" "}
                  <time dateTime={new Date(message.createdAt).toISOString()}>{format.dateTime(message.createdAt)}</time>
                  {message.isApproved === true ? <span className="status status--approved">{t("Approved")}</span> : null}
                  {message.isApproved === false ? <span className="status status--rejected">{t("Rejected")}</span> : null}
                </p>
                <p className="messages-popover__text">{message.message}</p>
              </li>
            ))}
          </ol>
        )}
        {!hydrated && canMarkRead && count > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-messages" />
            <input type="hidden" name="quarterId" value={quarterId} />
            <button type="submit" className="button button--secondary">
              {t("Mark as read")}
            </button>
          </Form>
        ) : null}
      </ScrollRegion>
    </details>
  );
}
