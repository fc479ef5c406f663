import { Link, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";

type ErrorKind = "not-found" | "forbidden" | "server";

/** The 404, 403 and 500 pages. The request id lets a partner quote a failure to support. */
export function ErrorPage({ kind, requestId }: { kind: ErrorKind; requestId?: string }) {
  const { t } = useTranslation();
  const content = {
    "not-found": { code: "404", title: t("Oops, an error has occurred. Page not found!") },
    forbidden: { code: "403", title: t("YOU ARE NOT AUTHORIZED TO USE THE PAGE") },
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
      <Link className="button button--primary" to="/login" reloadDocument>
        {t("Go to Dashboard")}
      </Link>
    </main>
  );
}

/**
 * The error boundary of the root and of the signed-in layouts: a refused role gets the 403 page,
 * a missing record the 404 page, anything else the 500 page with the request id to quote.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const rootData = useRouteLoaderData<{ requestId?: string }>("root");
  if (isRouteErrorResponse(error) && error.status === 403) return <ErrorPage kind="forbidden" />;
  if (isRouteErrorResponse(error) && error.status === 404) return <ErrorPage kind="not-found" />;
  return <ErrorPage kind="server" requestId={rootData?.requestId} />;
}
