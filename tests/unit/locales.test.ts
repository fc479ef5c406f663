import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_STAGES, FDF_STAGES, REGIONS } from "~/db/reference-data";
import { SUPPORTED_LANGUAGES } from "~/i18n/config";

const root = path.resolve(import.meta.dirname, "../../public/locales");
const load = (language: string): Record<string, string> => JSON.parse(fs.readFileSync(path.join(root, language, "common.json"), "utf8"));
const english = load("en");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("translations", () => {
  it("every language has exactly the English keys, each translated", () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const messages = load(language);
      expect(Object.keys(messages).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, value] of Object.entries(messages)) expect(value.trim(), `${language}: ${key}`).not.toBe("");
    }
  });

  it("names every stage and region of the reference data (shown translated, stored in English)", () => {
    for (const name of [...FDF_STAGES, ...API_STAGES, ...REGIONS]) expect(name in english, name).toBe(true);
  });

  it("keeps the spec's English wording verbatim", () => {
    for (const [key, value] of Object.entries(english)) expect(value).toBe(key);
  });

  it("a language other than English differs from English on most strings", () => {
    for (const language of SUPPORTED_LANGUAGES.filter((l) => l !== "en")) {
      const messages = load(language);
      const same = Object.keys(english).filter((key) => messages[key] === english[key]).length;
      expect(same / Object.keys(english).length, language).toBeLessThan(0.15);
    }
  });

  it('every literal t("…"), schema message and page title in the app has an English entry', () => {
    const missing = new Set<string>();
    // The JSON API answers machines in English (its texts and examples are not shown through the UI's translations):
    // its dispatcher in app/api/ and each feature's calls in its api.server.ts.
    const api = path.resolve(import.meta.dirname, "../../app/api");
    const isApi = (name: string) => name.startsWith(api) || path.basename(name) === "api.server.ts";
    for (const file of sourceFiles(path.resolve(import.meta.dirname, "../../app")).filter((name) => !isApi(name))) {
      const source = fs.readFileSync(file, "utf8");
      const literals = [
        ...source.matchAll(/\bt\("((?:[^"\\]|\\.)+)"/g),
        ...source.matchAll(/\berror: "((?:[^"\\]|\\.)+)"/g),
        ...source.matchAll(/\bmessage: "((?:[^"\\]|\\.)+)"/g),
        ...source.matchAll(/\blabel: "((?:[^"\\]|\\.)+)"/g),
        // Page titles of the routes' handles, shown translated in <title>.
        ...source.matchAll(/\bhandle: PageHandle = \{ title: "((?:[^"\\]|\\.)+)"/g),
      ].map((match) => match[1]);
      for (const key of literals) if (!(key in english)) missing.add(`${path.basename(file)}: ${key}`);
    }
    expect([...missing]).toEqual([]);
  });
});
