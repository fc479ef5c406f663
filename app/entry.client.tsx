import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import Backend from "i18next-fetch-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n/config";

async function hydrate() {
  const lng = document.documentElement.lang || "en";
  await i18next
    .use(initReactI18next)
    .use(Backend)
    .init({
      ...i18nConfig,
      lng,
      backend: { loadPath: `/locales/{{lng}}/{{ns}}.json?v=${document.documentElement.dataset.localesVersion ?? ""}` },
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
