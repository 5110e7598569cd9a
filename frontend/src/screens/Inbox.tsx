import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import type { Challenge } from "../challenge";
import { parseInvite } from "../challenge";
import { describeTimeControl } from "../corr";
import { rowDetails } from "./inboxRow";
import { countdownText, inboxOrder, myOutcome, normGame, opponentNames, secondsUntil, type Game } from "../game";
import type { Key } from "../i18n";
import { acceptInvite, answerChallenge, declineInvite, errorText, loadLists, putGame, state, t, toast, useStore } from "../store";
import { relTime } from "../ui";
import { navigate } from "../router";
import { ChallengeAnswer, challengeTerms } from "./Challenge";
import { inviterName } from "./Invite";
import { NextTurnButton } from "./GameBar";
import { UnreadChat } from "./Chat";

/** "vs Ann", "vs Squire 1, Squire 2", "with Ann vs Squire 1, Squire 3" (4-seat Claim: teams). */
export function versusText(g: Game): string {
  const { partner, names } = opponentNames(g);
  const list = names.join(", ");
  return partner == null ? t("inbox.vs", { name: list }) : t("inbox.with_vs", { partner, names: list });
}

function Row({ g }: { g: Game }) {
  const st = useStore();
  const vs = versusText(g);
  let status: string;
  if (g.status === "aborted") {
    status = t("inbox.aborted");
  } else if (g.status === "finished") {
    const outcome = myOutcome(g);
    status = t(outcome === "win" ? "inbox.you_won" : outcome === "loss" ? "inbox.you_lost" : "inbox.draw");
  } else if (g.status === "open") {
    const from = inviterName(g);
    status = g.invitedMe ? (from ? t("inbox.invited_by", { name: from }) : t("inbox.invitations")) : t("inbox.waiting_join");
  } else {
    status = g.myTurn ? t("inbox.my_turn") : t("inbox.waiting");
  }
  // Every row says its time control and when it began, so that rows of several games against the same
  // kind of opponent (paired seeks, AI games) tell apart (issue 33 item 7); none of it twice (inboxRow.ts).
  const tc = g.raw.time_control;
  const details = rowDetails({
    status: g.status, deadline: g.deadline, timeControl: tc,
    dueIn: g.deadline ? relTime(g.deadline) : null,
    beganAgo: relTime(g.raw.created_at),
  }, t, state.lang);
  const cls = { due: "muted", terms: "muted gr-tc", began: "muted gr-began" } as const;
  void st;
  return (
    <li>
      <a class={`game-row ${g.myTurn ? "turn" : ""}`} href={`#/game/${g.id}`} data-game={g.id}>
        <span class="gr-main">
          <strong>{t(("game." + g.kind) as Key)}</strong> <span>{vs}</span>
          {g.status === "open" && g.raw.rematch_of != null && <span class="badge" data-rematch-of={String(g.raw.rematch_of)}> {t("rematch.label")}</span>}
        </span>
        <span class="gr-sub">
          <span class={`badge ${g.myTurn ? "hot" : ""}`}>{status}</span>
          {details.map((d) => <span class={cls[d.kind]} data-tc={d.kind === "terms" ? tc.type : undefined}> · {d.text}</span>)}
          {g.status === "open" && g.code && <span class="muted"> · {t("inbox.share_code", { code: g.code })}</span>}
          <UnreadChat gameId={g.id} />
        </span>
      </a>
      {g.invitedMe && (
        <div class="row invite">
          <button type="button" class="btn primary" onClick={() => acceptInvite(g.id).then((ok) => { if (ok) navigate(`/game/${g.id}`); })} data-accept={g.id}>{t("inbox.accept")}</button>
          <button type="button" class="btn ghost" onClick={() => declineInvite(g.id)}>{t("inbox.decline")}</button>
        </div>
      )}
    </li>
  );
}

/** Pending challenges (docs/api.md, "Challenges"): accept or decline (with a reason) those to me, cancel mine;
 * each opens its page. Reloaded on every challenge event of the socket (claim:challenge). */
function Challenges({ tick }: { tick: number }) {
  const [lists, setLists] = useState<Schemas["ChallengeList"]>({ incoming: [], outgoing: [] });
  async function load() {
    try { setLists(await api<Schemas["ChallengeList"]>("GET", "/challenges")); } catch { /* offline: hide */ }
  }
  useEffect(() => {
    void load();
    const on = () => void load();
    window.addEventListener("claim:challenge", on);
    return () => window.removeEventListener("claim:challenge", on);
  }, [tick]);
  async function cancel(c: Challenge) {
    if (await answerChallenge(c.id, "cancel")) toast(t("challenge.cancelled"));
    void load();
  }
  const declined = () => { toast(t("challenge.declined")); void load(); };
  if (!lists.incoming.length && !lists.outgoing.length) return null;
  return (
    <section aria-labelledby="h-challenges">
      <h2 id="h-challenges">{t("challenge.title")}</h2>
      <ul class="games" id="challenges">
        {lists.incoming.map((c) => (
          <li data-challenge={c.id} data-dir="in" key={c.id}>
            <a class="game-row" href={`#/challenge/${c.id}`}>
              <span class="gr-main"><strong>{t(("game." + c.kind) as Key)}</strong> <span>{t("challenge.from", { name: c.challenger.name })}</span>
                {c.rematch_of != null && <span class="badge" data-rematch-of={String(c.rematch_of)}> {t("rematch.label")}</span>}</span>
              <span class="gr-sub small">{challengeTerms(c)}<span class="muted"> · {t("challenge.expires", { when: relTime(c.expires_at) })}</span></span>
            </a>
            <ChallengeAnswer c={c} onAnswer={declined} />
          </li>
        ))}
        {lists.outgoing.map((c) => (
          <li data-challenge={c.id} data-dir="out" key={c.id}>
            <a class="game-row" href={`#/challenge/${c.id}`}>
              <span class="gr-main"><strong>{t(("game." + c.kind) as Key)}</strong> <span>{c.to ? t("challenge.to", { name: c.to.name }) : t("challenge.open")}</span>
                {c.rematch_of != null && <span class="badge" data-rematch-of={String(c.rematch_of)}> {t("rematch.label")}</span>}</span>
              <span class="gr-sub small">{challengeTerms(c)}<span class="muted"> · {t("challenge.expires", { when: relTime(c.expires_at) })}</span></span>
            </a>
            <button type="button" class="btn ghost" data-cancel-challenge={c.id} onClick={() => cancel(c)}>{t("common.cancel")}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Seek = Schemas["SeekOut"];

/** "Play now" waits: the seconds left until the AI takes the seat, ticking; at 0 the server's next pairing run
 *  starts the AI game (its ``game_started`` event reloads the list), re-read every few seconds meanwhile. */
function AiCountdown({ at, onDue }: { at: string; onDue: () => void }) {
  const [now, setNow] = useState(Date.now());
  const left = secondsUntil(at, now) ?? 0;
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), left > 0 ? 1000 : 5000);
    return () => clearInterval(timer);
  }, [left > 0]);
  useEffect(() => { if (left === 0) onDue(); }, [left === 0, now]);
  return (
    <span class="seek-ai" data-left={left}>
      {" · "}{left > 0 ? t("seek.ai_in", { time: countdownText(left) }) : t("seek.ai_soon")}
    </span>
  );
}

/** My open seeks (matchmaking) with cancel. */
function MySeeks({ tick }: { tick: number }) {
  const [seeks, setSeeks] = useState<Seek[]>([]);
  async function load() {
    try { setSeeks((await api<Schemas["SeekList"]>("GET", "/seeks")).mine); } catch { /* offline: hide */ }
  }
  useEffect(() => { void load(); }, [tick]);
  async function cancel(id: number) {
    try { await api("DELETE", `/seeks/${id}`); toast(t("seek.cancelled")); } catch (x) { toast(errorText(x), "error"); }
    void load();
  }
  if (!seeks.length) return null;
  return (
    <section aria-labelledby="h-seeks">
      <h2 id="h-seeks">{t("seek.mine")}</h2>
      <ul class="games" id="seeks">
        {seeks.map((s) => (
          <li class="game-row seek" data-seek={s.id}>
            <span class="gr-main"><strong>{t(("game." + s.kind) as Key)}</strong> <span>{t("new.players_n", { n: s.seats })}</span></span>
            <span class="gr-sub small">
              {s.time_control.type === "bank" ? describeTimeControl(s.time_control, t, state.lang)
                : s.days_per_move ? t("new.days", { n: s.days_per_move }) : t("new.unlimited")}
              {" · "}{s.rated ? t("seek.rated") : t("seek.casual")}
              {" · "}{s.window == null ? t("seek.any") : `± ${s.window}`}
              <span class="muted"> · {relTime(s.created_at)}</span>
              {s.quick && s.ai_fallback_at && <AiCountdown at={s.ai_fallback_at} onDue={() => void load()} />}
            </span>
            <button type="button" class="btn ghost" onClick={() => cancel(s.id)} aria-label={t("seek.cancel_label", { game: t(("game." + s.kind) as Key) })}>{t("common.cancel")}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Inbox() {
  const st = useStore();
  const [pull, setPull] = useState(0);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState("");
  const start = useRef<number | null>(null);

  const [tick, setTick] = useState(0);
  async function refresh() {
    setBusy(true);
    setTick((n) => n + 1);
    await loadLists();
    setBusy(false);
  }
  useEffect(() => { void refresh(); }, []);
  // Live (docs/realtime.md, typed events): a game that starts or ends reloads the seeks and challenges (a paired
  // seek leaves the list) and a start is said here, with the way to the table (the AI game of "Play now").
  const [started, setStarted] = useState<{ id: number; text: string } | null>(null);
  useEffect(() => {
    const on = (e: Event) => {
      const { type, game } = (e as CustomEvent<{ type: string; game: Schemas["GameSummary"] }>).detail;
      setTick((n) => n + 1);
      if (type !== "game_started") return;
      const g = normGame(game);
      setStarted({ id: g.id, text: t("inbox.game_started", { game: t(("game." + g.kind) as Key), vs: versusText(g) }) });
    };
    window.addEventListener("claim:lifecycle", on);
    return () => window.removeEventListener("claim:lifecycle", on);
  }, []);

  const pick = (ids: number[]) => ids.map((id) => st.games[id]).filter(Boolean);
  const active = inboxOrder(pick(st.lists.active));
  const open = pick(st.lists.open);
  const finished = pick(st.lists.finished);

  async function join(e: Event) {
    e.preventDefault();
    const what = parseInvite(code);
    if (!what) return;
    if ("challenge" in what) { navigate(`/challenge/${what.challenge}`); return; }
    try {
      const game = putGame(await api<Schemas["GameView"]>("POST", "/games/join", { code: what.code }));
      navigate(`/game/${game.id}`);
    } catch (x) {
      toast(errorText(x), "error");
    }
  }

  // Pull to refresh: drag down from the top of the page.
  const onTouchStart = (e: TouchEvent) => { start.current = window.scrollY <= 0 ? e.touches[0].clientY : null; };
  const onTouchMove = (e: TouchEvent) => { if (start.current != null) setPull(Math.max(0, Math.min(90, e.touches[0].clientY - start.current))); };
  const onTouchEnd = () => { if (pull > 60) void refresh(); start.current = null; setPull(0); };

  return (
    <main class="page" id="main" onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd}>
      <div class="pull" style={{ height: pull + "px" }} aria-hidden="true">{pull > 0 && t("common.pull")}</div>
      <div class="row-between">
        <h1>{t("nav.home")}</h1>
        <button class="btn ghost" type="button" onClick={refresh} disabled={busy} aria-busy={busy}>{busy ? t("common.loading") : t("common.refresh")}</button>
      </div>
      <p class="notice" id="game-started" role="status" aria-live="polite" style={started ? undefined : { margin: 0 }}>
        {started && <>{started.text} <a class="btn primary" href={`#/game/${started.id}`} data-open={started.id}>{t("inbox.open_game")}</a></>}
      </p>
      <a class="btn primary wide" href="#/new">{t("nav.new")}</a>
      <nav class="social-nav" aria-label={t("social.nav")}><a class="btn" href="#/watch" id="nav-watch">{t("watch.now_title")}</a><a class="btn" href="#/friends" id="nav-friends">{t("social.friends_title")}</a><a class="btn" href="#/tournaments" id="nav-tournaments">{t("tour.title")}</a></nav>
      <NextTurnButton />
      <Challenges tick={tick} />
      <MySeeks tick={tick} />
      {st.listsLoaded && !active.length && !open.length && !finished.length && <p class="empty">{t("inbox.empty")}</p>}
      {active.length > 0 && (
        <section aria-labelledby="h-active">
          <h2 id="h-active" class="sr-only">{t("inbox.my_turn")}</h2>
          <ul class="games">{active.map((g) => <Row g={g} key={g.id} />)}</ul>
        </section>
      )}
      <section aria-labelledby="h-open">
        <h2 id="h-open">{t("inbox.invitations")}</h2>
        {open.length > 0 && <ul class="games">{open.map((g) => <Row g={g} key={g.id} />)}</ul>}
        <form class="inline-form" onSubmit={join}>
          <label for="join-code">{t("inbox.code")}</label>
          <div class="row">
            <input id="join-code" value={code} onInput={(e) => setCode((e.target as HTMLInputElement).value)} autocomplete="off" />
            <button class="btn" type="submit">{t("inbox.join")}</button>
          </div>
        </form>
      </section>
      {finished.length > 0 && (
        <section aria-labelledby="h-fin">
          <h2 id="h-fin">{t("inbox.finished")}</h2>
          <ul class="games">{finished.map((g) => <Row g={g} key={g.id} />)}</ul>
        </section>
      )}
      <p class="row"><a class="btn ghost" href="#/leaders/claim" id="leaders-link">{t("rating.leaderboards")}</a>
        <a class="btn ghost" href="#/notes">{t("notes.title")}</a></p>
    </main>
  );
}
