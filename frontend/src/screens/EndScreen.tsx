// The end of a Claim-family game: the outcome, the votes' tally, every faction's vote with why it went
// that way (the tie-breaks in words), what decided the game, and the way on (EndActions). Laid out as
// wrapping lines of unbreakable chips, so no word is ever broken in any language.
import { factionTitle, type Faction } from "../cards";
import { Glyph } from "../Card";
import { seatName, seatOutcome, type Game } from "../game";
import { t, useStore } from "../store";
import { tallyOf, type GameWhy, type Why } from "../tally";
import { EndActions, endReasonText, hasCount } from "./EndActions";

/** "You won!", "Your team lost.", "Shared win!", "Draw." */
export function endHead(g: Game): string {
  const r = g.result || g.view?.result;
  if (!r) return t("end.title");
  const me = g.mySeat ?? 0;
  const n = g.view?.seats || 2;
  const outcome = seatOutcome(r, me);
  if (outcome === "draw") return t("end.draw");
  if (n === 4) return t(outcome === "win" ? "end.your_team_won" : "end.your_team_lost");
  if (outcome === "win") return (r.winners?.length ?? 0) > 1 ? t("end.shared_win") : t("end.you_won");
  return t("end.you_lost");
}

function whyText(w: Why): string {
  switch (w.code) {
    case "more": return t("end.why_more");
    case "higher": return t("end.why_higher", { n: w.n, a: w.a, b: w.b });
    case "higher_n": return t("end.why_higher_n");
    case "equal": return t("end.why_equal", { n: w.n });
    case "none": return t("end.why_none");
  }
}

export function EndScreen({ g }: { g: Game }) {
  const st = useStore();
  const v = g.view!;
  const r = g.result || v.result;
  const head = endHead(g);
  if (!r || !hasCount(r)) {
    return (
      <section class="end" aria-labelledby="end-h" id="end" data-reason={r?.reason ?? ""}>
        <h2 id="end-h" tabIndex={-1}>{head}</h2>
        <p id="end-reason">{endReasonText(g)} {t("end.no_count")}</p>
        <EndActions g={g} />
      </section>
    );
  }
  if (!("votes" in r)) return null; // an Inheritors count: that game has its own table (InheritorsTable)
  const me = g.mySeat ?? 0;
  const n = v.seats || 2;
  const tally = tallyOf(r, v.factions, n, me);
  const colName = (i: number) => n === 4 ? (i === 0 ? t("table.your_team") : t("table.opponents"))
    : tally.columns[i][0] === me ? t("table.you") : seatName(g, tally.columns[i][0]);
  const gameText = (w: GameWhy) => w.code === "draw" ? t("end.g_draw") : w.code === "shared" ? t("end.g_shared")
    : w.code === "votes" ? t("end.g_votes", { name: colName(w.col), a: w.a, b: w.b })
      : t("end.g_cards", { name: colName(w.col), v: w.v, a: w.a, b: w.b });
  return (
    <section class="end" aria-labelledby="end-h" id="end">
      <h2 id="end-h" tabIndex={-1}>{head}</h2>
      <p class="tally" id="end-tally" aria-label={`${t("end.votes")}: ${tally.columns.map((_, i) => `${colName(i)} ${tally.votes[i]}`).join(", ")}`}>
        <span class="nw">{t("end.votes")}:</span>{" "}
        {tally.columns.map((_, i) => (
          <>{i > 0 && <span aria-hidden="true"> – </span>}<span class={`nw tl ${i === 0 ? "me" : ""}`}>{colName(i)} <b>{tally.votes[i]}</b></span></>
        ))}
      </p>
      <p class="small" id="end-why">{gameText(tally.game)}</p>
      {r.ranks && n === 3 && <p class="small">{tally.columns.map((c) => `${colName(tally.columns.indexOf(c))}: ${t("end.place", { n: r.ranks![c[0]] })}`).join(" · ")}</p>}
      <ul class="votes" aria-label={t("end.breakdown")}>
        {tally.lines.map((l) => (
          <li class={`vote-line ${l.vote === 0 ? "me" : l.vote == null ? "none" : "opp"}`} data-faction={l.faction} data-counts={l.counts.join(",")}>
            <span class="nw fac-cell"><Glyph faction={l.faction as Faction} size={16} /> <b>{factionTitle(l.faction as Faction, st.lang)}</b></span>
            {l.counts.map((x, i) => <span class="nw cnt">{colName(i)} {x}</span>)}
            <span class="nw vote-to">→ {l.vote == null ? "—" : colName(l.vote)}</span>
            <span class="muted small why">({whyText(l.why)})</span>
          </li>
        ))}
      </ul>
      <EndActions g={g} />
    </section>
  );
}
