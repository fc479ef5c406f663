import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n/config";
import { GlobeIcon } from "./icons";

function useLanguageHref() {
  const location = useLocation();
  return (language: string) => {
    const params = new URLSearchParams(location.search);
    params.set("lng", language);
    return `${location.pathname}?${params}`;
  };
}

/** Plain links (`?lng=`): they work without JavaScript; the choice is kept in a cookie. */
export function LanguageLinks() {
  const { t, i18n } = useTranslation();
  const hrefFor = useLanguageHref();
  return (
    <nav className="language-links" aria-label={t("Language")}>
      {SUPPORTED_LANGUAGES.map((language) => (
        <Link
          key={language}
          to={hrefFor(language)}
          reloadDocument
          lang={language}
          hrefLang={language}
          aria-current={i18n.language === language ? "true" : undefined}
        >
          {LANGUAGE_NAMES[language]}
        </Link>
      ))}
    </nav>
  );
}

/** The signed-in menu posts the choice: it also becomes the language of the user's mails. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const current = SUPPORTED_LANGUAGES.find((language) => language === i18n.language) ?? "en";
  const params = new URLSearchParams(location.search);
  params.delete("lng");
  const query = params.toString();
  return (
    <details className="menu" data-popup>
      <summary className="menu__trigger" aria-label={`${t("Language")}: ${LANGUAGE_NAMES[current]}`}>
        <GlobeIcon />
        <span className="menu__label">{LANGUAGE_NAMES[current]}</span>
      </summary>
      <Form method="post" action="/language" reloadDocument>
        <input type="hidden" name="redirectTo" value={`${location.pathname}${query ? `?${query}` : ""}`} />
        <ul className="menu__list">
          {SUPPORTED_LANGUAGES.map((language) => (
            <li key={language}>
              <button
                type="submit"
                className="menu__button"
                name="language"
                value={language}
                lang={language}
                aria-current={current === language ? "true" : undefined}
              >
                {LANGUAGE_NAMES[language]}
              </button>
            </li>
          ))}
        </ul>
      </Form>
    </details>
  );
}
