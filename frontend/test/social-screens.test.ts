// @vitest-environment happy-dom
// Issue 35, the screens rendered in happy-dom (test/dom.ts) from fixtures with a mocked API and socket: now playing (filter,
// "more"), the watch screen (spectator feed, watch_ended, unwatch on leaving, no hand), friends, the profile's
// relation buttons (block asked first), hide presence; players' names with "<script>" or U+202E stay text.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { all, mount, settle, tap, unmount } from "./dom";
import { fakeBrowser, friend, nowPlaying, publicProfile, publicUser, relationship, spectatorGame, spectatorSeat } from "./fixtures";
import fixture from "./inheritors-fixture.json";

fakeBrowser();

vi.mock("../src/api", async (importOriginal) => (await import("./net")).mockedApi(await importOriginal<typeof import("../src/api")>()));
const sock = vi.hoisted(() => ({ watchGame: vi.fn(), unwatchGame: vi.fn(), setViewing: vi.fn(), connect: vi.fn(), disconnect: vi.fn() }));
vi.mock("../src/realtime", () => sock);

const { h } = await import("preact");
const { net } = await import("./net");
const { NowPlaying, WatchScreen } = await import("../src/screens/Watch");
const { BlockedList, Friends } = await import("../src/screens/Friends");
const { SocialCard } = await import("../src/screens/PublicProfile");
const { Presence } = await import("../src/screens/Settings");
const { set } = await import("../src/store");

const EVIL = "<script>alert(1)</script>\u202Egnp.exe";
const text = (box: HTMLElement) => box.textContent;
const feed = async (detail: unknown) => { window.dispatchEvent(new CustomEvent("claim:watch", { detail })); await settle(); };

beforeEach(() => {
  net.routes.clear();
  net.api.mockClear();
  vi.clearAllMocks();
  set({ me: { id: 1, username: "me", is_bot: false, date_joined: "2026-01-01T00:00:00Z" }, lang: "en", ws: "open" });
});

/** No element made of a player's text: it is all text nodes (the markup escapes it). */
function expectText(box: HTMLElement) {
  expect(box.querySelectorAll("script")).toHaveLength(0);
  expect(box.innerHTML).toContain("&lt;script&gt;alert(1)&lt;/script&gt;\u202Egnp.exe");
}

describe("now playing", () => {
  it("lists the watchable games, filters by kind, and pages on with the cursor", async () => {
    net.routes.set("GET /watch?limit=20", { results: [nowPlaying({ id: 9, spectators: 3 }), nowPlaying({ id: 8, kind: "claim2" })], next: 8 });
    net.routes.set("GET /watch?limit=20&cursor=8", { results: [nowPlaying({ id: 8, kind: "claim2" }), nowPlaying({ id: 5 })], next: null });
    net.routes.set("GET /watch?kind=inheritors&limit=20", { results: [], next: null });
    const box = await mount(h(NowPlaying, {}));
    const ids = () => all(box, "[data-watch-game]").map((a) => a.getAttribute("href"));
    expect(ids()).toEqual(["#/watch/9", "#/watch/8"]);
    expect(box.querySelector("[data-watch-game=\"9\"]")!.textContent).toContain("3 watching");
    await tap(box.querySelector("#watch-more"));
    expect(ids()).toEqual(["#/watch/9", "#/watch/8", "#/watch/5"]);
    expect(box.querySelector("#watch-more")).toBeNull();
    await tap(box.querySelector("[data-kind=\"inheritors\"]"));
    expect(net.api).toHaveBeenLastCalledWith("GET", "/watch?kind=inheritors&limit=20");
    expect(box.querySelector("[data-kind=\"inheritors\"]")!.getAttribute("aria-pressed")).toBe("true");
    expect(ids()).toEqual([]);
    expect(box.querySelector("#watch-empty")).not.toBeNull();
  });

  it("shows players' names as text, isolated", async () => {
    net.routes.set("GET /watch?limit=20", { results: [nowPlaying({ seats: [publicUser({ name: EVIL }), null] })], next: null });
    const box = await mount(h(NowPlaying, {}));
    expectText(box);
    const name = box.querySelectorAll(".uname")[0];
    expect(name.getAttribute("dir")).toBe("auto");
    expect(box.querySelectorAll(".uname")[1].textContent).toBe("AI");
  });
});

describe("watching a game", () => {
  it("renders the public view, follows the feed, and unwatches on leaving", async () => {
    net.routes.set("GET /games/7/watch", spectatorGame({ version: 3, spectators: 2 }));
    const box = await mount(h(WatchScreen, { id: 7 }));
    expect(sock.watchGame).toHaveBeenCalledWith(7);
    const main = box.querySelector("main")!;
    expect(main.getAttribute("data-version")).toBe("3");
    expect(text(box)).toContain("2 watching");
    expect(text(box)).toContain("Ann");
    expect(text(box)).toContain("13 cards"); // counts, never a hand
    expect(box.querySelector("#hand")).toBeNull();
    expect(box.querySelectorAll("button.card")).toHaveLength(0);
    await feed({ type: "spectator_game", game_id: 7, version: 4, game: spectatorGame({ version: 4, spectators: 5 }) });
    expect(main.getAttribute("data-version")).toBe("4");
    expect(text(box)).toContain("5 watching");
    await feed({ type: "spectator_game", game_id: 7, version: 2, game: spectatorGame({ version: 2 }) });
    expect(main.getAttribute("data-version")).toBe("4");
    await unmount(box);
    expect(sock.unwatchGame).toHaveBeenCalledWith(7);
  });

  it("watch_ended: says why, offers the way back, and ignores later frames", async () => {
    net.routes.set("GET /games/7/watch", spectatorGame());
    const box = await mount(h(WatchScreen, { id: 7 }));
    await feed({ type: "watch_ended", game_id: 7, reason: "blocked" });
    expect(box.querySelector("#watch-ended")!.getAttribute("role")).toBe("alert");
    expect(box.querySelector("#watch-ended")!.textContent).toContain("blocked each other");
    expect(box.querySelector("#watch-back")!.getAttribute("href")).toBe("#/watch");
    await feed({ type: "spectator_game", game_id: 7, version: 9, game: spectatorGame({ version: 9 }) });
    expect(box.querySelector("#watch-ended")).not.toBeNull();
  });

  it("an unwatchable game: the server's 404 words, and back", async () => {
    net.routes.set("GET /games/7/watch", () => { throw new (class extends Error {})("Not found."); });
    const box = await mount(h(WatchScreen, { id: 7 }));
    expect(box.querySelector("#watch-error")).not.toBeNull();
    expect(box.querySelector("#watch-back")).not.toBeNull();
  });

  it("an Inheritors game and a 4-seat Claim game, and a finished one with its result", async () => {
    const seatView = (fixture as unknown as { start: { view: Record<string, unknown> } }).start.view;
    const { hand: _h, quests: _q, ...pub } = seatView;
    net.routes.set("GET /games/8/watch", spectatorGame({ id: 8, kind: "inheritors", view: { ...pub, seat: null } as never,
      seats: [0, 1, 2].map((i) => spectatorSeat({ index: i, user: publicUser({ username: `u${i}`, name: `P${i}` }) })) }));
    const box = await mount(h(WatchScreen, { id: 8 }));
    expect(box.querySelector("#ih-replay")).not.toBeNull();
    expect(all(box, "[data-hand]").every((el) => el.childNodes.length === 0)).toBe(true);
    const v = spectatorGame().view;
    net.routes.set("GET /games/9/watch", spectatorGame({ id: 9, kind: "claim-mix", status: "finished",
      view: { ...v, seats: 4, hand_counts: [0, 0, 0, 0], score: [{}, {}, {}, {}], over: true } as never,
      seats: [0, 1, 2, 3].map((i) => spectatorSeat({ index: i, user: i === 3 ? null : publicUser({ username: `u${i}`, name: EVIL }), ai_level: i === 3 ? 1 : null, outcome: i % 2 ? "win" : "loss" })) }));
    const four = await mount(h(WatchScreen, { id: 9 }));
    expect(four.querySelectorAll("[data-seat]").length).toBeGreaterThanOrEqual(4);
    expect(four.querySelector("#watch-result")!.textContent).toContain("Squire (AI)");
    expect(four.querySelector("#watch-replay")!.getAttribute("href")).toBe("#/replay/9");
    expectText(four);
  });
});

describe("friends", () => {
  it("friends with their dot, watch and challenge; the followers tab lists people", async () => {
    net.routes.set("GET /friends?limit=30", { results: [friend({ watchable_games: [41] }), friend({ user: publicUser({ username: "zed", name: EVIL }), online: false })], next: null });
    const box = await mount(h(Friends, { tab: null }));
    const rows = all(box, "[data-friend]");
    expect(rows.map((r) => r.getAttribute("data-online"))).toEqual(["1", "0"]);
    expect(rows[0].querySelector(".dot")!.getAttribute("aria-label")).toBe("online");
    expect(rows[0].querySelector("[data-watch]")!.getAttribute("href")).toBe("#/watch/41");
    expect(rows[1].querySelector("[data-watch]")).toBeNull();
    expect(rows[1].querySelector("[data-challenge-user]")!.getAttribute("href")).toBe("#/new?challenge=zed");
    expectText(box);
    net.routes.set("GET /followers?limit=30", { results: [publicUser({ username: "f1", name: "F1" })], next: 41 });
    net.routes.set("GET /followers?limit=30&cursor=41", { results: [publicUser({ username: "f2", name: "F2" })], next: null });
    const fol = await mount(h(Friends, { tab: "followers" }));
    expect(fol.querySelector("[role=\"tab\"][aria-selected=\"true\"]")!.textContent).toBe("Followers");
    await tap(fol.querySelector("#friends-more"));
    expect(all(fol, "[data-user]").map((r) => r.getAttribute("data-user"))).toEqual(["f1", "f2"]);
  });
});

describe("blocked and muted players (settings)", () => {
  it("lists them and unblocks one without asking", async () => {
    net.routes.set("GET /blocks?limit=30", { results: [publicUser({ username: "x", name: EVIL }), publicUser({ username: "y", name: "Y" })], next: null });
    net.routes.set("DELETE /users/x/block", relationship({ username: "x" }));
    const box = await mount(h(BlockedList, { kind: "block" }));
    expectText(box);
    await tap(box.querySelector("[data-undo=\"x\"]"));
    expect(net.api).toHaveBeenLastCalledWith("DELETE", "/users/x/block");
    expect(all(box, "[data-user]").map((r) => r.getAttribute("data-user"))).toEqual(["y"]);
  });
});

describe("the public profile's buttons", () => {
  it("block asks first: no means nothing is sent; yes blocks", async () => {
    const confirm = vi.fn(() => false);
    Object.assign(globalThis, { confirm });
    net.routes.set("PUT /users/ann/block", relationship({ blocking: true }));
    const box = await mount(h(SocialCard, { p: publicProfile({ user: publicUser({ name: EVIL }), watchable_games: [12] }) }));
    expect(box.querySelectorAll("script")).toHaveLength(0);
    expect(box.querySelector("#social")!.getAttribute("aria-label")).toBe(`About \u2068${EVIL}\u2069`);
    expect(box.querySelector("[data-watch]")!.getAttribute("href")).toBe("#/watch/12");
    await tap(box.querySelector("#rel-block"));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(String((confirm.mock.calls[0] as unknown[])[0])).toContain(`\u2068${EVIL}\u2069`);
    expect(net.api).not.toHaveBeenCalled();
    confirm.mockReturnValue(true);
    await tap(box.querySelector("#rel-block"));
    expect(net.api).toHaveBeenLastCalledWith("PUT", "/users/ann/block");
    expect(box.querySelector("#rel-block")!.textContent).toBe("Unblock");
    expect(box.querySelector("#rel-challenge")).toBeNull();
    expect(box.querySelector("#rel-blocked")).not.toBeNull();
  });

  it("follow and mute toggle at once; my own profile and a logged-out visit have no relation buttons", async () => {
    net.routes.set("PUT /users/ann/follow", relationship({ following: true, followed_by: true, friends: true }));
    net.routes.set("PUT /users/ann/mute", relationship({ following: true, friends: true, muting: true }));
    const box = await mount(h(SocialCard, { p: publicProfile() }));
    expect(box.querySelector("#rel-challenge")!.getAttribute("href")).toBe("#/new?challenge=ann");
    await tap(box.querySelector("#rel-follow"));
    expect(box.querySelector("#rel-follow")!.textContent).toBe("Unfollow");
    expect(box.querySelector("#rel-note")!.textContent).toBe("You are friends.");
    await tap(box.querySelector("#rel-mute"));
    expect(box.querySelector("#rel-mute")!.getAttribute("aria-pressed")).toBe("true");
    const mine = await mount(h(SocialCard, { p: publicProfile({ user: publicUser({ username: "Me" }) }) }));
    expect(mine.querySelector("#rel-follow")).toBeNull();
    const anon = await mount(h(SocialCard, { p: publicProfile({ relationship: null, online: null }) }));
    expect(anon.querySelector("#rel-block")).toBeNull();
    expect(anon.querySelector(".dot")).toBeNull();
  });
});

describe("the profile page", () => {
  it("names the player as text, shows ratings with sparklines and the relation buttons", async () => {
    const hist = [{ at: "2026-01-01T00:00:00Z", rating: 1500 }, { at: "2026-02-01T00:00:00Z", rating: 1540 }];
    net.routes.set("GET /ratings/users/ann", { username: "ann", name: EVIL, is_bot: false, reliability: 97, ratings: [], history: [] });
    net.routes.set("GET /users/ann/games?limit=10", { results: [], next: null });
    net.routes.set("GET /users/ann", publicProfile({ user: publicUser({ name: EVIL }), reliability: 98,
      ratings: [{ pool: "claim", rating: 1540, deviation: 80, games: 12, history: hist }, { pool: "inheritors-3p", rating: 1500, deviation: 300, games: 1, history: [] }] }));
    const { Profile } = await import("../src/screens/Profile");
    const box = await mount(h(Profile, { username: "ann" }));
    const h1 = box.querySelector("h1")!;
    expect(h1.getAttribute("dir")).toBe("auto");
    expect(h1.textContent).toBe(EVIL);
    expectText(box);
    expect(box.querySelector("#social")).not.toBeNull();
    expect(all(box, "svg.spark").map((s) => s.getAttribute("data-pool"))).toEqual(["claim"]);
    expect(box.querySelector("svg.spark")!.getAttribute("aria-label")).toContain("between 1500 and 1540");
    expect(text(box)).toContain("98");
  });
});

describe("settings: hide my presence", () => {
  it("PATCHes accounts/me and shows the answer", async () => {
    net.routes.set("PATCH /accounts/me", (body: { hide_presence: boolean }) => ({ id: 1, username: "me", is_bot: false, date_joined: "", ...body }));
    const box = await mount(h(Presence, {}));
    const box1 = box.querySelector("#hide-presence")!;
    expect(box1.getAttribute("checked")).toBeNull();
    (box1 as unknown as { checked: boolean }).checked = true;
    await (async () => { box1.dispatchEvent(new Event("change", { bubbles: true })); await settle(); })();
    expect(net.api).toHaveBeenLastCalledWith("PATCH", "/accounts/me", { hide_presence: true });
  });
});

describe("the app's routes", () => {
  it("#/watch, #/watch/ID and #/friends open their screens; the inbox links to them; a follow is said by a toast", async () => {
    const me = { id: 1, username: "me", is_bot: false, date_joined: "2026-01-01T00:00:00Z" };
    net.routes.set("GET /accounts/me", me);
    net.routes.set("GET /watch?limit=20", { results: [nowPlaying()], next: null });
    net.routes.set("GET /games/7/watch", spectatorGame());
    net.routes.set("GET /friends?limit=30", { results: [friend()], next: null });
    const loc = { hash: "#/watch", pathname: "/", protocol: "http:", host: "h", origin: "http://h", replace: () => undefined };
    Object.assign(globalThis, { location: loc });
    const { App } = await import("../src/App");
    const { state } = await import("../src/store");
    const box = await mount(h(App, {}));
    expect(box.querySelector("#now-playing")).not.toBeNull();
    for (const [hash, sel] of [["#/watch/7", "[data-watch=\"7\"]"], ["#/friends", "#friends-list"], ["#/", "#nav-watch"]] as const) {
      loc.hash = hash;
      window.dispatchEvent(new Event("hashchange"));
      await settle();
      expect(box.querySelector(sel), hash).not.toBeNull();
    }
    expect(box.querySelector("#nav-friends")!.getAttribute("href")).toBe("#/friends");
    window.dispatchEvent(new CustomEvent("claim:followed", { detail: { type: "followed", by: publicUser({ name: EVIL }) } }));
    await settle();
    expect(state.toast?.text).toBe(`\u2068${EVIL}\u2069 follows you now.`);
    await unmount(box);
  });
});
