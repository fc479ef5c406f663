import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import ar from "../../public/locales/ar/common.json";
import en from "../../public/locales/en/common.json";
import es from "../../public/locales/es/common.json";
import fr from "../../public/locales/fr/common.json";
import it from "../../public/locales/it/common.json";
import zh from "../../public/locales/zh/common.json";
import { i18nConfig, type Language } from "./config";

export const localeCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 365 * 24 * 60 * 60,
});

export const resources: Record<Language, { common: Record<string, string> }> = {
  en: { common: en },
  zh: { common: zh },
  es: { common: es },
  fr: { common: fr },
  it: { common: it },
  ar: { common: ar },
};

export const i18next = new RemixI18Next({
  detection: {
    supportedLanguages: i18nConfig.supportedLngs,
    fallbackLanguage: i18nConfig.fallbackLng,
    cookie: localeCookie,
    order: ["searchParams", "cookie", "header"],
  },
  i18next: { ...i18nConfig, resources },
});

/** A translator for a language chosen on the server (mails in the recipient's language). */
export function translatorFor(language: string) {
  return i18next.getFixedT(language, "common");
}
