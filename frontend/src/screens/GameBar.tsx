// The game screen's bar (issue 33): "Abort" while the server allows it (the view's can_abort: before a player's
// first move), asked for with a confirmation and kept apart from Resign (which stays at the foot of the table);
// an abort offered by another player with the way to agree; "Next game", the game where it is my move with the
// nearest deadline, from the inbox's lists (GET /games?status=active, kept live by the socket's pushes).
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { inboxOrder, seatName, type Game } from "../game";
import { navigate } from "../router";
import { errorText, loadLists, putGame, state, t, toast, useStore } from "../store";
import { Dialog } from "../ui";
import { ChatButton } from "./Chat";
import { SpectatorCount } from "./Watch";


/** The games where it is my move, nearest deadline first (the inbox's order), ``current`` left out. */
export function myTurnGames(games: Record<number, Game>, active: number[], current?: number | null): Game[] {
  const mine = active.map((id) => games[id]).filter((g): g is Game => !!g && g.status === "active" && g.myTurn && g.id !== current);
  return inboxOrder(mine);
}

/** Opens the next game where it is my move (nearest deadline first); hidden while there is none. The inbox
 *  includes it too (``<NextTurnButton />``). */
export function NextTurnButton({ current }: { current?: number | null }) {
  const st = useStore();
  useEffect(() => { if (!st.listsLoaded) void loadLists(); }, [st.listsLoaded]);
  const next = myTurnGames(st.games, st.lists.active, current);
  if (!next.length) return null;
  return (
    <a class="btn" href={`#/game/${next[0].id}`} id="next-turn" data-next={next[0].id}>
      {t("extra.next_game")} <span class="badge hot">{next.length}</span><span class="sr-only"> {t("extra.next_turn", { n: next.length })}</span> <span aria-hidden="true">▶</span>
    </a>
  );
}

/** Offers (or agrees) to abort ``g``; the answer's view is stored. */
async function abortGame(g: Game): Promise<void> {
  try {
    const after = putGame(await api<Schemas["GameView"]>("POST", `/games/${g.id}/abort`), true);
    if (after.status === "aborted") { toast(t("extra.aborted")); void loadLists(); } else toast(t("extra.abort_offered"));
  } catch (e) { toast(errorText(e), "error"); }
}

export function AbortControl({ g }: { g: Game }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (g.status !== "active" || !g.raw.can_abort) return null;
  const seats = g.raw.seats;
  const mine = seats.find((s) => s.you);
  const humansElsewhere = seats.some((s) => !s.you && s.type === "user");
  const offeredBy = seats.filter((s) => !s.you && s.abort_offered).map((s) => seatName(g, s.index));
  async function go() {
    setBusy(true);
    await abortGame(g);
    setBusy(false);
    setAsking(false);
  }
  return (
    <div class="row" id="abort-bar" style={{ alignItems: "center", flexWrap: "wrap", gap: ".4rem" }}>
      {offeredBy.length > 0 && <span class="small" id="abort-asked">{t("extra.abort_asked", { name: offeredBy.join(", ") })}</span>}
      {mine?.abort_offered ? <span class="small muted" id="abort-waiting">{t("extra.abort_offered")}</span>
        : <button type="button" class="btn" id="abort" onClick={() => setAsking(true)}>{offeredBy.length ? t("extra.abort_accept") : t("extra.abort")}</button>}
      {asking && (
        <Dialog title={t("extra.abort_title")} id="abort-confirm" onClose={() => setAsking(false)} initial="#abort-keep">
          <p>{t("extra.abort_body")}</p>
          {humansElsewhere && !offeredBy.length && <p class="small">{t("extra.abort_body_human")}</p>}
          <div class="row" style={{ gap: ".5rem", flexWrap: "wrap" }}>
            <button type="button" class="btn primary" id="abort-yes" aria-disabled={busy} onClick={() => { if (!busy) void go(); }}>{t("extra.abort_confirm")}</button>
            <button type="button" class="btn" id="abort-keep" onClick={() => setAsking(false)}>{t("extra.abort_keep")}</button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

/** The bar both tables (Claim family and Inheritors) show under their head: abort in the first moves, the
 *  notice of an aborted game, the chat button (its unread lines), how many watch (the socket's ``spectators``
 *  event, when any), and the next game where it is my move. */
export function GameBar({ g }: { g: Game }) {
  const st = useStore();
  const watching = st.spectators[g.id] ?? 0;
  const aborted = g.status === "aborted";
  return (
    <div class="game-bar" id="game-bar" style={{ gridColumn: "1 / -1", display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: ".4rem", margin: ".3rem 0" }}>
      {aborted && <p class="notice" id="aborted-note" style={{ margin: 0 }}>{t("extra.aborted")}</p>}
      {aborted && <a class="btn" href="#/">{t("extra.all_games")}</a>}
      <AbortControl g={g} />
      <span class="row" style={{ alignItems: "center", gap: ".5rem" }}>
        <ChatButton gameId={g.id} />
        {watching > 0 && <span class="small" id="table-spectators"><SpectatorCount n={watching} /></span>}
      </span>
      <NextTurnButton current={g.id} />
    </div>
  );
}

/** Navigates to the next game where it is my move, if any (for keyboard shortcuts and tests). */
export function openNextTurn(current?: number | null): boolean {
  const next = myTurnGames(state.games, state.lists.active, current);
  if (next.length) navigate(`/game/${next[0].id}`);
  return next.length > 0;
}
