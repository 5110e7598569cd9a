// Seasonal leagues (issue 36): the pure rules of the league screens — the list's paths, what the viewer may do, their
// membership, the season's divisions (mine marked), the previous season's moves in words and arrows, the create form's
// presets and its checks (the same as games/tournaments/league.py's `terms`) — and the calls. Each season's division
// is an ordinary round-robin tournament: its standings are on the tournament's page (tournament.ts).
import { api, type Schemas } from "./api";
import {
  entryProblems, FORMAT_KINDS, notWhole, optionsFor, startProblem, TOURNAMENT_TIMES, whole, type CreateForm, type Problem,
} from "./tournament";

export type League = Schemas["League"];
export type LeagueDetail = Schemas["LeagueDetail"];
export type LeaguePage = Schemas["LeaguePage"];
export type LeagueCreate = Schemas["LeagueCreateRequest"];
export type Division = Schemas["Division"];
export type Move = Schemas["Move"];
export type Movement = Move["movement"];

/** The list's tabs: the API's status filter. */
export const LEAGUE_STATUSES = ["open", "running", "closed"] as const;
export type LeagueStatus = (typeof LEAGUE_STATUSES)[number];

/** GET /leagues for one status, a page after `cursor`. */
export function leagueListPath(status: LeagueStatus, cursor: number | null, limit = 20): string {
  return `/leagues?status=${status}&limit=${limit}${cursor != null ? `&cursor=${cursor}` : ""}`;
}

export const leagueHref = (id: number) => `#/leagues/${id}`;

// ---- the page

/** Where I stand: not a member, waiting for the next season, playing in division `n`, or leaving at its end. */
export type Standing = { state: "none" } | { state: "waiting" } | { state: "playing"; division: number } | { state: "left"; division: number | null };

export function myStanding(lg: Pick<LeagueDetail, "my_membership">): Standing {
  const m = lg.my_membership;
  if (!m) return { state: "none" };
  if (m.left_at) return { state: "left", division: m.division };
  return m.division == null ? { state: "waiting" } : { state: "playing", division: m.division };
}

/** What I may do: join (not a member, the league takes members and has room), leave (a member not leaving yet). */
export function leagueActions(lg: LeagueDetail, me: string | null): { join: boolean; leave: boolean } {
  const mine = myStanding(lg);
  return {
    join: !!me && mine.state === "none" && lg.status !== "closed" && !lg.closing && lg.member_count < lg.max_members,
    leave: !!me && (mine.state === "waiting" || mine.state === "playing"),
  };
}

/** The running season's divisions, the top first, and mine (by my membership, else by my name among the players). */
export function divisionsOf(lg: Pick<LeagueDetail, "season" | "my_membership">, me: string | null): { divisions: Division[]; mine: number | null } {
  const divisions = [...(lg.season?.divisions ?? [])].sort((a, b) => a.division - b.division);
  const found = divisions.find((d) => me != null && d.players.some((p) => p.username === me));
  return { divisions, mine: lg.my_membership?.division ?? found?.division ?? null };
}

/** The arrow of a move: it stands beside the words, never alone (not colour only either). */
export const MOVE_ARROWS: Record<Movement, string> = { promoted: "↑", relegated: "↓", stayed: "→", entered: "+", dropped: "×" };

/** The previous season's moves by its divisions (the top first, each by rank as sent), the newcomers last. */
export function movesByDivision(moves: Move[]): { division: number | null; moves: Move[] }[] {
  const groups = new Map<number | null, Move[]>();
  for (const m of moves) groups.set(m.division, [...(groups.get(m.division) ?? []), m]);
  return [...groups.entries()]
    .sort(([a], [b]) => (a == null ? 1 : b == null ? -1 : a - b))
    .map(([division, list]) => ({ division, moves: [...list].sort((x, y) => (x.rank ?? 1e9) - (y.rank ?? 1e9)) }));
}

// ---- create: presets, the form, the checks

/** A league game's kind: the 2-player kinds (claim-mix plays the standard faction choice). */
export const LEAGUE_KINDS = FORMAT_KINDS.round_robin;

/** The limits of games/tournaments/league.py. */
export const LEAGUE_LIMITS = { division: [4, 12] as [number, number], seasonDays: [7, 90] as [number, number], members: 1000, name: 60 };

/** The league form as typed: the tournament form's shared fields (kind, clock, rated, the entry conditions, the start)
 *  and the ladder's own. */
export interface LeagueForm extends Pick<CreateForm, "name" | "kind" | "time" | "rated" | "ratingMin" | "ratingMax" | "minReliability" | "botsAllowed" | "startsAt"> {
  divisionSize: string; seasonDays: string; movers: string; maxMembers: string;
}

export type LeaguePresetId = "monthly" | "weekly";
export const LEAGUE_PRESETS: Record<LeaguePresetId, Partial<LeagueForm>> = {
  monthly: { divisionSize: "8", seasonDays: "28", movers: "2", time: "d3" },
  weekly: { divisionSize: "6", seasonDays: "7", movers: "1", time: "d1" },
};

/** "2026-12-07T18:00" (the form's local time) of tomorrow at 18:00: a first season's start to begin with. */
export function tomorrowEvening(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 18, 0);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function blankLeagueForm(preset: LeaguePresetId = "monthly", name = "", now = new Date()): LeagueForm {
  return {
    name, kind: "claim", time: "d3", rated: true, divisionSize: "8", seasonDays: "28", movers: "2", maxMembers: "200",
    ratingMin: "", ratingMax: "", minReliability: "", botsAllowed: false, startsAt: tomorrowEvening(now), ...LEAGUE_PRESETS[preset],
  };
}

/** A number outside `low`..`high` (or none, or no whole number). */
const outside = (s: string, low: number, high: number) => { const v = whole(s); return v === null || Number.isNaN(v) || v < low || v > high; };

/** The form's problems by request field (the names of the server's 400 `fields`), as `league.terms` checks them. */
export function checkLeagueForm(f: LeagueForm, now = Date.now()): Partial<Record<keyof LeagueCreate, Problem>> {
  const out: Partial<Record<keyof LeagueCreate, Problem>> = {};
  const name = f.name.trim();
  if (!name) out.name = { key: "league.err_name" };
  else if (name.length > LEAGUE_LIMITS.name) out.name = { key: "tour.err_name_long", params: { max: LEAGUE_LIMITS.name } };
  if (!LEAGUE_KINDS.includes(f.kind)) out.kind = { key: "league.err_kind" };
  const [dlow, dhigh] = LEAGUE_LIMITS.division;
  const size = whole(f.divisionSize);
  const sizeOk = !outside(f.divisionSize, dlow, dhigh);
  if (!sizeOk) out.division_size = { key: "league.err_division", params: { low: dlow, high: dhigh } };
  const [slow, shigh] = LEAGUE_LIMITS.seasonDays;
  if (outside(f.seasonDays, slow, shigh)) out.season_days = { key: "league.err_season", params: { low: slow, high: shigh } };
  else {
    const tc = TOURNAMENT_TIMES.find((c) => c.id === f.time);
    if (tc?.days && tc.days * 2 > (whole(f.seasonDays) ?? 0)) out.season_days = { key: "league.err_season_tc", params: { days: tc.days * 2 } };
  }
  const most = sizeOk ? Math.floor(size! / 2) : dhigh / 2;
  if (outside(f.movers, 1, most)) out.movers = { key: "league.err_movers", params: { most, size: sizeOk ? size! : dhigh } };
  const fewest = sizeOk ? size! : dlow;
  if (outside(f.maxMembers, fewest, LEAGUE_LIMITS.members)) out.max_members = { key: "league.err_members", params: { low: fewest, high: LEAGUE_LIMITS.members } };
  Object.assign(out, entryProblems(f), startProblem(f.startsAt, true, now));
  return Object.assign(out, notWhole({ division_size: f.divisionSize, season_days: f.seasonDays, movers: f.movers, max_members: f.maxMembers }));
}

/** The request body of a form that passed `checkLeagueForm`. */
export function leagueBody(f: LeagueForm): LeagueCreate {
  const tc = TOURNAMENT_TIMES.find((c) => c.id === f.time) ?? TOURNAMENT_TIMES[2];
  const num = (s: string, d: number) => whole(s) ?? d;
  return {
    name: f.name.trim(), kind: f.kind, options: optionsFor(f.kind, 2), time_control: tc.body as LeagueCreate["time_control"], rated: f.rated,
    division_size: num(f.divisionSize, 10), season_days: num(f.seasonDays, 28), movers: num(f.movers, 2), max_members: num(f.maxMembers, 200),
    rating_min: whole(f.ratingMin), rating_max: whole(f.ratingMax), min_reliability: whole(f.minReliability) ?? 0, bots_allowed: f.botsAllowed,
    starts_at: new Date(f.startsAt).toISOString(),
  };
}


// ---- the calls

export function createLeague(body: LeagueCreate): Promise<LeagueDetail> {
  return api<LeagueDetail>("POST", "/leagues", body);
}

/** POST /leagues/{id}/join or /leave: the new detail. */
export function leagueAction(id: number, action: "join" | "leave"): Promise<LeagueDetail> {
  return api<LeagueDetail>("POST", `/leagues/${id}/${action}`);
}
