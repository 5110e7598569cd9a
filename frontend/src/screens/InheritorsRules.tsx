// The rules page of Inheritors: our short summary and, plainly, which parts are provisional ([P] data).
import type { Key } from "../i18n";
import { INH_DEVIATIONS, INH_RULES } from "../i18n/inheritors";
import { t, useStore } from "../store";

export const RULES_KINDS = ["claim", "claim2", "claim-mix", "inheritors"];

export function InheritorsRules() {
  const st = useStore();
  const r = INH_RULES[st.lang];
  const d = INH_DEVIATIONS[st.lang];
  return (
    <main class="page rules" id="main">
      <h1>{t("rules.full", { game: t("game.inheritors") })}</h1>
      <nav class="seg wrap" aria-label={t("rules.title")}>
        {RULES_KINDS.map((x) => <a class={`seg-b ${x === "inheritors" ? "on" : ""}`} href={`#/rules/${x}`} aria-current={x === "inheritors" ? "page" : undefined}>{t(("game." + x) as Key)}</a>)}
      </nav>
      <p>{r.intro}</p>
      <section id="provisional" class="notice rulings" aria-labelledby="provisional-h">
        <h2 id="provisional-h">{r.provisionalTitle}</h2>
        <p>{r.provisionalIntro}</p>
        <ul>{r.provisional.map((p) => <li>{p}</li>)}</ul>
      </section>
      {r.sections.map((s) => <section><h2>{s.h}</h2>{s.p.map((p) => <p>{p}</p>)}</section>)}
      <section id="deviations" class="notice rulings" aria-labelledby="deviations-h">
        <h2 id="deviations-h">{d.title}</h2>
        <p>{d.intro}</p>
        <ul>{d.items.map((p) => <li>{p}</li>)}</ul>
      </section>
    </main>
  );
}
