// The Inheritors table (2-4 seats): my tableau and hand, the other seats' tableaux, the three market piles,
// the quest/honor/clan rows, removed advocates, who must act, my legal moves as buttons, and the final scoring.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Schemas } from "../api";
import { seatName, type Game } from "../game";
import { inhCards, inhTranslate, type InhKey } from "../i18n/inheritors";
import {
  cardTint, CLAN_COLOURS, inhMoves, isDiscardTake, defaultCardMove, defaultOfKind, forcedMove, groupMoves, influenceOf, type InhPlayer, type InhResult, inhView, type InhView,
  kindsOf, type Move, moveCard, moveId, moveKind, moveLabel, type Names, outcomeOf, parseInhCard, pendingKey, questMove, questPartners, recentEvents,
  scoreTable, seatLabels, seatOrder, smallestPile, sortHand, stacksInOrder, toggleQuestCard, turnState, withPile, withTake,
} from "../inheritors";
import { resignGame, sendMove, state, t, toast, useStore } from "../store";
import { Dialog, relTime } from "../ui";
import { Clock } from "./Clock";
import { GameBar } from "./GameBar";
import { TableChat } from "./Chat";
import { EndActions, endReasonText, hasCount } from "./EndActions";
import "../inheritors.css";

export const ti = (key: InhKey | string, params?: Record<string, string | number>) => inhTranslate(state.lang, key, params);

export function inhCardName(id: string): string {
  const c = parseInhCard(id);
  if (c.kind === "influence") return `${ti(`inh.c.${c.colour}`)} ${c.value}`;
  if (c.kind === "relic") return ti("inh.card.relic", { colour: ti(`inh.c.${c.colour}`) });
  if (c.kind === "advocate") return ti(`inh.a.${c.advocate}`);
  return ti(`inh.card.${c.kind}`);
}

function glyph(id: string): string {
  const c = parseInhCard(id);
  if (c.kind === "influence") return String(c.value);
  if (c.kind === "relic") return "◆";
  if (c.kind === "tome") return "✦";
  if (c.kind === "epic") return "★";
  return ti(`inh.a.${c.advocate}`).slice(0, 3);
}

export function ICard({ id, onClick, legal, playable, selected, pressed, size = "m", label, kinds }: {
  id: string; onClick?: () => void; legal?: boolean; playable?: boolean; selected?: boolean; pressed?: boolean; size?: "s" | "m"; label?: string;
  /** the kinds of move this hand card offers (data-kinds, for bots and tests driving the page) */
  kinds?: string;
}) {
  const name = (label ?? inhCardName(id)) + (playable ? ` (${ti("inh.playable")})` : "");
  const cls = `ih-card ih-${size} tint-${cardTint(id)} ${legal ? "legal" : ""} ${playable ? "playable" : ""} ${selected ? "sel" : ""}`;
  const c = parseInhCard(id);
  // the colour's initial too, so that colour is never the only cue
  const body = <>
    <span aria-hidden="true">{glyph(id)}</span>
    {size === "m" && c.colour && c.colour !== "white" && <span class="ih-ci" aria-hidden="true">{ti(`inh.ca.${c.colour}`)}</span>}
  </>;
  if (onClick) {
    return <button type="button" class={cls} title={name} data-card={id} data-name={name} data-kinds={kinds} onClick={onClick}
      aria-pressed={pressed ?? false}>{body}<span class="sr-only">{name}</span></button>;
  }
  return <span class={cls} role="img" aria-label={name} title={name} data-card={id}>{body}</span>;
}

export function Tableau({ p, v, label }: { p: InhPlayer; v: InhView; label: string }) {
  const stacks = stacksInOrder(p, v.colours);
  return (
    <div class="ih-tableau" role="group" aria-label={label}>
      {stacks.length === 0 ? <span class="muted small">{ti("inh.tableau_empty")}</span> : stacks.map(([c, s]) => (
        <span class={`ih-stack tint-${c}`} role="img" data-colour={c}
          aria-label={`${ti(`inh.c.${c}`)}: ${s.cards.map(inhCardName).join(", ")}`}>
          <b aria-hidden="true">{s.top}</b><span class="ih-stack-n" aria-hidden="true">{s.cards.length > 1 ? `×${s.cards.length}` : ""}</span>
        </span>
      ))}
    </div>
  );
}

export function SeatBadges({ p }: { p: InhPlayer }) {
  return (
    <span class="ih-badges small">
      {p.clan && <span class={`ih-badge tint-${CLAN_COLOURS[p.clan] ?? "white"}`}>{ti("inh.clan", { clan: ti(`inh.clan.${p.clan}`) })}</span>}
      {p.honors.map((h) => <span class="ih-badge honor" title={ti(`inh.h.${h}`)}>{h}</span>)}
    </span>
  );
}

/** A chip of the dock: a 44 px button that says whether it is chosen. */
function Chip({ on, onClick, children, ...data }: {
  on: boolean | null; onClick: () => void; children: ComponentChildren; [k: `data-${string}`]: string | number;
}) {
  return <button type="button" class={`btn ih-chip ${on ? "on" : ""}`} aria-pressed={on ?? undefined} onClick={onClick} {...data}>{children}</button>;
}

/** A market pile's number and size on a chip: "2 (3)", and "3 cards" for screen readers. */
function PileChipText({ n, count }: { n: number; count: number }) {
  return <><b>{n + 1}</b> <span class="small">({count})</span><span class="sr-only">, {inhCards(state.lang, count)}</span></>;
}

interface QuestPick { cards: string[]; piles: number[] }

/** Wait this long before sending a forced move (end of turn with nothing to claim), so the player sees the result. */
const AUTO_DELAY_MS = 700;

export function InheritorsTable({ g }: { g: Game }) {
  const st = useStore();
  const [busy, setBusy] = useState(false);
  const [card, setCard] = useState<string | null>(null); // the chosen hand card (its kinds of move are chips)
  const [sel, setSel] = useState<Move | null>(null); // the move Confirm sends
  const [quest, setQuest] = useState<QuestPick | null>(null); // the quest's three discards while one is built
  const [pile, setPile] = useState<number | null>(null); // the market pile shown in a dialog
  const auto = useRef("");
  const sentAt = useRef<number | null>(null); // the version a move in flight was sent from
  const shown = useRef<number | null>(null); // the version this table shows now
  const clear = () => { setCard(null); setSel(null); setQuest(null); };
  useEffect(clear, [g.version]); // a new version may have changed what the cards can do
  const v = inhView(g.raw)!;
  const me = g.mySeat;
  const order = seatOrder(me, v.seats);
  const others = me === null ? order : order.slice(1);
  const labels = seatLabels(Array.from({ length: v.seats }, (_, s) => seatName(g, s)));
  const name = (s: number) => (s === me ? ti("inh.you") : labels[s]);
  const over = v.over || g.status === "finished" || g.status === "aborted";
  const legal = g.myTurn && !over ? inhMoves(g.legal) : [];
  const groups = groupMoves(legal);
  const names: Names = {
    card: inhCardName, seat: name, colour: (c) => ti(`inh.c.${c}`), clan: (c) => ti(`inh.clan.${c}`),
    honor: (h) => ti(`inh.h.${h}`), advocate: (a) => ti(`inh.a.${a}`), pileSize: (p) => v.market[p]?.length ?? 0, cards: (n) => inhCards(state.lang, n),
  };
  const ts = turnState(v, me);
  const pend = pendingKey(v, me);
  const hand = sortHand(v.hand ?? []);
  const gr = g.result; // the engine's count, or how a game that was not played out ended
  const result = v.result ?? (gr && ("scores" in gr || !hasCount(gr)) ? gr : null);
  const mine = me === null ? null : v.players[me];
  const fox = mine?.clan === "fox";
  const tops = Object.fromEntries(Object.entries(mine?.stacks ?? {}).map(([c, s]) => [c, s.top]));
  const forced = forcedMove(legal);

  shown.current = g.version;
  async function send(move: Move) {
    const version = g.version;
    setBusy(true);
    sentAt.current = version;
    try {
      await sendMove(g.id, version, move);
    } finally {  // sent or refused, the choice is cleared, unless it was made on a newer version (below)
      setBusy(false);
      sentAt.current = null;
      if (shown.current === version) { setPile(null); clear(); }
    }
  }
  /** While a move is in flight, taps on the table it was sent from are dropped; once a newer version is shown
   *  (the post-action window, or the player's turn again), taps choose the next move, committed when the answer
   *  is in. */
  const chooseOnly = busy && sentAt.current !== g.version;
  const locked = busy && !chooseOnly;

  // Nothing to decide (only "end turn" left, or a pass with an empty hand): sent after a moment, once per version.
  useEffect(() => {
    if (!forced || busy) return;
    const key = `${g.id}:${g.version}`;
    if (auto.current === key) return;
    const timer = setTimeout(() => { auto.current = key; void send(forced); }, AUTO_DELAY_MS);
    return () => clearTimeout(timer);
  }, [g.version, forced ? moveId(forced) : "", busy]);

  // What Confirm sends: the quest being built (once it has three cards), the chosen move, or the only legal move.
  const questReady = quest !== null && quest.cards.length === 3;
  // After the action (claims are optional) Confirm ends the turn unless a claim is chosen.
  const endTurn = v.phase === "post" && !v.pending ? legal.find((m) => "end_turn" in m) ?? null : null;
  const chosen: Move | null = quest ? (questReady ? questMove(quest.cards, quest.piles) : null)
    : sel ?? (legal.length === 1 ? legal[0] : endTurn);
  const isChosen = (m: Move) => chosen !== null && moveId(chosen) === moveId(m);
  const commit = () => { if (!busy && chosen) void send(chosen); };

  /** Choose, then commit (issue 25): a tap chooses and says what it does; Confirm (or a second tap) sends it.
   *  One-tap play (Settings) sends a move button's move at once. */
  function pick(m: Move) {
    if (locked) return;
    if (!busy && (st.oneTap || isChosen(m))) { void send(m); return; }
    setCard(null); setQuest(null); setSel(m);
  }

  const cardMoves = card ? groups.byCard.get(card) ?? [] : [];
  const kinds = kindsOf(cardMoves);

  function tapCard(c: string) {
    if (locked) return;
    if (quest) { // building a quest: the card joins or leaves the three discards
      const next = toggleQuestCard(quest.cards, c, fox);
      if (next === null) { toast(ti("inh.quest_bad", { card: inhCardName(c) })); return; }
      const piles = next.map((x) => quest.piles[quest.cards.indexOf(x)] ?? quest.piles[0] ?? smallestPile(v.market));
      setQuest({ cards: next, piles });
      return;
    }
    const moves = groups.byCard.get(c);
    if (!moves?.length) { toast(g.myTurn ? ti("inh.no_card_moves") : t("table.not_your_turn")); return; }
    if (card === c && sel) { commit(); return; } // a second tap on the chosen card plays it (once not busy)
    setCard(c);
    setSel(defaultCardMove(moves, v.market));
  }

  function chooseKind(k: string) {
    if (!card || locked) return;
    if (k === "quest") { // the whole quest in one move: this card and the two cheapest partners, editable

      const cards = [card, ...questPartners(card, hand, fox, tops)];
      setQuest({ cards, piles: cards.map(() => smallestPile(v.market)) });
      setSel(null);
      return;
    }
    setQuest(null);
    setSel(defaultOfKind(cardMoves, k, v.market));
  }

  let turnText: string;
  if (ts.kind === "over" || over) turnText = ti("inh.end.title"); // over: also a resigned game the engine never ended
  else if (ts.kind === "mine") {
    const post = v.phase === "post" && !v.pending;
    const canClaim = g.legal.some((m) => !("end_turn" in m)); // I: claims are optional; often only ending is left
    turnText = post ? ti(canClaim ? "inh.your_turn_post" : "inh.your_turn_end") : ti("inh.your_turn");
    if (ts.others.length) turnText += ` (${ti("inh.also_acting", { names: ts.others.map(name).join(", ") })})`;
  } else turnText = ti("inh.waiting", { names: ts.seats.map(name).join(", ") || "…" });

  const takeFromPile = pile === null ? null : legal.find((m) => "take_pile" in m && m.take_pile === pile) ?? null;
  const questCard = quest?.cards[0] ?? card;
  let choiceText: string;
  if (forced) choiceText = ti("inh.auto_end");
  else if (quest && !questReady) choiceText = ti("inh.quest_need", { n: 3 - quest.cards.length });
  else if (chosen) choiceText = moveLabel(chosen, ti, names);
  else choiceText = groups.byCard.size > 0 ? ti("inh.choose_hint") : ti("inh.moves");
  const inQuest = (c: string) => quest?.cards.includes(c) ?? false;
  const handLegal = (c: string) => (quest ? inQuest(c) || toggleQuestCard(quest.cards, c, fox) !== null : groups.byCard.has(c));

  return (
    <main class="table ih" id="main" data-kind="inheritors" data-version={g.version} data-over={over ? "1" : "0"}
      data-myturn={g.myTurn ? "1" : "0"} data-phase={v.phase} data-pending={v.pending?.kind ?? ""} data-seats={v.seats} data-turn={v.turn}>
      <h1 class="sr-only">{ti("inh.title")}</h1>
      <p class={`t-turn ${ts.kind === "mine" ? "mine" : ""}`} role="status" aria-live="polite" id="turn">{turnText}
        {!over && g.deadline && <span class="muted small"> · {t("table.deadline", { when: relTime(g.deadline) })}</span>}</p>
      <p class="ih-info small" id="ih-info">
        <span>{ti("inh.turn_n", { n: v.turn })}</span> · <span id="ih-deck">{ti("inh.deck", { n: v.deck_count })}</span> · <span>{ti("inh.quest_row", { n: v.quest_row_count })}</span>
        <span class={`live ${st.ws === "open" ? "on" : ""}`} title={st.ws === "open" ? t("table.live") : t("table.reconnecting")} aria-hidden="true" />
      </p>
      <GameBar g={g} />
      {!over && g.status === "active" && (g.seats.some((x) => x.index !== me && x.ai == null)
        || g.raw.time_control.type !== "unlimited") && <Clock g={g} />}
      {v.end_triggered && !over && <p class="notice small" id="ih-ending">{ti("inh.end_triggered", { name: name(v.last_seat) })}</p>}
      {v.pending?.kind === "saboteur_discard" && !over && (v.pending.waiting?.length ?? 0) > 0 && (
        <p class="small" id="ih-saboteur">{ti("inh.sab_status", { names: (v.pending.waiting ?? []).map(name).join(", ") })}</p>
      )}
      {over && result && g.status !== "aborted" && <InhEnd g={g} v={v} r={result} order={order} name={name} />}

      <section id="ih-opps" class={`n${others.length}`} aria-label={t("table.opponents")}>
        {others.map((s) => {
          const p = v.players[s];
          return (
            <section class={`ih-seat ${v.to_act.includes(s) ? "acting" : ""} ${v.current === s ? "current" : ""}`} data-seat={s} aria-labelledby={`ih-seat-${s}`}>
              <div class="ih-seat-top">
                <h2 class="ih-seat-h small" id={`ih-seat-${s}`}>{name(s)}{v.to_act.includes(s) && <span class="sr-only"> ({ti("inh.waiting", { names: name(s) })})</span>}</h2>
                <span class="muted small">{ti("inh.hand_n", { n: p.hand_count })} · {ti("inh.quests_n", { n: p.quest_count })} · {ti("inh.influence", { n: influenceOf(p) })}</span>
              </div>
              <SeatBadges p={p} />
              {stacksInOrder(p, v.colours).length > 0 && <Tableau p={p} v={v} label={ti("inh.tableau_of", { name: name(s) })} />}
            </section>
          );
        })}
      </section>

      <section id="ih-market" aria-labelledby="ih-market-h">
        <h2 id="ih-market-h" class="sr-only">{ti("inh.market")}</h2>
        <div class="ih-piles">
          {v.market.map((cards, i) => {
            const top = cards[cards.length - 1];
            const label = top ? ti("inh.pile_label", { n: i + 1, count: inhCards(st.lang, cards.length), card: inhCardName(top) }) : ti("inh.pile_empty", { n: i + 1 });
            return (
              <button type="button" class="ih-pile" data-pile={i} onClick={() => setPile(i)} aria-haspopup="dialog" data-name={label}>
                <span aria-hidden="true">{top ? <ICard id={top} /> : <span class="ih-card ih-m empty" />}</span>
                <span class="small ih-pile-n" aria-hidden="true">{ti("inh.pile", { n: i + 1 })}<br />{inhCards(st.lang, cards.length)}</span>
                <span class="sr-only">{label}</span>
              </button>
            );
          })}
        </div>
      </section>

      {me !== null && (
        <section id="ih-me" class="ih-seat me" aria-labelledby="ih-me-h">
          <h2 class="ih-seat-h small" id="ih-me-h">{ti("inh.tableau")} · {ti("inh.influence", { n: influenceOf(v.players[me]) })}</h2>
          <SeatBadges p={v.players[me]} />
          <Tableau p={v.players[me]} v={v} label={ti("inh.tableau_of", { name: ti("inh.you") })} />
          {(v.quests?.length ?? 0) > 0 && (
            <>
              <h3 class="small">{ti("inh.your_quests")}</h3>
              <ul class="ih-list small" id="ih-quests">{v.quests!.map((q) => <li>{questText(q.id, q.text)} ({ti("inh.vp", { n: q.vp })})</li>)}</ul>
            </>
          )}
          {v.deck_top && <p class="small">{ti("inh.deck_top", { card: inhCardName(v.deck_top) })}</p>}
        </section>
      )}

      <details class="piles small" id="ih-log">
        <summary>{ti("inh.log")}</summary>
        <ol class="ih-list" reversed>{recentEvents(v.log, ti, names).map((x) => <li>{x}</li>)}</ol>
      </details>
      <section id="ih-rows" class="ih-rows small" aria-label={`${ti("inh.honors")}, ${ti("inh.clans")}, ${ti("inh.removed")}`}>
        <h2 class="small">{ti("inh.honors")}</h2>
        <ul class="ih-list" id="ih-honors">
          {v.honor_row.length === 0 ? <li class="muted">{ti("inh.none")}</li> : v.honor_row.map((h) => <li data-honor={h.id}><b>{h.id}</b> {ti(`inh.h.${h.id}`) || h.text}</li>)}
        </ul>
        <h2 class="small">{ti("inh.clans")}</h2>
        <ul class="ih-chips" id="ih-clans">
          {v.clan_row.length === 0 ? <li class="muted">{ti("inh.none")}</li> : v.clan_row.map((c) => (
            <li class={`ih-badge tint-${c.colour}`} data-clan={c.clan}>{ti(`inh.clan.${c.clan}`)} ({ti(`inh.c.${c.colour}`)})
              {c.attached.length > 0 && ` ${ti("inh.attached", { cards: c.attached.map(inhCardName).join(", ") })}`}</li>
          ))}
        </ul>
        <h2 class="small">{ti("inh.removed")}</h2>
        <div class="ih-cards" id="ih-removed">
          {v.removed.length === 0 ? <span class="muted">{ti("inh.none")}</span> : v.removed.map((c) => <ICard id={c} size="s" />)}
        </div>
        <p class="muted small">{ti("inh.provisional_note")} <a class="tap-link" href="#/rules/inheritors">{ti("inh.provisional_link")}</a></p>
      </section>


      {/* The dock (issue 33): the hand, what the chosen card can do and one Confirm, pinned to the bottom edge. */}
      {me !== null && !over && (
        <div class="ih-dock" id="ih-dock">
          <section id="ih-hand-wrap" aria-labelledby="ih-hand-h">
            <div class="ih-hand-top">
              <h2 id="ih-hand-h" class="small">{ti("inh.hand")} ({hand.length})</h2>
              {stacksInOrder(v.players[me], v.colours).length > 0 && (
                <span aria-hidden="true"><Tableau p={v.players[me]} v={v} label={ti("inh.tableau_of", { name: ti("inh.you") })} /></span>
              )}
            </div>
            <div class="ih-hand" id="ih-hand">
              {hand.length === 0 && <span class="muted small">{t("table.hand_empty")}</span>}
              {hand.map((c) => {
                const ok = handLegal(c);
                const playable = !quest && ok && (groups.byCard.get(c) ?? []).some((m) => ("action" in m && m.action === "play") || ("play" in m && m.play === c));
                const selected = quest ? inQuest(c) : (card === c || (chosen !== null && moveCard(chosen) === c));
                return <ICard id={c} legal={ok} playable={playable} selected={selected} pressed={selected} onClick={() => tapCard(c)}
                  kinds={kindsOf(groups.byCard.get(c) ?? []).join(" ")} />;
              })}
            </div>
          </section>
          {g.myTurn && (
            <section id="ih-moves" aria-labelledby="ih-moves-h" aria-busy={busy} data-forced={forced ? "1" : "0"}>
              <h2 id="ih-moves-h" class="sr-only">{ti("inh.moves")}</h2>
              {pend && <p class="ih-pending small" id="ih-pending">{ti(pend)}</p>}
              {v.pending?.your_choices && v.pending.your_choices.length > 0 && (
                <p class="small">{ti("inh.your_choices_sab", { cards: v.pending.your_choices.map(([c]) => inhCardName(String(c))).join(", ") })}</p>
              )}
              {groups.other.length > 0 && !forced && (
                <div class="ih-opts" id="ih-others">
                  {groups.other.map((m) => (
                    <button type="button" class={`btn ${isChosen(m) ? "primary" : ""}`} disabled={locked} data-move={moveId(m)}
                      aria-pressed={isChosen(m)} onClick={() => pick(m)}>{moveLabel(m, ti, names)}</button>
                  ))}
                </div>
              )}
              {questCard && (card || quest) && kinds.length > 1 && (
                <div class="ih-row" role="group" aria-label={ti("inh.card_moves", { card: inhCardName(questCard) })} id="ih-kinds">
                  {kinds.map((k) => (
                    <Chip on={k === "quest" ? quest !== null : !quest && sel !== null && moveKind(sel) === k && moveCard(sel) === card} data-kind={k}
                      onClick={() => chooseKind(k)}>{ti(`inh.kk.${k}`)}</Chip>
                  ))}
                </div>
              )}
              {!quest && sel && card && moveKind(sel) === "discard_take" && (
                <div class="ih-row" role="group" aria-label={ti("inh.take_pile_of")} id="ih-takes">
                  <span class="small ih-row-l" aria-hidden="true">{ti("inh.take_pile_of")}</span>
                  {[...new Set(cardMoves.filter(isDiscardTake).map((m) => m.take))].sort().map((y) => (
                    <Chip on={isDiscardTake(sel) && sel.take === y} data-take={y}
                      onClick={() => setSel(withTake(cardMoves, sel, y, v.market) ?? sel)}><PileChipText n={y} count={v.market[y]?.length ?? 0} /></Chip>
                  ))}
                </div>
              )}
              {!quest && sel && card && "pile" in sel && (
                <div class="ih-row" role="group" aria-label={ti("inh.onto_pile")} id="ih-piles">
                  <span class="small ih-row-l" aria-hidden="true">{ti("inh.onto_pile")}</span>
                  {[0, 1, 2].filter((p) => withPile(cardMoves, sel, p) !== null && (!isDiscardTake(sel) || p !== sel.take)).map((p) => (
                    <Chip on={sel.pile === p} data-onto={p}
                      onClick={() => setSel(withPile(cardMoves, sel, p) ?? sel)}><PileChipText n={p} count={v.market[p]?.length ?? 0} /></Chip>
                  ))}
                </div>
              )}
              {quest && (
                <div class="ih-row" role="group" aria-label={ti("inh.quest_pick")} id="ih-quest">
                  <span class="small ih-row-l" aria-hidden="true">{ti("inh.kk.quest")}</span>
                  {quest.cards.map((c, i) => (
                    <Chip on={null} data-quest-card={c} data-pile={quest.piles[i]}
                      onClick={() => setQuest({ cards: quest.cards, piles: quest.piles.map((p, j) => (j === i ? (p + 1) % 3 : p)) })}>
                      <ICard id={c} size="s" /> → {quest.piles[i] + 1}</Chip>
                  ))}
                </div>
              )}
              <div class="ih-commit-bar" id="ih-commit-bar">
                <p class="small" id="ih-choice" role="status" aria-live="polite">{choiceText}</p>
                <button type="button" class="btn primary" id="ih-commit" aria-disabled={busy || !(chosen || forced)}
                  onClick={() => (forced && !chosen ? void send(forced) : commit())}>{t("table.commit")}</button>
              </div>
            </section>
          )}
        </div>
      )}

      {/* after the dock, so that the pinned dock never covers them */}
      {!over && g.status === "active" && me !== null && (
        <div class="t-actions">
          <a class="btn ghost" href="#/">{t("nav.back")}</a>
          <button type="button" class="btn ghost" onClick={() => resignGame(g.id, g.version)} id="resign">{t("table.resign")}</button>
        </div>
      )}

      {pile !== null && (
        <Dialog title={ti("inh.pile_title", { n: pile + 1 })} onClose={() => setPile(null)} id="ih-pile">
          {v.market[pile].length === 0 ? <p class="muted" id="ih-pile-cards" data-pile={pile}>{ti("inh.pile_empty", { n: pile + 1 })}</p> : (
            <ol class="ih-pile-list" id="ih-pile-cards" data-pile={pile}>
              {v.market[pile].map((c) => <li><ICard id={c} size="s" /> {inhCardName(c)}</li>)}
            </ol>
          )}
          {takeFromPile && <button type="button" class={`btn ${isChosen(takeFromPile) ? "primary" : ""}`} disabled={locked} data-move={moveId(takeFromPile)}
            aria-pressed={isChosen(takeFromPile)} onClick={() => pick(takeFromPile)}>{moveLabel(takeFromPile, ti, names)}</button>}
          {takeFromPile && isChosen(takeFromPile) && (
            <div class="ih-commit-bar" id="ih-commit-bar-dlg">
              <p class="small">{moveLabel(takeFromPile, ti, names)}</p>
              <button type="button" class="btn primary" id="ih-commit-dlg" aria-disabled={busy} onClick={commit}>{t("table.commit")}</button>
            </div>
          )}
        </Dialog>
      )}
      <TableChat gameId={g.id} over={over} />
    </main>
  );
}

export function questText(id: string, fallback: string): string {
  const m = /^Q-(red|green|purple|blue|yellow)$/.exec(id);
  if (m) return ti("inh.q.colour", { colour: ti(`inh.c.${m[1]}`) });
  if (id === "Q-advocates") return ti("inh.q.advocates");
  if (id === "Q-relics") return ti("inh.q.relics");
  return fallback;
}

function InhEnd({ g, v, r, order, name }: {
  g: Game; v: InhView; r: InhResult | Schemas["EndedResult"]; order: number[]; name: (s: number) => string;
}) {
  const me = g.mySeat;
  const outcome = me === null ? null : outcomeOf(r, me);
  const head = outcome === "win" ? ti("inh.end.you_won") : outcome === "shared" ? ti("inh.end.shared")
    : outcome === "loss" ? ti("inh.end.you_lost") : (r.winners ?? []).map(name).join(", ");
  const decided = "tiebreak" in r ? r.tiebreak.decided_by : null;
  if (!hasCount(r)) {
    // resigned or lost on time: the engine never scored this game
    return (
      <section class="end" aria-labelledby="end-h" id="ih-end" data-reason={r.reason}>
        <h2 id="end-h">{ti("inh.end.title")}: {head}</h2>
        <p id="end-reason">{endReasonText(g)} {t("end.no_count")}</p>
        <EndActions g={g} />
      </section>
    );
  }
  return (
    <section class="end" aria-labelledby="end-h" id="ih-end">
      <h2 id="end-h">{ti("inh.end.title")}: {head}</h2>
      <p class="small" id="ih-ranks">{order.map((s) => ti("inh.end.place", { name: name(s), n: r.ranks?.[s] ?? "?" })).join(" · ")}</p>
      {decided && <p class="small">{ti(decided === "tomes" ? "inh.end.tb_tomes" : decided === "hand" ? "inh.end.tb_hand" : "inh.end.tb_shared")}</p>}
      <table class="breakdown" id="ih-score">
        <caption>{ti("inh.end.caption")}</caption>
        <thead><tr><th scope="col">{ti("inh.end.category")}</th>{order.map((s) => <th scope="col">{name(s)}</th>)}</tr></thead>
        <tbody>
          {scoreTable(r, order).map(({ row, values }) => (
            <tr class={row === "total" ? "total" : ""} data-row={row}>
              <th scope="row">{ti(`inh.s.${row}`)}</th>
              {values.map((x) => <td>{x}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {v.hands && (
        <details class="piles">
          <summary>{ti("inh.end.hands")}</summary>
          {order.map((s) => (
            <div class="pile-row"><span class="small">{name(s)}:</span>{sortHand(v.hands![s] ?? []).map((c) => <ICard id={c} size="s" />)}</div>
          ))}
        </details>
      )}
      <EndActions g={g} />
    </section>
  );
}
