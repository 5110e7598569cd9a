// #/game/<id> for everyone (issue 33 item 4). A game the viewer is seated in opens its table (Table.tsx); any
// other is asked of the server first, and then shows what the viewer may see:
// * a finished (or called-off) game: its replay at the last move, with the players' names and who won; never
//   "You", never Rematch or Resign; also for a logged-out visitor (finished games are public);
// * a running game the viewer may watch (a player whose seat the AI took: `departed` in games/service/access.py):
//   a spectator view without move controls, which follows the game until it ends;
// * a game the viewer may not see (the API's 404; 401 when logged out): says so, with a way back (or the log-in
//   form for a logged-out visitor, whose own game it may be).
import { useEffect, useState } from "preact/hooks";
import { ApiError, getCached, type Schemas } from "../api";
import { cardName, factionTitle, type Faction } from "../cards";
import { CardView, Glyph } from "../Card";
import { seatName, tricksPerPhase, type Game } from "../game";
import type { Key } from "../i18n";
import { inhView, type InhReplayStep } from "../inheritors";
import { errorText, heldGame, loadGame, putGame, state, t, useStore } from "../store";
import { relTime } from "../ui";
import { InheritorsReplay } from "./InheritorsReplay";
import { Login } from "./Login";
import { ReplayScreen } from "./Replay";
import { reviewable } from "../review";
import { ReviewButton } from "./Review";
import { Table } from "./Table";

type Probe = { state: "loading" } | { state: "private" } | { state: "error"; message: string };

export function GameGate({ id }: { id: number }) {
  const st = useStore();
  const g = heldGame(id);
  const seated = !!g && g.mySeat != null;
  const [probe, setProbe] = useState<Probe>({ state: "loading" });
  const [attempt, setAttempt] = useState(0);
  const who = st.me?.username ?? null;

  // Not seated (or nothing held): ask the server. Again after a log-in: the game may be the visitor's own.
  useEffect(() => {
    if (seated) return;
    let current = true;
    setProbe({ state: "loading" });
    getCached<Schemas["GameView"]>(`/games/${id}`)
      .then(({ data }) => { if (current) putGame(data, true); })
      .catch((e) => {
        if (!current) return;
        if (e instanceof ApiError && (e.status === 404 || e.status === 401)) setProbe({ state: "private" });
        else setProbe({ state: "error", message: errorText(e) });
      });
    return () => { current = false; };
  }, [id, who, attempt]);

  if (g && g.mySeat != null) return <Table id={id} />;
  const back = st.me ? { href: "#/", label: t("gate.back") } : { href: "#/", label: t("gate.back_start") };
  if (g && (g.status === "finished" || g.status === "aborted")) {
    return <ReplayScreen id={id} atEnd intro={<Watching g={g} />} back={back} />;
  }
  if (g) return <Spectate g={g} back={back} />;
  if (probe.state === "private") {
    if (!st.me) return <Login onDone={() => undefined} intro={<PrivateNotice anonymous />} />;
    return <main class="page narrow" id="main"><PrivateNotice anonymous={false} /></main>;
  }
  if (probe.state === "error") {
    return (
      <main class="page narrow" id="main">
        <p class="form-err" role="alert" id="gate-error">{t("gate.error", { message: probe.message })}</p>
        <p class="row">
          <button type="button" class="btn primary" onClick={() => setAttempt(attempt + 1)}>{t("gate.retry")}</button>
          <a class="btn ghost" href="#/" id="gate-back">{back.label}</a>
        </p>
      </main>
    );
  }
  return <main class="page" id="main"><p aria-busy="true">{t("common.loading")}</p></main>;
}

/** "This game is private while it is played…", and the way back (a logged-out visitor gets the log-in form below). */
function PrivateNotice({ anonymous }: { anonymous: boolean }) {
  return (
    <div class="brand-hero" id="game-private">
      <h1>{t("gate.private_title")}</h1>
      <p>{t("gate.private")}</p>
      {anonymous ? <p class="small">{t("gate.private_login")}</p>
        : <p><a class="btn primary" href="#/" id="gate-back">{t("gate.back")}</a></p>}
    </div>
  );
}

/** Who won, by the seats' outcomes (every kind, resignations and timeouts included); a draw; else just "over". */
export function resultLine(g: Game): string {
  if (g.status === "aborted") return t("gate.aborted");
  const rows = g.raw.seats;
  const won = g.seats.filter((_, i) => rows[i]?.outcome === "win").map((s) => s.name);
  if (won.length) return t("gate.won", { names: won.join(", ") });
  if (rows.some((s) => s.outcome === "draw")) return t("end.draw");
  return g.status === "finished" ? t("gate.finished") : "";
}

/** The spectator's heading lines: that the game is not theirs, who plays, and the outcome once it is over. */
function Watching({ g }: { g: Game }) {
  const result = resultLine(g);
  return (
    <div class="card-panel" id="spectator" data-status={g.status}>
      <p><strong>{state.me && g.status === "active" ? t("gate.departed") : t("gate.watching")}</strong></p>
      <p id="spectator-players">{t("gate.players", { names: g.seats.map((s) => s.name).join(", ") })}</p>
      {result && <p id="spectator-result"><strong>{result}</strong></p>}
      {/* a finished watchable game's review, for a logged-in visitor (asking for one needs an account) */}
      {g.status === "finished" && g.raw.watchable && state.me && reviewable(g.kind) && <p><ReviewButton id={g.id} /></p>}
    </div>
  );
}

/** A running game seen from outside: the public view only (no hand, no move), polled until the game ends. */
function Spectate({ g, back }: { g: Game; back: { href: string; label: string } }) {
  const st = useStore();
  const live = g.status === "active";
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => void loadGame(g.id), st.ws === "open" ? 15000 : 5000);
    return () => clearInterval(timer);
  }, [g.id, live, st.ws]);
  const iv = inhView(g.raw);
  const step: InhReplayStep | null = iv
    ? { id: g.id, step: 0, steps: 0, move: null, events: [], to_act: g.toAct, spectator_view: iv, seat_views: [] } : null;
  return (
    <main class="page" id="main" data-spectator={g.id} data-status={g.status}>
      <h1>{t(("game." + g.kind) as Key)}</h1>
      <Watching g={g} />
      {live && g.toAct.length > 0 && (
        <p id="spectator-turn" role="status" aria-live="polite">
          {t("gate.to_act", { names: g.toAct.map((s) => seatName(g, s)).join(", ") })}
          {g.deadline && <span class="muted"> · {t("table.deadline", { when: relTime(g.deadline) })}</span>}
        </p>
      )}
      {step && <InheritorsReplay step={step} seatNames={g.seats.map((s) => s.name)} live />}
      {!step && g.view && <ClaimBoard g={g} />}
      {live && <p class="small muted">{t("gate.live_note")}</p>}
      <p class="row"><a class="btn ghost" href={back.href} id="gate-back">{back.label}</a></p>
    </main>
  );
}

/** The public side of a Claim-family game: phase and trick, the prize, the trick on the table, every seat's cards
 *  left and score piles, by name. Also the watch screen's (screens/Watch.tsx). */
export function ClaimBoard({ g }: { g: Pick<Game, "view" | "seats" | "toAct" | "status"> }) {
  const v = g.view!;
  const n = v.seats || g.seats.length;
  const name = (s: number) => seatName(g, s);
  // a player's name is their own text: isolated, in its own direction (a right-to-left override stays inside)
  const who = (s: number) => <span class="uname" dir="auto">{name(s)}</span>;
  return (
    <>
      <p class="small muted">{t("table.phase", { n: v.phase })} · {t("table.trick", { n: Math.min(v.trick, tricksPerPhase(n)), total: tricksPerPhase(n) })}</p>
      {v.prize && v.phase === 1 && <p class="row small">{t("table.prize")}: <CardView id={v.prize} size="s" /></p>}
      <div class="trick" id="trick">
        {v.current_trick.length > 0 ? v.current_trick.map((tc) => (
          <div class="tc"><span class="small">{who(tc.seat)}</span><CardView id={tc.card} size="m" label={`${name(tc.seat)}: ${cardName(tc.card, state.lang)}`} /></div>
        )) : v.last_trick ? (
          <p class="small">{t("table.last_trick")}: {v.last_trick.cards.map((c) => `\u2068${name(c.seat)}\u2069 ${cardName(c.card, state.lang)}`).join(", ")}. {t("table.won_by", { name: `\u2068${name(v.last_trick.winner)}\u2069` })}</p>
        ) : <span class="muted small">{t("table.no_last")}</span>}
      </div>
      {Array.from({ length: n }, (_, s) => (
        <section class="pile" aria-label={name(s)} data-seat={s}>
          <h2 class="small">{who(s)}{g.toAct.includes(s) && g.status === "active" && <span class="badge"> · {t("table.to_play")}</span>}</h2>
          <p class="small">{t("table.cards_left", { n: v.hand_counts[s] ?? 0 })}</p>
          {v.factions.map((f) => (v.score[s]?.[f]?.length ? (
            <div class="pile-row"><Glyph faction={f as Faction} size={14} /><span class="sr-only">{factionTitle(f as Faction, state.lang)}</span>
              {v.score[s][f].map((c) => <CardView id={c} size="s" />)}</div>
          ) : null))}
        </section>
      ))}
    </>
  );
}
