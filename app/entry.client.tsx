import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import Backend from "i18next-fetch-backend";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "./i18n/config";

/**
 * The events that make React 18 hydrate the page at once when they reach it mid-hydration. While
 * <RemixBrowser> still waits for its data (single fetch), that forced render cannot finish and the
 * page is left without its scripts for good ("Root did not complete"): someone typing into the
 * plain form as the page wakes on a slow link would lose the grid.
 */
const EVENTS_THAT_FORCE_HYDRATION = [
  "keydown",
  "keypress",
  "keyup",
  "input",
  "textInput",
  "compositionstart",
  "compositionend",
  "change",
  "click",
  "auxclick",
  "dblclick",
  "contextmenu",
  "mousedown",
  "mouseup",
  "pointerdown",
  "pointerup",
  "pointercancel",
  "touchstart",
  "touchend",
  "touchcancel",
  "dragstart",
  "dragend",
  "drop",
  "copy",
  "cut",
  "paste",
  "reset",
  "submit",
] as const;

/**
 * Until the page is hydrated (root.tsx marks it), those events do only what the browser does with
 * them in the plain page (the characters land in the field, a link or a form posts as without
 * JavaScript); the screens pick up what was typed when they take over.
 */
function keepEventsFromReactUntilHydrated() {
  const hold = (event: Event) => {
    if (document.documentElement.dataset.hydrated) {
      for (const type of EVENTS_THAT_FORCE_HYDRATION) window.removeEventListener(type, hold, true);
      return;
    }
    event.stopPropagation();
  };
  for (const type of EVENTS_THAT_FORCE_HYDRATION) window.addEventListener(type, hold, true);
}

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

keepEventsFromReactUntilHydrated();
void hydrate();
