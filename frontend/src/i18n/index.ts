// Tiny i18n: flat string tables, "{name}" placeholders, language from the profile or the browser.
import { en, type Key } from "./en";
import { de } from "./de";
import { cs } from "./cs";

export type Lang = "en" | "de" | "cs";
export type { Key };
export const LANGS: Lang[] = ["en", "de", "cs"];
export const LANG_NAMES: Record<Lang, string> = { en: "English", de: "Deutsch", cs: "Čeština" };
export const TABLES: Record<Lang, Record<Key, string>> = { en, de, cs };

export function pickLang(candidates: readonly string[] | undefined): Lang {
  for (const c of candidates || []) {
    const base = c.toLowerCase().split("-")[0];
    if ((LANGS as string[]).includes(base)) return base as Lang;
  }
  return "en";
}

export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function translate(lang: Lang, key: Key, params?: Record<string, string | number>): string {
  return format(TABLES[lang][key] ?? en[key] ?? key, params);
}
