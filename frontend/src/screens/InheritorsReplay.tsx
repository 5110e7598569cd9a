// One step of an ended Inheritors game's replay (read-only): what the move did, every seat's tableau,
// hand and quests, the market piles and the rows. The step controls are the replay screen's (Replay.tsx).
import { inhCards } from "../i18n/inheritors";
import { seatHand, seatLabels, stepEvents, influenceOf, type InhReplayStep, type Names } from "../inheritors";
import { state, t } from "../store";
import { ICard, inhCardName, questText, SeatBadges, Tableau, ti } from "./InheritorsTable";

/** The words of an Inheritors board's moves and events (moveLabel, eventText): its cards, seats (``name``), colours,
 *  clans, honours, advocates and market piles. Also the review's (screens/Review.tsx). */
export function inhNames(v: Pick<InhReplayStep["spectator_view"], "market">, name: (s: number) => string): Names {
  return {
    card: inhCardName, seat: name, colour: (c) => ti(`inh.c.${c}`), clan: (c) => ti(`inh.clan.${c}`),
    honor: (h) => ti(`inh.h.${h}`), advocate: (a) => ti(`inh.a.${a}`), pileSize: (p) => v.market[p]?.length ?? 0,
    cards: (n) => inhCards(state.lang, n),
  };
}

/** ``live``: the running game's spectator view (screens/GameGate.tsx), not a step of a record: no move line. */
export function InheritorsReplay({ step, seatNames, live = false }: { step: InhReplayStep; seatNames: string[]; live?: boolean }) {
  const v = step.spectator_view;
  const labels = seatLabels(Array.from({ length: v.seats }, (_, s) => seatNames[s] ?? `#${s + 1}`));
  const name = (s: number) => labels[s] ?? `#${s + 1}`;
  const names = inhNames(v, name);
  const lines = step.move ? stepEvents(step, ti, names) : live ? [] : [t("replay.deal")];
  const acting = step.to_act ?? v.to_act;
  const r = v.result;

  return (
    <div class="ih" id="ih-replay" data-turn={v.turn}>
      {lines.length > 0 && <ul class="ih-list" id="replay-events" aria-live="polite">{lines.map((x) => <li><strong>{x}</strong></li>)}</ul>}
      <p class="ih-info small">
        <span>{ti("inh.turn_n", { n: v.turn })}</span> · <span>{ti("inh.deck", { n: v.deck_count })}</span>
        {!v.over && acting.length > 0 && <> · <span id="replay-to-act">{ti("inh.r.to_act", { names: acting.map(name).join(", ") })}</span></>}
      </p>
      {v.over && r && (
        <p class="small" id="ih-ranks">{ti("inh.end.title")}: {Array.from({ length: v.seats }, (_, s) => s)
          .map((s) => `${ti("inh.end.place", { name: name(s), n: r.ranks?.[s] ?? "?" })} (${r.scores?.[s]?.total ?? 0})`).join(" · ")}</p>
      )}

      <section id="ih-market" aria-labelledby="ih-market-h">
        <h2 id="ih-market-h" class="small">{ti("inh.market")}</h2>
        {v.market.map((cards, i) => (
          <div class="pile-row" data-pile={i} role="group"
            aria-label={cards.length ? ti("inh.pile_title", { n: i + 1 }) : ti("inh.pile_empty", { n: i + 1 })}>
            <span class="small">{ti("inh.pile", { n: i + 1 })} ({inhCards(state.lang, cards.length)}):</span>
            {cards.map((c) => <ICard id={c} size="s" />)}
          </div>
        ))}
      </section>

      {Array.from({ length: v.seats }, (_, s) => {
        const p = v.players[s];
        const hand = seatHand(step, s);
        const quests = step.seat_views[s]?.quests ?? [];
        return (
          <section class={`ih-seat ${acting.includes(s) && !v.over ? "acting" : ""}`} data-seat={s} aria-labelledby={`ih-seat-${s}`}>
            <div class="ih-seat-top">
              <h2 class="ih-seat-h small" id={`ih-seat-${s}`}>{name(s)}</h2>
              <span class="muted small">{ti("inh.hand_n", { n: p.hand_count })} · {ti("inh.quests_n", { n: p.quest_count })} · {ti("inh.influence", { n: influenceOf(p) })}</span>
            </div>
            <SeatBadges p={p} />
            <Tableau p={p} v={v} label={ti("inh.tableau_of", { name: name(s) })} />
            <div class="ih-cards" role="group" aria-label={ti("inh.r.hand_of", { name: name(s) })} data-hand={s}>
              {hand.map((c) => <ICard id={c} size="s" />)}
            </div>
            {quests.length > 0 && (
              <p class="small">{ti("inh.r.quests_of", { name: name(s) })}: {quests.map((q) => `${questText(q.id, q.text)} (${ti("inh.vp", { n: q.vp })})`).join(", ")}</p>
            )}
          </section>
        );
      })}

      <section class="ih-rows small" aria-label={`${ti("inh.honors")}, ${ti("inh.clans")}, ${ti("inh.removed")}`}>
        <h2 class="small">{ti("inh.honors")}</h2>
        <ul class="ih-list">
          {v.honor_row.length === 0 ? <li class="muted">{ti("inh.none")}</li> : v.honor_row.map((h) => <li data-honor={h.id}><b>{h.id}</b> {ti(`inh.h.${h.id}`) || h.text}</li>)}
        </ul>
        <h2 class="small">{ti("inh.clans")}</h2>
        <ul class="ih-chips">
          {v.clan_row.length === 0 ? <li class="muted">{ti("inh.none")}</li> : v.clan_row.map((c) => (
            <li class={`ih-badge tint-${c.colour}`} data-clan={c.clan}>{ti(`inh.clan.${c.clan}`)} ({ti(`inh.c.${c.colour}`)})
              {c.attached.length > 0 && ` ${ti("inh.attached", { cards: c.attached.map(inhCardName).join(", ") })}`}</li>
          ))}
        </ul>
        <h2 class="small">{ti("inh.removed")}</h2>
        <div class="ih-cards">
          {v.removed.length === 0 ? <span class="muted">{ti("inh.none")}</span> : v.removed.map((c) => <ICard id={c} size="s" />)}
        </div>
      </section>
    </div>
  );
}
