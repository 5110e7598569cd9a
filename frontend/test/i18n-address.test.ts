// The PWA addresses the player informally, as the server's messages and notifications do: tykání in Czech
// ("Jsi na tahu", "Zvol", "tvoje ruka"), "du" in German. This walks every cs and de string of the main
// catalogue, of the Inheritors tables (moves, rules page, deviations) and of the Claim rules summaries
// (src/rules.ts) and names each key that uses a formal form.
import { describe, expect, it } from "vitest";
import { TABLES, type Lang } from "../src/i18n";
import { INH_DEVIATIONS, INH_RULES, INH_TABLES } from "../src/i18n/inheritors";
import { KIND_FACTIONS, MULTI_POWERS, MULTI_RULINGS, POWERS, rulesFor } from "../src/rules";

/** Every string of a language as [key, text]: catalogue keys, and paths into the Inheritors rules and deviations. */
function strings(lang: Lang): [string, string][] {
  const out: [string, string][] = [];
  const walk = (path: string, v: unknown): void => {
    if (typeof v === "string") out.push([path, v]);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(`${path}[${i}]`, x));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(path ? `${path}.${k}` : k, x);
  };
  for (const [k, v] of Object.entries(TABLES[lang])) out.push([k, v as string]);
  for (const [k, v] of Object.entries(INH_TABLES[lang])) out.push([k, v as string]);
  walk("INH_RULES", INH_RULES[lang]);
  walk("INH_DEVIATIONS", INH_DEVIATIONS[lang]);
  walk("POWERS", POWERS[lang]);
  walk("MULTI_RULINGS", MULTI_RULINGS[lang]);
  walk("MULTI_POWERS", MULTI_POWERS[lang]);
  for (const kind of Object.keys(KIND_FACTIONS)) walk(`rulesFor(${kind})`, rulesFor(kind, lang));
  return out;
}

// Czech: the plural/formal pronouns, and every word ending in "-te": the 2nd person plural of every verb,
// present ("jste", "můžete", "máte") and imperative ("Zvolte", "Klepněte", "Vyberte", "držte"). Tykání never
// ends a verb in "-te"; the few other Czech words that do are listed here.
const CS_FORMAL = /(?<!\p{L})(?:vy|vás|vám|vámi|váš|vaše|vašeho|vaší|vašemu|vašem|vaši|vašich|vašim|vašimi|\p{L}*te)(?!\p{L})/giu;
const CS_NOT_ADDRESS = new Set(["čte", "přečte", "roste", "kvete", "plete", "mete"]);

// German: the formal pronoun and possessive, capitalised (lower-case "sie"/"ihr" are "they"/"her"/"you all").
const DE_FORMAL = /(?<!\p{L})(?:Sie|Ihnen|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres)(?!\p{L})/gu;

// Strings where such a word is right, with the words allowed there (each must still occur, so the list stays true).
const ALLOWED: Record<"cs" | "de", Record<string, string[]>> = {
  cs: {
    // genuinely plural: the reader and another player together ("you two")
    "social.are_friends": ["jste"],
    "social.empty_friends": ["budete"],
    "social.you_block": ["vámi"],
    "social.block_confirm": ["nebudete", "přestanete"],
    "watch.ended_blocked": ["jste"],
  },
  de: {
    "social.are_friends": ["Ihr"], // "Ihr seid Freunde": informal plural, the reader and the friend
    "social.block_confirm": ["Ihr"], // "Ihr spielt … nicht mehr miteinander": the reader and the blocked player
    "league.division_starting": ["Ihr"], // "Ihr Turnier": the division's tournament
    "INH_RULES.intro": ["Ihr"], // "Ihr baut …": informal plural, the players
  },
};

function formalWords(lang: "cs" | "de", text: string): string[] {
  const found = lang === "cs"
    ? [...text.matchAll(CS_FORMAL)].map((m) => m[0]).filter((w) => !CS_NOT_ADDRESS.has(w.toLowerCase()))
    : [...text.matchAll(DE_FORMAL)].map((m) => m[0]);
  return found;
}

function offenders(lang: "cs" | "de", entries: [string, string][]): string[] {
  const bad: string[] = [];
  for (const [key, text] of entries) {
    const allowed = (ALLOWED[lang][key] ?? []).map((w) => w.toLowerCase());
    const words = formalWords(lang, text).filter((w) => !allowed.includes(w.toLowerCase()));
    if (words.length) bad.push(`${key}: ${words.join(", ")}`);
  }
  return bad;
}

describe("the PWA addresses the player informally (tykání, du)", () => {
  it("no Czech string uses vykání", () => {
    expect(offenders("cs", strings("cs")), "formal forms in cs: use tykání (Jsi, Zvol, tvoje…)").toEqual([]);
  });

  it("no German string uses Sie", () => {
    expect(offenders("de", strings("de")), "formal forms in de: use du (du, dein, dir…)").toEqual([]);
  });

  it("every allowed word still occurs where it is allowed", () => {
    for (const lang of ["cs", "de"] as const) {
      const table = new Map(strings(lang));
      for (const [key, words] of Object.entries(ALLOWED[lang])) {
        const found = formalWords(lang, table.get(key) ?? "").map((w) => w.toLowerCase());
        for (const w of words) expect(found, `${lang} ${key} no longer has "${w}": drop it from ALLOWED`).toContain(w.toLowerCase());
      }
    }
  });

  it("the check tells formal from informal forms", () => {
    const cs = (s: string) => offenders("cs", [["k", s]]);
    for (const s of ["Jste na tahu", "Vaše ruka", "Zvolte efekt.", "Klepněte na kartu", "Za vás", "Už máte účet? Přihlaste se",
      "Na konci hry držte 2 relikvie.", "Vyhráli jste!", "Ukažte 3 relikvie.", "Vy"]) expect(cs(s), s).not.toEqual([]);
    for (const s of ["Jsi na tahu", "Tvoje ruka", "Zvol efekt.", "Klepni na kartu", "Za tebe", "Už máš účet? Přihlas se",
      "Na konci hry drž 2 relikvie.", "Vyhráno!", "Ukaž 3 relikvie.", "Ty", "Soupeř si kartu přečte.", "Deleted player"]) expect(cs(s), s).toEqual([]);
    const de = (s: string) => offenders("de", [["k", s]]);
    for (const s of ["Wählen Sie eine Karte.", "Ihre Hand", "Wir schreiben Ihnen."]) expect(de(s), s).not.toEqual([]);
    for (const s of ["Wähle eine Karte.", "Deine Hand", "Wir schreiben dir.", "Sobald sie beitreten, beginnt die Partie."]) expect(de(s), s).toEqual([]);
  });
});
