// App state: one small observable object; components re-render on change via useStore().
import { applyPatch, type Operation } from "fast-json-patch";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, clearCache, getCached, isOffline, peekCached, setApiLanguage, storeCached, uuid, type Schemas } from "./api";
import { roleOf, type Challenge } from "./challenge";
import { hasTableView, normGame, versionAction, type Game, type GamePayload } from "./game";
import { pickLang, TABLES, translate, type Key, type Lang, type ParamArgs } from "./i18n";

const TABLES_EN = TABLES.en;

/** The logged-in account (GET /accounts/me, the answer of a login or a registration). */
export type Me = Schemas["Profile"];

export interface State {
  ready: boolean;
  me: Me | null;
  lang: Lang;
  games: Record<number, Game>;
  lists: { active: number[]; open: number[]; finished: number[] };
  listsLoaded: boolean;
  offline: boolean;
  ws: "idle" | "connecting" | "open" | "closed";
  toast: { text: string; kind: "info" | "error" } | null;
  /** One-tap play (Settings): a tap sends the move; by default a tap chooses and a second tap commits. */
  oneTap: boolean;
  unread: number;
  /** Unread lines of each game's players' room (``unread_chat`` of GET /games, then the socket's ``chat`` lines
   *  and the read marker's answers; counted up to 100 by the server). */
  chatUnread: Record<number, number>;
  /** The game whose chat panel is open at its table (the chat button, ``#/game/ID?chat=1``), or null. */
  chatOpen: number | null;
  /** Spectators of each of my games (the socket's ``spectators`` event). */
  spectators: Record<number, number>;
}

const PREF_LANG = "claim.lang";
const PREF_ONE_TAP = "claim.onetap";

// A reload shows the last known account at once (the app, not "Loading…"); loadMe() then asks the server,
// which logs out a session that has ended.
const knownMe = peekCached<Me>("/accounts/me");

export const state: State = {
  ready: knownMe !== null,
  me: knownMe,
  lang: (localStorage.getItem(PREF_LANG) as Lang) || pickLang(typeof navigator !== "undefined" ? navigator.languages : []),
  games: {},
  lists: { active: [], open: [], finished: [] },
  listsLoaded: false,
  offline: false,
  ws: "idle",
  toast: null,
  oneTap: localStorage.getItem(PREF_ONE_TAP) === "1",
  unread: 0,
  chatUnread: {},
  chatOpen: null,
  spectators: {},
};
setApiLanguage(state.lang);

const listeners = new Set<() => void>();
export function set(patch: Partial<State>): void {
  Object.assign(state, patch);
  if (patch.lang) {
    document.documentElement.lang = patch.lang;
    setApiLanguage(patch.lang);
  }
  listeners.forEach((l) => l());
}

export function useStore(): State {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return state;
}

/** The message `key` in the current language; its placeholders' params are type-checked (i18n/index.ts). */
export function t<K extends Key>(key: K, ...params: ParamArgs<K>): string {
  return translate(state.lang, key, ...params);
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
export function toast(text: string, kind: "info" | "error" = "info"): void {
  set({ toast: { text, kind } });
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => set({ toast: null }), kind === "error" ? 6000 : 3500);
}

export function setLang(lang: Lang): void {
  localStorage.setItem(PREF_LANG, lang);
  set({ lang });
}

export function setOneTap(on: boolean): void {
  localStorage.setItem(PREF_ONE_TAP, on ? "1" : "0");
  set({ oneTap: on });
}

export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.status === 0 ? t("common.offline") : e.message;
  return t("common.error");
}

// ---------------------------------------------------------------------------- account

export async function loadMe(): Promise<void> {
  try {
    const { data } = await getCached<Me>("/accounts/me");
    acceptMe(data);
  } catch {
    set({ me: null });
  }
  set({ ready: true });
}

export function acceptMe(me: Me | null): void {
  if (me) storeCached("/accounts/me", me); // what the next reload shows at once (a login answers it too)
  if (me && me.language) {
    localStorage.setItem(PREF_LANG, me.language);
    set({ me, lang: me.language });
  } else {
    set({ me });
  }
}

export async function logout(): Promise<void> {
  try { await api("POST", "/accounts/logout"); } catch { /* already logged out */ }
  clearCache();
  navigator.serviceWorker?.controller?.postMessage({ type: "logout" });
  set({ me: null, games: {}, lists: { active: [], open: [], finished: [] }, listsLoaded: false });
}

// ---------------------------------------------------------------------------- games

/** Store a game payload. Pushed and move-answer views never go back in time; a GET (``force``) is
 *  the server's word and always wins (it heals a client that somehow holds a wrong version). */
export function putGame(payload: GamePayload, force = false): Game {
  const g = normGame(payload);
  const held = state.games[g.id];
  if (!force && held && held.version > g.version) return held;
  // Keep the per-game cache fresh for offline viewing (what GET /games/{id} would return).
  storeCached(`/games/${g.id}`, payload);
  fullViews.set(g.id, payload);
  set({ games: { ...state.games, [g.id]: g } });
  return g;
}

/** The full view of each game as the server sent it (``GET /games/{id}``, a push, a move's answer): the base a
 *  change frame's patch applies to (docs/realtime.md, "Change frames"). */
const fullViews = new Map<number, GamePayload>();

/** The game as held, else as last stored on this device (``putGame`` keeps it): a reloaded table shows it at
 *  once, while ``loadGame`` asks the server. Called while rendering, so it fills the store without notifying. */
export function heldGame(id: number): Game | undefined {
  const held = state.games[id];
  if (held) return held;
  const cached = peekCached<GamePayload>(`/games/${id}`);
  if (!cached) return undefined;
  let g: Game;
  try { g = normGame(cached); } catch { return undefined; } // stored by an older app, of another shape
  state.games = { ...state.games, [id]: g };
  return g;
}

export async function loadGame(id: number): Promise<Game | null> {
  try {
    const before = state.games[id];
    const { data, offline } = await getCached<Schemas["GameView"]>(`/games/${id}`);
    if (offline) set({ offline: true });
    // The GET heals a wrong version held from before it was sent; a newer view that arrived while it was in
    // flight (the AI's push right after a game was created) is newer than its answer and stays.
    const held = state.games[id];
    const newerMeanwhile = held !== before && held !== undefined && held.version > data.version;
    return putGame(data, !offline && !newerMeanwhile);
  } catch (e) {
    toast(errorText(e), "error");
    return null;
  }
}

/** Sends one move of game ``id`` at ``version`` and stores the answer. Every failure ends in a toast: offline
 *  (refused before sending), stale (409: the current view is stored), or the server's message. */
export async function sendMove(id: number, version: number, move: Schemas["MoveRequest"]["move"]): Promise<void> {
  if (isOffline()) { toast(t("table.offline_move"), "error"); return; }
  try {
    const body: Schemas["MoveRequest"] = { version, move, client_id: uuid() };
    putGame(await api<Schemas["GameView"]>("POST", `/games/${id}/moves`, body));
  } catch (x) {
    if (x instanceof ApiError && x.status === 409) {
      if (x.view) putGame(x.view);
      else await loadGame(id);
      toast(t("table.stale"));
    } else {
      toast(x instanceof ApiError && x.status === 0 ? t("table.offline_move") : errorText(x), "error");
    }
  }
}

/** Resigns game ``id`` after the player confirms; the answer's view is stored. */
export async function resignGame(id: number, version: number): Promise<void> {
  if (!confirm(t("table.resign_confirm"))) return;
  try {
    putGame(await api<Schemas["GameView"]>("POST", `/games/${id}/resign`, { version }));
  } catch (x) { toast(errorText(x), "error"); }
}

export async function loadLists(): Promise<void> {
  const out: State["lists"] = { active: [], open: [], finished: [] };
  let offline = false;
  const found: Game[] = [];
  const chatUnread: Record<number, number> = {};
  await Promise.all(
    (["active", "open", "finished"] as const).map(async (status) => {
      try {
        const r = await getCached<Schemas["PaginatedGameSummaryList"]>(`/games?status=${status}`);
        offline ||= r.offline;
        for (const p of r.data.results) {
          const g = normGame(p);
          found.push(g);
          out[status].push(g.id);
          if (p.unread_chat != null) chatUnread[g.id] = p.unread_chat;
        }
      } catch (e) {
        if (e instanceof ApiError && e.status === 401) set({ me: null });
      }
    }),
  );
  // Merged into what is held now, not when the lists were asked for: a table's view that arrived meanwhile
  // (its GET, a push) stays. List rows are summaries: a fuller view held for the same version is kept (a
  // Claim or an Inheritors view alike: replacing a table's view with its summary showed "Loading…").
  const games = { ...state.games };
  for (const g of found) {
    const held = games[g.id];
    games[g.id] = held && held.version >= g.version && hasTableView(held) ? { ...held, deadline: g.deadline ?? held.deadline } : g;
  }
  set({ games, lists: out, listsLoaded: true, offline, chatUnread: { ...state.chatUnread, ...chatUnread } });
}

/** A view pushed over the socket (its ``game`` frame: the body of GET /games/{id}). */
export function onPushedView(gameId: number, version: number, view: Schemas["GameView"]): void {
  const held = state.games[gameId];
  const action = versionAction(held?.version, version);
  if (action === "ignore") return;
  if (action === "resync") {
    void loadGame(gameId);
    return;
  }
  listGame(putGame(view));
}

/** The answer to a ``sync``: the current full view, stored whatever version is held (never an older one). */
export function onSyncedView(_gameId: number, _version: number, view: Schemas["GameView"]): void {
  listGame(putGame(view));
}

/** A change frame (``base``, ``patch`` or ``view``): the patch is applied to the full view held at ``base``.
 *  False when it cannot be (another version held, a patch that does not apply): the caller asks for ``sync``. */
export function onChangeFrame(gameId: number, base: number, version: number, patch?: Operation[],
                              view?: Schemas["GameView"]): boolean {
  const held = state.games[gameId];
  if (held && version <= held.version) return true; // old news: a newer view is held
  if (view) { listGame(putGame(view)); return true; }
  const raw = fullViews.get(gameId) ?? peekCached<GamePayload>(`/games/${gameId}`);
  if (!raw || raw.version !== base || !Array.isArray(patch)) return false;
  let next: GamePayload;
  try {
    next = applyPatch(structuredClone(raw), patch, true, false).newDocument;
  } catch {
    return false;
  }
  if (next.version !== version) return false;
  listGame(putGame(next));
  return true;
}

function listGame(g: Game): void {
  const gameId = g.id;
  // A game may have changed lists (open → active → finished).
  const lists = { ...state.lists };
  for (const k of ["active", "open", "finished"] as const) lists[k] = lists[k].filter((id) => id !== gameId);
  const key = g.status === "open" ? "open" : g.status === "active" ? "active" : "finished";
  lists[key] = [gameId, ...lists[key]];
  set({ lists });
}

/** Accept an invitation (take my seat); the game starts when every seat is filled. */
/** Accept an invitation; true when the seat is taken (the caller opens the table). */
export async function acceptInvite(id: number): Promise<boolean> {
  try {
    putGame(await api<Schemas["GameView"]>("POST", `/games/${id}/join`, {}));
    void loadLists();
    return true;
  } catch (e) { toast(errorText(e), "error"); return false; }
}

/** Decline an invitation (calls the open game off). */
export async function declineInvite(id: number): Promise<void> {
  try {
    putGame(await api<Schemas["GameView"]>("POST", `/games/${id}/abort`));
    await loadLists();
  } catch (e) { toast(errorText(e), "error"); }
}

// ---------------------------------------------------------------------------- challenges

/** The words for a decline reason (the API's codes; an unknown one falls back to the server's sentence). */
export function declineText(c: Challenge): string {
  const key = `challenge.reason.${c.decline_reason}` as Key;
  return c.decline_reason && key in TABLES_EN ? t(key) : c.decline_message || t("challenge.reason.generic");
}

/** Accept, decline (with a reason) or cancel a challenge; the answer, or null after a toast of the error. */
export async function answerChallenge(id: string, action: "accept" | "decline" | "cancel", reason = "generic"): Promise<Challenge | null> {
  try {
    return await api<Challenge>("POST", `/challenges/${encodeURIComponent(id)}/${action}`, action === "decline" ? { reason } : {});
  } catch (e) { toast(errorText(e), "error"); return null; }
}

/** A challenge event of the socket (docs/realtime.md): screens showing challenges hear ``claim:challenge``
 *  (its detail is the challenge); the challenger hears of an answer by a toast unless that challenge's own
 *  page (which shows it) is open. */
export function onChallengeEvent(type: string, c: Challenge): void {
  window.dispatchEvent(new CustomEvent("claim:challenge", { detail: c }));
  if (!state.me || roleOf(c, state.me.username) !== "mine") return;
  if (location.hash === `#/challenge/${c.id}`) return;
  // A rematch's answer shows on the finished game's end screen (EndActions): no toast over it there.
  if (c.rematch_of != null && location.hash === `#/game/${c.rematch_of}`) return;
  const name = c.to?.name ?? ""; // an open challenge has nobody to name
  if (type === "challenge_declined") toast(t("challenge.toast_declined", { name, reason: declineText(c) }));
  else if (type === "challenge_accepted") toast(t("challenge.toast_accepted", { name }));
}

// ---------------------------------------------------------------------------- notifications

/** Opening a game's table reads its notifications ("your turn", "opponent moved"...): the bell stops counting
 *  what the player is looking at. Nothing is sent while nothing is unread. */
export async function readGameNotes(gameId: number): Promise<void> {
  if (!state.me || state.unread <= 0) return;
  try {
    await api("POST", "/notifications/read", { game: gameId });
    await loadUnread();
  } catch { /* offline: the count stays until the next load */ }
}

/** The unread count for the header bell (GET /notifications?unread=1). */
export async function loadUnread(): Promise<void> {
  if (!state.me) return;
  try {
    const r = await api<Schemas["Inbox"]>("GET", "/notifications?unread=1");
    if (r.unread !== state.unread) set({ unread: r.unread });
  } catch { /* offline: keep the last count */ }
}
