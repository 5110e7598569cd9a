// Every message of every catalogue, rendered in every language with sample params, shows no placeholder
// (issue 33: a raw "{total}" in the last-trick dialog and the replay); plurals follow CLDR; colour
// abbreviations are unique. The type checks below fail `npm run typecheck` if `t` stops rejecting wrong params.
import { describe, expect, it } from "vitest";
import { LANGS, TABLES, translate, type Key } from "../src/i18n";
import { en } from "../src/i18n/en";
import { INH_TABLES, inhCards, inhTranslate } from "../src/i18n/inheritors";
import { formatDuration, relativeTime } from "../src/i18n/durations";

const COUNTS = [0, 1, 2, 3, 4, 5, 11, 21, 22, 25, 101, 1.5];
const names = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))];

/** The keys callers name: plain entries, and the base of each plural message ("new.days" for "new.days#other"). */
function callerKeys(table: Record<string, string>): string[] {
  const keys = Object.keys(table).filter((k) => !k.includes("#"));
  const bases = Object.keys(table).filter((k) => k.endsWith("#other")).map((k) => k.slice(0, -"#other".length));
  return [...keys, ...bases];
}

/** Sample params for an English template: every placeholder a word, the count `n` each of COUNTS in turn. */
function samples(template: string): Record<string, string | number>[] {
  const base = Object.fromEntries(names(template).map((n) => [n, "Xy"]));
  return names(template).includes("n") ? COUNTS.map((n) => ({ ...base, n })) : [base];
}

describe("every message renders without a placeholder left", () => {
  const enTable = en as Record<string, string>;
  for (const lang of LANGS) {
    it(`main catalogue, ${lang}`, () => {
      const keys = callerKeys(enTable);
      expect(keys.length).toBeGreaterThan(300);
      for (const key of keys) {
        const template = enTable[key] ?? enTable[`${key}#other`];
        for (const params of samples(template)) {
          const text = (translate as (l: string, k: string, p?: object) => string)(lang, key, params);
          expect(text, `${lang} ${key} ${JSON.stringify(params)}`).not.toMatch(/[{}]/);
          expect(text.trim(), `${lang} ${key}`).not.toBe("");
          expect(text, `${lang} ${key} is not translated`).not.toContain("#");
        }
      }
    });
    it(`Inheritors catalogue, ${lang}`, () => {
      const table = INH_TABLES.en as Record<string, string>;
      for (const key of callerKeys(table)) {
        for (const params of samples(table[key] ?? table[`${key}#other`])) {
          const text = inhTranslate(lang, key, params);
          expect(text, `${lang} ${key} ${JSON.stringify(params)}`).not.toMatch(/[{}]/);
        }
      }
    });
  }

  it("the translations' own texts name only placeholders en gives them", () => {
    for (const lang of LANGS) {
      for (const [k, v] of Object.entries(TABLES[lang] as Record<string, string>)) {
        const ref = enTable[k] ?? enTable[`${k.split("#")[0]}#other`];
        for (const n of names(v)) expect(names(ref), `${lang} ${k}`).toContain(n);
      }
    }
  });
});

describe("plurals by CLDR rules", () => {
  it("Czech one, few, other; German and English one, other", () => {
    expect([1, 2, 4, 5, 22].map((n) => translate("cs", "new.days", { n }))).toEqual(["1 den", "2 dny", "4 dny", "5 dní", "22 dní"]);
    expect([1, 3, 5].map((n) => translate("cs", "clock.per_move", { n }))).toEqual(["1 den na tah", "3 dny na tah", "5 dní na tah"]);
    expect([1, 2].map((n) => translate("de", "new.days", { n }))).toEqual(["1 Tag", "2 Tage"]);
    expect([1, 0, 2].map((n) => translate("en", "table.cards_left", { n }))).toEqual(["1 card", "0 cards", "2 cards"]);
    expect([1, 3, 7].map((n) => inhCards("cs", n))).toEqual(["1 karta", "3 karty", "7 karet"]);
  });

  it("durations and relative times come from Intl in the reader's language", () => {
    const now = Date.parse("2026-01-10T12:00:00Z");
    const at = (h: number) => new Date(now + h * 3600000).toISOString();
    expect(relativeTime(at(50), "cs", now, "právě teď")).toBe("za 2 dny");
    expect(relativeTime(at(-5 * 24), "cs", now, "právě teď")).toBe("před 5 dny");
    expect(relativeTime(at(3.5), "de", now, "gerade eben")).toBe("in 3 Stunden");
    expect(relativeTime(at(0.5), "en", now, "just now")).toBe("in 30 minutes");
    expect(relativeTime(at(-0.5), "en", now, "just now")).toBe("just now");
    expect(relativeTime(null, "en", now, "just now")).toBe("");
    expect(formatDuration(2 * 86400, "cs")).toBe("2 dny");
    expect(formatDuration(3 * 3600 + 60, "de")).toBe("3 Std. 1 Min.");
  });
});

describe("Inheritors colour abbreviations", () => {
  it("are distinct within each language (German Grün and Gelb were both G)", () => {
    const colours = ["red", "green", "purple", "blue", "yellow", "white"];
    for (const lang of LANGS) {
      const abbr = colours.map((c) => inhTranslate(lang, `inh.ca.${c}`));
      expect(new Set(abbr).size, `${lang}: ${abbr.join(" ")}`).toBe(colours.length);
      expect(abbr.every((a) => a.length <= 2), lang).toBe(true);
    }
  });
});

describe("t's params are type-checked (npm run typecheck)", () => {
  it("rejects a missing, an unknown or a mistyped param, and params for a key without placeholders", () => {
    const checked = (k: Key) => k;
    // @ts-expect-error "total" is missing (the old last-trick dialog call)
    translate("en", "table.trick", { n: 1 });
    // @ts-expect-error "count" is not a placeholder of table.trick
    translate("en", "table.trick", { n: 1, total: 13, count: 2 });
    // @ts-expect-error a plural message's count is a number
    translate("en", "new.days", { n: "2" });
    // @ts-expect-error common.close has no placeholders
    translate("en", "common.close", { n: 1 });
    // @ts-expect-error a plural variant is not a key callers name
    checked("new.days#one");
    expect(translate("en", "table.trick", { n: 1, total: 13 })).toBe("Trick 1/13");
  });
});
