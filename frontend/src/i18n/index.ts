// Tiny i18n: flat string tables, "{name}" placeholders, CLDR plurals, language from the profile or the browser.
//
// Placeholders. A message "Trick {n}/{total}" is called as t("table.trick", { n, total }). The names come from
// the English catalogue's literal types (en.ts is `as const`), so `t(key, params)` must get exactly the
// placeholders of that key: a missing or an unknown name is a type error, and a key without placeholders takes
// no params at all.
//
// Plurals. A message whose wording depends on a count has variants "key#one", "key#few", "key#many",
// "key#other" (the CLDR plural categories; "#other" is required, the others as the language needs: English and
// German have #one/#other, Czech #one/#few/#other and #many for fractions). The caller names the base key and
// passes the count as `n` (a number): t("new.days", { n: 2 }) picks the variant of
// `Intl.PluralRules(lang).select(n)`, falling back to "#other". This is the only plural mechanism (the
// Inheritors tables use it too).
//
// Durations and relative times are not catalogue strings: `durations.ts` formats them with Intl
// (NumberFormat's unit style, RelativeTimeFormat).
import { en, type Catalogue, type Entry } from "./en";
import { de } from "./de";
import { cs } from "./cs";

export type Lang = "en" | "de" | "cs";
export const LANGS: Lang[] = ["en", "de", "cs"];
export const LANG_NAMES: Record<Lang, string> = { en: "English", de: "Deutsch", cs: "Čeština" };
export const TABLES: Record<Lang, Catalogue> = { en, de, cs };

/** The CLDR plural categories a "key#category" variant may name. */
export const PLURAL_FORMS = ["zero", "one", "two", "few", "many", "other"] as const;
export type PluralForm = (typeof PLURAL_FORMS)[number];

/** The placeholder names of a template literal type: "Trick {n}/{total}" → "n" | "total". */
export type PlaceholderNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | PlaceholderNames<Rest> : never;

/** The base of every plural message of a catalogue whose keys are `C` ("new.days" for "new.days#other"). */
export type PluralBaseOf<C extends string> = C extends `${infer B}#other` ? B : never;
/** The keys callers name: plain entries and plural bases, never a "#variant". */
export type KeyOf<C extends string> = Exclude<C, `${string}#${string}`> | PluralBaseOf<C>;

type PluralBase = PluralBaseOf<Entry>;
/** A message key of the main catalogue. */
export type Key = KeyOf<Entry>;

type Template<K extends Key> = K extends PluralBase ? (typeof en)[`${K}#other`] : K extends Entry ? (typeof en)[K] : never;
type ParamNames<K extends Key> = K extends PluralBase ? PlaceholderNames<Template<K>> | "n" : PlaceholderNames<Template<K>>;
/** The params of a key: each of its placeholders, the count `n` of a plural message a number. */
export type Params<K extends Key> = { [P in ParamNames<K>]: K extends PluralBase ? (P extends "n" ? number : string | number) : string | number };
/** The rest arguments after a key: none for a key without placeholders, else exactly its params. */
export type ParamArgs<K extends Key> = K extends Key ? ([ParamNames<K>] extends [never] ? [] : [params: Params<K>]) : never;
/** The signature of `t` (store.ts) and of any function handed a translator. */
export type Translate = <K extends Key>(key: K, ...params: ParamArgs<K>) => string;

export function pickLang(candidates: readonly string[] | undefined): Lang {
  for (const c of candidates || []) {
    const base = c.toLowerCase().split("-")[0];
    if ((LANGS as string[]).includes(base)) return base as Lang;
  }
  return "en";
}

/** Fills "{name}" placeholders; a name without a value stays as it is (the catalogue test finds those). */
export function format(template: string, params?: Readonly<Record<string, string | number>>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

const pluralRules = new Map<Lang, Intl.PluralRules>();

/** The CLDR plural category of `n` in `lang` ("one", "few", "other", …). */
export function pluralForm(lang: Lang, n: number): PluralForm {
  let rules = pluralRules.get(lang);
  if (!rules) { rules = new Intl.PluralRules(lang); pluralRules.set(lang, rules); }
  return rules.select(n) as PluralForm;
}

/**
 * The template of `key` in `table` (falling back to `fallback`, then to the key itself): a plural base's
 * variant for the count `n`, else the plain entry. Shared by the main and the Inheritors catalogues.
 */
export function lookup(lang: Lang, table: Readonly<Record<string, string | undefined>>,
  fallback: Readonly<Record<string, string | undefined>>, key: string, n: unknown): string {
  if (`${key}#other` in fallback) {
    const form = pluralForm(lang, typeof n === "number" ? n : Number(n));
    return table[`${key}#${form}`] ?? table[`${key}#other`] ?? fallback[`${key}#other`] ?? key;
  }
  return table[key] ?? fallback[key] ?? key;
}

export function translate<K extends Key>(lang: Lang, key: K, ...params: ParamArgs<K>): string {
  const p = params[0] as Readonly<Record<string, string | number>> | undefined;
  return format(lookup(lang, TABLES[lang], en, key, p?.n), p);
}
