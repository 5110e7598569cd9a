import { factionTitle } from "../cards";
import { Glyph } from "../Card";
import type { Key } from "../i18n";
import { KIND_FACTIONS, MULTI_POWERS, MULTI_RULINGS, POWERS, rulesFor } from "../rules";
import { t, useStore } from "../store";
import { InheritorsRules, RULES_KINDS } from "./InheritorsRules";

export function Rules({ kind }: { kind: string | null }) {
  const st = useStore();
  if (kind === "inheritors") return <InheritorsRules />;
  const k = kind && KIND_FACTIONS[kind] ? kind : "claim";
  const r = rulesFor(k, st.lang);
  return (
    <main class="page rules" id="main">
      <h1>{t("rules.full", { game: t(("game." + k) as Key) })}</h1>
      <nav class="seg wrap" aria-label={t("rules.title")}>
        {RULES_KINDS.map((x) => <a class={`seg-b ${x === k ? "on" : ""}`} href={`#/rules/${x}`} aria-current={x === k ? "page" : undefined}>{t(("game." + x) as Key)}</a>)}
      </nav>
      <p>{r.intro}</p>
      {r.sections.map((s) => <section><h2>{s.h}</h2>{s.p.map((p) => <p>{p}</p>)}</section>)}
      {k === "claim-mix" && (
        <section id="multi-rules">
          <h2>{t("rules.multi_title")}</h2>
          <RulingsNotice />
          <ul>{MULTI_RULINGS[st.lang].map((p) => <li>{p}</li>)}</ul>
          <h3 id="five-powers-h">{t("rules.five_title")}</h3>
          <p>{t("rules.five_intro")}</p>
          <dl class="powers" id="five-powers" aria-labelledby="five-powers-h">
            {MULTI_POWERS[st.lang].map((x) => <><dt><Glyph faction={x.faction} /> {factionTitle(x.faction, st.lang)}</dt><dd>{x.what} <span class="muted">{x.why}</span></dd></>)}
          </dl>
        </section>
      )}
      <h2>{t("rules.powers")}</h2>
      <dl class="powers">
        {KIND_FACTIONS[k].map((f) => <><dt><Glyph faction={f} /> {factionTitle(f, st.lang)}</dt><dd>{POWERS[st.lang][f]}</dd></>)}
      </dl>
    </main>
  );
}

/** "These are our rulings where the printed sheet is unclear" (3-4 player Claim). */
export function RulingsNotice() {
  return (
    <p class="notice rulings" role="note" id="rulings-notice"><strong>{t("rulings.title")}:</strong> {t("rulings.notice")}</p>
  );
}
