// Issue 36: the pure rules of the league screens (src/league.ts): the list's paths, what the viewer may do, their
// membership, the divisions (the top first, mine found), the previous season's moves grouped by division, and the
// create form's checks — each the same limit as games/tournaments/league.py's `terms` — and its request body.
import { describe, expect, it } from "vitest";
import {
  blankLeagueForm, checkLeagueForm, divisionsOf, leagueActions, leagueBody, leagueListPath, MOVE_ARROWS, movesByDivision, myStanding,
  tomorrowEvening, type LeagueForm,
} from "../src/league";
import { featuredFirst } from "../src/tournament";
import { division, league, leagueDetail, membership, move } from "./league-fixtures";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const LATER = "2026-12-05T18:00"; // local time, days ahead of NOW in any zone
const form = (over: Partial<LeagueForm> = {}): LeagueForm => ({ ...blankLeagueForm("monthly", "Ladder"), startsAt: LATER, ...over });
const problems = (over: Partial<LeagueForm>) => checkLeagueForm(form(over), NOW);
const keys = (over: Partial<LeagueForm>) => Object.fromEntries(Object.entries(problems(over)).map(([k, p]) => [k, p!.key]));

describe("the list", () => {
  it("asks for one status, pages by cursor", () => {
    expect(leagueListPath("open", null)).toBe("/leagues?status=open&limit=20");
    expect(leagueListPath("closed", 12)).toBe("/leagues?status=closed&limit=20&cursor=12");
  });

  it("puts the featured leagues first, else newest first as sent", () => {
    const rows = [league({ id: 9 }), league({ id: 8, featured: true }), league({ id: 7 })];
    expect(featuredFirst([], rows).map((x) => x.id)).toEqual([8, 9, 7]);
  });
});

describe("the page", () => {
  it("says where I stand", () => {
    expect(myStanding(leagueDetail())).toEqual({ state: "none" });
    expect(myStanding(leagueDetail({ my_membership: membership(null) }))).toEqual({ state: "waiting" });
    expect(myStanding(leagueDetail({ my_membership: membership(2) }))).toEqual({ state: "playing", division: 2 });
    expect(myStanding(leagueDetail({ my_membership: membership(2, "2026-12-03T00:00:00Z") }))).toEqual({ state: "left", division: 2 });
  });

  it("offers join to a non-member of a league with room that takes members, leave to a member not leaving", () => {
    const open = leagueDetail({ member_count: 3 });
    expect(leagueActions(open, "bob")).toEqual({ join: true, leave: false });
    expect(leagueActions(open, null)).toEqual({ join: false, leave: false });
    expect(leagueActions({ ...open, member_count: 200 }, "bob").join).toBe(false);
    expect(leagueActions({ ...open, status: "closed" }, "bob").join).toBe(false);
    expect(leagueActions({ ...open, status: "running", closing: true }, "bob").join).toBe(false);
    expect(leagueActions({ ...open, status: "running" }, "bob").join).toBe(true); // joins for the next season
    expect(leagueActions({ ...open, my_membership: membership(null) }, "bob")).toEqual({ join: false, leave: true });
    expect(leagueActions({ ...open, my_membership: membership(1) }, "bob")).toEqual({ join: false, leave: true });
    expect(leagueActions({ ...open, my_membership: membership(1, "2026-12-03T00:00:00Z") }, "bob")).toEqual({ join: false, leave: false });
  });

  it("orders the divisions top first and finds mine", () => {
    const season = { number: 1, starts_at: "2026-12-01T00:00:00Z", ends_at: "2026-12-29T00:00:00Z", finished_at: null,
      divisions: [division(2, 41, ["cy", "me"]), division(1, 40, ["ann", "bob"])] };
    expect(divisionsOf(leagueDetail({ season }), "me")).toMatchObject({ mine: 2, divisions: [{ division: 1 }, { division: 2 }] });
    // my membership says it first (a player gone from the list still knows their division)
    expect(divisionsOf(leagueDetail({ season, my_membership: membership(1) }), "me").mine).toBe(1);
    expect(divisionsOf(leagueDetail({ season }), "zed").mine).toBeNull();
    expect(divisionsOf(leagueDetail(), "me")).toEqual({ divisions: [], mine: null });
  });

  it("groups the moves by division, the top first, by rank, the newcomers last; every move has its arrow", () => {
    const moves = [move("new1", null, null, 3, "entered"), move("b", 2, 2, 2, "stayed"), move("a", 2, 1, 1, "promoted"),
      move("c", 1, 2, 2, "relegated"), move("d", 1, 1, null, "dropped")];
    const groups = movesByDivision(moves);
    expect(groups.map((g) => g.division)).toEqual([1, 2, null]);
    expect(groups.map((g) => g.moves.map((m) => m.player.username))).toEqual([["d", "c"], ["a", "b"], ["new1"]]);
    expect(Object.keys(MOVE_ARROWS).sort()).toEqual(["dropped", "entered", "promoted", "relegated", "stayed"]);
    expect(new Set(Object.values(MOVE_ARROWS)).size).toBe(5);
  });
});

describe("the create form", () => {
  it("starts from the monthly ladder: divisions of 8, 28 days, 2 up/2 down; the weekly one fits its clock", () => {
    const f = blankLeagueForm("monthly", "", new Date(2026, 11, 6, 9, 30));
    expect(f).toMatchObject({ divisionSize: "8", seasonDays: "28", movers: "2", time: "d3", rated: true, startsAt: "2026-12-07T18:00" });
    expect(checkLeagueForm({ ...blankLeagueForm("weekly", "W"), startsAt: LATER }, NOW)).toEqual({});
    expect(checkLeagueForm({ ...blankLeagueForm("monthly", "M"), startsAt: LATER }, NOW)).toEqual({});
    expect(tomorrowEvening(new Date(2026, 11, 31, 23, 0))).toBe("2027-01-01T18:00");
  });

  it("checks the name (60 characters) and the game (2 players)", () => {
    expect(keys({ name: "  " })).toEqual({ name: "league.err_name" });
    expect(problems({ name: "x".repeat(61) }).name).toEqual({ key: "tour.err_name_long", params: { max: 60 } });
    expect(problems({ name: "x".repeat(60) }).name).toBeUndefined();
    expect(keys({ kind: "claim-mix" })).toEqual({});
    expect(keys({ kind: "inheritors" })).toEqual({});
    expect(keys({ kind: "nope" as LeagueForm["kind"] })).toEqual({ kind: "league.err_kind" });
  });

  it("checks the ladder as the server does: divisions 4-12, seasons 7-90 days, movers up to half a division, members", () => {
    expect(problems({ divisionSize: "3" }).division_size).toEqual({ key: "league.err_division", params: { low: 4, high: 12 } });
    expect(problems({ divisionSize: "13" }).division_size?.key).toBe("league.err_division");
    expect(problems({ divisionSize: "4", movers: "2" })).toEqual({});
    expect(problems({ divisionSize: "4", movers: "3" }).movers).toEqual({ key: "league.err_movers", params: { most: 2, size: 4 } });
    expect(problems({ divisionSize: "5", movers: "3" }).movers?.params).toEqual({ most: 2, size: 5 });
    expect(problems({ movers: "0" }).movers?.key).toBe("league.err_movers");
    expect(problems({ seasonDays: "6" }).season_days).toEqual({ key: "league.err_season", params: { low: 7, high: 90 } });
    expect(problems({ seasonDays: "91" }).season_days?.key).toBe("league.err_season");
    // two moves' time at least: 3 days per move needs 6 days, 14 days per move needs 28
    expect(problems({ seasonDays: "7", time: "d3" })).toEqual({});
    expect(problems({ seasonDays: "27", time: "d14" }).season_days).toEqual({ key: "league.err_season_tc", params: { days: 28 } });
    expect(problems({ seasonDays: "7", time: "b7+2" })).toEqual({}); // a bank clock: no such rule
    expect(problems({ maxMembers: "7" }).max_members).toEqual({ key: "league.err_members", params: { low: 8, high: 1000 } });
    expect(problems({ maxMembers: "1001" }).max_members?.key).toBe("league.err_members");
    expect(problems({ divisionSize: "12", maxMembers: "12" })).toEqual({});
  });

  it("checks the entry conditions and the start like a tournament's; a start is required", () => {
    expect(keys({ ratingMin: "1900", ratingMax: "1800" })).toEqual({ rating_min: "tour.err_rating_order" });
    expect(keys({ ratingMax: "4001" })).toEqual({ rating_max: "tour.err_rating" });
    expect(keys({ minReliability: "101" })).toEqual({ min_reliability: "tour.err_reliability" });
    expect(keys({ startsAt: "" })).toEqual({ starts_at: "tour.err_start" });
    expect(keys({ startsAt: "2026-11-30T12:00" })).toEqual({ starts_at: "tour.err_start" });
    expect(keys({ startsAt: "2027-04-01T12:00" })).toEqual({ starts_at: "tour.err_start" });
    expect(keys({ divisionSize: "2.5", movers: "-1", seasonDays: "1e3", maxMembers: "lots" })).toEqual({
      division_size: "tour.err_number", movers: "tour.err_number", season_days: "tour.err_number", max_members: "tour.err_number" });
  });

  it("builds the request body", () => {
    const body = leagueBody(form({ name: " Ladder ", kind: "claim-mix", ratingMin: "1500", minReliability: "80", botsAllowed: true }));
    expect(body).toMatchObject({
      name: "Ladder", kind: "claim-mix", time_control: { type: "days", days_per_move: 3 }, rated: true, division_size: 8, season_days: 28,
      movers: 2, max_members: 200, rating_min: 1500, rating_max: null, min_reliability: 80, bots_allowed: true,
      starts_at: new Date(LATER).toISOString(),
    });
    expect(Object.keys(body.options ?? {})).toEqual(["factions"]); // claim-mix plays the standard faction choice
    expect(leagueBody(form()).options).toEqual({});
  });
});
