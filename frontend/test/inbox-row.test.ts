// The inbox row's details say each thing once, in every language (issue 33: German showed
// "ohne Zeitlimit · Ohne Zeitlimit" for an unlimited game without a deadline).
import { describe, expect, it } from "vitest";
import { LANGS, translate, type Key, type Lang, type ParamArgs, type Translate } from "../src/i18n";
import { rowDetails, type RowFacts } from "../src/screens/inboxRow";

const tr = (lang: Lang): Translate => <K extends Key>(key: K, ...params: ParamArgs<K>) => translate(lang, key, ...params);
const base: RowFacts = { status: "active", deadline: null, timeControl: { type: "unlimited" } as RowFacts["timeControl"],
  dueIn: null, beganAgo: "2 h" };

describe("inbox row details", () => {
  for (const lang of LANGS) {
    it(`an unlimited game without a deadline says "no time limit" once, ${lang}`, () => {
      const texts = rowDetails(base, tr(lang), lang).map((d) => d.text);
      const unlimited = translate(lang, "clock.unlimited").toLocaleLowerCase(lang);
      expect(texts.filter((x) => x.toLocaleLowerCase(lang).includes(unlimited.split(" ").pop()!))).toHaveLength(1);
      expect(new Set(texts.map((x) => x.toLocaleLowerCase(lang))).size).toBe(texts.length);
      expect(texts).not.toContain(translate(lang, "inbox.no_deadline"));
    });
    it(`every kind of row says nothing twice, ${lang}`, () => {
      const cases: RowFacts[] = [
        base,
        { ...base, timeControl: null },
        { ...base, deadline: "2030-01-01T00:00:00Z", dueIn: "1 d", timeControl: { type: "correspondence", days_per_move: 3 } as RowFacts["timeControl"] },
        { ...base, status: "open", beganAgo: null },
        { ...base, status: "finished" },
      ];
      for (const f of cases) {
        const texts = rowDetails(f, tr(lang), lang).map((d) => d.text.toLocaleLowerCase(lang));
        expect(new Set(texts).size, JSON.stringify(texts)).toBe(texts.length);
      }
    });
  }
  it("says no time limit when there is no time control to say it", () => {
    expect(rowDetails({ ...base, timeControl: null }, tr("de"), "de").map((d) => d.kind)).toEqual(["due", "began"]);
    expect(rowDetails(base, tr("de"), "de").map((d) => d.text)).toEqual(["Ohne Zeitlimit", translate("de", "inbox.started", { when: "2 h" })]);
  });
});
