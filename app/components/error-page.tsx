import { Link, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ACCESS_DENIED, BAD_REQUEST, NOT_AUTHORIZED, PAGE_NOT_FOUND } from "~/utils/messages";

type ErrorKind = "not-found" | "forbidden" | "access-denied" | "refused" | "server";

/**
 * The 404, 403 and 500 pages, 'Access Denied!' (a signed-in user on a signed-out page, signed out
 * there) and any other refused request (too large, not a form: its status and message).
 * The request id lets a partner quote a failure to support.
 */
export function ErrorPage({ kind, requestId, status, message }: { kind: ErrorKind; requestId?: string; status?: number; message?: string }) {
  const { t } = useTranslation();
  const content = {
    "not-found": { code: "404", title: t(PAGE_NOT_FOUND) },
    forbidden: { code: "403", title: t(NOT_AUTHORIZED) },
    "access-denied": { code: "403", title: t(ACCESS_DENIED) },
    refused: { code: String(status ?? 400), title: t(message ?? BAD_REQUEST) },
    server: { code: "500", title: t("Sorry, server goes wrong") },
  }[kind];
  return (
    <main className="error-page" data-error={kind}>
      <p className="error-page__code" aria-hidden="true">
        {content.code}
      </p>
      <h1 className="error-page__title">{content.title}</h1>
      {kind === "server" && requestId ? (
        <p className="error-page__reference">
          {t("Reference for support")}: <code>{requestId}</code>
        </p>
      ) : null}
      {kind === "access-denied" ? (
        <>
          <p className="error-page__note">{t("You have been signed out.")}</p>
          <Link className="button button--primary" to="/login" reloadDocument>
            {t("Sign in")}
          </Link>
        </>
      ) : (
        <Link className="button button--primary" to="/login" reloadDocument>
          {t("Go to Dashboard")}
        </Link>
      )}
    </main>
  );
}

/**
 * The error boundary of the root and of the signed-in layouts: a refused role gets the 403 page,
 * a missing record the 404 page, another refused request its status and message, anything else
 * the 500 page with the request id to quote.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const rootData = useRouteLoaderData<{ requestId?: string }>("root");
  if (isRouteErrorResponse(error) && error.status < 500) {
    const message = typeof error.data?.message === "string" ? (error.data.message as string) : undefined;
    if (error.status === 403) return <ErrorPage kind={message === ACCESS_DENIED ? "access-denied" : "forbidden"} />;
    if (error.status === 404) return <ErrorPage kind="not-found" />;
    return <ErrorPage kind="refused" status={error.status} message={message} />;
  }
  return <ErrorPage kind="server" requestId={rootData?.requestId} />;
}
