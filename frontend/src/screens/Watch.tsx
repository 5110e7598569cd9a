// Spectating (issue 35): #/watch, the "now playing" list of watchable games (kind filter, keyset "load more"), and
// #/watch/ID, one game watched live: GET /games/{id}/watch, then the socket's spectator feed (`watch` →
// `spectator_game` frames, `unwatch` on leaving), `watch_ended` said and the way back. A spectator sees the public
// view only: the boards below are the read-only ones of GameGate/Replay (counts and backs, never a hand).
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import type { NowPlayingGame, NowPlayingPage, PublicUser, SpectatorGame } from "../api";
import { seatName } from "../game";
import type { Key } from "../i18n";
import { unwatchGame, watchGame } from "../realtime";
import { appendPage, nowPlayingPath, reduceWatch, spectatorBoard, WATCH_KINDS, watchHref, type WatchModel } from "../social";
import { errorText, t, useStore } from "../store";
import { relTime } from "../ui";
import { ClaimBoard } from "./GameGate";
import { InheritorsReplay } from "./InheritorsReplay";
import { ChatPanel } from "./Chat";
import { reviewable } from "../review";
import { ReviewButton } from "./Review";

/** A name in a sentence: isolated (U+2068…U+2069), so that a right-to-left name or an override stays inside it. */
export const iso = (name: string) => `\u2068${name}\u2069`;

/** A person's own name as text of its own direction, isolated from what is around it; a link to the profile. */
export function UserName({ user, link = true }: { user: PublicUser; link?: boolean }) {
  const name = user.name || user.username;
  return link
    ? <a class="uname" dir="auto" href={`#/profile/${encodeURIComponent(user.username)}`}>{name}</a>
    : <span class="uname" dir="auto">{name}</span>;
}

/** "2 watching" with its eye, for the watch screen and the lists. */
export function SpectatorCount({ n }: { n: number }) {
  return (
    <span class="nw" data-spectators={n}>
      <svg class="eye" width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor"
        d="M12 5C6.5 5 2.7 9.4 1.5 12c1.2 2.6 5 7 10.5 7s9.3-4.4 10.5-7C21.3 9.4 17.5 5 12 5Zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z" /></svg>
      {" "}{t("watch.spectators", { n })}
    </span>
  );
}

const POLL_MS = 15000;

export function WatchScreen({ id }: { id: number }) {
  const st = useStore();
  const [m, setM] = useState<WatchModel>({ game: null, ended: null });
  const [err, setErr] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setM({ game: null, ended: null }); setErr(null);
    api<SpectatorGame>("GET", `/games/${id}/watch`)
      .then((game) => { if (current) setM((before) => reduceWatch(before, id, { type: "loaded", game })); })
      .catch((e) => { if (current) setErr(errorText(e)); });
    const on = (e: Event) => {
      const f = (e as CustomEvent).detail as { type: string };
      if (f.type === "spectator_game" || f.type === "watch_ended") setM((before) => reduceWatch(before, id, f as never));
    };
    window.addEventListener("claim:watch", on);
    watchGame(id);
    return () => { current = false; window.removeEventListener("claim:watch", on); unwatchGame(id); };
  }, [id]);

  // A safety net while the socket is down: the REST view now and then, until the game ends or the feed is ended.
  const g = m.game;
  const live = !!g && g.status === "active" && !m.ended;
  useEffect(() => {
    if (!live || st.ws === "open") return;
    const timer = setInterval(() => {
      api<SpectatorGame>("GET", `/games/${id}/watch`).then((game) => setM((b) => reduceWatch(b, id, { type: "loaded", game }))).catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [id, live, st.ws]);

  if (m.ended) {
    return (
      <main class="page narrow" id="main" data-watch={id} data-ended={m.ended}>
        <h1>{t("watch.ended_title")}</h1>
        <p role="alert" id="watch-ended">{m.ended === "blocked" ? t("watch.ended_blocked") : t("watch.ended")}</p>
        <p class="row"><a class="btn primary" href="#/watch" id="watch-back">{t("watch.back")}</a><a class="btn ghost" href="#/">{t("nav.home")}</a></p>
      </main>
    );
  }
  if (!g) {
    return (
      <main class="page narrow" id="main" data-watch={id}>
        {err ? <p class="form-err" role="alert" id="watch-error">{err}</p> : <p aria-busy="true">{t("common.loading")}</p>}
        <p><a class="btn ghost" href="#/watch" id="watch-back">{t("watch.back")}</a></p>
      </main>
    );
  }
  const board = spectatorBoard(g);
  const iv = g.view.game === "inheritors" ? g.view : null;
  const names = board.seats.map((s) => seatName(board, s.index));
  const over = g.status === "finished" || g.status === "aborted";
  const winners = g.seats.filter((s) => s.outcome === "win").map((s) => names[s.index] ?? "?");
  return (
    <main class="page" id="main" data-watch={id} data-version={g.version} data-status={g.status} data-kind={g.kind}>
      <h1>{t(("game." + g.kind) as Key)}</h1>
      <p class="row-between small">
        <span><strong>{t("watch.spectating")}</strong>{g.rated && <> · {t("seek.rated")}</>}</span>
        <span class="nw"><span class={`live ${st.ws === "open" ? "on" : ""}`} title={st.ws === "open" ? t("table.live") : t("table.reconnecting")} aria-hidden="true" /> <SpectatorCount n={g.spectators} /></span>
      </p>
      <ul class="w-seats" id="watch-seats" aria-label={t("watch.players")}>
        {g.seats.map((s) => (
          <li data-seat={s.index} class={board.toAct.includes(s.index) && !over ? "acting" : ""}>
            {s.user ? <UserName user={s.user} /> : <span dir="auto" class="uname">{names[s.index]}</span>}
            {s.user?.is_bot && <span class="badge"> · {t("extra.lobby_bot")}</span>}
            {board.toAct.includes(s.index) && !over && <span class="badge"> · {t("table.to_play")}</span>}
          </li>
        ))}
      </ul>
      {over && (
        <div class="card-panel" id="watch-result">
          <p><strong>{g.status === "aborted" ? t("gate.aborted") : winners.length ? t("gate.won", { names: winners.map(iso).join(", ") }) : t("gate.finished")}</strong></p>
          <p class="row"><a class="btn" href={`#/replay/${g.id}`} id="watch-replay">{t("replay.open")}</a>
            {g.status === "finished" && st.me && reviewable(g.kind) && <ReviewButton id={g.id} />}</p>
        </div>
      )}
      {iv && <InheritorsReplay step={{ id: g.id, step: 0, steps: 0, move: null, events: [], to_act: iv.to_act, spectator_view: iv, seat_views: [] }} seatNames={names} live />}
      {!iv && board.view && <ClaimBoard g={board} />}
      {!over && <p class="small muted">{t("gate.live_note")}</p>}
      {st.me && g.status !== "aborted" && <ChatPanel gameId={id} role="spectator" over={over} key={over ? "over" : "live"} />}
      <p class="row"><a class="btn ghost" href="#/watch" id="watch-back">{t("watch.back")}</a></p>
    </main>
  );
}

/** #/watch: watchable games, most recently moved first, a kind at a time or all; a tap watches one. */
export function NowPlaying() {
  useStore();
  const [kind, setKind] = useState<string | null>(null);
  const [rows, setRows] = useState<NowPlayingGame[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);

  async function load(k: string | null, cursor: number | null) {
    setBusy(true);
    try {
      const page = await api<NowPlayingPage>("GET", nowPlayingPath(k, cursor));
      setRows((before) => (cursor ? appendPage(before, page.results, (r) => r.id) : page.results));
      setNext(page.next);
      setErr(null);
    } catch (e) { setErr(errorText(e)); }
    setBusy(false);
    setLoaded(true);
  }
  useEffect(() => { setRows([]); setNext(null); setLoaded(false); void load(kind, null); }, [kind]);

  const filters: (string | null)[] = [null, ...WATCH_KINDS];
  return (
    <main class="page" id="main">
      <div class="row-between">
        <h1>{t("watch.now_title")}</h1>
        <button type="button" class="btn ghost" id="watch-refresh" onClick={() => void load(kind, null)} disabled={busy} aria-busy={busy}>{t("common.refresh")}</button>
      </div>
      <p class="muted small">{t("watch.now_help")}</p>
      <div class="seg wrap" role="group" aria-label={t("watch.filter")} id="watch-filter">
        {filters.map((k) => (
          <button type="button" class={`seg-b ${kind === k ? "on" : ""}`} aria-pressed={kind === k} data-kind={k ?? "all"}
            onClick={() => setKind(k)}>{k ? t(("game." + k) as Key) : t("watch.all_kinds")}</button>
        ))}
      </div>
      {err && <p class="form-err" role="alert">{err}</p>}
      {loaded && !rows.length && !err && <p class="empty" id="watch-empty">{t("watch.none")}</p>}
      <ul class="games" id="now-playing">
        {rows.map((r) => <NowPlayingRow r={r} key={r.id} />)}
      </ul>
      {next && <button type="button" class="btn wide" id="watch-more" disabled={busy} aria-busy={busy} onClick={() => void load(kind, next)}>{busy ? t("common.loading") : t("watch.more")}</button>}
    </main>
  );
}

/** One watchable game: its kind, who plays (names as text), rated or not, spectators, when it last moved. */
export function NowPlayingRow({ r }: { r: NowPlayingGame }) {
  return (
    <li>
      <a class="game-row" href={watchHref(r.id)} data-watch-game={r.id}>
        <span class="gr-main"><strong>{t(("game." + r.kind) as Key)}</strong>{" "}
          <span class="w-names">{r.seats.map((u, i) => <>{i > 0 && <span aria-hidden="true"> · </span>}<span class="uname" dir="auto">{u ? u.name || u.username : t("watch.ai")}</span></>)}</span></span>
        <span class="gr-sub small muted">{r.rated ? t("seek.rated") : t("seek.casual")} · <SpectatorCount n={r.spectators} /> · {relTime(r.moved_at)}</span>
      </a>
    </li>
  );
}
