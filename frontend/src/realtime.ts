// The events socket (/ws/): subscribe to all my games, apply pushed views, reconnect with backoff.
import type { Schemas } from "./api";
import { backoff } from "./game";
import type { Operation } from "fast-json-patch";
import type { FollowedEvent, SpectatorGameFrame, WatchEndedEvent } from "./api";
import type { ChatFrame } from "./chat";
import { isTournamentEvent, type TournamentEvent, type TournamentWatchMessage, type TournamentWatchReply } from "./tournament";
import { isReviewEvent, type ReviewEvent } from "./review";
import { loadGame, loadLists, onChallengeEvent, onChangeFrame, onPushedView, onSyncedView, readGameNotes, set, state }
  from "./store";

/** What the server sends on the socket (docs/realtime.md): the typed frames and events of the schema's streams
 *  (StreamGameFrame, StreamEventLine), and the socket's own answer to ``subscribe`` (not in the schema). Other
 *  replies (``pong``, ``viewing``...) need no handling. */
type Frame =
  | Schemas["GameChangeFrame"]
  | (Schemas["StreamGameFrame"] & { id?: unknown })
  | Schemas["StreamEventLine"]
  | { type: "subscribed"; games: "all" | number[] }
  | { type: "pong" | "viewing" | "unsubscribed" | "notifications" }
  // spectating and follows (issue 35; /work/notes/social-contract.md)
  | SpectatorGameFrame | WatchEndedEvent | FollowedEvent
  | { type: "watching" | "unwatched"; game_id: number }
  | { type: "spectators"; game_id: number; count: number }
  // table chat (docs/realtime.md, "Typed events")
  | ChatFrame
  // tournaments (issue 36): hand-typed in src/tournament.ts until the schema has them
  | TournamentEvent | TournamentWatchReply
  // a game's review being computed (issue 37): hand-typed in src/review.ts until the schema has it
  | ReviewEvent;

let ws: WebSocket | null = null;
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let ping: ReturnType<typeof setInterval> | undefined;
let stopped = true;
const SYNC = "frames-sync"; // the id of our sync requests: their answer is the current full view
let viewing: number | null = null; // the game on screen: the server sends no push/e-mail for it

/** The games this socket watches as a spectator (at most 10 per socket, the server's limit): asked for again after
 *  every reconnect. */
const watched = new Set<number>();

/** Start the spectator feed of game ``id``: ``watching``, then a ``spectator_game`` frame per version; screens hear
 *  them as ``claim:watch`` events (their detail: the frame). */
export function watchGame(id: number): void {
  watched.add(id);
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "watch", game_id: id }));
}

/** Stop the spectator feed of game ``id`` (the screen was left). */
export function unwatchGame(id: number): void {
  if (!watched.delete(id)) return;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "unwatch", game_id: id }));
}

/** The tournaments whose pages are open: asked for again after every reconnect. */
const watchedTournaments = new Set<number>();

function sendTournament(msg: TournamentWatchMessage): void {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

/** Follow tournament ``id`` while its page is open: the socket's ``tournament`` events of it reach the screens as
 *  ``claim:tournament`` (their detail: the event). */
export function watchTournament(id: number): void {
  watchedTournaments.add(id);
  sendTournament({ type: "watch_tournament", tournament_id: id });
}

/** Stop following tournament ``id`` (its page was left). */
export function unwatchTournament(id: number): void {
  if (!watchedTournaments.delete(id)) return;
  sendTournament({ type: "unwatch_tournament", tournament_id: id });
}

/** Tell the server which game is on screen (null: none), now and after every reconnect. */
export function setViewing(gameId: number | null): void {
  viewing = gameId;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "viewing", game_id: gameId }));
}


function url(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/`;
}

export function connect(): void {
  stopped = false;
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) return;
  clearTimeout(timer);
  set({ ws: "connecting" });
  let sock: WebSocket;
  try {
    sock = new WebSocket(url());
  } catch {
    schedule();
    return;
  }
  ws = sock;
  sock.onopen = () => {
    attempt = 0;
    set({ ws: "open" });
    sock.send(JSON.stringify({ type: "subscribe", games: "all" }));
    // Change frames (docs/realtime.md): a move's push carries base, events and a JSON Patch, not the whole view.
    sock.send(JSON.stringify({ type: "frames", format: "patch" }));
    if (viewing !== null) sock.send(JSON.stringify({ type: "viewing", game_id: viewing }));
    for (const id of watched) sock.send(JSON.stringify({ type: "watch", game_id: id }));
    for (const id of watchedTournaments) sock.send(JSON.stringify({ type: "watch_tournament", tournament_id: id }));
    clearInterval(ping);
    ping = setInterval(() => sock.readyState === WebSocket.OPEN && sock.send('{"type":"ping"}'), 25000);
  };
  sock.onmessage = (ev) => {
    let msg: Frame;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "game" && "base" in msg) {
      // A change frame: applied to the view held at ``base``; another version held → ask for the full view.
      if (!onChangeFrame(msg.game_id, msg.base, msg.version, msg.patch as Operation[] | undefined, msg.view)) {
        sock.send(JSON.stringify({ type: "sync", game_id: msg.game_id, id: SYNC }));
      }
    } else if (msg.type === "game" && "id" in msg && msg.id === SYNC) {
      onSyncedView(msg.game_id, msg.version, msg.view);
    } else if (msg.type === "game") {
      onPushedView(msg.game_id, msg.version, msg.view);
    } else if (msg.type === "subscribed" && msg.games === "all") {
      // From now on every change is pushed; what changed before (while away, or between loading the page and
      // this ack: an AI that moved first in a game just created) is read once now.
      resync();
    } else if (msg.type === "notification") {
      // A new in-app notification: the bell counts it, an open inbox reloads (docs/realtime.md); one of the game on
      // screen (sent before the server knew it was open) is read at once.
      set({ unread: (state.unread || 0) + 1 });
      const gameId = msg.notification.game_id;
      if (gameId != null && gameId === viewing) void readGameNotes(gameId);
      window.dispatchEvent(new CustomEvent("claim:notification"));
    } else if ("challenge" in msg) {
      // A challenge to or by me changed (docs/realtime.md, "Typed events"): the screens showing it update.
      onChallengeEvent(msg.type, msg.challenge);
    } else if (msg.type === "game_started" || msg.type === "game_finished") {
      // The inbox lists change (a paired seek leaves "My seeks", a started game says so): screens hear
      // ``claim:lifecycle`` (its detail: the type and the inbox entry).
      void loadLists();
      window.dispatchEvent(new CustomEvent("claim:lifecycle", { detail: { type: msg.type, game: msg.game } }));
    } else if (msg.type === "spectator_game" || msg.type === "watch_ended" || msg.type === "watching" || msg.type === "unwatched") {
      // The spectator feed (screens/Watch.tsx listens); a feed the server ended is not asked for again.
      if (msg.type === "watch_ended") watched.delete(msg.game_id);
      window.dispatchEvent(new CustomEvent("claim:watch", { detail: msg }));
    } else if (msg.type === "chat" || msg.type === "chat_hidden") {
      // A chat line, or one an operator hid: the chat panels and the unread counts hear ``claim:chat`` (chat.ts).
      window.dispatchEvent(new CustomEvent("claim:chat", { detail: msg }));
    } else if (msg.type === "spectators" || msg.type === "followed") {
      // A table's spectator count; someone followed me (screens/Friends.tsx says so).
      window.dispatchEvent(new CustomEvent(`claim:${msg.type}`, { detail: msg }));
    } else if (isTournamentEvent(msg)) {
      // A tournament changed (an entry, a start, a result, a round): its open page re-reads it (screens/Tournaments.tsx).
      window.dispatchEvent(new CustomEvent("claim:tournament", { detail: msg }));
    } else if (isReviewEvent(msg)) {
      // A review's progress and its end: an open review screen follows it (screens/Review.tsx).
      window.dispatchEvent(new CustomEvent("claim:review", { detail: msg }));
    } else if (msg.type === "error" && msg.code === "unauthenticated") {
      stopped = true; // the server will close with 4401; don't hammer it
    }
  };
  sock.onclose = (ev) => {
    clearInterval(ping);
    if (ws === sock) ws = null;
    set({ ws: "closed" });
    if (ev.code === 4401 || ev.code === 4403) stopped = true;
    if (!stopped) schedule();
  };
  sock.onerror = () => { /* onclose follows */ };
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(connect, backoff(attempt++));
}

function resync(): void {
  void loadLists();
  const m = location.hash.match(/^#\/game\/(\d+)/);
  if (m) void loadGame(Number(m[1]));
}

export function disconnect(): void {
  stopped = true;
  clearTimeout(timer);
  clearInterval(ping);
  if (ws) ws.close();
  ws = null;
  set({ ws: "idle" });
}

// Come back quickly when the phone wakes up or the network returns.
if (typeof window !== "undefined") {
  window.addEventListener("online", () => { set({ offline: false }); if (state.me) { attempt = 0; connect(); } });
  window.addEventListener("offline", () => set({ offline: true }));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && state.me && !ws) { attempt = 0; connect(); }
  });
}
