// The lobby (issue 33): other players' open seeks that would pair with me (GET /seeks/lobby, keyset pages), each
// with its game, seats, time control, rating window and rated flag, and a Join button (POST /seeks/{id}/accept).
// Kept fresh without a push of its own: re-read every LOBBY_POLL_MS while the page is visible, on every game
// start or end of the socket (claim:lifecycle: a seek that was paired leaves the list) and by its Refresh button.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { describeTimeControl } from "../corr";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { errorText, state, t, toast, useStore } from "../store";
import { relTime } from "../ui";

export const LOBBY_POLL_MS = 15000;

/** A seek of GET /seeks/lobby: another player's, with their name and rating. */
export type LobbySeek = Schemas["LobbySeek"];

/** "3 days per move · rated · 1500 ± 200" */
export function seekTerms(s: LobbySeek): string {
  const tc = s.time_control.type === "bank" ? describeTimeControl(s.time_control, t, state.lang)
    : s.days_per_move ? t("new.days", { n: s.days_per_move }) : t("new.unlimited");
  return `${tc} · ${s.rated ? t("seek.rated") : t("seek.casual")} · ${s.window == null ? t("seek.any") : `${s.rating} ± ${s.window}`}`;
}

/** The lobby's list: a section of the new-game screen and the whole of #/lobby. */
export function Lobby({ heading = "h2" }: { heading?: "h1" | "h2" }) {
  useStore();
  const [rows, setRows] = useState<LobbySeek[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState<number | "list" | null>(null);

  async function load(cursor: number | null = null) {
    setBusy((b) => b ?? "list");
    try {
      const page = await api<Schemas["LobbyPage"]>("GET", `/seeks/lobby?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      setRows((before) => (cursor ? [...before, ...page.results.filter((s) => !before.some((b) => b.id === s.id))] : page.results));
      setNext(page.next);
    } catch (e) { if (!cursor) toast(errorText(e), "error"); }
    setLoaded(true);
    setBusy((b) => (b === "list" ? null : b));
  }
  useEffect(() => {
    void load();
    const timer = setInterval(() => { if (document.visibilityState === "visible") void load(); }, LOBBY_POLL_MS);
    const on = () => void load();
    window.addEventListener("claim:lifecycle", on);
    return () => { clearInterval(timer); window.removeEventListener("claim:lifecycle", on); };
  }, []);

  async function join(s: LobbySeek) {
    setBusy(s.id);
    try {
      const mine = await api<Schemas["SeekOut"]>("POST", `/seeks/${s.id}/accept`);
      if (mine.game_id) { navigate(`/game/${mine.game_id}`); return; }
      toast(t("extra.lobby_waiting"));
    } catch (e) { toast(errorText(e), "error"); }
    setBusy(null);
    void load();
  }

  const H = heading;
  return (
    <section aria-labelledby="h-lobby" id="lobby">
      <div class="row-between">
        <H id="h-lobby">{t("extra.lobby_title")}</H>
        <button type="button" class="btn ghost" id="lobby-refresh" onClick={() => void load()} disabled={busy === "list"} aria-busy={busy === "list"}>{t("common.refresh")}</button>
      </div>
      <p class="muted small">{t("extra.lobby_help")}</p>
      {loaded && !rows.length && <p class="empty" id="lobby-empty">{t("extra.lobby_empty")}</p>}
      <ul class="games" aria-live="polite">
        {rows.map((s) => {
          const game = t(("game." + s.kind) as Key);
          return (
            <li class="game-row seek" data-lobby-seek={s.id} key={s.id}>
              <span class="gr-main"><strong>{game}</strong> <span>{t("new.players_n", { n: s.seats })}</span></span>
              <span class="gr-sub small">
                <span class="nw"><b>{s.name}</b>{s.is_bot && <span class="badge"> · {t("extra.lobby_bot")}</span>} ({s.rating})</span>
                {" · "}{seekTerms(s)}<span class="muted"> · {relTime(s.created_at)}</span>
              </span>
              <button type="button" class="btn primary" data-join={s.id} aria-disabled={busy !== null} onClick={() => { if (busy === null) void join(s); }}
                aria-label={t("extra.lobby_join_label", { name: s.name, game })}>{t("extra.lobby_join")}</button>
            </li>
          );
        })}
      </ul>
      {next && <button type="button" class="btn wide" id="lobby-more" onClick={() => void load(next)}>{t("extra.lobby_more")}</button>}
    </section>
  );
}

/** #/lobby (App.tsx routes it): the lobby as a page of its own. */
export function LobbyScreen() {
  return (
    <main class="page" id="main">
      <Lobby heading="h1" />
      <p><a class="btn wide" href="#/new">{t("nav.new")}</a></p>
    </main>
  );
}
