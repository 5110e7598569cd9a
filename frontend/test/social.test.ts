// Issue 35, the pure rules of the spectating and friends screens (src/social.ts): the spectator feed's versions and
// its end, seat names of a watched game, keyset pages and the kind filter, the sparkline, block asked first.
import { describe, expect, it, vi } from "vitest";

const api = vi.hoisted(() => ({ api: vi.fn(async (method: string, path: string) => ({ method, path })), setApiLanguage: vi.fn() }));
vi.mock("../src/api", () => api);

import {
  appendPage, challengeHref, challengeTarget, nowPlayingPath, pagePath, reduceWatch, sparkline, spectatorBoard,
  spectatorLeak, spectatorSeat, toggleRelation, type WatchModel,
} from "../src/social";
import { seatName } from "../src/game";
import { claimView, relationship, spectatorGame, spectatorSeat as watchedSeat } from "./fixtures";
import fixture from "./inheritors-fixture.json";

const empty: WatchModel = { game: null, ended: null };

describe("the spectator feed", () => {
  it("takes the GET, then newer frames; an older frame (crossed with the GET) and other games' are ignored", () => {
    let m = reduceWatch(empty, 7, { type: "loaded", game: spectatorGame({ version: 3 }) });
    expect(m.game?.version).toBe(3);
    m = reduceWatch(m, 7, { type: "spectator_game", game_id: 7, version: 4, game: spectatorGame({ version: 4, spectators: 5 }) });
    expect(m.game?.version).toBe(4);
    expect(m.game?.spectators).toBe(5);
    const same = reduceWatch(m, 7, { type: "loaded", game: spectatorGame({ version: 2 }) });
    expect(same).toBe(m);
    expect(reduceWatch(m, 7, { type: "spectator_game", game_id: 8, version: 9, game: spectatorGame({ id: 8, version: 9 }) })).toBe(m);
    // the same version with a new spectator count: the count is shown
    expect(reduceWatch(m, 7, { type: "loaded", game: spectatorGame({ version: 4, spectators: 6 }) }).game?.spectators).toBe(6);
  });

  it("watch_ended ends it for good: later frames are not shown", () => {
    let m = reduceWatch(empty, 7, { type: "loaded", game: spectatorGame() });
    expect(reduceWatch(m, 7, { type: "watch_ended", game_id: 9, reason: "blocked" })).toBe(m);
    m = reduceWatch(m, 7, { type: "watch_ended", game_id: 7, reason: "blocked" });
    expect(m.ended).toBe("blocked");
    const after = reduceWatch(m, 7, { type: "spectator_game", game_id: 7, version: 10, game: spectatorGame({ version: 10 }) });
    expect(after.game?.version).toBe(3);
    expect(after.ended).toBe("blocked");
  });
});

describe("a watched game's seats and board", () => {
  it("names people by their name, AI seats by theirs in the reader's language, never 'you'", () => {
    const g = spectatorGame({ seats: [
      watchedSeat({ index: 0, user: { username: "ann", name: "", is_bot: false } }),
      watchedSeat({ index: 1, user: null, ai_level: 2, ai_name: "Ada" }),
      watchedSeat({ index: 2, user: null, ai_level: 3 }),
      watchedSeat({ index: 3, user: null }),
    ] });
    const b = spectatorBoard(g);
    expect(b.seats.map((s) => s.you)).toEqual([false, false, false, false]);
    expect([0, 1, 2, 3].map((s) => seatName(b, s, "de"))).toEqual(["ann", "Ada (KI)", "King (KI)", "?"]);
    expect(spectatorSeat(g.seats[3]).open).toBe(true);
    expect(b.toAct).toEqual([0]);
    expect(b.view?.seat).toBeNull();
  });

  it("the spectator views carry no hand; a seat's view would be caught", () => {
    expect(spectatorLeak(spectatorGame().view)).toEqual([]);
    expect(spectatorLeak(claimView())).toEqual(expect.arrayContaining(["hand", "legal_moves"]));
    const seatView = (fixture as unknown as { start: { view: SpectatorView } }).start.view;
    expect(spectatorLeak(seatView)).toEqual(["hand", "quests"]);
    const { hand: _h, quests: _q, ...pub } = seatView as SpectatorView & { hand?: unknown; quests?: unknown };
    expect(spectatorLeak({ ...pub, seat: null } as SpectatorView)).toEqual([]);
    expect(spectatorBoard(spectatorGame({ kind: "inheritors", view: pub as SpectatorView })).view).toBeNull();
  });
});
type SpectatorView = ReturnType<typeof spectatorGame>["view"];

describe("lists", () => {
  it("now playing: the kind filter and the cursor in the query, encoded; none of them when absent", () => {
    expect(nowPlayingPath(null, null)).toBe("/watch?limit=20");
    expect(nowPlayingPath("claim-mix", null)).toBe("/watch?kind=claim-mix&limit=20");
    expect(nowPlayingPath("inheritors", 812, 5)).toBe("/watch?kind=inheritors&limit=5&cursor=812");
    expect(pagePath("/friends", { limit: 30, cursor: "" })).toBe("/friends?limit=30");
  });

  it("a further page adds only rows not held (the list moved meanwhile)", () => {
    const rows = appendPage([{ id: 3 }, { id: 2 }], [{ id: 2 }, { id: 1 }], (r) => r.id);
    expect(rows.map((r) => r.id)).toEqual([3, 2, 1]);
  });

  it("challenge links prefill the new-game screen with the username, whatever it holds", () => {
    for (const name of ["ann", "Zoë_1", "a&b=c?d"]) expect(challengeTarget(challengeHref(name))).toBe(name);
    expect(challengeTarget("#/new")).toBeNull();
    expect(challengeTarget("#/new?x=1&challenge=bob")).toBe("bob");
    expect(challengeTarget("#/new?challenge=%E0%A4%A")).toBeNull();
  });
});

describe("the rating sparkline", () => {
  it("runs oldest to newest, highest rating at the top, within the box", () => {
    const s = sparkline([{ at: "2026-02-01", rating: 1600 }, { at: "2026-01-01", rating: 1500 }, { at: "2026-03-01", rating: 1550 }], 80, 24, 2);
    expect(s.min).toBe(1500);
    expect(s.max).toBe(1600);
    expect(s.path).toBe("M2.0 22.0 L40.0 2.0 L78.0 12.0");
  });
  it("a flat line in the middle; nothing for fewer than two points", () => {
    expect(sparkline([{ at: "2026-01-01", rating: 1500 }, { at: "2026-01-02", rating: 1500 }], 80, 24).path).toBe("M2.0 12.0 L78.0 12.0");
    expect(sparkline([{ at: "2026-01-01", rating: 1500 }]).path).toBe("");
    expect(sparkline([]).path).toBe("");
  });
});

describe("follow, mute, block", () => {
  it("blocking asks first: no answer, no request", async () => {
    api.api.mockClear();
    const ask = vi.fn(() => false);
    expect(await toggleRelation(relationship(), "block", ask, "Block Ann?")).toBeNull();
    expect(ask).toHaveBeenCalledWith("Block Ann?");
    expect(api.api).not.toHaveBeenCalled();
    ask.mockReturnValue(true);
    await toggleRelation(relationship({ username: "a b" }), "block", ask, "Block?");
    expect(api.api).toHaveBeenLastCalledWith("PUT", "/users/a%20b/block");
  });
  it("unblocking, following and muting do not ask; off is a DELETE", async () => {
    api.api.mockClear();
    const ask = vi.fn(() => false);
    await toggleRelation(relationship({ blocking: true }), "block", ask, "");
    expect(api.api).toHaveBeenLastCalledWith("DELETE", "/users/ann/block");
    await toggleRelation(relationship(), "follow", ask, "");
    expect(api.api).toHaveBeenLastCalledWith("PUT", "/users/ann/follow");
    await toggleRelation(relationship({ muting: true }), "mute", ask, "");
    expect(api.api).toHaveBeenLastCalledWith("DELETE", "/users/ann/mute");
    expect(ask).not.toHaveBeenCalled();
  });
});
