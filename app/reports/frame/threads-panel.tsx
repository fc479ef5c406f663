import { Form } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";
import { CellLink } from "~/reports/frame/checks-panel";
import { CommentField } from "~/reports/frame/comment-field";
import {
  COMMENT_ON_CELL_EVENT,
  COMMENT_PARAM,
  commentParam,
  openThreadPlaces,
  placeText,
  THREAD_FIELDS,
  threadAnchor,
  type CommentOnCell,
  type ReportThreadsView,
  type ThreadIntent,
  type ThreadPlace,
  type ThreadProblem,
  type ThreadView,
} from "~/reports/frame/threads";

/** The new thread's text field. */
const NEW_BODY_ID = "thread-new-body";

interface PanelProps {
  threads: ReportThreadsView;
  quarterId: number;
  /** This page with the given query parameters (the quarter kept). */
  href: (params: Record<string, string | number | null>) => string;
  /** A column's label (a translation key), by table and key. */
  columnLabel: (table: string, column: string) => string;
  /** A refused thread post, shown beside its form. */
  problem: ThreadProblem | null;
  busy: boolean;
}

/** Where a thread is, as its heading and links say it (placeText in the page's language). */
function usePlaceText(columnLabel: PanelProps["columnLabel"]) {
  const { t } = useTranslation();
  return (place: Pick<ThreadPlace, "table" | "row" | "column">) => placeText(place, (key, values) => t(key, values), columnLabel);
}

/** A thread post's form: the envelope's intent and quarter, and the fields given. */
function ThreadForm({
  intent,
  quarterId,
  fields,
  busy,
  children,
}: {
  intent: ThreadIntent;
  quarterId: number;
  fields: Record<string, string | number | null>;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="threads-panel__form" preventScrollReset aria-busy={busy || undefined}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="quarterId" value={quarterId} />
      {Object.entries(fields).map(([name, value]) => (value === null ? null : <input key={name} type="hidden" name={name} value={value} />))}
      {children}
    </Form>
  );
}

/**
 * The report's comments on rows and cells: each thread with where it is (a link to the cell), its
 * messages, a reply and Resolve (or Reopen); a new thread's form when a row's "Comment" link or the
 * grid's menu asked for one. A native <details> of plain forms: no JavaScript needed.
 */
export function ThreadsPanel({ threads, quarterId, href, columnLabel, problem, busy }: PanelProps) {
  const { t } = useTranslation();
  const placeText = usePlaceText(columnLabel);
  const [asked, setAsked] = useState<CommentOnCell | null>(null);
  const panel = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onAsk = (event: Event) => {
      setAsked((event as CustomEvent<CommentOnCell>).detail);
      if (panel.current) panel.current.open = true;
    };
    window.addEventListener(COMMENT_ON_CELL_EVENT, onAsk);
    return () => window.removeEventListener(COMMENT_ON_CELL_EVENT, onAsk);
  }, []);
  // A thread added (the page reloaded with it): the form asked for is done.
  useEffect(() => setAsked(null), [threads.threads.length]);
  useEffect(() => {
    if (!asked) return;
    const body = document.getElementById(NEW_BODY_ID);
    body?.scrollIntoView({ block: "center" });
    body?.focus();
  }, [asked]);

  const draft = asked ?? threads.draft;
  const newProblem = problem?.intent === "thread-open" ? problem : null;
  const resolved = threads.threads.length - threads.open;
  if (threads.threads.length === 0 && !draft) return null;
  return (
    <details className="threads-panel card" id="threads" data-testid="threads-panel" open={threads.open > 0 || draft !== null || problem !== null} ref={panel}>
      <summary className="threads-panel__summary">
        <span className="threads-panel__title">{t("Comments")}</span> <span className="badge threads-panel__count">{threads.open}</span>{" "}
        <span className="threads-panel__counts">{t("{{open}} open, {{resolved}} resolved", { open: threads.open, resolved })}</span>
      </summary>
      {draft && threads.canWrite ? (
        <section className="threads-panel__new" aria-labelledby="thread-new-title">
          <h2 className="threads-panel__heading" id="thread-new-title">
            {t("New comment on {{place}}", { place: placeText(draft) })}
            {draft.rowLabel ? <span className="threads-panel__row-label"> {draft.rowLabel}</span> : null}
          </h2>
          <ThreadForm
            intent="thread-open"
            quarterId={quarterId}
            busy={busy}
            fields={{ [THREAD_FIELDS.table]: draft.table, [THREAD_FIELDS.row]: draft.rowId, [THREAD_FIELDS.column]: draft.column }}
          >
            <CommentField
              id={NEW_BODY_ID}
              name={THREAD_FIELDS.body}
              placeholder="Write what to check or correct"
              error={newProblem ? t(newProblem.message) : null}
              defaultValue={newProblem?.body ?? ""}
            />
            <button type="submit" className="button button--primary" disabled={busy}>
              {t("Add comment")}
            </button>
          </ThreadForm>
        </section>
      ) : null}
      <ol className="threads-panel__list">
        {threads.threads.map((thread) => (
          <Thread
            key={thread.id}
            thread={thread}
            {...{ quarterId, href, busy, placeText }}
            canWrite={threads.canWrite}
            problem={problem?.threadId === thread.id ? problem : null}
          />
        ))}
      </ol>
    </details>
  );
}

function Thread({
  thread,
  quarterId,
  href,
  busy,
  canWrite,
  placeText,
  problem,
}: {
  thread: ThreadView;
  quarterId: number;
  href: PanelProps["href"];
  busy: boolean;
  canWrite: boolean;
  placeText: ReturnType<typeof usePlaceText>;
  problem: ThreadProblem | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const place = placeText(thread);
  return (
    <li className={`threads-panel__thread${thread.open ? "" : " threads-panel__thread--resolved"}`} id={threadAnchor(thread.id)} data-thread={thread.id}>
      <h2 className="threads-panel__heading">
        {thread.row === null ? (
          place
        ) : (
          <CellLink at={{ table: thread.table, row: thread.row, column: thread.column ?? "", rowId: thread.rowId }} href={href}>
            {place}
          </CellLink>
        )}
        <span className="threads-panel__row-label"> {thread.rowLabel}</span>
        {thread.open ? null : (
          <span className="badge threads-panel__resolved">
            {t("Resolved by {{name}} on {{time}}", { name: thread.resolvedBy ?? "", time: format.dateTime(thread.resolvedAt) })}
          </span>
        )}
      </h2>
      <ol className="threads-panel__messages">
        {thread.messages.map((message) => (
          <li key={message.id} className={message.fromPartner ? "threads-panel__message threads-panel__message--partner" : "threads-panel__message"}>
            <p className="threads-panel__meta">
              <strong>{message.author}</strong> · <time dateTime={message.at}>{format.dateTime(message.at)}</time>
            </p>
            <p className="threads-panel__body">{message.body}</p>
          </li>
        ))}
      </ol>
      {canWrite ? (
        <div className="threads-panel__actions">
          {thread.open ? (
            <ThreadForm intent="thread-reply" quarterId={quarterId} busy={busy} fields={{ [THREAD_FIELDS.thread]: thread.id }}>
              <CommentField
                id={`thread-${thread.id}-reply`}
                name={THREAD_FIELDS.body}
                placeholder="Write a reply"
                error={problem ? t(problem.message) : null}
                defaultValue={problem?.body ?? ""}
                rows={2}
              />
              <button type="submit" className="button button--secondary" disabled={busy}>
                {t("Reply")}
              </button>
            </ThreadForm>
          ) : null}
          <ThreadForm
            intent={thread.open ? "thread-resolve" : "thread-reopen"}
            quarterId={quarterId}
            busy={busy}
            fields={{ [THREAD_FIELDS.thread]: thread.id }}
          >
            <button type="submit" className="button button--secondary" disabled={busy}>
              {thread.open ? t("Resolve") : t("Reopen")}
            </button>
          </ThreadForm>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The plain form's link that opens a new thread on a saved row (`?comment=`), with the count of the
 * row's open threads; nothing for a row not saved yet.
 */
export function RowComments({
  threads,
  table,
  rowId,
  n,
  label,
  pageHref,
}: {
  threads: ReportThreadsView | null;
  table: string;
  rowId: number | undefined;
  /** How the link is named: the row's number, or where a stored row is one cell (Filing Plans), the cell's name. */
  n?: number;
  label?: string;
  /** The plain form's page (its tab and page kept) with the given query parameters. */
  pageHref: (params: Record<string, string>) => string;
}) {
  const { t } = useTranslation();
  if (!threads || rowId === undefined) return null;
  const open = openThreadPlaces(threads).get(`${table}:${rowId}`) ?? 0;
  return (
    <>
      {open > 0 ? (
        <a className="badge threads-panel__marker" href="#threads" title={t("Open comments: {{count}}", { count: open })}>
          {t("Open comments: {{count}}", { count: open })}
        </a>
      ) : null}
      {threads.canWrite ? (
        <a
          className="report-form__comment"
          href={`${pageHref({ [COMMENT_PARAM]: commentParam(table, rowId) })}#threads`}
          aria-label={label ? t("Comment on {{place}}", { place: label }) : t("Comment on row {{n}}", { n })}
        >
          {t("Comment")}
        </a>
      ) : null}
    </>
  );
}
