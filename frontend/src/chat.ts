// Table chat (issue 35; docs/api.md "Chat"): the lines of a room merged from REST pages and socket frames (one per
// id, oldest first), the free text's length as the server counts it, the API calls, and the counts the socket keeps
// up to date (unread lines of my games' players' rooms, a table's spectators).
import { api, ApiError, type Schemas } from "./api";
import { en } from "./i18n/en";
import { set, state, t } from "./store";

export type ChatLine = Schemas["ChatLine"];
export type ChatRoom = Schemas["ChatRoomEnum"];
export type ChatPhrase = Schemas["ChatPhrase"];

/** The socket's chat events (docs/realtime.md, "Typed events"): a new line, or the id of one an operator hid. */
export type ChatFrame =
  | { type: "chat"; game_id: number; message: ChatLine }
  | { type: "chat_hidden"; game_id: number; message_id: number };

/** The longest free text the server takes (characters after stripping surrounding whitespace). */
export const CHAT_MAX = 140;
/** Lines per REST page. */
export const CHAT_PAGE = 50;
/** The server counts unread lines up to this (it means "this many or more"). */
export const UNREAD_CAP = 100;

/** The length of ``text`` as the server counts it: code points (Python's ``len``) after stripping whitespace. */
export function chatLength(text: string): number {
  return [...text.trim()].length;
}

/** ``held`` and ``incoming`` as one list: each id once (the later copy wins), oldest (lowest id) first. A REST page
 *  and a socket frame that cross (the frame arrives while the page is loading) give the line once. */
export function mergeLines(held: readonly ChatLine[], incoming: readonly ChatLine[]): ChatLine[] {
  const byId = new Map<number, ChatLine>();
  for (const l of held) byId.set(l.id, l);
  for (const l of incoming) byId.set(l.id, l);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** ``lines`` without the line ``id`` (an operator hid it) or, with ``author``, without that author's lines (muted). */
export function dropLines(lines: readonly ChatLine[], drop: { id?: number; author?: string }): ChatLine[] {
  return lines.filter((l) => l.id !== drop.id && (drop.author === undefined || l.author.username !== drop.author));
}

/** GET /games/{id}/chat of one room: the newest page, or the one older than ``before``. */
export function chatPath(gameId: number, room: ChatRoom, before: number | null = null, limit = CHAT_PAGE): string {
  return `/games/${gameId}/chat?room=${room}${before != null ? `&before=${before}` : ""}&limit=${limit}`;
}

export function loadChatPage(gameId: number, room: ChatRoom, before: number | null = null): Promise<Schemas["ChatPage"]> {
  return api<Schemas["ChatPage"]>("GET", chatPath(gameId, room, before));
}

/** POST /games/{id}/chat: a quick phrase (by code) or free text, in ``room``; the server's line. */
export function postChat(gameId: number, room: ChatRoom, what: { phrase: Schemas["ChatPhraseEnum"] } | { text: string }): Promise<ChatLine> {
  const body: Schemas["ChatPostRequest"] = { room, ...what };
  return api<ChatLine>("POST", `/games/${gameId}/chat`, body);
}

/** POST /games/{id}/chat/read: my marker of the players' room moves to ``lastId``; the unread count is stored. */
export async function markRead(gameId: number, lastId: number): Promise<void> {
  const body: Schemas["ChatReadMarkerRequest"] = { last_id: lastId };
  const r = await api<Schemas["ChatRead"]>("POST", `/games/${gameId}/chat/read`, body);
  set({ chatUnread: { ...state.chatUnread, [gameId]: r.unread_chat } });
}

/** POST /reports: a player's line reported, with a reason and an optional note. */
export function reportLine(line: ChatLine, reason: Schemas["ReportReasonEnum"], note: string): Promise<Schemas["ReportCreated"]> {
  const body: Schemas["ReportRequest"] = { username: line.author.username, game_id: line.game_id, message_id: line.id, reason, note };
  return api<Schemas["ReportCreated"]>("POST", "/reports", body);
}

let phrasesCache: Promise<ChatPhrase[]> | null = null;
/** GET /chat/phrases (once per page load; again after a failure). */
export function loadPhrases(): Promise<ChatPhrase[]> {
  if (!phrasesCache) phrasesCache = api<ChatPhrase[]>("GET", "/chat/phrases").catch((e) => { phrasesCache = null; throw e; });
  return phrasesCache;
}
/** Forgets the phrases held (tests). */
export function resetPhrases(): void { phrasesCache = null; }

/** A quick phrase in the UI's language, by its code (``chat.phrase.CODE``); ``fallback`` (the server's text) for a
 *  code this app does not know. */
export function phraseText(code: string, fallback: string): string {
  const key = `chat.phrase.${code}`;
  return key in en ? t(key as "chat.phrase.hello") : fallback;
}

/** What a line says in the UI's language: a quick phrase by its code, free text as it was written. */
export function lineText(line: ChatLine): string {
  return line.phrase ? phraseText(line.phrase, line.text) : line.text;
}

/** "12", or "100+" at the server's cap. */
export function unreadLabel(n: number): string {
  return n >= UNREAD_CAP ? `${UNREAD_CAP}+` : String(n);
}

/** What a refused line says: the server's message, and for a 429 when to try again (``retryAfter`` seconds). */
export function refusal(e: unknown): { message: string; retryAfter: number | null } {
  if (e instanceof ApiError) {
    if (e.status === 0) return { message: t("common.offline"), retryAfter: null };
    return { message: e.message, retryAfter: e.status === 429 && e.retryAfter ? e.retryAfter : null };
  }
  return { message: t("common.error"), retryAfter: null };
}

/** A socket ``chat`` line of another player in a game's players' room counts as unread, unless that game's chat
 *  is open (its panel marks it read); ``chat_hidden`` is left to the next GET /games (the count cannot tell). */
export function onChatFrame(f: ChatFrame): void {
  if (f.type !== "chat" || f.message.room !== "players") return;
  if (f.message.author.username === state.me?.username || state.chatOpen === f.game_id) return;
  const n = Math.min(UNREAD_CAP, (state.chatUnread[f.game_id] ?? 0) + 1);
  set({ chatUnread: { ...state.chatUnread, [f.game_id]: n } });
}

if (typeof window !== "undefined") {
  window.addEventListener("claim:chat", (e) => onChatFrame((e as CustomEvent<ChatFrame>).detail));
  window.addEventListener("claim:spectators", (e) => {
    const d = (e as CustomEvent<{ game_id: number; count: number }>).detail;
    set({ spectators: { ...state.spectators, [d.game_id]: d.count } });
  });
}
