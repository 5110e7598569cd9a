// Leagues (issue 36): API shapes for the league tests, from the generated schema's types.
import type { Division, League, LeagueDetail, Move } from "../src/league";
import { player, timeControl } from "./fixtures";

export function league(over: Partial<League> = {}): League {
  const id = over.id ?? 7;
  const base = `/api/v1/leagues/${id}`;
  return {
    id, name: "Claim ladder", kind: "claim", title: "Claim", status: "open", closing: false, options: {}, time_control: timeControl(),
    rated: true, division_size: 8, season_days: 28, movers: 2, max_members: 200, member_count: 0, rating_min: null, rating_max: null,
    min_reliability: 0, bots_allowed: false, starts_at: "2026-12-20T18:00:00Z", current_season: 0, featured: false,
    created_by: player("ann"), created_at: "2026-12-01T00:00:00Z", links: { self: base, join: `${base}/join`, leave: `${base}/leave` }, ...over,
  };
}

export function leagueDetail(over: Partial<LeagueDetail> = {}): LeagueDetail {
  return { ...league(over), season: null, previous_season: null, waiting: [], my_membership: null, ...over };
}

export function division(n: number, tournamentId: number | null, usernames: string[]): Division {
  const t = tournamentId == null ? null : `/api/v1/tournaments/${tournamentId}`;
  return { division: n, tournament_id: tournamentId, players: usernames.map((u) => player(u)), links: { tournament: t, games: t && `${t}/games` } };
}

export function move(username: string, from: number | null, rank: number | null, to: number | null, movement: Move["movement"]): Move {
  return { player: player(username), division: from, rank, to, movement };
}

export const membership = (division: number | null, left_at: string | null = null) => ({ joined_at: "2026-12-02T00:00:00Z", division, left_at });
