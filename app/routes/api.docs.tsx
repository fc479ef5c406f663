import type { LinksFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { documentedCalls } from "~/api/docs.server";
import styles from "~/components/api-docs.css";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "API documentation" };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** Public: partners' developers read it before they have an account. */
export const loader = () => documentedCalls();

export default function ApiDocsPage() {
  const { t } = useTranslation();
  const { title, description, calls } = useLoaderData<typeof loader>();
  const tags = [...new Set(calls.map((call) => call.tag))];
  return (
    <main className="api-docs">
      <h1>{t("API documentation")}</h1>
      <p className="api-docs__lead">
        {title}. {description}
      </p>
      <p>
        <a className="link" href="/api/openapi.json">
          {t("The OpenAPI document (JSON)")}
        </a>
        {" · "}
        <a className="link" href="/login">
          {t("Sign in")}
        </a>
      </p>
      <nav aria-label={t("Calls")} className="api-docs__index">
        {tags.map((tag) => (
          <section key={tag}>
            <h2>{tag}</h2>
            <ul>
              {calls
                .filter((call) => call.tag === tag)
                .map((call) => (
                  <li key={call.id}>
                    <a href={`#${call.id}`}>
                      <code>
                        {call.method} {call.path}
                      </code>
                    </a>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </nav>
      {calls.map((call) => (
        <article key={call.id} id={call.id} className="api-docs__call" aria-labelledby={`${call.id}-title`}>
          <h3 id={`${call.id}-title`}>
            <span className={`api-docs__method api-docs__method--${call.method.toLowerCase()}`}>{call.method}</span> <code>{call.path}</code>
          </h3>
          <p>{call.summary}</p>
          <p className="api-docs__roles">{call.roles ?? t("No token needed.")}</p>
          {call.parameters.length > 0 && (
            <>
              <h4>{t("Parameters")}</h4>
              <ul>
                {call.parameters.map((parameter) => (
                  <li key={`${parameter.in}-${parameter.name}`}>
                    <code>{parameter.name}</code> ({parameter.in}
                    {parameter.required ? `, ${t("required")}` : ""}){parameter.description ? `: ${parameter.description}` : ""}
                  </li>
                ))}
              </ul>
            </>
          )}
          {call.body && (
            <>
              <h4>{t("Request body")}</h4>
              <pre tabIndex={0}>{call.body}</pre>
            </>
          )}
          {call.example && (
            <>
              <h4>{t("Example")}</h4>
              <pre tabIndex={0}>{call.example}</pre>
            </>
          )}
          <h4>{t("Answer")}</h4>
          <pre tabIndex={0}>{call.answer}</pre>
          <h4>{t("Errors")}</h4>
          <ul>
            {call.errors.map((error) => (
              <li key={error.status}>
                <code>{error.status}</code> {error.description}
              </li>
            ))}
          </ul>
        </article>
      ))}
    </main>
  );
}
