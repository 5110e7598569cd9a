// The table of the Claim family: hand, prize, trick, score piles, who leads each faction, Seer choice, end screen.
import { useEffect, useRef, useState } from "preact/hooks";
import { cardName, dimReason, factionOf, factionTitle, legalCards, type DimReason, type Faction, type Move } from "../cards";
import { CardBack, CardView, Glyph } from "../Card";
import { hasTableView, opponentSeat, othersClockwise, partnerOf, seatCount, seatLabel, seatName, shortNames, trickNews, tricksPerPhase, voteSeats, type EngineView, type Game, type LastTrick } from "../game";
import type { Key } from "../i18n";
import { inhView } from "../inheritors";
import { POWERS } from "../rules";
import { Invitation } from "./Invite";
import { heldGame, loadGame, readGameNotes, resignGame, sendMove, state, t, useStore } from "../store";
import { Dialog, relTime } from "../ui";
import { Clock } from "./Clock";
import { EndScreen } from "./EndScreen";
import { GameBar } from "./GameBar";
import { GiantChoice } from "./GiantChoice";
import { InheritorsTable } from "./InheritorsTable";
import { TableChat } from "./Chat";
import { setViewing } from "../realtime";
import { versusText } from "./Inbox";

function reasonText(r: DimReason): string {
  if (!r) return "";
  switch (r.code) {
    case "not_your_turn": return t("table.not_your_turn");
    case "game_over": return t("table.game_over");
    case "seer_choice": return t("table.seer_first");
    case "smash_choice": return t("table.smash_first");
    case "must_doppel": return t("table.must_doppel");
    case "must_follow": {
      const faction = factionTitle(r.faction, state.lang);
      return r.doppel ? t("table.must_follow_doppel", { faction }) : t("table.must_follow", { faction });
    }
  }
}

export function Table({ id }: { id: number }) {
  const st = useStore();
  const g = heldGame(id); // a reload: the view stored on this device at once, the server's when it answers
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [power, setPower] = useState<Faction | null>(null);
  const [replay, setReplay] = useState(false);
  const [hint, setHint] = useState<string>("");
  const [seerPick, setSeerPick] = useState<"prize" | "top" | null>(null);

  useEffect(() => { void loadGame(id); }, [id]);
  useEffect(() => { setViewing(id); void readGameNotes(id); return () => setViewing(null); }, [id]);

  // Safety net while waiting for the opponent: poll often when the socket is down, rarely when up.
  useEffect(() => {
    if (!g || g.status === "finished" || g.status === "aborted" || g.myTurn) return;
    const timer = setInterval(() => void loadGame(id), st.ws === "open" ? 20000 : 4000);
    return () => clearInterval(timer);
  }, [id, g?.version, g?.myTurn, g?.status, st.ws]);

  // An inbox row (a summary, newer than the view we held) replaced the table's view: fetch the view again.
  const viewless = !!g && !hasTableView(g) && g.status !== "open";
  useEffect(() => { if (viewless) void loadGame(id); }, [id, viewless, g?.version]);

  useEffect(() => { setSelected(null); setSeerPick(null); setHint(""); }, [g?.version]);
  // Who won the trick and which phase began, said in a live line (issue 33 item 11): also when the winner leads
  // the next trick at once, so that the table never shows the completed trick.
  const [news, setNews] = useState("");
  const seen = useRef<{ id: number; view: EngineView | null } | null>(null);
  useEffect(() => {
    const view = g?.view ?? null;
    const prev = seen.current;
    seen.current = { id, view };
    if (!view || !prev || prev.id !== id) { setNews(""); return; }
    const { winner, phase } = trickNews(prev.view, view);
    const parts: string[] = [];
    if (winner != null) parts.push(winner === g!.mySeat ? t("table.you_won_trick") : t("table.won_by", { name: seatName(g!, winner) }));
    if (phase != null) parts.push(t("table.phase_begins", { n: phase }));
    // the same words twice in a row (the AI won two tricks) still change the region, so it is read again
    if (parts.length) setNews((before) => { const text = parts.join(". ") + "."; return before === text ? text + "\u00a0" : text; });
  }, [id, g?.version]);
  // Keyboard play: a move sent from the hand (or its confirmation) keeps focus in the hand once the new
  // version has replaced the card; at the end it moves to the result.
  const refocus = useRef<{ idx: number; version: number } | null>(null);
  const sentAt = useRef<number | null>(null);  // the version a move in flight was sent from
  const shown = useRef<number | null>(null);  // the version this table shows now
  useEffect(() => {
    const r = refocus.current;
    if (!r || !g || g.version === r.version) return;
    const a = document.activeElement;
    if (a?.closest("dialog")) return; // the Seer choice is still closing
    if (a && a !== document.body && a.isConnected && a.id !== "turn") { refocus.current = null; return; }
    const cards = document.querySelectorAll<HTMLElement>("#hand button.card");
    const target = cards[Math.min(r.idx, cards.length - 1)] ?? document.getElementById("end-h");
    if (target) { refocus.current = null; target.focus(); } else document.getElementById("turn")?.focus(); // result still loading
  });

  if (!g) return <main class="page" id="main"><p aria-busy="true">{t("common.loading")}</p></main>;
  if (g.kind === "inheritors" && inhView(g.raw)) return <InheritorsTable g={g} />;
  const v = g.view;
  if (!v && g.status === "open") return <Invitation g={g} />;
  if (!v) {  // a list's summary without the view: loadGame (above) fetches it
    return (
      <main class="page" id="main">
        <h1>{t(("game." + g.kind) as Key)}</h1>
        <p aria-busy="true">{t("common.loading")}</p>
      </main>
    );
  }

  const me = g.mySeat ?? 0;
  const n = v.seats || 2;
  const opp = opponentSeat(g);
  const oppName = n > 2 ? seatName(g, g.toAct[0] ?? v.leader) : seatName(g, opp);
  // 3-4 seats: the others clockwise from my left; with 4 the partner sits across (diagonal, M3.4)
  const others = n === 2 ? [opp] : othersClockwise(me, n);
  const partner = partnerOf(me, n);
  const who = (s: number) => (s === me ? t("table.you") : seatName(g, s));
  // 3-4 seats: the trick's labels and the score columns are narrow, so they use short names (the seat rows
  // and every screen-reader label keep the full ones); they wrap rather than being cut.
  const shorts = shortNames(g);
  const whoShort = (s: number) => (s === me ? t("table.you") : n > 2 ? shorts[s] ?? seatName(g, s) : seatName(g, s));
  const side = (s: number) => (s === me ? "me" : s === partner ? "partner" : "opp");
  const hand = v.hand || [];
  const legal = legalCards(g.legal);
  const seerChoice = g.myTurn && g.legal.some((m) => "seer" in m);
  const aborted = g.status === "aborted";
  const over = v.over || g.status === "finished" || aborted;
  const tableState = { hand, legal_moves: g.legal, my_turn: g.myTurn, over, current_trick: v.current_trick, factions: v.factions };

  const version = g.version;
  shown.current = version;
  async function send(move: Move) {
    const cards = [...document.querySelectorAll("#hand button.card")];
    const focused = cards.indexOf(document.activeElement as Element);
    const idx = "play" in move ? hand.indexOf(move.play as string) : -1;
    if (focused >= 0 || (idx >= 0 && document.activeElement?.id === "confirm-play")) refocus.current = { idx: focused >= 0 ? focused : idx, version };
    setBusy(true);
    sentAt.current = version;
    try {
      await sendMove(id, version, move);
    } finally {
      setBusy(false);
      sentAt.current = null;
      // sent or refused, the choice is cleared: nothing stays half-chosen; but a choice made on a newer
      // version (the socket brought it before this answer) is the player's next move, and stays
      if (shown.current === version) { setSelected(null); setSeerPick(null); }
    }
  }
  /** While a move is in flight, a tap on the table it was sent from is dropped; once a newer version is shown
   *  (the player's turn again), a tap chooses the next move, which is committed when the answer is in. */
  const chooseOnly = busy && sentAt.current !== version;

  /** Choose, then commit: the first tap selects the card and says what playing it does; a second tap on it
   *  (or the Play button) sends it. One-tap play (Settings) sends at once. */
  function tapCard(card: string) {
    const r = dimReason(card, tableState);
    if (r) { setHint(reasonText(r)); setSelected(null); return; }
    setHint("");
    if (chooseOnly) { setSelected(card); return; }
    if (busy) return;
    if (st.oneTap || selected === card) { void send({ play: card }); return; }
    setSelected(card);
  }

  function pickSeer(choice: "prize" | "top") {
    if (chooseOnly) { setSeerPick(choice); return; }
    if (busy) return;
    if (st.oneTap || seerPick === choice) void send({ seer: choice });
    else setSeerPick(choice);
  }

  /** What playing ``card`` does now: leads the trick, follows the led faction, or does not follow it. */
  function selText(card: string): string {
    const name = cardName(card, st.lang);
    const lead = v!.current_trick[0];
    if (!lead) return t("table.sel_lead", { card: name });
    const lf = factionOf(lead.card) as Faction;
    const faction = factionTitle(lf, st.lang);
    const cf = factionOf(card);
    if (cf === lf) return t("table.sel_follow", { card: name, faction });
    if (cf === "doppelganger") return t("table.sel_doppel", { card: name, faction });
    return t("table.sel_off", { card: name, faction });
  }

  const resign = () => resignGame(id, g.version);

  const turnText = aborted ? t("inbox.aborted") : over ? t("end.title") : g.status === "open" ? t("table.waiting_start")
    : g.myTurn ? t("table.your_turn") : t("table.their_turn", { name: oppName });
  const scoreCount = (s: number, f: string) => (v.score[s]?.[f]?.length ?? 0) + (v.gnome_rows?.[s]?.filter((c) => c.startsWith(f + "-")).length ?? 0);
  // columns of the lead table: 2 seats you | opponent; 3 seats you | each other; 4 seats your team | opponents
  const cols: { label: string; short: string; seats: number[] }[] = n === 4
    ? [{ label: t("table.your_team"), short: t("table.your_team"), seats: [me, partner!] },
      { label: t("table.opponents"), short: t("table.opponents"), seats: others.filter((s) => s !== partner) }]
    : [{ label: t("table.you"), short: t("table.you"), seats: [me] }, ...others.map((s) => ({ label: seatName(g, s), short: whoShort(s), seats: [s] }))];
  const colCount = (c: { seats: number[] }, f: string) => c.seats.reduce((a, s) => a + scoreCount(s, f), 0);
  const playedNow = (s: number) => v.current_trick.find((tc) => tc.seat === s)?.card;
  const playedLast = (s: number) => v.last_trick?.cards.find((tc) => tc.seat === s)?.card;
  const humansElsewhere = g.seats.some((s) => s.index !== me && s.ai == null);
  const timed = g.raw.time_control.type !== "unlimited";
  const showClock = !over && g.status === "active" && (humansElsewhere || timed);
  const selOk = selected !== null && legal.has(selected) && g.myTurn && !seerChoice;
  const commitText = over ? "" : seerChoice ? t("table.seer_pick") : selOk ? selText(selected!) : hint || (g.myTurn && !st.oneTap ? t("table.sel_hint") : "");

  return (
    <main class="table" id="main" data-kind={g.kind} data-seats={n} data-version={g.version} data-phase={v.phase} data-over={over ? "1" : "0"} data-myturn={g.myTurn ? "1" : "0"}>
      <h1 class="sr-only">{t(("game." + g.kind) as Key)} {versusText(g)}</h1>
      <div class="t-head">
        <p class={`t-turn ${g.myTurn ? "mine" : ""}`} role="status" aria-live="polite" id="turn" tabIndex={-1}>
          {g.myTurn && <span aria-hidden="true">▶ </span>}{turnText}
          {!over && g.deadline && <span class="t-due"> · {t("table.deadline", { when: relTime(g.deadline) })}</span>}
        </p>
        <p class="t-status small">
          <span class="nw">{t("table.phase", { n: v.phase })}</span> · <span class="nw">{t("table.trick", { n: Math.min(v.trick, tricksPerPhase(n)), total: tricksPerPhase(n) })}</span>
          <span class={`live ${st.ws === "open" ? "on" : ""}`} title={st.ws === "open" ? t("table.live") : t("table.reconnecting")} aria-hidden="true" />
        </p>
        <p class="t-news small" id="trick-news" role="status" aria-live="polite" style={{ margin: 0, minHeight: "1.2em", fontWeight: 600 }}>{over ? "" : news}</p>
      </div>
      <GameBar g={g} />
      {over && !aborted && <EndScreen g={g} />}

      <section class={`t-seats n${n}`} id="seats" aria-label={t("table.opponents")}>
        {others.map((s, i) => {
          const now = playedNow(s), last = playedLast(s);
          return (
            <div class={`t-seat ${side(s)} ${g.toAct.includes(s) && !over ? "acting" : ""}`} data-seat={s}
              data-pos={n === 4 ? ["left", "across", "right"][i] : n === 3 ? ["left", "right"][i] : "across"}>
              <span class="t-seat-name"><b>{seatLabel(g, s)}</b></span>
              <span class="small">
                {s === partner && <span class="badge">{t("table.partner")} · </span>}
                {t("table.cards_left", { n: v.hand_counts[s] ?? 0 })}
                {g.toAct.includes(s) && !over && <span class="badge"> · {t("table.to_play")}</span>}
              </span>
              <span class="t-seat-cards small">
                {now && <span class="nw">{t("table.now")} <CardView id={now} size="s" /></span>}
                {last && <span class="nw muted">{t("table.last")} <CardView id={last} size="s" /></span>}
              </span>
              <Voids factions={v.voids?.[s]} />
            </div>
          );
        })}
      </section>

      <section class="t-mid" aria-label={t("table.trick_area")}>
        {v.phase === 1 && !over && (
          <div class="prize">
            <span class="lbl small">{t("table.prize")}</span>
            {v.prize ? <CardView id={v.prize} size="l" label={`${t("table.prize")}: ${cardName(v.prize, st.lang)}`} /> : <CardBack size="l" />}
            <span class="muted small">{t("table.deck", { n: v.deck_count })}</span>
          </div>
        )}
        <div class="trick" id="trick">
          {v.current_trick.length > 0 ? v.current_trick.map((tc) => (
            <div class={`tc ${side(tc.seat)}`} key={tc.card}>
              <span class="small tc-who" aria-hidden="true">{whoShort(tc.seat)}</span>
              <CardView id={tc.card} size="l" label={`${who(tc.seat)}: ${cardName(tc.card, st.lang)}`} />
            </div>
          )) : v.last_trick ? (
            <button type="button" class="last-mini" onClick={() => setReplay(true)}>
              <span class="small">{t("table.last_trick")}</span><span class="sr-only">{t("table.replay")}</span>
              <span class="row">{v.last_trick.cards.map((c) => (
                <span class="nw tc-last" data-seat={c.seat}><span class="small">{whoShort(c.seat)}</span> <CardView id={c.card} size="s" label={`${who(c.seat)}: ${cardName(c.card, st.lang)}`} /></span>
              ))}</span>
              <span class="small">{t("table.won_by", { name: who(v.last_trick.winner) })}</span>
            </button>
          ) : <span class="muted small">{t("table.no_last")}</span>}
        </div>
      </section>

      {!over && (
        <div class="t-commit" id="commit">
          <p class="commit-text small" role="status" aria-live="polite" id="commit-text">{commitText}</p>
          {selOk && (
            <button type="button" class="btn primary" aria-disabled={busy} id="confirm-play"
              onClick={() => { if (!busy && selected) void send({ play: selected }); }}>{t("table.play", { card: cardName(selected!, st.lang) })}</button>
          )}
        </div>
      )}

      {!over && (
        <section class="hand-wrap" aria-label={t("table.hand")}>
          <div class={`hand ${hand.length > 7 ? "two" : ""}`} id="hand" aria-busy={busy} onKeyDown={handKeys}
            style={{ "--cols": hand.length > 7 ? Math.ceil(hand.length / 2) : Math.max(hand.length, 1) }}>
            {hand.length === 0 && <span class="muted small">{t("table.hand_empty")}</span>}
            {hand.map((c, i) => {
              const ok = g.myTurn && !seerChoice && legal.has(c);
              // cards alike (C1.2: the Goblin 0s) are one choice: only the first of them shows it chosen
              const chosen = selected === c && hand.indexOf(c) === i;
              return (
                <CardView id={c} size="h" dim={g.myTurn && !ok} selected={chosen} onClick={() => tapCard(c)}
                  class={ok ? "legal" : g.myTurn ? "" : "wait"} />
              );
            })}
          </div>
        </section>
      )}

      <section class="leads" aria-label={t("table.scores")}>
        <div class={`lead-head small cols${cols.length}`} aria-hidden="true"><span>{cols[0].short}</span><span></span>{cols.slice(1).map((c) => <span>{c.short}</span>)}</div>
        {v.factions.map((f) => {
          const lead = v.leading?.[f];
          const leadSeats = n === 2 ? (lead == null ? [] : [lead]) : voteSeats(lead, n);
          const ours = leadSeats.includes(me);
          const leader = leadSeats.length === 0 ? t("table.nobody") : ours ? cols[0].label
            : n === 4 ? t("table.opponents") : seatName(g, leadSeats[0]);
          const counts = cols.map((c) => colCount(c, f));
          const leadCol = cols.findIndex((c) => c.seats.some((s) => leadSeats.includes(s)));
          return (
            <button type="button" class={`lead-row cols${cols.length} ${ours ? "me" : leadSeats.length === 0 ? "" : "opp"}`} onClick={() => setPower(f as Faction)} data-faction={f}>
              <span class={`n ${leadCol === 0 ? "lead" : ""}`} aria-hidden="true">{counts[0]}</span>
              <span class="fac" aria-hidden="true"><Glyph faction={f as Faction} size={16} /> {factionTitle(f as Faction, st.lang)}</span>
              {counts.slice(1).map((x, i) => <span class={`n ${leadCol === i + 1 ? "lead" : ""}`} aria-hidden="true">{x}</span>)}
              <span class="sr-only">{`${factionTitle(f as Faction, st.lang)}: ${cols.map((c, i) => `${c.label} ${counts[i]}`).join(", ")}. ${t("table.leads")}: ${leader}`}</span>
            </button>
          );
        })}
      </section>

      <section class="piles" aria-labelledby="piles-h">
        <h2 class="small" id="piles-h">{t("table.scores")}</h2>
        {v.phase === 1 && v.followers && (
          <div class="pile" id="followers"><h3 class="small">{t("table.followers", { n: v.followers.length })}</h3>
            <div class="pile-row">{v.followers.map((c) => <CardView id={c} size="s" />)}</div></div>
        )}
        {[me, ...others].map((s) => (
          <div class={`pile ${side(s)}`}>
            <h3 class="small">{who(s)}{s === partner && ` · ${t("table.partner")}`}</h3>
            {v.factions.map((f) => (v.score[s]?.[f]?.length ? (
              <div class="pile-row"><Glyph faction={f as Faction} size={14} />{v.score[s][f].map((c) => <CardView id={c} size="s" />)}</div>
            ) : null))}
            {v.gnome_rows?.[s]?.length > 0 && <div class="pile-row" data-gnomes={s}><span class="small">{t("table.gnome_rows")}:</span>{v.gnome_rows[s].map((c) => <CardView id={c} size="s" />)}</div>}
          </div>
        ))}
        {v.troll_pool?.length > 0 && <div class="pile-row" id="troll-pool"><span class="small">{t("table.troll_pool")}:</span>{v.troll_pool.map((c) => <CardView id={c} size="s" />)}</div>}
      </section>

      {showClock && <Clock g={g} />}
      <div class="t-actions">
        {v.last_trick && <button type="button" class="btn ghost" onClick={() => setReplay(true)}>{t("table.replay")}</button>}
        {!over && g.status === "active" && <button type="button" class="btn ghost" onClick={resign} id="resign">{t("table.resign")}</button>}
      </div>
      <TableChat gameId={id} over={over} />

      {seerChoice && !over && (
        <Dialog title={t("table.seer_title")} id="seer">
          {v.peek && <p>{t("table.seer_peek", { card: cardName(v.peek, st.lang) })}</p>}
          <p class="small">{t("table.seer_pick")}</p>
          <div class="seer-opts">
            <button type="button" class={`btn ${seerPick === "prize" ? "primary" : ""}`} aria-pressed={seerPick === "prize"} aria-disabled={busy} onClick={() => pickSeer("prize")} id="seer-prize">
              {v.prize && <CardView id={v.prize} size="m" />}{t("table.seer_keep", { card: v.prize ? cardName(v.prize, st.lang) : "" })}
            </button>
            <button type="button" class={`btn ${seerPick === "top" ? "primary" : ""}`} aria-pressed={seerPick === "top"} aria-disabled={busy} onClick={() => pickSeer("top")} id="seer-top">
              {v.peek && <CardView id={v.peek} size="m" />}{v.peek ? t("table.seer_top", { card: cardName(v.peek, st.lang) }) : t("table.seer_top_hidden")}
            </button>
            <button type="button" class="btn primary" id="seer-commit" aria-disabled={busy || !seerPick}
              onClick={() => { if (!busy && seerPick) void send({ seer: seerPick }); }}>{t("table.commit")}</button>
          </div>
        </Dialog>
      )}
      {!over && <GiantChoice g={g} busy={busy} send={(m) => void send(m)} />}
      {power && (
        <Dialog title={t("table.power", { faction: factionTitle(power, st.lang) })} onClose={() => setPower(null)} id="power">
          <p>{POWERS[st.lang][power]}</p>
        </Dialog>
      )}
      {replay && v.last_trick && <Replay last={v.last_trick} g={g} onClose={() => setReplay(false)} />}
    </main>
  );
}

/** Arrow keys (and Home/End) move between the cards of the hand; Tab leaves it. */
function handKeys(e: KeyboardEvent) {
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
  const cards = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLElement>("button.card")];
  const i = cards.indexOf(document.activeElement as HTMLElement);
  if (i < 0) return;
  e.preventDefault();
  const j = e.key === "Home" ? 0 : e.key === "End" ? cards.length - 1 : i + (e.key === "ArrowRight" ? 1 : -1);
  cards[Math.max(0, Math.min(cards.length - 1, j))].focus();
}

function Replay({ last, g, onClose }: { last: LastTrick; g: Game; onClose: () => void }) {
  const [step, setStep] = useState(0);
  const [run, setRun] = useState(0);
  useEffect(() => {
    setStep(0);
    const timers = last.cards.map((_, i) => setTimeout(() => setStep(i + 1), 600 * (i + 1)));
    return () => timers.forEach(clearTimeout);
  }, [last, run]);
  const me = g.mySeat ?? 0;
  const name = (s: number) => (s === me ? t("table.you") : seatName(g, s));
  return (
    <Dialog title={`${t("table.last_trick")} (${t("table.phase", { n: last.phase })}, ${t("table.trick", { n: last.trick, total: tricksPerPhase(seatCount(g)) })})`} onClose={onClose} id="replay">
      <div class="trick replay">
        {last.cards.map((c, i) => (
          <div class={`tc ${i < step ? "shown" : "hidden"}`}>
            <span class="small">{name(c.seat)}</span>
            <CardView id={c.card} size="l" label={`${name(c.seat)}: ${cardName(c.card, state.lang)}`} />
          </div>
        ))}
      </div>
      <p role="status">{step >= last.cards.length ? t("table.won_by", { name: name(last.winner) }) : "…"}</p>
      {last.prize && <p class="small">{t("table.prize")}: {cardName(last.prize, state.lang)} → {name(last.prize_to ?? last.winner)}</p>}
      <button type="button" class="btn" onClick={() => setRun(run + 1)}>{t("table.replay")}</button>
    </Dialog>
  );
}

/** The factions a seat is publicly known to lack this phase (it did not follow them: C4.2b, C4.3). */
function Voids({ factions }: { factions?: string[] }) {
  if (!factions?.length) return null;
  return <span class="muted small voids">{t("table.voids", { list: factions.map((f) => factionTitle(f as Faction, state.lang)).join(", ") })}</span>;
}
