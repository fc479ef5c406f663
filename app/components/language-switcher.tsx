import { Link, useLocation } from "@remix-run/react";
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

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const hrefFor = useLanguageHref();
  const current = SUPPORTED_LANGUAGES.find((language) => language === i18n.language) ?? "en";
  return (
    <details className="menu" data-popup>
      <summary className="menu__trigger" aria-label={`${t("Language")}: ${LANGUAGE_NAMES[current]}`}>
        <GlobeIcon />
        <span className="menu__label">{LANGUAGE_NAMES[current]}</span>
      </summary>
      <ul className="menu__list">
        {SUPPORTED_LANGUAGES.map((language) => (
          <li key={language}>
            <Link to={hrefFor(language)} reloadDocument lang={language} aria-current={current === language ? "true" : undefined}>
              {LANGUAGE_NAMES[language]}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
