// Issue 36: the pure rules of the tournament screens (src/tournament.ts): the list's paths and featured order, what
// the viewer may do, the round, scores as written, the crosstable grid, my games and results, the socket's event,
// and the create form's checks — each the same limit as games/tournaments/service.py's — and its request body.
import { describe, expect, it } from "vitest";
import {
  actionsFor, blankForm, checkForm, createBody, crossGrid, featuredFirst, gamesPath, isTournamentEvent, listPath, myGames,
  myResult, points, roundOf, whole, type CreateForm,
} from "../src/tournament";
import { entry, player, tournament, tournamentDetail, tournamentGame } from "./fixtures";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const form = (over: Partial<CreateForm> = {}): CreateForm => ({ ...blankForm("swiss8", "Winter"), ...over });
const problems = (over: Partial<CreateForm>) => checkForm(form(over), NOW);

describe("the list", () => {
  it("asks for one status, featured ones apart, pages by cursor", () => {
    expect(listPath("open", null)).toBe("/tournaments?status=open&limit=20");
    expect(listPath("running", null, true)).toBe("/tournaments?status=running&featured=true&limit=20");
    expect(listPath("finished", 17)).toBe("/tournaments?status=finished&limit=20&cursor=17");
  });

  it("puts the featured ones first, each once, else newest first as sent", () => {
    const a = tournament({ id: 9 }), b = tournament({ id: 8, featured: true }), c = tournament({ id: 7 }), d = tournament({ id: 3, featured: true });
    expect(featuredFirst([b, d], [a, b, c]).map((x) => x.id)).toEqual([8, 3, 9, 7]);
    expect(featuredFirst([], [a, b, c]).map((x) => x.id)).toEqual([8, 9, 7]);
  });
});

describe("the page", () => {
  it("says the round only once it runs", () => {
    expect(roundOf(tournament({ status: "open" }))).toBeNull();
    expect(roundOf(tournament({ status: "running", current_round: 2, rounds: 5 }))).toEqual({ n: 2, of: 5 });
    expect(roundOf(tournament({ status: "cancelled", current_round: 0 }))).toBeNull();
  });

  it("offers join, leave, withdraw and cancel to whom they apply", () => {
    const open = tournamentDetail({ status: "open", player_count: 2, max_players: 8 });
    expect(actionsFor(open, "bob")).toEqual({ join: true, leave: false, withdraw: false, cancel: false });
    expect(actionsFor(open, "ann")).toEqual({ join: true, leave: false, withdraw: false, cancel: true });
    expect(actionsFor({ ...open, my_entry: entry("bob") }, "bob")).toEqual({ join: false, leave: true, withdraw: false, cancel: false });
    expect(actionsFor({ ...open, player_count: 8 }, "bob").join).toBe(false);
    const running = tournamentDetail({ status: "running", my_entry: entry("bob") });
    expect(actionsFor(running, "bob")).toEqual({ join: false, leave: false, withdraw: true, cancel: false });
    expect(actionsFor({ ...running, my_entry: entry("bob", { withdrawn_at: "2026-11-02T00:00:00Z" }) }, "bob").withdraw).toBe(false);
    expect(actionsFor({ ...running, status: "finished" }, "bob").withdraw).toBe(false);
    expect(actionsFor(open, null).join).toBe(false);
  });

  it("writes scores as people do", () => {
    expect([0, 0.5, 1, 1.5, 3, 2.25].map(points)).toEqual(["0", "½", "1", "1½", "3", "2.25"]);
  });

  it("lays the crosstable out in standings order, both directions, several games per pair", () => {
    const d = tournamentDetail({
      players: [entry("a"), entry("b"), entry("c")],
      standings: ["c", "a", "b"].map((u, i) => ({ rank: i + 1, player: player(u), score: 0, tiebreaks: [], games: 0, wins: 0, out: false })),
      crosstable: [
        { player: "a", opponent: "b", points: [1] }, { player: "b", opponent: "a", points: [0] },
        { player: "c", opponent: "a", points: [0.5, 1] }, { player: "a", opponent: "c", points: [0.5, 0] },
        { player: "x", opponent: "a", points: [1] }, // a player no longer listed: left out
      ],
    });
    const { players, cells } = crossGrid(d);
    expect(players.map((p) => p.username)).toEqual(["c", "a", "b"]);
    expect(cells).toEqual([[null, [0.5, 1], null], [[0.5, 0], null, [1]], [null, [0], null]]);
    // before the start: the entrants in entry order
    expect(crossGrid({ ...d, standings: [] }).players.map((p) => p.username)).toEqual(["a", "b", "c"]);
  });

  it("finds my games and how they went", () => {
    const g1 = tournamentGame({ game_id: 1 }), g2 = tournamentGame({ game_id: 2, players: [player("bob"), player("cy")] });
    expect(myGames([g1, g2], "me").map((g) => g.game_id)).toEqual([1]);
    expect(myGames([g1, g2], null)).toEqual([]);
    expect(myResult(g1, "me")).toBeNull();
    expect(myResult({ ...g1, places: [1, 2] }, "me")).toEqual({ outcome: "win" });
    expect(myResult({ ...g1, places: [2, 1] }, "me")).toEqual({ outcome: "loss" });
    expect(myResult({ ...g1, places: [1, 1] }, "me")).toEqual({ outcome: "draw" });
    const table = tournamentGame({ players: [player("a"), player("me"), player("c")], places: [1, 3, 2] });
    expect(myResult(table, "me")).toEqual({ place: 3 });
  });

  it("reads every game of a round robin, the current round of the others", () => {
    expect(gamesPath(tournament({ id: 4, format: "round_robin", current_round: 1 }))).toBe("/tournaments/4/games");
    expect(gamesPath(tournament({ id: 4, format: "swiss", current_round: 3 }))).toBe("/tournaments/4/games?round=3");
  });

  it("knows the socket's tournament event, of one tournament", () => {
    const ev = { type: "tournament", tournament_id: 5, what: "result", round: 1, game_id: 40 };
    expect(isTournamentEvent(ev)).toBe(true);
    expect(isTournamentEvent(ev, 5)).toBe(true);
    expect(isTournamentEvent(ev, 6)).toBe(false);
    expect(isTournamentEvent({ type: "tournament", tournament_id: "5" })).toBe(false);
    expect(isTournamentEvent({ type: "game", game_id: 5 })).toBe(false);
    expect(isTournamentEvent(null)).toBe(false);
  });
});

describe("the create form's checks (as the service's)", () => {
  it("passes the presets as they are", () => {
    for (const p of ["swiss8", "rr6", "tables"] as const) expect(checkForm(blankForm(p, "A name"), NOW)).toEqual({});
  });

  it("a name: given, at most 80 characters", () => {
    expect(problems({ name: "   " }).name?.key).toBe("tour.err_name");
    expect(problems({ name: "x".repeat(81) }).name).toEqual({ key: "tour.err_name_long", params: { max: 80 } });
    expect(problems({ name: "x".repeat(80) }).name).toBeUndefined();
  });

  it("tables need a 3-4 player game", () => {
    expect(problems({ format: "tables", kind: "claim", maxPlayers: "8", rounds: "3" }).format?.key).toBe("tour.err_kind");
    expect(problems({ format: "tables", kind: "inheritors", maxPlayers: "8", rounds: "3" }).format).toBeUndefined();
  });

  it("players by format: round robin 2-20, Swiss 2-256, tables 3-128; the fewest between the least and the most", () => {
    expect(problems({ format: "round_robin", rounds: "", maxPlayers: "21" }).max_players).toEqual({ key: "tour.err_players", params: { low: 2, high: 20 } });
    expect(problems({ format: "round_robin", rounds: "", maxPlayers: "20" }).max_players).toBeUndefined();
    expect(problems({ maxPlayers: "257" }).max_players?.params).toEqual({ low: 2, high: 256 });
    expect(problems({ maxPlayers: "1" }).max_players).toBeDefined();
    expect(problems({ maxPlayers: "" }).max_players).toBeDefined();
    expect(problems({ format: "tables", kind: "inheritors", maxPlayers: "2", rounds: "3" }).max_players?.params).toEqual({ low: 3, high: 128 });
    expect(problems({ minPlayers: "9" }).min_players).toEqual({ key: "tour.err_min_players", params: { low: 2, max: 8 } });
    expect(problems({ minPlayers: "1" }).min_players).toBeDefined();
    expect(problems({ minPlayers: "8" }).min_players).toBeUndefined();
  });

  it("rounds: none for a round robin; Swiss at most players - 1 (even) or players (odd), at most 20", () => {
    expect(problems({ format: "round_robin", maxPlayers: "6", rounds: "3" }).rounds?.key).toBe("tour.err_rounds_none");
    expect(problems({ rounds: "" }).rounds).toEqual({ key: "tour.err_rounds", params: { most: 7 } });
    expect(problems({ rounds: "8" }).rounds?.params).toEqual({ most: 7 });
    expect(problems({ rounds: "7" }).rounds).toBeUndefined();
    expect(problems({ maxPlayers: "7", rounds: "7" }).rounds).toBeUndefined();
    expect(problems({ maxPlayers: "100", rounds: "21" }).rounds?.params).toEqual({ most: 20 });
    expect(problems({ rounds: "0" }).rounds).toBeDefined();
    expect(problems({ format: "tables", kind: "inheritors", maxPlayers: "12", rounds: "20" }).rounds).toBeUndefined();
  });

  it("ratings 0-4000, the lowest not above the highest", () => {
    expect(problems({ ratingMin: "4001" }).rating_min).toEqual({ key: "tour.err_rating", params: { max: 4000 } });
    expect(problems({ ratingMin: "1800", ratingMax: "1500" }).rating_min?.key).toBe("tour.err_rating_order");
    expect(problems({ ratingMin: "1500", ratingMax: "1800" })).toEqual({});
    expect(problems({ minReliability: "101" }).min_reliability?.key).toBe("tour.err_reliability");
    expect(problems({ minReliability: "2.5" }).min_reliability?.key).toBe("tour.err_number");
    expect(problems({ minReliability: "90" })).toEqual({});
  });

  it("a start in the future, at most 90 days ahead", () => {
    expect(problems({ startsAt: "2026-11-30T12:00" }).starts_at?.key).toBe("tour.err_start");
    expect(problems({ startsAt: "2027-06-01T12:00" }).starts_at).toBeDefined();
    expect(problems({ startsAt: "2026-12-20T18:00" }).starts_at).toBeUndefined();
    expect(problems({ startsAt: "not a date" }).starts_at).toBeDefined();
  });

  it("game days 7-365, and at least twice the days per move", () => {
    expect(problems({ maxGameDays: "6" }).max_game_days).toEqual({ key: "tour.err_game_days", params: { low: 7, high: 365 } });
    expect(problems({ maxGameDays: "366" }).max_game_days).toBeDefined();
    expect(problems({ time: "d14", maxGameDays: "27" }).max_game_days).toEqual({ key: "tour.err_game_days_tc", params: { days: 28 } });
    expect(problems({ time: "d14", maxGameDays: "28" }).max_game_days).toBeUndefined();
  });

  it("numbers are whole numbers: no fractions, signs or exponents", () => {
    expect([whole(""), whole(" 8 "), whole("2.5"), whole("-1"), whole("1e3")]).toEqual([null, 8, NaN, NaN, NaN]);
    expect(problems({ maxPlayers: "8.5" }).max_players?.key).toBe("tour.err_number");
    expect(problems({ ratingMax: "-3" }).rating_max?.key).toBe("tour.err_number");
  });
});

describe("the request body", () => {
  it("sends what the form says, in the API's names", () => {
    expect(createBody(blankForm("rr6", "  Six  "))).toEqual({
      name: "Six", kind: "claim", format: "round_robin", options: {}, rounds: null,
      time_control: { type: "days", days_per_move: 3 }, rated: false, max_players: 6, min_players: null, rating_min: null,
      rating_max: null, min_reliability: 0, bots_allowed: false, starts_at: null, max_game_days: 30,
    });
    const swiss = createBody({ ...blankForm("swiss8", "S"), minPlayers: "4", ratingMax: "1800", rated: true, time: "b3+1", startsAt: "2026-12-20T18:00" });
    expect(swiss).toMatchObject({ format: "swiss", rounds: 5, max_players: 8, min_players: 4, rating_max: 1800, rated: true });
    expect(swiss.time_control).toMatchObject({ type: "bank" });
    expect(swiss.starts_at).toBe(new Date("2026-12-20T18:00").toISOString());
  });

  it("a claim-mix tournament carries a faction choice valid for its table sizes", () => {
    expect(createBody({ ...blankForm("swiss8", "M"), kind: "claim-mix" }).options).toEqual({ factions: ["knight", "goblin", "undead", "dragon", "seer"] });
    expect((createBody({ ...blankForm("tables", "M"), kind: "claim-mix" }).options as { factions: string[] }).factions).toHaveLength(7);
  });
});
