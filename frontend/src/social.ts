// Spectating, friends and public profiles (issue 35): the pure rules of those screens (the spectator feed's version
// rule, keyset pages, the kind filter, a rating sparkline, seat names of a watched game) and the relationship
// calls (follow / block / mute). Shapes: the generated schema (src/api.ts).
import { api } from "./api";
import type { NowPlayingGame, PublicUser, Relationship, SpectatorGame, SpectatorSeat, SpectatorGameFrame, WatchEndedEvent } from "./api";
import { AI_LEVEL_NAMES, type EngineView, type Game, type SeatInfo } from "./game";

/** The kinds the "now playing" filter offers (null: every kind). */
export const WATCH_KINDS = ["claim", "claim2", "claim-mix", "inheritors"] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** A page of the keyset lists (GET /watch, /friends, /following...): `limit`, the filter, the cursor of `next`. */
export function pagePath(base: string, params: Record<string, string | number | null | undefined>): string {
  const q = Object.entries(params).filter(([, v]) => v != null && v !== "").map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return q.length ? `${base}?${q.join("&")}` : base;
}

/** GET /watch for one kind (or all), a page after `cursor`. */
export function nowPlayingPath(kind: string | null, cursor: number | null, limit = 20): string {
  return pagePath("/watch", { kind, limit, cursor });
}

/** A further page appended to the rows held: rows already held (the list moved between two pages) are not repeated. */
export function appendPage<T>(held: T[], page: T[], key: (row: T) => string | number): T[] {
  const seen = new Set(held.map(key));
  return [...held, ...page.filter((r) => !seen.has(key(r)))];
}

/** The feed of a watched game: what is shown, and why it ended (null while it runs). */
export interface WatchModel { game: SpectatorGame | null; ended: string | null }

/** The next model for a REST answer, a `spectator_game` frame or a `watch_ended` event of game `id`: a game view
 *  only replaces an older one (frames can cross the GET), an ended feed stays ended, other games' frames are ignored. */
export function reduceWatch(m: WatchModel, id: number, ev: { type: "loaded"; game: SpectatorGame } | SpectatorGameFrame | WatchEndedEvent): WatchModel {
  if (ev.type === "watch_ended") return ev.game_id === id ? { ...m, ended: ev.reason || "ended" } : m;
  if (m.ended) return m;
  const game = ev.game;
  if (game.id !== id || (ev.type === "spectator_game" && ev.game_id !== id)) return m;
  if (m.game && game.version < m.game.version) return m;
  if (m.game && game.version === m.game.version && game.spectators === m.game.spectators) return m;
  return { ...m, game };
}

/** A watched game's seat as the table components show seats: a person's name, an AI seat as "Ada (AI)" (seatName
 *  translates it), an empty seat "?". Never "you": a spectator holds no seat. */
export function spectatorSeat(s: SpectatorSeat): SeatInfo {
  const ai = s.user ? null : s.ai_level;
  const aiName = ai != null ? `${s.ai_name || AI_LEVEL_NAMES[ai] || "AI"} (AI)` : null;
  return {
    index: s.index, name: s.user?.name || s.user?.username || aiName || "?", username: s.user?.username ?? null, ai,
    open: !s.user && ai == null, you: false, joined: true, ratingChange: null,
  };
}

/** What the read-only boards (screens/GameGate.tsx ClaimBoard, InheritorsReplay) need of a watched game. */
export type Board = Pick<Game, "id" | "kind" | "status" | "seats" | "toAct" | "view">;

export function spectatorBoard(g: SpectatorGame): Board {
  const v = g.view;
  const claim: EngineView | null = v && v.game !== "inheritors" ? v : null;
  return { id: g.id, kind: g.kind, status: g.status, seats: g.seats.map(spectatorSeat), toAct: v?.to_act ?? [], view: claim };
}

/** Whether a watched game's view carries anything a spectator must never see: a hand, the deck, a seat's own
 *  choices (the server's spectator view has none; the screen shows backs and counts only). */
export function spectatorLeak(v: SpectatorGame["view"]): string[] {
  const secret = v.game === "inheritors" ? ["hand", "quests", "deck_top", "hands", "all_quests", "deck"]
    : ["hand", "followers", "legal_moves", "peeked_cards", "peek"];
  return v.over ? [] : secret.filter((k) => k in v && (v as Record<string, unknown>)[k] != null);
}

/** The other players of a "now playing" row, by name ("?" for an AI or an empty seat). */
export function playerNames(g: Pick<NowPlayingGame, "seats">, ai: string): string[] {
  return g.seats.map((u) => (u ? u.name || u.username : ai));
}

/** The route of the watch screen and of "challenge this player" (the new-game screen, opponent prefilled). */
export const watchHref = (id: number) => `#/watch/${id}`;
export const profileHref = (username: string) => `#/profile/${encodeURIComponent(username)}`;
export const challengeHref = (username: string) => `#/new?challenge=${encodeURIComponent(username)}`;

/** The username of `#/new?challenge=NAME`, else null. */
export function challengeTarget(hash: string): string | null {
  const m = hash.match(/^#\/new\?(?:.*&)?challenge=([^&]+)/);
  if (!m) return null;
  try { return decodeURIComponent(m[1]); } catch { return null; }
}

/** A small rating line: the SVG path through the points, oldest left, scaled to `w`×`h` with a margin `pad`;
 *  an empty path for fewer than two points. */
export function sparkline(points: { at: string; rating: number }[], w = 80, h = 24, pad = 2): { path: string; min: number; max: number } {
  const pts = [...points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (pts.length < 2) return { path: "", min: pts[0]?.rating ?? 0, max: pts[0]?.rating ?? 0 };
  const rs = pts.map((p) => p.rating);
  const min = Math.min(...rs), max = Math.max(...rs);
  const span = max - min || 1;
  const x = (i: number) => pad + (i * (w - 2 * pad)) / (pts.length - 1);
  const y = (r: number) => (max === min ? h / 2 : pad + ((max - r) * (h - 2 * pad)) / span);
  const path = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join(" ");
  return { path, min, max };
}

/** The relations a user may set on another: follow, block, mute. */
export type RelationKind = "follow" | "block" | "mute";

/** PUT (on) or DELETE (off) /users/{username}/{kind}: the new relationship. */
export function setRelation(username: string, kind: RelationKind, on: boolean): Promise<Relationship> {
  return api<Relationship>(on ? "PUT" : "DELETE", `/users/${encodeURIComponent(username)}/${kind}`);
}

/** Whether `kind` is on in a relationship. */
export function relationOn(r: Relationship, kind: RelationKind): boolean {
  return kind === "follow" ? r.following : kind === "block" ? r.blocking : r.muting;
}

/** Toggles `kind` for `r.username`; blocking asks first (`ask`: window.confirm in the app). Null: not asked to, or
 *  the player said no. */
export async function toggleRelation(r: Relationship, kind: RelationKind, ask: (question: string) => boolean,
  question: string): Promise<Relationship | null> {
  const on = !relationOn(r, kind);
  if (kind === "block" && on && !ask(question)) return null;
  return setRelation(r.username, kind, on);
}

/** A user's name for lists: the display name (their own text: shown as text, isolated), else the username. */
export const userName = (u: PublicUser) => u.name || u.username;
