// Whole API payloads for the unit tests, typed by the generated schema (src/api/schema.d.ts): a test names only
// the fields it is about, the rest are the plain values an open two-seat Claim game has.
import type { Schemas } from "../src/api";

export function apiSeat(over: Partial<Schemas["Seat"]> = {}): Schemas["Seat"] {
  return {
    index: 0, type: "user", username: null, name: null, is_bot: false, ai_level: null, ai_name: null, rating: null,
    joined: true, to_act: false, abort_offered: false, outcome: null, rank: null, you: false, ...over,
  };
}

export function rating(over: Partial<Schemas["SeatRatingSnapshot"]> = {}): Schemas["SeatRatingSnapshot"] {
  return {
    pool: "claim", system: "glicko2", rating: 1500, deviation: 200, provisional: false, games: 10, wins: 5, losses: 5,
    draws: 0, last_game_at: null, ...over,
  };
}

export function timeControl(over: Partial<Schemas["TimeControl"]> = {}): Schemas["TimeControl"] {
  return {
    type: "correspondence", days_per_move: 3, initial_seconds: null, increment_seconds: null, cap_seconds: null,
    description: "3 days per move", ...over,
  };
}

export function summary(over: Partial<Schemas["GameSummary"]> = {}): Schemas["GameSummary"] {
  return {
    id: 7, kind: "claim", title: "Claim", status: "open", version: 1, seats: [], my_seat: null, creator_seat: null,
    to_act: [], my_turn: false, deadline: null, time_control: timeControl(), rated: false, result: null,
    created_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z",
    links: { self: "/api/v1/games/7", moves: "", history: "", record: "", replay: "" }, ...over,
  };
}

export function gameView(over: Partial<Schemas["GameView"]> = {}): Schemas["GameView"] {
  return {
    ...summary(over),
    options: {}, clock: { deadline: null, paused: false, paused_at: null, pause_requests: [], seats: [] }, move_count: 0,
    legal_moves: [], view: null, last_events: null, ended_reason: null, can_abort: false, invite_code: null, watchable: false,
    rematch_of: null, rematch: null, rematch_offer: null, ...over,
  };
}

/** A two-seat Claim game's view for seat 0 at the deal, as games/rules/claim sends it (seed 1). */
export function claimView(over: Partial<Schemas["ClaimView"]> = {}): Schemas["ClaimView"] {
  const factions = ["goblin", "knight", "undead", "dwarf", "doppelganger"];
  const per = <T,>(x: () => T) => Object.fromEntries(factions.map((f) => [f, x()]));
  const hand = ["goblin-0", "goblin-1", "goblin-5", "goblin-7", "knight-7", "undead-0", "undead-7", "dwarf-3", "dwarf-5",
    "dwarf-6", "doppelganger-1", "doppelganger-7", "doppelganger-9"];
  return {
    game: "claim", factions, seats: 2, seat: 0, phase: 1, over: false, trick: 1, to_act: [0], leader: 0,
    hand_counts: [13, 13], follower_counts: [0, 0], public_followers: [[], []], deck_count: 25, prize: "dwarf-2",
    current_trick: [], seer_pending: null, smash_pending: null, score: [per(() => []), per(() => [])],
    gnome_rows: [[], []], troll_pool: [], discard: [], smashed: [], last_trick: null, voids: [[], []],
    leading: per(() => null), result: null, hand, followers: [], legal_moves: hand.map((play) => ({ play })),
    peeked_cards: [], ...over,
  };
}

/** The browser globals the store reads (``localStorage`` in memory, an English ``navigator``), for node. */
export function fakeBrowser(): void {
  const memory = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: { getItem: (k: string) => memory.get(k) ?? null, setItem: (k: string, v: string) => memory.set(k, v),
      removeItem: (k: string) => memory.delete(k) },
    navigator: { language: "en" },
  });
}

// ---- issue 35 (spectating, friends, public profiles)
import type { Friend, NowPlayingGame, PublicProfile, PublicUser, Relationship, SpectatorGame, SpectatorSeat } from "../src/api";

export function publicUser(over: Partial<PublicUser> = {}): PublicUser {
  return { username: "ann", name: "Ann", is_bot: false, ...over };
}

/** A seat of a watched game: a person by default. */
export function spectatorSeat(over: Partial<SpectatorSeat> = {}): SpectatorSeat {
  return { index: 0, user: publicUser(), ai_level: null, ai_name: null, to_act: false, outcome: null, ...over };
}

/** A two-seat Claim game as a spectator gets it (GET /games/{id}/watch): the public view, no hand. */
export function spectatorGame(over: Partial<SpectatorGame> = {}): SpectatorGame {
  const { hand: _h, followers: _f, legal_moves: _l, peeked_cards: _p, ...pub } = claimView({ seat: null });
  return {
    id: 7, kind: "claim", title: "Claim", status: "active", version: 3, move_count: 2, rated: true, watchable: true,
    seats: [spectatorSeat(), spectatorSeat({ index: 1, user: publicUser({ username: "bob", name: "Bob" }) })],
    to_act: [0], view: pub, clock: null, result: null, ended_reason: null, spectators: 2,
    started_at: "2026-11-01T00:00:00Z", updated_at: "2026-11-01T00:00:00Z",
    links: { self: "/api/v1/games/7/watch", game: "/api/v1/games/7", chat: "/api/v1/games/7/chat", record: "/api/v1/games/7/record" },
    ...over,
  };
}

export function nowPlaying(over: Partial<NowPlayingGame> = {}): NowPlayingGame {
  return {
    id: 7, kind: "claim", rated: true, seats: [publicUser(), publicUser({ username: "bob", name: "Bob" })], version: 3,
    moved_at: "2026-11-01T00:00:00Z", spectators: 0, ...over,
  };
}

export function relationship(over: Partial<Relationship> = {}): Relationship {
  return { username: "ann", following: false, followed_by: false, friends: false, blocking: false, muting: false, ...over };
}

export function friend(over: Partial<Friend> = {}): Friend {
  return { user: publicUser(), online: true, watchable_games: [], ...over };
}

export function publicProfile(over: Partial<PublicProfile> = {}): PublicProfile {
  return {
    user: publicUser(), joined: "2026-03-05", ratings: [], recent_games: [], reliability: 100, online: true,
    watchable_games: [], relationship: relationship(), ...over,
  };
}

// ---- issue 36 (tournaments)
import type { Tournament, TournamentDetail, TournamentGame } from "../src/tournament";

export function player(username: string, name = username[0].toUpperCase() + username.slice(1)): Schemas["Player"] {
  return { username, name, is_bot: false };
}

export function tournament(over: Partial<Tournament> = {}): Tournament {
  const id = over.id ?? 5;
  const base = `/api/v1/tournaments/${id}`;
  return {
    id, name: "Winter Swiss", kind: "claim", title: "Claim", format: "swiss", status: "open", options: {}, rounds: 5,
    current_round: 0, time_control: timeControl(), rated: false, max_players: 8, min_players: 2, player_count: 0,
    rating_min: null, rating_max: null, min_reliability: 0, bots_allowed: false, starts_at: null, max_game_days: 30, featured: false,
    created_by: player("ann"), created_at: "2026-11-01T00:00:00Z", started_at: null, finished_at: null,
    links: { self: base, join: `${base}/join`, leave: `${base}/leave`, games: `${base}/games` }, league: null, ...over,
  };
}

export function entry(username: string, over: Partial<TournamentDetail["players"][number]> = {}): TournamentDetail["players"][number] {
  return { player: player(username), joined_at: "2026-11-01T00:00:00Z", withdrawn_at: null, timeouts: 0, seed: null, rating: null, ...over };
}

export function tournamentDetail(over: Partial<TournamentDetail> = {}): TournamentDetail {
  return {
    ...tournament(over), players: [], standings: [], tiebreak_names: ["buchholz", "sonneborn_berger", "wins"], crosstable: [],
    byes: [], my_entry: null, ...over,
  };
}

export function tournamentGame(over: Partial<TournamentGame> = {}): TournamentGame {
  return { round: 1, board: 1, game_id: 40, status: "active", players: [player("me"), player("bob")], places: null, finished: false,
    adjudicated: false, ...over };
}

// ---- issue 37 (the game review; its types are hand-typed in src/review.ts until the schema has them)
import type { Review, ReviewDecision } from "../src/review";

export function decision(over: Partial<ReviewDecision> = {}): ReviewDecision {
  return {
    index: 0, seat: 0, player: "ann", played: { play: "knight-7" }, best: { play: "knight-7" }, chance_played: 0.5,
    chance_best: 0.5, drop: 0, mark: null, options: [{ move: { play: "knight-7" }, chance: 0.5 }, { move: { play: "goblin-0" }, chance: 0.3 }],
    ...over,
  };
}

export function review(over: Partial<Review> = {}): Review {
  return {
    game_id: 7, status: "done", progress: { done: 0, total: 0 }, thresholds: { inaccuracy: 0.05, mistake: 0.15 }, decisions: [],
    ...over,
  };
}
