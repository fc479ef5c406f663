import { Link } from "@remix-run/react";
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
