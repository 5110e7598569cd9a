import { describe, expect, it } from "vitest";
import { format, LANGS, pickLang, TABLES, translate } from "../src/i18n";
import { en } from "../src/i18n/en";
import { POWERS, rulesFor } from "../src/rules";
import { FACTIONS, cardName, factionTitle } from "../src/cards";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("i18n", () => {
  it("every English key exists, non-empty, in de and cs", () => {
    for (const lang of ["de", "cs"] as const) {
      const table = TABLES[lang] as Record<string, string>;
      const missing = Object.keys(en).filter((k) => !table[k] || !table[k].trim());
      expect(missing, `${lang} is missing keys`).toEqual([]);
      // beyond en's keys, only the extra plural variants of en's plural messages ("new.days#few" in cs)
      const extra = Object.keys(table).filter((k) => !(k in en) && !(k.includes("#") && `${k.split("#")[0]}#other` in en));
      expect(extra, `${lang} has keys unknown in en`).toEqual([]);
    }
  });

  it("translations keep the same placeholders", () => {
    for (const lang of ["de", "cs"] as const) {
      for (const [k, v] of Object.entries(TABLES[lang] as Record<string, string>)) {
        const ref = (en as Record<string, string>)[k] ?? (en as Record<string, string>)[`${k.split("#")[0]}#other`];
        expect(placeholders(v), `${lang} ${k}`).toEqual(placeholders(ref));
      }
    }
  });

  it("faction names, powers and rules summaries exist in every language", () => {
    for (const lang of LANGS) {
      for (const f of FACTIONS) {
        expect(factionTitle(f, lang)).toBeTruthy();
        expect(POWERS[lang][f].length).toBeGreaterThan(20);
      }
      for (const kind of ["claim", "claim2", "claim-mix"]) {
        const r = rulesFor(kind, lang);
        expect(r.intro.length).toBeGreaterThan(20);
        expect(r.sections.length).toBe(4);
      }
    }
  });

  it("picks the language from navigator.languages, default en", () => {
    expect(pickLang(["de-AT", "en"])).toBe("de");
    expect(pickLang(["cs"])).toBe("cs");
    expect(pickLang(["fr-FR", "it"])).toBe("en");
    expect(pickLang([])).toBe("en");
    expect(pickLang(["fr", "CS-cz"])).toBe("cs");
  });

  it("formats placeholders", () => {
    expect(format("Play {card}?", { card: "Knight 7" })).toBe("Play Knight 7?");
    expect(format("{a} {b}", { a: 1 })).toBe("1 {b}");
    expect(translate("de", "table.trick", { n: 3, total: 13 })).toBe("Stich 3/13");
    expect(translate("cs", "table.play", { card: cardName("knight-7", "cs") })).toBe("Zahrát Rytíř 7");
  });
});
