// Tournaments (issue 36): the pure rules of the tournament screens (list paths, featured first, the create form's
// presets and its client-side checks — the same as games/tournaments/service.py's — the crosstable grid, my games,
// the socket's tournament events) and the calls (join, leave, cancel, create). Shapes: the generated schema.
import { api, type Schemas } from "./api";
import { defaultMix } from "./cards";
import { TIME_CHOICES, type TimeChoice } from "./corr";
import type { Key } from "./i18n";

export type Tournament = Schemas["Tournament"];
export type TournamentDetail = Schemas["TournamentDetail"];
export type TournamentPage = Schemas["TournamentPage"];
export type TournamentGame = Schemas["TournamentGame"];
export type TournamentGames = Schemas["TournamentGames"];
export type TournamentCreate = Schemas["TournamentCreateRequest"];
export type TournamentFormat = Schemas["TournamentFormatEnum"];
export type TournamentStatus = Schemas["TournamentStatusEnum"];
export type Standing = Schemas["Standing"];

// ---- the socket (issue 36's live tournament page)
/** What the PWA sends on /ws/ while a tournament's page is open, and when it is left. */
export type TournamentWatchMessage = Schemas["WatchTournamentMessage"];
/** The server's answer to it. */
export type TournamentWatchReply = Schemas["WatchingTournamentReply"];
/** The socket's (and the account stream's) event: something of tournament `tournament_id` changed. */
export type TournamentEvent = Schemas["TournamentEvent"];

/** Whether a socket frame is a tournament event (of tournament `id`, when given). */
export function isTournamentEvent(msg: unknown, id?: number): msg is TournamentEvent {
  if (!msg || typeof msg !== "object") return false;
  const m = msg as Partial<TournamentEvent>;
  return m.type === "tournament" && typeof m.tournament_id === "number" && (id === undefined || m.tournament_id === id);
}

// ---- the list

/** The list's tabs: the API's status filter. */
export const LIST_STATUSES = ["open", "running", "finished"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** GET /tournaments for one status (featured ones only, when asked), a page after `cursor`. */
export function listPath(status: ListStatus, cursor: number | null, featured = false, limit = 20): string {
  const q = [`status=${status}`, featured ? "featured=true" : null, `limit=${limit}`, cursor != null ? `cursor=${cursor}` : null];
  return `/tournaments?${q.filter(Boolean).join("&")}`;
}

/** The rows shown: the featured ones first (each group newest first, as the server sends them), none twice. */
export function featuredFirst<T extends { id: number; featured: boolean }>(featured: T[], rows: T[]): T[] {
  const seen = new Set<number>();
  const out: T[] = [];
  for (const t of [...featured.filter((x) => x.featured), ...rows.filter((x) => x.featured), ...rows]) {
    if (!seen.has(t.id)) { seen.add(t.id); out.push(t); }
  }
  return out;
}

// ---- the page

/** "Round 2 of 5" as numbers, or null before the start (and for a cancelled one that never started). */
export function roundOf(t: Pick<Tournament, "status" | "current_round" | "rounds">): { n: number; of: number } | null {
  if (t.status === "open" || !t.current_round || t.rounds == null) return null;
  return { n: Math.min(t.current_round, t.rounds), of: t.rounds };
}

/** What I may do on the page: join, leave (before the start) or withdraw (once it runs), cancel (the creator). */
export function actionsFor(t: TournamentDetail, me: string | null): { join: boolean; leave: boolean; withdraw: boolean; cancel: boolean } {
  const mine = t.my_entry != null && t.my_entry.withdrawn_at == null;
  const open = t.status === "open";
  return {
    join: !!me && open && t.my_entry == null && t.player_count < t.max_players,
    leave: mine && open,
    withdraw: mine && t.status === "running",
    cancel: !!me && open && t.created_by.username === me,
  };
}

/** A score as a person writes it: 1½, ½, 0, 2.25 → "2.25". */
export function points(x: number): string {
  const whole = Math.floor(x);
  const frac = Math.round((x - whole) * 100) / 100;
  if (frac === 0) return String(whole);
  if (frac === 0.5) return whole ? `${whole}½` : "½";
  return String(Math.round(x * 100) / 100);
}

/** The crosstable as a grid in standings order: `cells[i][j]` the points of row player i against column player j
 *  (null: no counted game yet; i = j: the diagonal). */
export function crossGrid(t: Pick<TournamentDetail, "standings" | "players" | "crosstable">): { players: Schemas["Player"][]; cells: (number[] | null)[][] } {
  const players = t.standings.length ? t.standings.map((s) => s.player) : t.players.map((e) => e.player);
  const at = new Map(players.map((p, i) => [p.username, i]));
  const cells: (number[] | null)[][] = players.map(() => players.map(() => null));
  for (const c of t.crosstable) {
    const i = at.get(c.player), j = at.get(c.opponent);
    if (i === undefined || j === undefined || i === j) continue;
    cells[i][j] = [...(cells[i][j] ?? []), ...c.points];
  }
  return { players, cells };
}

/** My games among a round's: those I sit in. */
export function myGames(games: TournamentGame[], me: string | null): TournamentGame[] {
  return me ? games.filter((g) => g.players.some((p) => p.username === me)) : [];
}

/** My result of a game that ended: "win" / "loss" / "draw" (2 players), else my place at the table; null while it
 *  runs. */
export function myResult(g: TournamentGame, me: string): { outcome: "win" | "loss" | "draw" } | { place: number } | null {
  const seat = g.players.findIndex((p) => p.username === me);
  if (seat < 0 || !g.places || g.places.length <= seat) return null;
  if (g.players.length === 2) {
    const [mine, theirs] = [g.places[seat], g.places[1 - seat]];
    return { outcome: mine === theirs ? "draw" : mine < theirs ? "win" : "loss" };
  }
  return { place: g.places[seat] };
}

/** The games path of the page: a round robin lists every game, the others the current round. */
export function gamesPath(t: Pick<Tournament, "id" | "format" | "current_round">): string {
  return t.format === "round_robin" || !t.current_round ? `/tournaments/${t.id}/games` : `/tournaments/${t.id}/games?round=${t.current_round}`;
}

export const tournamentHref = (id: number) => `#/tournaments/${id}`;

// ---- create: presets, the form, the checks

/** The limits of games/tournaments/service.py. */
export const LIMITS = {
  players: { round_robin: [2, 20], swiss: [2, 256], tables: [3, 128] } as Record<TournamentFormat, [number, number]>,
  maxRounds: 20, rating: 4000, gameDays: [7, 365] as [number, number], defaultGameDays: 30, startAheadDays: 90, name: 80,
};

/** The kinds each format may play: Swiss and round robin 2-player games, tables 3-4 seats. */
export const FORMAT_KINDS: Record<TournamentFormat, Schemas["GameKindEnum"][]> = {
  round_robin: ["claim", "claim2", "claim-mix", "inheritors"],
  swiss: ["claim", "claim2", "claim-mix", "inheritors"],
  tables: ["claim-mix", "inheritors"],
};

/** Tournament games always have a clock: the new-game screen's choices but "unlimited". */
export const TOURNAMENT_TIMES: TimeChoice[] = TIME_CHOICES.filter((c) => c.id !== "unlimited");

/** The create form as typed (numbers as the inputs hold them: strings; empty = not given). */
export interface CreateForm {
  name: string; kind: Schemas["GameKindEnum"]; format: TournamentFormat; maxPlayers: string; minPlayers: string;
  rounds: string; time: string; rated: boolean; ratingMin: string; ratingMax: string; minReliability: string; botsAllowed: boolean;
  startsAt: string; maxGameDays: string;
}

export type PresetId = "swiss8" | "rr6" | "tables";
export const PRESETS: Record<PresetId, Partial<CreateForm>> = {
  swiss8: { kind: "claim", format: "swiss", maxPlayers: "8", rounds: "5", time: "d3" },
  rr6: { kind: "claim", format: "round_robin", maxPlayers: "6", rounds: "", time: "d3" },
  tables: { kind: "inheritors", format: "tables", maxPlayers: "12", rounds: "3", time: "d3" },
};

export function blankForm(preset: PresetId = "swiss8", name = ""): CreateForm {
  return {
    name, kind: "claim", format: "swiss", maxPlayers: "8", minPlayers: "", rounds: "5", time: "d3", rated: false,
    ratingMin: "", ratingMax: "", minReliability: "", botsAllowed: false, startsAt: "", maxGameDays: String(LIMITS.defaultGameDays),
    ...PRESETS[preset],
  };
}

/** A problem with a field, as a message key of the catalogue and its numbers (the screen translates it). */
export type Problem = { key: ProblemKey; params?: Record<string, number> };
/** The catalogue's field messages: the tournaments' and the leagues' (league.ts) forms. */
export type ProblemKey = Extract<Key, `tour.err_${string}` | `league.err_${string}`>;

/** A whole number from an input ("" → null); NaN for anything else ("2.5", "1e3", "-"). */
export function whole(s: string): number | null {
  const v = s.trim();
  if (v === "") return null;
  return /^\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
}

/** The form's problems by request field (the names the server's 4xx `fields` use), as the service checks them. */
export function checkForm(f: CreateForm, now = Date.now()): Partial<Record<keyof TournamentCreate, Problem>> {
  const out: Partial<Record<keyof TournamentCreate, Problem>> = {};
  const name = f.name.trim();
  if (!name) out.name = { key: "tour.err_name" };
  else if (name.length > LIMITS.name) out.name = { key: "tour.err_name_long", params: { max: LIMITS.name } };
  if (!FORMAT_KINDS[f.format].includes(f.kind)) out.format = { key: "tour.err_kind" };
  const [low, high] = LIMITS.players[f.format];
  const max = whole(f.maxPlayers);
  if (max === null || Number.isNaN(max) || max < low || max > high) out.max_players = { key: "tour.err_players", params: { low, high } };
  const min = whole(f.minPlayers);
  if (min !== null && (Number.isNaN(min) || min < low || (max !== null && !Number.isNaN(max) && min > max))) {
    out.min_players = { key: "tour.err_min_players", params: { low, max: max !== null && !Number.isNaN(max) ? max : high } };
  }
  const rounds = whole(f.rounds);
  if (f.format === "round_robin") {
    if (rounds !== null) out.rounds = { key: "tour.err_rounds_none" };
  } else {
    let most = LIMITS.maxRounds;
    if (f.format === "swiss" && max !== null && !Number.isNaN(max)) most = Math.min(most, max % 2 === 0 ? max - 1 : max);
    if (rounds === null || Number.isNaN(rounds) || rounds < 1 || rounds > most) out.rounds = { key: "tour.err_rounds", params: { most: Math.max(most, 1) } };
  }
  Object.assign(out, entryProblems(f), startProblem(f.startsAt, false, now));
  const days = whole(f.maxGameDays);
  const [dlow, dhigh] = LIMITS.gameDays;
  if (days === null || Number.isNaN(days) || days < dlow || days > dhigh) out.max_game_days = { key: "tour.err_game_days", params: { low: dlow, high: dhigh } };
  else {
    const tc = TOURNAMENT_TIMES.find((c) => c.id === f.time);
    if (tc?.days && tc.days * 2 > days) out.max_game_days = { key: "tour.err_game_days_tc", params: { days: tc.days * 2 } };
  }
  // A number that is no whole number at all ("2.5", "-1", "1e3") says so, whatever the range.
  return Object.assign(out, notWhole({ max_players: f.maxPlayers, min_players: f.minPlayers, rounds: f.rounds, max_game_days: f.maxGameDays }));
}

/** The entry conditions as typed (a tournament's and a league's). */
export type EntryForm = Pick<CreateForm, "ratingMin" | "ratingMax" | "minReliability">;

/** The entry conditions' problems, as the service checks them: ratings 0 to 4000 in order, a reliability 0 to 100. */
export function entryProblems(f: EntryForm): Partial<Record<"rating_min" | "rating_max" | "min_reliability", Problem>> {
  const out: Partial<Record<"rating_min" | "rating_max" | "min_reliability", Problem>> = {};
  const rmin = whole(f.ratingMin), rmax = whole(f.ratingMax);
  for (const [field, v] of [["rating_min", rmin], ["rating_max", rmax]] as const) {
    if (v !== null && (Number.isNaN(v) || v > LIMITS.rating)) out[field] = { key: "tour.err_rating", params: { max: LIMITS.rating } };
  }
  if (!out.rating_min && !out.rating_max && rmin !== null && rmax !== null && rmin > rmax) out.rating_min = { key: "tour.err_rating_order" };
  const rel = whole(f.minReliability);
  if (rel !== null && (Number.isNaN(rel) || rel > 100)) out.min_reliability = { key: "tour.err_reliability" };
  return Object.assign(out, notWhole({ rating_min: f.ratingMin, rating_max: f.ratingMax, min_reliability: f.minReliability }));
}

/** A start time's problem: in the future, at most 90 days ahead (`required`: also when empty). */
export function startProblem(startsAt: string, required: boolean, now = Date.now()): { starts_at?: Problem } {
  if (!startsAt) return required ? { starts_at: { key: "tour.err_start", params: { days: LIMITS.startAheadDays } } } : {};
  const at = Date.parse(startsAt);
  if (Number.isNaN(at) || at <= now || at > now + LIMITS.startAheadDays * 86400000) return { starts_at: { key: "tour.err_start", params: { days: LIMITS.startAheadDays } } };
  return {};
}

/** A number that is no whole number at all ("2.5", "-1", "1e3") says so, whatever the range. */
export function notWhole<F extends string>(typed: Record<F, string>): Partial<Record<F, Problem>> {
  const out: Partial<Record<F, Problem>> = {};
  for (const field of Object.keys(typed) as F[]) if (Number.isNaN(whole(typed[field]))) out[field] = { key: "tour.err_number" };
  return out;
}

/** The engine options of a tournament's (or a league's) games: claim-mix plays the standard faction choice. */
export function optionsFor(kind: Schemas["GameKindEnum"], seats: number): Record<string, unknown> {
  return kind === "claim-mix" ? { factions: defaultMix(seats) } : {};
}

/** The request body of a form that passed `checkForm`. */
export function createBody(f: CreateForm): TournamentCreate {
  const num = (s: string) => whole(s);
  const tc = TOURNAMENT_TIMES.find((c) => c.id === f.time) ?? TOURNAMENT_TIMES[2];
  const tables = f.format === "tables";
  return {
    name: f.name.trim(), kind: f.kind, format: f.format,
    options: optionsFor(f.kind, tables ? 3 : 2),
    rounds: f.format === "round_robin" ? null : num(f.rounds),
    time_control: tc.body as TournamentCreate["time_control"], rated: f.rated,
    max_players: num(f.maxPlayers) ?? 0, min_players: num(f.minPlayers),
    rating_min: num(f.ratingMin), rating_max: num(f.ratingMax), min_reliability: num(f.minReliability) ?? 0, bots_allowed: f.botsAllowed,
    starts_at: f.startsAt ? new Date(f.startsAt).toISOString() : null, max_game_days: num(f.maxGameDays) ?? LIMITS.defaultGameDays,
  };
}

// ---- the calls

export function createTournament(body: TournamentCreate): Promise<TournamentDetail> {
  return api<TournamentDetail>("POST", "/tournaments", body);
}

/** POST /tournaments/{id}/join, /leave (leave or withdraw) or /cancel: the new detail. */
export function tournamentAction(id: number, action: "join" | "leave" | "cancel"): Promise<TournamentDetail> {
  return api<TournamentDetail>("POST", `/tournaments/${id}/${action}`);
}
