// @vitest-environment happy-dom
// Issue 36, the tournament screens rendered in happy-dom (test/dom.ts) with a mocked API and socket: the list (status
// tabs, featured first, "more"), a tournament's page (terms, standings with named tie-breaks and `out` in words, the
// crosstable in its sideways scroller, my games, join / leave / cancel with the server's refusal shown, live re-reads
// on its socket events and on coming back into view, watch / unwatch), and the create form (presets, the client's
// checks and the server's 4xx on their field). Names of players and tournaments with markup stay text.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { all, mount, settle, tap, unmount } from "./dom";
import { entry, fakeBrowser, player, tournament, tournamentDetail, tournamentGame } from "./fixtures";

fakeBrowser();

vi.mock("../src/api", async (importOriginal) => (await import("./net")).mockedApi(await importOriginal<typeof import("../src/api")>()));
const sock = vi.hoisted(() => ({
  watchTournament: vi.fn(), unwatchTournament: vi.fn(), watchGame: vi.fn(), unwatchGame: vi.fn(), setViewing: vi.fn(), connect: vi.fn(), disconnect: vi.fn(),
}));
vi.mock("../src/realtime", () => sock);

const { h } = await import("preact");
const { fill: input, net, refuse } = await import("./net");
const { TournamentCreateScreen, TournamentList, TournamentScreen } = await import("../src/screens/Tournaments");
const { set } = await import("../src/store");

const EVIL = "<script>alert(1)</script>\u202Egnp.exe";
const standing = (u: string, rank: number, score: number, tiebreaks: number[], out = false) =>
  ({ rank, player: player(u), score, tiebreaks, games: 2, wins: Math.floor(score), out });

beforeEach(() => {
  net.routes.clear();
  vi.clearAllMocks();
  set({ me: { id: 1, username: "me", is_bot: false, date_joined: "2026-01-01T00:00:00Z" } as never, lang: "en", ws: "open" });
  location.hash = "";
});

describe("the list", () => {
  it("shows the open ones, featured first, with kind, format, players, clock and start; tabs by status; more", async () => {
    net.routes.set("GET /tournaments?status=open&featured=true&limit=20", { results: [tournament({ id: 3, featured: true, name: "Club cup" })], next: null });
    net.routes.set("GET /tournaments?status=open&limit=20", {
      results: [tournament({ id: 9, name: EVIL, player_count: 3 }), tournament({ id: 3, featured: true, name: "Club cup" })], next: 9,
    });
    net.routes.set("GET /tournaments?status=open&limit=20&cursor=9", { results: [tournament({ id: 2, format: "round_robin" })], next: null });
    const box = await mount(h(TournamentList, { tab: null }));
    const ids = () => all(box, "[data-tournament]").map((a) => a.getAttribute("data-tournament"));
    expect(ids()).toEqual(["3", "9"]);
    const first = box.querySelector("[data-tournament=\"3\"]")!;
    expect(first.textContent).toContain("Featured"); // said in words, not only a border
    const row = box.querySelector("[data-tournament=\"9\"]")!;
    expect(row.getAttribute("href")).toBe("#/tournaments/9");
    expect(row.textContent).toContain("Swiss · Claim · 3 days per move");
    expect(row.textContent).toContain("Players: 3/8");
    expect(row.textContent).toContain("Starts when full");
    expect(box.querySelectorAll("script")).toHaveLength(0);
    expect(box.querySelector(".t-name")!.textContent).toBe("Club cup");
    expect(box.querySelector("[data-tournament=\"9\"] .t-name")!.textContent).toBe(EVIL);
    await tap(box.querySelector("#tour-more"));
    expect(ids()).toEqual(["3", "9", "2"]);
    expect(box.querySelector("a[data-tab=open]")!.getAttribute("aria-current")).toBe("page");
    expect(box.querySelector("a[data-tab=running]")!.getAttribute("href")).toBe("#/tournaments/running");
  });

  it("a league division's round robin is listed by its league, season and division in the player's language", async () => {
    const division = tournament({ id: 7, name: "Evening · season 2 · division 1", format: "round_robin",
      league: { id: 3, name: EVIL, season: 2, division: 1, link: "/api/v1/leagues/3" } });
    net.routes.set("GET /tournaments?status=running&featured=true&limit=20", { results: [], next: null });
    net.routes.set("GET /tournaments?status=running&limit=20", { results: [division, tournament({ id: 6, name: "Club cup" })], next: null });
    set({ lang: "de" });
    const box = await mount(h(TournamentList, { tab: "running" }));
    expect(box.querySelector("[data-tournament=\"7\"] .t-name")!.textContent).toBe(`${EVIL} · Saison 2 · Liga 1`);
    expect(box.querySelector("[data-tournament=\"6\"] .t-name")!.textContent).toBe("Club cup");
    expect(box.querySelectorAll("script")).toHaveLength(0); // the league's name stays text
  });

  it("a tab of its own status, empty: says so", async () => {
    net.routes.set("GET /tournaments?status=finished&featured=true&limit=20", { results: [], next: null });
    net.routes.set("GET /tournaments?status=finished&limit=20", { results: [], next: null });
    const box = await mount(h(TournamentList, { tab: "finished" }));
    expect(box.querySelector("#tour-empty")!.textContent).toContain("No tournament has finished");
    expect(box.querySelector("a[data-tab=finished]")!.getAttribute("aria-current")).toBe("page");
  });
});

describe("a tournament's page", () => {
  const running = () => tournamentDetail({
    id: 5, name: "Three", format: "round_robin", status: "running", rounds: 3, current_round: 3, player_count: 3, max_players: 3,
    tiebreak_names: ["head_to_head", "sonneborn_berger", "wins"], my_entry: entry("me"),
    players: [entry("me"), entry("bob"), entry("cy", { withdrawn_at: "2026-11-03T00:00:00Z" })],
    standings: [standing("bob", 1, 1.5, [0, 1.25, 1]), standing("me", 2, 1, [0, 0.5, 1]), standing("cy", 3, 0.5, [0, 0, 0], true)],
    crosstable: [{ player: "bob", opponent: "me", points: [0.5] }, { player: "me", opponent: "bob", points: [0.5] },
      { player: "bob", opponent: "cy", points: [1] }, { player: "cy", opponent: "bob", points: [0] }],
  });

  it("shows the terms, the standings with named tie-breaks and `out` in words, the crosstable, my games", async () => {
    net.routes.set("GET /tournaments/5", running());
    net.routes.set("GET /tournaments/5/games", { round: null, results: [
      tournamentGame({ game_id: 41, players: [player("me"), player("bob")], places: [1, 1], finished: true, status: "finished" }),
      tournamentGame({ game_id: 42, players: [player("cy"), player("me")] }),
      tournamentGame({ game_id: 43, players: [player("bob"), player("cy")] }),
    ] });
    const box = await mount(h(TournamentScreen, { id: 5 }));
    expect(sock.watchTournament).toHaveBeenCalledWith(5);
    expect(box.querySelector("#tour-terms")!.textContent).toBe("Round robin · Claim · 3 days per move");
    expect(box.querySelector("#tour-status")!.textContent).toBe("Running");
    expect(box.querySelector("#tour-round")!.textContent).toBe("3 rounds, all played at once");
    const heads = all(box, "#tour-standings thead th").map((th) => th.textContent);
    expect(heads).toEqual(["#Rank", "Player", "Score", "H2HHead-to-head", "SBSonneborn-Berger", "WWins", "GGames"]);
    expect(box.querySelector("#tour-standings thead th span[aria-hidden]")!.nextElementSibling!.className).toBe("sr-only");
    expect(box.querySelector("#tour-tb-legend")!.textContent).toContain("H2H = Head-to-head, SB = Sonneborn-Berger, W = Wins");
    const rows = all(box, "#tour-standings tbody tr");
    expect(rows.map((r) => r.getAttribute("data-player"))).toEqual(["bob", "me", "cy"]);
    expect(rows[0].textContent).toContain("1½");
    expect(rows[0].textContent).toContain("1.25");
    expect(rows[2].getAttribute("data-out")).toBe("1");
    expect(rows[2].textContent).toContain("(out)"); // in words, not only struck through
    expect(rows[1].classList.contains("me")).toBe(true);
    // the crosstable: standings order, inside a focusable sideways scroller
    const scroller = box.querySelector("#tour-cross-scroll")!;
    expect(scroller.classList.contains("scroll-x")).toBe(true);
    expect(scroller.getAttribute("tabindex")).toBe("0");
    const bob = box.querySelector("#tour-cross tr[data-player=bob]")!;
    expect(all(bob, "td").map((td) => td.textContent)).toEqual(["×", "½", "1"]);
    // my games link to the tables, with how they went
    const mine = all(box, "#tour-my-games a");
    expect(mine.map((a) => a.getAttribute("href"))).toEqual(["#/game/41", "#/game/42"]);
    expect(mine[0].textContent).toContain("against \u2068Bob\u2069");
    expect(mine[0].getAttribute("data-result")).toBe("draw");
    expect(mine[1].textContent).toContain("running");
    expect(box.querySelector("#tour-withdraw")).not.toBeNull();
    expect(box.querySelector("#tour-join")).toBeNull();
    await unmount(box);
    expect(sock.unwatchTournament).toHaveBeenCalledWith(5);
  });

  it("re-reads on its socket event (not another tournament's), on coming back into view and when a game of mine ends", async () => {
    let version = 0;
    net.routes.set("GET /tournaments/5", () => ({ ...running(), player_count: 3, standings: version ? running().standings.map((s) => ({ ...s, score: s.score + version })) : running().standings }));
    net.routes.set("GET /tournaments/5/games", { round: null, results: [] });
    const box = await mount(h(TournamentScreen, { id: 5 }));
    const reads = () => net.api.mock.calls.filter(([m, p]) => m === "GET" && p === "/tournaments/5").length;
    expect(reads()).toBe(1);
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 6, what: "result" } }));
    await settle();
    expect(reads()).toBe(1);
    version = 1;
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 5, what: "result", round: 1, game_id: 41 } }));
    await settle();
    expect(reads()).toBe(2);
    expect(box.querySelector("#tour-standings tr[data-player=bob]")!.getAttribute("data-score")).toBe("2.5");
    document.dispatchEvent(new Event("visibilitychange"));
    await settle();
    expect(reads()).toBe(3);
    window.dispatchEvent(new Event("focus"));
    await settle();
    expect(reads()).toBe(4);
    window.dispatchEvent(new CustomEvent("claim:lifecycle", { detail: { type: "game_finished" } }));
    await settle();
    expect(reads()).toBe(5);
    await unmount(box);
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 5, what: "result" } }));
    await settle();
    expect(reads()).toBe(5); // left: no more reads
  });

  it("join: the server's refusal is shown as it comes; then joining works; the creator may cancel", async () => {
    const open = tournamentDetail({ id: 5, status: "open", player_count: 1, max_players: 3, created_by: player("me"), players: [entry("bob")] });
    net.routes.set("GET /tournaments/5", open);
    net.routes.set("POST /tournaments/5/join", refuse(403, "rating_out_of_range", "Your rating in claim is 1432; this tournament takes players rated 1500 to 1800."));
    const box = await mount(h(TournamentScreen, { id: 5 }));
    expect(box.querySelector("#tour-players")!.textContent).toContain("Bob");
    await tap(box.querySelector("#tour-join"));
    const err = box.querySelector("#tour-action-error")!;
    expect(err.getAttribute("role")).toBe("alert");
    expect(err.textContent).toBe("Your rating in claim is 1432; this tournament takes players rated 1500 to 1800.");
    net.routes.set("POST /tournaments/5/join", { ...open, player_count: 2, my_entry: entry("me"), players: [entry("bob"), entry("me")] });
    await tap(box.querySelector("#tour-join"));
    expect(box.querySelector("#tour-action-error")!.textContent).toBe("");
    expect(box.querySelector("#tour-mine")!.textContent).toBe("You are entered.");
    expect(box.querySelector("#tour-join")).toBeNull();
    expect(box.querySelector("#tour-leave")).not.toBeNull();
    expect(box.querySelector("#tour-count")!.textContent).toBe("Players: 2/3");
    // cancel: asked first; "no" sends nothing
    const ask = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    const cancelled = { ...open, status: "cancelled", finished_at: "2026-11-02T00:00:00Z" };
    net.routes.set("POST /tournaments/5/cancel", () => { net.routes.set("GET /tournaments/5", cancelled); return cancelled; });
    await tap(box.querySelector("#tour-cancel"));
    expect(net.api).not.toHaveBeenCalledWith("POST", "/tournaments/5/cancel");
    await tap(box.querySelector("#tour-cancel"));
    expect(ask).toHaveBeenCalledTimes(2);
    expect(box.querySelector("#tour-status")!.textContent).toBe("Cancelled");
    expect(box.querySelector("#tour-cancel")).toBeNull();
  });

  it("a full tournament: the 409 is said, and the page re-reads what changed", async () => {
    net.routes.set("GET /tournaments/5", tournamentDetail({ id: 5, status: "open", player_count: 2, max_players: 3 }));
    net.routes.set("POST /tournaments/5/join", refuse(409, "full", "This tournament is full (3 players)."));
    const box = await mount(h(TournamentScreen, { id: 5 }));
    net.routes.set("GET /tournaments/5", tournamentDetail({ id: 5, status: "running", player_count: 3, max_players: 3, current_round: 1, rounds: 3 }));
    net.routes.set("GET /tournaments/5/games?round=1", { round: 1, results: [] });
    await tap(box.querySelector("#tour-join"));
    expect(box.querySelector("#tour-action-error")!.textContent).toBe("This tournament is full (3 players).");
    expect(box.querySelector("#tour-status")!.textContent).toBe("Running");
    expect(box.querySelector("#tour-join")).toBeNull();
  });

  it("a league division's round robin links back to its league; another tournament does not", async () => {
    net.routes.set("GET /tournaments/5", running());
    net.routes.set("GET /tournaments/5/games", { round: null, results: [] });
    const own = await mount(h(TournamentScreen, { id: 5 }));
    expect(own.querySelector("#tour-league")).toBeNull();
    await unmount(own);
    net.routes.set("GET /tournaments/5", { ...running(), league: { id: 3, name: EVIL, season: 2, division: 1, link: "/api/v1/leagues/3" } });
    const box = await mount(h(TournamentScreen, { id: 5 }));
    const link = box.querySelector<HTMLAnchorElement>("#tour-league a")!;
    expect(link.getAttribute("href")).toBe("#/leagues/3");
    expect(link.textContent).toBe(`Part of the league \u2068${EVIL}\u2069`); // season and division: the heading (the name)
    expect(box.querySelector("#tour-league script")).toBeNull(); // the league's name stays text
    expect(box.querySelector("#tour-name")!.textContent).toBe(`${EVIL} · season 2 · division 1`);
    await unmount(box);
    set({ lang: "de" });
    const de = await mount(h(TournamentScreen, { id: 5 }));
    expect(de.querySelector("#tour-name")!.textContent).toBe(`${EVIL} · Saison 2 · Liga 1`);
    expect(de.querySelector("#tour-league a")!.textContent).toBe(`Teil der Liga \u2068${EVIL}\u2069`);
    await unmount(de);
  });

  it("an unknown tournament: the server's words and the way back", async () => {
    net.routes.set("GET /tournaments/99", refuse(404, "not_found", "No such tournament."));
    const box = await mount(h(TournamentScreen, { id: 99 }));
    expect(box.querySelector("#tour-error")!.textContent).toBe("No such tournament.");
    expect(box.querySelector("#tour-back")!.getAttribute("href")).toBe("#/tournaments");
  });
});

describe("creating a tournament", () => {
  it("a preset and a name: one tap creates it, and the page opens", async () => {
    let sent: unknown = null;
    net.routes.set("POST /tournaments", (body: unknown) => { sent = body; return tournamentDetail({ id: 12 }); });
    const box = await mount(h(TournamentCreateScreen, {}));
    expect(box.querySelector("#tour-options")!.hasAttribute("hidden")).toBe(true);
    expect(box.querySelector("#tour-more-options")!.getAttribute("aria-expanded")).toBe("false");
    await tap(box.querySelector("input[name=preset][value=rr6]"));
    await input(box, "tf-name", "Six of us");
    await tap(box.querySelector("#tour-submit"));
    expect(sent).toMatchObject({ name: "Six of us", format: "round_robin", kind: "claim", max_players: 6, rounds: null, time_control: { type: "days", days_per_move: 3 } });
    expect(location.hash).toBe("#/tournaments/12");
  });

  it("the client's checks: on the right field, More options opened, nothing sent", async () => {
    const box = await mount(h(TournamentCreateScreen, {}));
    await input(box, "tf-name", "Swiss");
    await tap(box.querySelector("#tour-more-options"));
    await input(box, "tf-max_players", "300");
    await input(box, "tf-rounds", "0");
    await tap(box.querySelector("#tour-more-options")); // closed again: the submit reopens it
    await tap(box.querySelector("#tour-submit"));
    expect(net.api).not.toHaveBeenCalled();
    expect(box.querySelector("#tour-options")!.hasAttribute("hidden")).toBe(false);
    expect(box.querySelector("#tf-max_players-err")!.textContent).toBe("Between 2 and 256 players.");
    expect(box.querySelector("#tf-max_players")!.getAttribute("aria-invalid")).toBe("true");
    expect(box.querySelector("#tf-rounds-err")!.textContent).toBe("Between 1 and 20 rounds.");
    expect(box.querySelector(".form-err")!.textContent).toBe("Please correct the marked fields.");
    await input(box, "tf-max_players", "8");
    expect(box.querySelector("#tf-max_players-err")).toBeNull();
    expect(box.querySelector("#tf-rounds-err")!.textContent).toBe("Between 1 and 7 rounds.");
  });

  it("the server's 400 on its field, and a 409 of no field as the form's message", async () => {
    net.routes.set("POST /tournaments", refuse(400, "invalid", "rating_min (1900) cannot be above rating_max (1800).",
      { rating_min: ["rating_min (1900) cannot be above rating_max (1800)."] }));
    const box = await mount(h(TournamentCreateScreen, {}));
    await input(box, "tf-name", "Rated");
    await tap(box.querySelector("#tour-submit"));
    expect(box.querySelector("#tf-rating_min-err")!.textContent).toBe("rating_min (1900) cannot be above rating_max (1800).");
    expect(box.querySelector("#tour-options")!.hasAttribute("hidden")).toBe(false);
    // editing the field clears the server's word on it
    await input(box, "tf-rating_min", "1700");
    expect(box.querySelector("#tf-rating_min-err")).toBeNull();
    net.routes.set("POST /tournaments", refuse(409, "too_many_tournaments", "You have 3 tournaments open or running, the most allowed: wait until one finishes."));
    await tap(box.querySelector("#tour-submit"));
    expect(box.querySelector(".form-err")!.textContent).toBe("You have 3 tournaments open or running, the most allowed: wait until one finishes.");
    expect(box.querySelector(".form-err")!.getAttribute("role")).toBe("alert");
  });

  it("tables: only the 3-4 player games are offered", async () => {
    const box = await mount(h(TournamentCreateScreen, {}));
    await tap(box.querySelector("#tour-more-options"));
    await input(box, "tf-format", "tables");
    expect(all(box, "#tf-kind option").map((o) => o.getAttribute("value"))).toEqual(["claim-mix", "inheritors"]);
    expect((box.querySelector("#tf-kind") as HTMLSelectElement).value).toBe("claim-mix");
  });
});
