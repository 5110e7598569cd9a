// The game payload (GET /api/v1/games/{id}, list rows, socket "view") normalised for the UI.
// Its shape is the API's generated types (src/api/schema.d.ts); the engine's view inside it is typed here.
import type { Schemas } from "./api";
import { pickLang, translate, type Lang } from "./i18n";

export interface SeatInfo {
  index: number;
  name: string;
  username: string | null;
  ai: number | null; // AI level, or null for a human / open seat
  open: boolean;
  you: boolean;
  joined: boolean;
  /** What the finished, rated game did to this seat's rating (``rating.after`` / ``rating.change``), else null. */
  ratingChange: RatingChange | null;
}

export interface RatingChange { after: number; change: number }

/** The Claim-family engine's parts of a game view, as the generated schema types name them (docs/api.md, "Typed
 *  shapes in the OpenAPI schema"). */
export type Trickcard = Schemas["ClaimTrickCard"];
export type LastTrick = Schemas["ClaimTrickSummary"];
/** A Claim-family game played to its end (C8 / M7 count). */
export type Result = Schemas["ClaimResult"];
/** Any kind's result, or a game ended by a resignation, a timeout or an abort (``EndedResult``). */
export type GameResult = Schemas["GameResult"];
/** The Claim-family engine view (``view.game`` is ``claim``, ``claim2`` or ``claim-mix``). */
export type EngineView = Schemas["ClaimView"];

/** A game as the API sends it: a list row (GameSummary: GET /games, /users/{name}/games) or the full view
 *  (GameView: GET /games/{id}, a move's answer, a socket push), which has every field of a row and more. */
export type GamePayload = Schemas["GameSummary"] & Partial<Schemas["GameView"]>;
export type ApiSeat = Schemas["Seat"];

export interface Game {
  id: number;
  kind: string;
  status: Schemas["GameStatusEnum"];
  version: number;
  seats: SeatInfo[];
  mySeat: number | null;
  toAct: number[];
  myTurn: boolean;
  /** My legal moves (``EngineMove``: a Claim-family or an Inheritors move, by the game's ``kind``). */
  legal: Schemas["EngineMove"][];
  /** The Claim-family engine view; null for a summary row and for an Inheritors game (``raw.view``). */
  view: EngineView | null;
  deadline: string | null;
  daysPerMove: number | null;
  code: string | null;
  result: GameResult | null;
  invitedMe: boolean;
  /** The seat of the player who created the game (who invited the others), null when the server says none. */
  creatorSeat: number | null;
  updated: string;
  raw: GamePayload;
}

/** A seat of the API (``seats[]`` of a game, a record) as the UI shows it. */
export function seatInfo(s: ApiSeat): SeatInfo {
  const ai = s.type === "ai" ? s.ai_level ?? 1 : null;
  const name = s.name || s.username || (ai ? `AI ${ai}` : "?");
  return {
    index: s.index, name, username: s.username, ai, open: s.type === "open", you: s.you, joined: s.joined,
    ratingChange: s.rating && s.rating.after != null && s.rating.change != null ? { after: s.rating.after, change: s.rating.change } : null,
  };
}

/** A game view's ``view`` when it is a Claim-family engine view, not an Inheritors one (by its ``game``). */
function engineView(v: GamePayload["view"]): EngineView | null {
  return v && v.game !== "inheritors" ? v : null;
}

export function normGame(p: GamePayload): Game {
  const view = engineView(p.view);
  const seats = p.seats.map(seatInfo);
  const status = p.status;
  return {
    id: p.id,
    kind: p.kind,
    status,
    version: p.version,
    seats,
    mySeat: p.my_seat,
    toAct: p.to_act,
    myTurn: p.my_turn && status === "active",
    legal: p.legal_moves ?? [], // a summary row has none
    view,
    deadline: p.deadline,
    daysPerMove: p.time_control.days_per_move,
    code: p.invite_code ?? null,
    result: p.result,
    invitedMe: status === "open" && seats.some((s) => s.you && !s.joined),
    creatorSeat: p.creator_seat,
    updated: p.updated_at,
    raw: p,
  };
}

/** Whether the game holds its full table view (GET /games/{id}, a push, a move's answer): a Claim-family
 *  engine view or an Inheritors one. Inbox rows are summaries without it. */
export function hasTableView(g: Game | undefined): boolean {
  if (!g) return false;
  const v = g.raw.view;
  return g.view !== null || !!v;
}

/** The AI levels' names by level (the server's ``ai_name``; docs/ai.md). */
export const AI_LEVEL_NAMES: Record<number, string> = { 1: "Squire", 2: "Knight", 3: "King" };

/** The page's language (main.tsx and the store keep ``<html lang>`` on the player's choice); English without a page. */
function pageLang(): Lang {
  return pickLang(typeof document === "undefined" ? [] : [document.documentElement.lang]);
}

/** An AI seat's own name: "Ada" of the server's "Ada (AI)" (docs/api.md); null for a person, an open seat or an
 *  AI seat named the old way ("AI (Knight) 2", a cached game). */
export function aiOwnName(s: SeatInfo | undefined): string | null {
  if (!s || s.ai == null) return null;
  return s.name.match(/^(.+) \(AI\)$/)?.[1] ?? null;
}

/** A seat's name for sentences and rows: a person's own name, an AI seat's in the reader's language ("Ada (AI)",
 *  "Ada (KI)"), never a level or a number (issue 33: "AI (Knight) 2" read as the Knights faction). */
export function seatName(g: Pick<Game, "seats">, seat: number | null | undefined, lang: Lang = pageLang()): string {
  if (seat == null) return "?";
  const s = g.seats.find((x) => x.index === seat);
  const own = aiOwnName(s);
  return own ? translate(lang, "ainame.full", { name: own }) : s?.name ?? `#${seat + 1}`;
}

/** A seat's name with its AI level apart, for a seat's header: "Ada · AI, Knight level"; a person's name as it is. */
export function seatLabel(g: Game, seat: number, lang: Lang = pageLang()): string {
  const s = g.seats.find((x) => x.index === seat);
  const own = aiOwnName(s);
  if (!own || s?.ai == null) return seatName(g, seat, lang);
  return translate(lang, "ainame.label", { name: own, level: AI_LEVEL_NAMES[s.ai] ?? String(s.ai) });
}

/** A seat's name for the tight spots of a 3-4 seat table (the trick's card labels, the score columns, the votes
 *  line): an AI seat its own name ("Ada"), a person their first name; when two seats would read the same, both
 *  get their full name (seatName). The seat row shows every full name. */
export function shortNames(g: Game, lang: Lang = pageLang()): Record<number, string> {
  const short = (s: SeatInfo): string => {
    const own = aiOwnName(s);
    if (own) return own;
    const old = s.ai != null ? s.name.match(/^AI \((.+)\)(?: (\d+))?$/) : null; // a cached game's old names
    if (old) return old[2] ? `${old[1]} ${old[2]}` : old[1];
    return s.name.trim().split(/\s+/)[0] || s.name;
  };
  const first: Record<number, string> = {};
  for (const s of g.seats) first[s.index] = short(s);
  const out: Record<number, string> = {};
  for (const s of g.seats) {
    out[s.index] = g.seats.some((o) => o.index !== s.index && first[o.index] === first[s.index]) ? seatName(g, s.index, lang) : first[s.index];
  }
  return out;
}

/** Who I play against, for a game's one-line title: the other seats' names (short names with 3-4 seats,
 *  clockwise from my left), and my partner's apart in a 4-seat Claim game (teams). */
export function opponentNames(g: Game): { partner: string | null; names: string[] } {
  const n = seatCount(g);
  if (n <= 2) return { partner: null, names: [seatName(g, opponentSeat(g))] };
  const me = g.mySeat ?? 0;
  const short = shortNames(g);
  const partner = g.kind.startsWith("claim") ? partnerOf(me, n) : null;
  const others = othersClockwise(me, n).filter((s) => s !== partner);
  return { partner: partner == null ? null : short[partner], names: others.map((s) => short[s] ?? seatName(g, s)) };
}

export function opponentSeat(g: Game): number {
  const me = g.mySeat ?? 0;
  return me === 0 ? 1 : 0;
}

/** Tricks in each phase of a Claim-family game: as many as the cards dealt to each player (C3.2 and M3.2: 13 with
 *  2 players, 12 with 3, 9 with 4). */
export function tricksPerPhase(seats: number): number {
  return seats === 4 ? 9 : seats === 3 ? 12 : 13;
}

/** Number of seats of a game (view first, then the seat list). */
export function seatCount(g: Game): number {
  return g.view?.seats ?? (g.seats.length || 2);
}

/** The partner of ``seat`` with 4 seats (diagonally opposite), else null. */
export function partnerOf(seat: number, seats: number): number | null {
  return seats === 4 ? (seat + 2) % 4 : null;
}

/** The other seats clockwise from my left: 4 seats -> [left, partner (across), right]. */
export function othersClockwise(me: number, seats: number): number[] {
  return Array.from({ length: seats - 1 }, (_, i) => (me + 1 + i) % seats);
}

/** The seats that won: ``winners`` (3-4 seats, teams, shared wins, Inheritors) or else ``winner``; empty: a draw. */
export function winnersOf(r: { winner?: number | null; winners?: number[] }): number[] {
  return r.winners ?? (r.winner == null ? [] : [r.winner]);
}

/** Did ``seat`` win? Uses ``winners`` (3-4 seats, teams) or ``winner``; null = draw / nobody. */
export function seatOutcome(r: GameResult, seat: number): "win" | "loss" | "draw" {
  const winners = winnersOf(r);
  if (!winners.length) return "draw";
  return winners.includes(seat) ? "win" : "loss";
}

/** My outcome of a finished game (teams and shared wins by ``winners``), null if I hold no seat or it has no result. */
export function myOutcome(g: Game): "win" | "loss" | "draw" | null {
  return g.status === "finished" && g.result && g.mySeat != null ? seatOutcome(g.result, g.mySeat) : null;
}

/** Who a vote / lead value stands for: a team index with 4 seats, else a seat. */
export function voteSeats(value: number | null | undefined, seats: number): number[] {
  if (value == null) return [];
  return seats === 4 ? [value, value + 2] : [value];
}

/** Inbox order: my turn first (earliest deadline first), then waiting games (latest change first). */
export function inboxOrder(games: Game[]): Game[] {
  const t = (s: string | null) => (s ? Date.parse(s) : Number.POSITIVE_INFINITY);
  return [...games].sort((a, b) => {
    if (a.myTurn !== b.myTurn) return a.myTurn ? -1 : 1;
    if (a.myTurn) return t(a.deadline) - t(b.deadline) || a.id - b.id;
    return Date.parse(b.updated) - Date.parse(a.updated) || b.id - a.id;
  });
}

/** What to do with a pushed view given the version we hold: apply it, ignore it, or re-fetch. */
export function versionAction(held: number | undefined, incoming: number): "apply" | "ignore" | "resync" {
  if (held === undefined) return "apply";
  if (incoming <= held) return "ignore";
  if (incoming === held + 1) return "apply";
  return "resync";
}

/** Delay before socket reconnect attempt n (0-based): 1 s doubling to 30 s, with ±20 % jitter. */
export function backoff(n: number, rnd = Math.random()): number {
  const base = Math.min(30000, 1000 * 2 ** n);
  return Math.round(base * (0.8 + 0.4 * rnd));
}

/** A rating change as the end screen shows it: "+12 → 1512", "−8 → 1492", "±0 → 1500". */
export function ratingChangeText(c: RatingChange): string {
  const sign = c.change > 0 ? "+" : c.change < 0 ? "−" : "±";
  return `${sign}${Math.abs(c.change)} → ${c.after}`;
}

/** What a new view of the same game says happened since the one held before: the trick that was completed
 *  (``winner``: its winner, also when that seat has already led the next one) and the phase that began (C3.4:
 *  phase 2 after the 13th trick). Nothing for the first view held, nor a phase once the game is over. */
export function trickNews(prev: EngineView | null | undefined, next: EngineView): { winner: number | null; phase: number | null } {
  if (!prev) return { winner: null, phase: null };
  const key = (lt: LastTrick | null | undefined) => (lt ? `${lt.phase}.${lt.trick}` : "");
  const done = next.last_trick && key(next.last_trick) !== key(prev.last_trick) ? next.last_trick.winner : null;
  const phase = !next.over && next.phase > prev.phase ? next.phase : null;
  return { winner: done, phase };
}

/** Where each seat of an open game stands: mine, joined, the AI's, invited (a named player who has not
 *  joined yet) or open (anyone with the code). */
export type SeatState = "you" | "joined" | "ai" | "invited" | "open";

export function seatStates(g: Game): { index: number; name: string; state: SeatState; creator: boolean }[] {
  return [...g.seats].sort((a, b) => a.index - b.index).map((s) => ({
    index: s.index,
    name: s.name,
    creator: g.creatorSeat === s.index,
    state: s.ai != null ? "ai" : s.you && s.joined ? "you" : s.open ? "open" : s.joined ? "joined" : "invited",
  }));
}

/** Seats of an open game nobody holds yet (no invited or joined player, no AI): the ones the creator may fill. */
export function emptySeats(g: Game): number[] {
  return seatStates(g).filter((s) => s.state === "open").map((s) => s.index);
}

/** Whether I created this game (the only one who may fill its seats, share its link or cancel it). */
export function iCreated(g: Game): boolean {
  return g.mySeat != null && g.creatorSeat === g.mySeat;
}

/** Whole seconds from ``now`` (ms) until ``at`` (an ISO instant), never below 0; null without an instant. */
export function secondsUntil(at: string | null | undefined, now: number): number | null {
  if (!at) return null;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? null : Math.max(0, Math.ceil((ms - now) / 1000));
}

/** A short countdown: "1:05", "0:09". */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
