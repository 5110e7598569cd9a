// The table of the Claim family: hand, prize, trick, score piles, who leads each faction, Seer choice, end screen.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, isOffline, uuid } from "../api";
import { cardName, dimReason, factionTitle, groupByFaction, legalCards, type DimReason, type Faction, type Move } from "../cards";
import { CardBack, CardView, Glyph } from "../Card";
import { hasTableView, opponentSeat, othersClockwise, partnerOf, seatName, seatOutcome, voteSeats, type Game, type LastTrick } from "../game";
import type { Key } from "../i18n";
import { inhView } from "../inheritors";
import { POWERS } from "../rules";
import { acceptInvite, declineInvite, errorText, loadGame, putGame, state, t, toast, useStore } from "../store";
import { Dialog, relTime } from "../ui";
import { Clock } from "./Clock";
import { EndActions, endReasonText, hasCount } from "./EndActions";
import { GiantChoice } from "./GiantChoice";
import { InheritorsTable } from "./InheritorsTable";
import { setViewing } from "../realtime";

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
  const g = st.games[id];
  const [selected, setSelected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [power, setPower] = useState<Faction | null>(null);
  const [replay, setReplay] = useState(false);
  const [hint, setHint] = useState<string>("");

  useEffect(() => { void loadGame(id); }, [id]);
  useEffect(() => { setViewing(id); return () => setViewing(null); }, [id]);

  // Safety net while waiting for the opponent: poll often when the socket is down, rarely when up.
  useEffect(() => {
    if (!g || g.status === "finished" || g.status === "aborted" || g.myTurn) return;
    const timer = setInterval(() => void loadGame(id), st.ws === "open" ? 20000 : 4000);
    return () => clearInterval(timer);
  }, [id, g?.version, g?.myTurn, g?.status, st.ws]);

  // An inbox row (a summary, newer than the view we held) replaced the table's view: fetch the view again.
  const viewless = !!g && !hasTableView(g) && g.status !== "open";
  useEffect(() => { if (viewless) void loadGame(id); }, [id, viewless, g?.version]);

  useEffect(() => setSelected(null), [g?.version]);
  // Keyboard play: a move sent from the hand (or its confirmation) keeps focus in the hand once the new
  // version has replaced the card; at the end it moves to the result.
  const refocus = useRef<{ idx: number; version: number } | null>(null);
  useEffect(() => {
    const r = refocus.current;
    if (!r || !g || g.version === r.version) return;
    const a = document.activeElement;
    if (a?.closest("dialog")) return; // the confirmation is still closing
    if (a && a !== document.body && a.isConnected && a.id !== "turn") { refocus.current = null; return; }
    const cards = document.querySelectorAll<HTMLElement>("#hand button.card");
    const target = cards[Math.min(r.idx, cards.length - 1)] ?? document.getElementById("end-h");
    if (target) { refocus.current = null; target.focus(); } else document.getElementById("turn")?.focus(); // result still loading
  });

  if (!g) return <main class="page" id="main"><p aria-busy="true">{t("common.loading")}</p></main>;
  if (g.kind === "inheritors" && inhView(g.raw)) return <InheritorsTable g={g} />;
  const v = g.view;
  if (!v) {
    return (
      <main class="page" id="main">
        <h1>{t(("game." + g.kind) as Key)}</h1>
        <p>{g.status === "open" ? t("table.waiting_start") : t("common.loading")}</p>
        {g.code && <p>{t("inbox.share_code", { code: g.code })}<br /><code>{`${location.origin}/#/join/${g.code}`}</code></p>}
        {g.invitedMe && (
          <div class="row">
            <button type="button" class="btn primary" onClick={() => acceptInvite(g.id)} id="accept">{t("inbox.accept")}</button>
            <button type="button" class="btn ghost" onClick={() => declineInvite(g.id)}>{t("inbox.decline")}</button>
          </div>
        )}
      </main>
    );
  }

  const me = g.mySeat ?? 0;
  const n = v.seats || 2;
  const opp = opponentSeat(g);
  const oppName = n > 2 ? seatName(g, g.toAct[0] ?? v.leader) : seatName(g, opp);
  // 3-4 seats: the others clockwise from my left; with 4 the partner sits across (diagonal, M3.4)
  const others = othersClockwise(me, n);
  const partner = partnerOf(me, n);
  const who = (s: number) => (s === me ? t("table.you") : seatName(g, s));
  const side = (s: number) => (s === me ? "me" : s === partner ? "partner" : "opp");
  const hand = v.hand || [];
  const legal = legalCards(g.legal);
  const seerChoice = g.myTurn && g.legal.some((m) => "seer" in m);
  const tableState = { hand, legal_moves: g.legal, my_turn: g.myTurn, over: v.over || g.status === "finished", current_trick: v.current_trick, factions: v.factions };

  async function send(move: Move) {
    if (isOffline()) { toast(t("table.offline_move"), "error"); return; }
    const cards = [...document.querySelectorAll("#hand button.card")];
    const focused = cards.indexOf(document.activeElement as Element);
    const idx = "play" in move ? hand.indexOf(move.play as string) : -1;
    if (focused >= 0 || (idx >= 0 && document.activeElement?.closest("dialog"))) refocus.current = { idx: focused >= 0 ? focused : idx, version: g.version };
    setBusy(true);
    try {
      const res = await api<Record<string, unknown>>("POST", `/games/${id}/moves`, { version: g.version, move, client_id: uuid() });
      const payload = (res && (res.game as Record<string, unknown>)) || res;
      if (payload && payload.version != null && (payload.view || payload.factions)) putGame({ id, ...payload });
      else await loadGame(id);
    } catch (x) {
      if (x instanceof ApiError && x.status === 409) {
        if (x.view && typeof x.view === "object") putGame({ id, ...(x.view as Record<string, unknown>) });
        else await loadGame(id);
        toast(t("table.stale"));
      } else if (x instanceof ApiError && x.status === 0) {
        toast(t("table.offline_move"), "error");
      } else {
        toast(errorText(x), "error");
      }
    } finally {
      setBusy(false);
      setSelected(null);
    }
  }

  function tapCard(card: string) {
    const r = dimReason(card, tableState);
    if (r) { setHint(reasonText(r)); toast(reasonText(r)); return; }
    setHint("");
    if (busy) return;
    if (st.confirmMoves) { setSelected(selected === card ? null : card); return; }
    void send({ play: card });
  }

  async function resign() {
    if (!confirm(t("table.resign_confirm"))) return;
    try {
      const res = await api<Record<string, unknown>>("POST", `/games/${id}/resign`, { version: g.version });
      if (res && res.version != null) putGame({ id, ...res }); else await loadGame(id);
    } catch (x) { toast(errorText(x), "error"); }
  }

  const over = v.over || g.status === "finished";
  const turnText = over ? t("end.title") : g.status === "open" ? t("table.waiting_start")
    : g.myTurn ? t("table.your_turn") : t("table.their_turn", { name: oppName });
  const scoreCount = (s: number, f: string) => (v.score[s]?.[f]?.length ?? 0) + (v.gnome_rows?.[s]?.filter((c) => c.startsWith(f + "-")).length ?? 0);
  // columns of the lead table: 2 seats you | opponent; 3 seats you | each other; 4 seats your team | opponents
  const cols: { label: string; seats: number[] }[] = n === 4
    ? [{ label: t("table.your_team"), seats: [me, partner!] }, { label: t("table.opponents"), seats: others.filter((s) => s !== partner) }]
    : [{ label: t("table.you"), seats: [me] }, ...(n === 2 ? [opp] : others).map((s) => ({ label: seatName(g, s), seats: [s] }))];
  const colCount = (c: { seats: number[] }, f: string) => c.seats.reduce((a, s) => a + scoreCount(s, f), 0);

  return (
    <main class="table" id="main" data-version={g.version} data-phase={v.phase} data-over={over ? "1" : "0"} data-myturn={g.myTurn ? "1" : "0"}>
      <h1 class="sr-only">{t(("game." + g.kind) as Key)} {t("inbox.vs", { name: oppName })}</h1>
      <div class="t-top">
        {n === 2 ? (
          <div class="t-opp">
            <span class="muted small">{t("table.opp_hand", { name: oppName, n: v.hand_counts[opp] ?? 0 })}</span>
            <Voids factions={v.voids?.[opp]} />
          </div>
        ) : (
          <div class={`t-seats n${n}`} id="seats">
            {others.map((s, i) => (
              <div class={`t-seat ${side(s)} ${g.toAct.includes(s) ? "acting" : ""}`} data-seat={s} data-pos={n === 4 ? ["left", "across", "right"][i] : ["left", "right"][i]}>
                <span class="small">{seatName(g, s)}{s === partner && <b class="badge"> · {t("table.partner")}</b>}</span>
                <span class="muted small">{t("table.opp_hand", { name: seatName(g, s), n: v.hand_counts[s] ?? 0 })}</span>
                <Voids factions={v.voids?.[s]} />
              </div>
            ))}
          </div>
        )}
        <div class="t-status">
          <span class="small">{t("table.phase", { n: v.phase })} · {t("table.trick", { n: Math.min(v.trick, 13) })}</span>
          <span class={`live ${st.ws === "open" ? "on" : ""}`} title={st.ws === "open" ? t("table.live") : t("table.reconnecting")} aria-hidden="true" />
        </div>
      </div>
      <p class={`t-turn ${g.myTurn ? "mine" : ""}`} role="status" aria-live="polite" id="turn" tabIndex={-1}>{turnText}
        {!over && g.deadline && <span class="muted small"> · {t("table.deadline", { when: relTime(g.deadline) })}</span>}</p>
      {!over && g.status === "active" && <Clock g={g} />}
      {over && <EndScreen g={g} />}

      <section class="t-mid" aria-label={t("table.trick_area")}>
        {v.phase === 1 && !over && (
          <div class="prize">
            <span class="lbl">{t("table.prize")}</span>
            {v.prize ? <CardView id={v.prize} size="l" label={`${t("table.prize")}: ${cardName(v.prize, st.lang)}`} /> : <CardBack size="l" />}
            <span class="muted small">{t("table.deck", { n: v.deck_count })}</span>
          </div>
        )}
        <div class="trick" id="trick">
          {v.current_trick.length > 0 ? v.current_trick.map((tc) => (
            <div class={`tc ${side(tc.seat)}`}>
              <span class="small">{who(tc.seat)}</span>
              <CardView id={tc.card} size="l" />
            </div>
          )) : v.last_trick ? (
            <button type="button" class="last-mini" onClick={() => setReplay(true)} aria-label={t("table.replay")}>
              <span class="small muted">{t("table.last_trick")}</span>
              <span class="row">{v.last_trick.cards.map((c) => <CardView id={c.card} size="s" />)}</span>
              <span class="small">{t("table.won_by", { name: who(v.last_trick.winner) })}</span>
            </button>
          ) : <span class="muted small">{t("table.no_last")}</span>}
        </div>
      </section>

      <section class="leads" aria-label={t("table.scores")}>
        <div class={`lead-head small muted cols${cols.length}`} aria-hidden="true"><span>{cols[0].label}</span><span></span>{cols.slice(1).map((c) => <span>{c.label}</span>)}</div>
        {v.factions.map((f) => {
          const lead = v.leading?.[f];
          const leadSeats = n === 2 ? (lead == null ? [] : [lead]) : voteSeats(lead, n);
          const ours = leadSeats.includes(me);
          const leader = leadSeats.length === 0 ? t("table.nobody") : ours ? cols[0].label
            : n === 4 ? t("table.opponents") : seatName(g, leadSeats[0]);
          const counts = cols.map((c) => colCount(c, f));
          return (
            <button type="button" class={`lead-row cols${cols.length} ${ours ? "me" : leadSeats.length === 0 ? "" : "opp"}`} onClick={() => setPower(f as Faction)}
              aria-label={`${factionTitle(f as Faction, st.lang)}: ${cols.map((c, i) => `${c.label} ${counts[i]}`).join(", ")}. ${t("table.leads")}: ${leader}`} data-faction={f}>
              <span class="n">{counts[0]}</span>
              <span class="fac" style={{ "--fc": `var(--f-${f})` }}><Glyph faction={f as Faction} size={16} /> {factionTitle(f as Faction, st.lang)}</span>
              {counts.slice(1).map((x) => <span class="n">{x}</span>)}
            </button>
          );
        })}
      </section>

      <details class="piles">
        <summary>{t("table.scores")}</summary>
        {(n === 2 ? [me, opp] : [me, ...others]).map((s) => (
          <div class={`pile ${side(s)}`}>
            <h3 class="small">{who(s)}{s === partner && ` · ${t("table.partner")}`}</h3>
            {v.factions.map((f) => (v.score[s]?.[f]?.length ? (
              <div class="pile-row"><Glyph faction={f as Faction} size={14} />{v.score[s][f].map((c) => <CardView id={c} size="s" />)}</div>
            ) : null))}
            {v.gnome_rows?.[s]?.length > 0 && <div class="pile-row"><span class="small">{t("table.gnome_rows")}:</span>{v.gnome_rows[s].map((c) => <CardView id={c} size="s" />)}</div>}
          </div>
        ))}
        {v.troll_pool?.length > 0 && <div class="pile-row"><span class="small">{t("table.troll_pool")}:</span>{v.troll_pool.map((c) => <CardView id={c} size="s" />)}</div>}
        {v.phase === 1 && v.followers && (
          <div class="pile"><h3 class="small">{t("table.followers", { n: v.followers.length })}</h3>
            <div class="pile-row">{v.followers.map((c) => <CardView id={c} size="s" />)}</div></div>
        )}
      </details>

      <div class="t-actions">
        {v.last_trick && <button type="button" class="btn ghost" onClick={() => setReplay(true)}>{t("table.replay")}</button>}
        {!over && g.status === "active" && <button type="button" class="btn ghost" onClick={resign}>{t("table.resign")}</button>}
      </div>

      {!over && (
        <section class="hand-wrap" aria-label={t("table.hand")}>
          {hint && <p class="hint small" role="status">{hint}</p>}
          <div class={`hand n${hand.length}`} id="hand" aria-busy={busy} onKeyDown={handKeys}>
            {hand.length === 0 && <span class="muted small">{t("table.hand_empty")}</span>}
            {hand.map((c, i) => {
              const ok = g.myTurn && !seerChoice && legal.has(c);
              return (
                <div class="slot" style={{ "--i": i, "--n": hand.length }}>
                  <CardView id={c} size="l" dim={g.myTurn && !ok} selected={selected === c} onClick={() => tapCard(c)}
                    class={ok ? "legal" : g.myTurn ? "" : "wait"} />
                </div>
              );
            })}
          </div>
        </section>
      )}

      {selected && !over && (
        <Dialog title={t("table.confirm_title")} id="confirm" onClose={() => setSelected(null)} initial="#confirm-play">
          <p class="row"><CardView id={selected} size="l" /></p>
          <button type="button" class="btn primary" aria-disabled={busy} onClick={() => { if (!busy) void send({ play: selected }); }} id="confirm-play">{t("table.play", { card: cardName(selected, st.lang) })}</button>
        </Dialog>
      )}
      {seerChoice && !over && (
        <Dialog title={t("table.seer_title")} id="seer">
          {v.peek && <p>{t("table.seer_peek", { card: cardName(v.peek, st.lang) })}</p>}
          <div class="seer-opts">
            <button type="button" class="btn primary" aria-disabled={busy} onClick={() => { if (!busy) void send({ seer: "prize" }); }} id="seer-prize">
              {v.prize && <CardView id={v.prize} size="m" />}{t("table.seer_keep", { card: v.prize ? cardName(v.prize, st.lang) : "" })}
            </button>
            <button type="button" class="btn" aria-disabled={busy} onClick={() => { if (!busy) void send({ seer: "top" }); }} id="seer-top">
              {v.peek && <CardView id={v.peek} size="m" />}{v.peek ? t("table.seer_top", { card: cardName(v.peek, st.lang) }) : t("table.seer_top_hidden")}
            </button>
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
    <Dialog title={`${t("table.last_trick")} (${t("table.phase", { n: last.phase })}, ${t("table.trick", { n: last.trick })})`} onClose={onClose} id="replay">
      <div class="trick replay">
        {last.cards.map((c, i) => (
          <div class={`tc ${i < step ? "shown" : "hidden"}`}>
            <span class="small">{name(c.seat)}</span>
            <CardView id={c.card} size="l" />
          </div>
        ))}
      </div>
      <p role="status">{step >= last.cards.length ? t("table.won_by", { name: name(last.winner) }) : "…"}</p>
      {last.prize && <p class="small">{t("table.prize")}: {cardName(last.prize, state.lang)} → {name(last.prize_to ?? last.winner)}</p>}
      <button type="button" class="btn" onClick={() => setRun(run + 1)}>{t("table.replay")}</button>
    </Dialog>
  );
}

function EndScreen({ g }: { g: Game }) {
  const st = useStore();
  const v = g.view!;
  const r = g.result || v.result;
  const me = g.mySeat ?? 0;
  const opp = opponentSeat(g);
  if (!r) return <section class="end"><h2>{t("end.title")}</h2></section>;
  const n = v.seats || 2;
  if (!hasCount(r)) return <EndNoCount g={g} />;
  if (n > 2) return <EndScreenN g={g} />;
  const head = r.winner == null ? t("end.draw") : r.winner === me ? t("end.you_won") : t("end.you_lost");
  const groups = [groupByFaction(Object.values(r.score[me] || {}).flat(), v.factions), groupByFaction(Object.values(r.score[opp] || {}).flat(), v.factions)];
  return (
    <section class="end" aria-labelledby="end-h" id="end">
      <h2 id="end-h" tabIndex={-1}>{t("end.title")}: {head}</h2>
      <table class="breakdown">
        <caption>{t("end.breakdown")}</caption>
        <thead><tr><th scope="col">{t("end.faction")}</th><th scope="col">{t("table.you")}</th><th scope="col">{seatName(g, opp)}</th><th scope="col">{t("end.vote")}</th></tr></thead>
        <tbody>
          {v.factions.map((f) => {
            const vote = r.votes[f];
            return (
              <tr class={vote === me ? "me" : vote == null ? "" : "opp"}>
                <th scope="row"><span class="fac-cell"><Glyph faction={f as Faction} size={14} /> {factionTitle(f as Faction, st.lang)}</span></th>
                <td>{r.counts?.[me]?.[f] ?? groups[0][f]?.length ?? 0}</td>
                <td>{r.counts?.[opp]?.[f] ?? groups[1][f]?.length ?? 0}</td>
                <td>{vote == null ? "—" : vote === me ? t("table.you") : seatName(g, opp)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <EndActions g={g} />
    </section>
  );
}

/** A game that ended before the count (resigned, lost on time): who ended it, the outcome, no votes. */
function EndNoCount({ g }: { g: Game }) {
  const r = (g.result || g.view!.result)!;
  const me = g.mySeat ?? 0;
  const outcome = seatOutcome(r, me);
  const n = g.view!.seats || 2;
  const head = outcome === "draw" ? t("end.draw") : n === 4 ? t(outcome === "win" ? "end.your_team_won" : "end.your_team_lost")
    : outcome === "win" ? ((r.winners?.length ?? 0) > 1 ? t("end.shared_win") : t("end.you_won")) : t("end.you_lost");
  return (
    <section class="end" aria-labelledby="end-h" id="end" data-reason={r.reason ?? ""}>
      <h2 id="end-h" tabIndex={-1}>{t("end.title")}: {head}</h2>
      <p id="end-reason">{endReasonText(g)} {t("end.no_count")}</p>
      <EndActions g={g} />
    </section>
  );
}

/** End of a 3-4 seat game: outcome (team / shared win), places, per-faction counts of every seat. */
function EndScreenN({ g }: { g: Game }) {
  const st = useStore();
  const v = g.view!;
  const r = (g.result || v.result)!;
  const me = g.mySeat ?? 0;
  const n = v.seats;
  const seats = [me, ...othersClockwise(me, n)];
  const outcome = seatOutcome(r, me);
  const shared = (r.winners?.length ?? 0) > 1 && n === 3;
  const head = outcome === "draw" ? t("end.draw") : n === 4 ? t(outcome === "win" ? "end.your_team_won" : "end.your_team_lost")
    : outcome === "win" ? (shared ? t("end.shared_win") : t("end.you_won")) : t("end.you_lost");
  const name = (s: number) => (s === me ? t("table.you") : seatName(g, s));
  return (
    <section class="end" aria-labelledby="end-h" id="end">
      <h2 id="end-h" tabIndex={-1}>{t("end.title")}: {head}</h2>
      {r.ranks && <p class="small">{seats.map((s) => `${name(s)}: ${t("end.place", { n: r.ranks![s] })}`).join(" · ")}</p>}
      <table class="breakdown">
        <caption>{t("end.breakdown")}</caption>
        <thead><tr><th scope="col">{t("end.faction")}</th>{seats.map((s) => <th scope="col">{name(s)}</th>)}<th scope="col">{t("end.vote")}</th></tr></thead>
        <tbody>
          {v.factions.map((f) => {
            const vs = voteSeats(r.votes[f], n);
            return (
              <tr class={vs.includes(me) ? "me" : vs.length ? "opp" : ""}>
                <th scope="row"><span class="fac-cell"><Glyph faction={f as Faction} size={14} /> {factionTitle(f as Faction, st.lang)}</span></th>
                {seats.map((s) => <td>{r.counts?.[s]?.[f] ?? 0}</td>)}
                <td>{vs.length === 0 ? "—" : n === 4 ? (vs.includes(me) ? t("table.your_team") : t("table.opponents")) : name(vs[0])}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <EndActions g={g} />
    </section>
  );
}

/** The factions a seat is publicly known to lack this phase (it did not follow them: C4.2b, C4.3). */
function Voids({ factions }: { factions?: string[] }) {
  if (!factions?.length) return null;
  return <span class="muted small voids">{t("table.voids", { list: factions.map((f) => factionTitle(f as Faction, state.lang)).join(", ") })}</span>;
}
