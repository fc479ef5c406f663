export const SUPPORTED_LANGUAGES = ["en", "zh", "es", "fr", "it", "ar"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  zh: "中文",
  es: "Español",
  fr: "Français",
  it: "Italiano",
  ar: "العربية",
};

const RTL_LANGUAGES: ReadonlySet<string> = new Set(["ar"]);

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export function textDirection(language: string): "rtl" | "ltr" {
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr";
}

/**
 * Keys are the English wording itself (the spec's messages verbatim), so the separators
 * that i18next would read inside them are switched off.
 */
export const i18nConfig = {
  supportedLngs: [...SUPPORTED_LANGUAGES],
  fallbackLng: "en",
  defaultNS: "common",
  ns: ["common"],
  keySeparator: false as const,
  nsSeparator: false as const,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};
