// @vitest-environment happy-dom
// Issue 36, the league screens rendered in happy-dom (test/dom.ts) with a mocked API and socket: the list (beside the
// tournaments', status tabs, featured first, "more"), a league's page (the terms and the entry conditions, join /
// leave with the server's refusal shown as it comes, my membership, the season's divisions top first with mine
// said in words and linked to their tournaments, the waiting members, the previous season's moves in words beside
// their arrows, live re-reads on its divisions' events), and the create form (presets, the client's checks and the
// server's 4xx on their field). Names of players and leagues with markup stay text.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { all, mount as mountOnce, settle, tap, unmount } from "./dom";
import { fakeBrowser, player } from "./fixtures";
import { division, league, leagueDetail, membership, move } from "./league-fixtures";

fakeBrowser();

vi.mock("../src/api", async (importOriginal) => (await import("./net")).mockedApi(await importOriginal<typeof import("../src/api")>()));
vi.mock("../src/realtime", () => ({ watchTournament: vi.fn(), unwatchTournament: vi.fn(), connect: vi.fn(), disconnect: vi.fn() }));

const { h } = await import("preact");
const { fill: input, net, refuse } = await import("./net");
const { LeagueCreateScreen, LeagueList, LeagueScreen } = await import("../src/screens/Leagues");
const { set } = await import("../src/store");

const EVIL = "<img src=x onerror=alert(1)>\u202Egnp.exe";
const SEASON = { number: 3, starts_at: "2026-12-01T00:00:00Z", ends_at: "2026-12-29T00:00:00Z", finished_at: null };

// every screen mounted is gone after its test (a page left mounted would still hear the events of the next)
const mounted: HTMLElement[] = [];
const mount = async (node: Parameters<typeof mountOnce>[0]) => { const box = await mountOnce(node); mounted.push(box); return box; };
afterEach(async () => { for (const box of mounted.splice(0)) if (box.isConnected) await unmount(box); });

beforeEach(() => {
  net.routes.clear();
  vi.clearAllMocks();
  set({ me: { id: 1, username: "me", is_bot: false, date_joined: "2026-01-01T00:00:00Z", time_zone: "UTC" } as never, lang: "en", ws: "open" });
  location.hash = "";
});

describe("the list", () => {
  it("sits beside the tournaments; the waiting ones, featured first, with the ladder's terms; tabs by status; more", async () => {
    net.routes.set("GET /leagues?status=open&limit=20", {
      results: [league({ id: 9, name: EVIL, member_count: 5 }), league({ id: 8, featured: true, name: "Club ladder" })], next: 8 });
    net.routes.set("GET /leagues?status=open&limit=20&cursor=8", { results: [league({ id: 3, featured: true }), league({ id: 2 })], next: null });
    const box = await mount(h(LeagueList, { tab: null }));
    const ids = () => all(box, "[data-league]").map((a) => a.getAttribute("data-league"));
    expect(ids()).toEqual(["8", "9"]);
    expect(box.querySelector("#section-leagues")!.getAttribute("aria-current")).toBe("page");
    expect(box.querySelector("#section-tournaments")!.getAttribute("href")).toBe("#/tournaments");
    expect(box.querySelector("[data-league=\"8\"]")!.textContent).toContain("Featured");
    const row = box.querySelector("[data-league=\"9\"]")!;
    expect(row.getAttribute("href")).toBe("#/leagues/9");
    expect(row.textContent).toContain("Claim · 3 days per move · rated");
    expect(row.textContent).toContain("Divisions of 8 · seasons of 28 days");
    expect(row.textContent).toContain("Members: 5/200");
    expect(row.textContent).toContain("First season: ");
    expect(row.querySelector(".t-name")!.textContent).toBe(EVIL);
    expect(box.querySelectorAll("img")).toHaveLength(0);
    await tap(box.querySelector("#league-more"));
    expect(ids()).toEqual(["8", "3", "9", "2"]); // a featured one of a later page joins the featured ones
    expect(box.querySelector("#league-more")).toBeNull();
    expect(box.querySelector("a[data-tab=running]")!.getAttribute("href")).toBe("#/leagues/running");
    expect(box.querySelector("#league-create")!.getAttribute("href")).toBe("#/leagues/new");
  });

  it("a tab of its own status, empty: says so; a running league says its season", async () => {
    net.routes.set("GET /leagues?status=closed&limit=20", { results: [], next: null });
    const box = await mount(h(LeagueList, { tab: "closed" }));
    expect(box.querySelector("#league-empty")!.textContent).toBe("No league has closed.");
    expect(box.querySelector("a[data-tab=closed]")!.getAttribute("aria-current")).toBe("page");
    net.routes.set("GET /leagues?status=running&limit=20", { results: [league({ status: "running", current_season: 4 })], next: null });
    const running = await mount(h(LeagueList, { tab: "running" }));
    expect(running.querySelector("[data-league]")!.textContent).toContain("Running: season 4");
  });
});

describe("a league's page", () => {
  const running = () => leagueDetail({
    id: 7, status: "running", current_season: 3, member_count: 6, division_size: 4, movers: 1, min_reliability: 80, rating_min: 1500,
    season: { ...SEASON, divisions: [division(2, 41, ["cy", "me"]), division(1, 40, ["ann", "bob", "dee", "eve"])] },
    previous_season: { number: 2, starts_at: "2026-11-01T00:00:00Z", ends_at: "2026-11-29T00:00:00Z", finished_at: "2026-11-29T00:00:00Z",
      moves: [move("ann", 1, 1, 1, "stayed"), move("fay", 1, 4, null, "dropped"), move("me", 1, 3, 2, "relegated"),
        move("bob", 2, 1, 1, "promoted"), move("cy", null, null, 2, "entered")] },
    waiting: [player("gus")], my_membership: membership(2),
  });

  it("shows the terms, my division marked in words, the divisions top first linked to their tournaments, the moves", async () => {
    net.routes.set("GET /leagues/7", running());
    const box = await mount(h(LeagueScreen, { id: 7 }));
    expect(box.querySelector("#league-terms")!.textContent).toBe("Claim · 3 days per move · rated");
    expect(box.querySelector("#league-status")!.textContent).toBe("Running: season 3");
    const rules = box.querySelector("#league-rules")!.textContent!;
    for (const words of ["4 players", "28 days", "1 up, 1 down", "Ratings 1500 to ∞", "Reliability at least 80 %"]) expect(rules).toContain(words);
    expect(box.querySelector("#league-mine")!.textContent).toBe("You play in division 2 this season.");
    expect(box.querySelector("#league-join")).toBeNull();
    expect(box.querySelector("#league-leave")).not.toBeNull();
    expect(box.querySelector("#h-league-season")!.textContent).toBe("Season 3");
    const divisions = all(box, "section[data-division]");
    expect(divisions.map((d) => d.getAttribute("data-division"))).toEqual(["1", "2"]);
    expect(divisions[0].querySelector("h3")!.textContent).toBe("Division 1 · top");
    expect(divisions[1].querySelector("h3")!.textContent).toBe("Division 2 · lowest · ★ your division");
    expect(divisions[1].getAttribute("data-mine")).toBe("1");
    expect(divisions[1].classList.contains("me")).toBe(true);
    expect(all(divisions[0], "li").map((li) => li.getAttribute("data-player"))).toEqual(["ann", "bob", "dee", "eve"]);
    const link = divisions[1].querySelector("a[data-division-link]")!;
    expect(link.getAttribute("href")).toBe("#/tournaments/41");
    expect(link.textContent).toBe("Division 2: standings and games");
    expect(box.querySelector("#h-league-waiting")!.textContent).toBe("Waiting for the next season (1)");
    expect(box.querySelector("#league-waiting")!.textContent).toContain("Gus");
    // the moves: by division, the newcomers last, each in words beside an arrow hidden from screen readers
    expect(box.querySelector("#h-league-moves")!.textContent).toBe("Season 2: promotion and relegation");
    expect(all(box, ".l-moves").map((g) => g.getAttribute("data-from"))).toEqual(["1", "2", "new"]);
    const said = (u: string) => box.querySelector(`#league-moves li[data-player=${u}]`)!;
    expect(said("bob").textContent).toBe("↑1. Bobpromoted to division 1");
    expect(said("me").querySelector(".l-what")!.textContent).toBe("relegated to division 2");
    expect(said("me").classList.contains("me")).toBe(true);
    expect(said("ann").querySelector(".l-what")!.textContent).toBe("stays in division 1");
    expect(said("fay").querySelector(".l-what")!.textContent).toBe("dropped");
    expect(said("cy").querySelector(".l-what")!.textContent).toBe("enters division 2");
    expect(said("bob").querySelector(".l-arrow")!.getAttribute("aria-hidden")).toBe("true");
  });

  it("re-reads on an event of one of its divisions (not another tournament's), a game of mine, coming back", async () => {
    net.routes.set("GET /leagues/7", running());
    const box = await mount(h(LeagueScreen, { id: 7 }));
    const reads = () => net.api.mock.calls.filter(([m, p]) => m === "GET" && p === "/leagues/7").length;
    expect(reads()).toBe(1);
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 99, what: "result" } }));
    await settle();
    expect(reads()).toBe(1);
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 40, what: "result" } }));
    await settle();
    expect(reads()).toBe(2);
    document.dispatchEvent(new Event("visibilitychange"));
    await settle();
    expect(reads()).toBe(3);
    window.dispatchEvent(new CustomEvent("claim:lifecycle", { detail: { type: "game_started" } }));
    await settle();
    expect(reads()).toBe(4);
    await tap(box.querySelector("#league-refresh"));
    expect(reads()).toBe(5);
    await unmount(box);
    window.dispatchEvent(new CustomEvent("claim:tournament", { detail: { type: "tournament", tournament_id: 40, what: "result" } }));
    await settle();
    expect(reads()).toBe(5);
  });

  it("join: the server's refusal as it comes; then joined, waiting for the first season; leave while waiting asks nothing", async () => {
    const open = leagueDetail({ id: 7, member_count: 2, created_by: player("ann", EVIL) });
    net.routes.set("GET /leagues/7", open);
    net.routes.set("POST /leagues/7/join", refuse(403, "reliability_too_low", "Your reliability is 72; this league takes players with a reliability of at least 90."));
    const box = await mount(h(LeagueScreen, { id: 7 }));
    expect(box.querySelector("#league-no-season")!.textContent).toBe("The divisions are made when the first season starts (two members at least).");
    expect(box.querySelector("#league-rules")!.textContent).toContain("Anyone");
    expect(box.querySelector("#league-rules .uname")!.textContent).toBe(EVIL);
    expect(box.querySelectorAll("img")).toHaveLength(0);
    expect(box.querySelector("#league-mine")).toBeNull();
    await tap(box.querySelector("#league-join"));
    const err = box.querySelector("#league-action-error")!;
    expect(err.getAttribute("role")).toBe("alert");
    expect(err.textContent).toBe("Your reliability is 72; this league takes players with a reliability of at least 90.");
    net.routes.set("POST /leagues/7/join", { ...open, member_count: 3, my_membership: membership(null), waiting: [player("me")] });
    await tap(box.querySelector("#league-join"));
    expect(err.textContent).toBe("");
    expect(box.querySelector("#league-mine")!.textContent).toMatch(/^You are a member: you play from the first season, /);
    expect(box.querySelector("#league-count")!.textContent).toBe("Members: 3/200");
    const ask = vi.spyOn(window, "confirm");
    net.routes.set("POST /leagues/7/leave", open);
    await tap(box.querySelector("#league-leave"));
    expect(ask).not.toHaveBeenCalled();
    expect(box.querySelector("#league-join")).not.toBeNull();
  });

  it("leaving a running season asks first (games resigned); no sends nothing; a 409 re-reads the page", async () => {
    net.routes.set("GET /leagues/7", running());
    const box = await mount(h(LeagueScreen, { id: 7 }));
    const ask = vi.spyOn(window, "confirm").mockReturnValueOnce(false).mockReturnValueOnce(true);
    net.routes.set("POST /leagues/7/leave", refuse(409, "not_member", "You are not a member of this league."));
    await tap(box.querySelector("#league-leave"));
    expect(net.api).not.toHaveBeenCalledWith("POST", "/leagues/7/leave");
    net.routes.set("GET /leagues/7", { ...running(), my_membership: null });
    await tap(box.querySelector("#league-leave"));
    expect(ask).toHaveBeenCalledTimes(2);
    expect(box.querySelector("#league-action-error")!.textContent).toBe("You are not a member of this league.");
    expect(box.querySelector("#league-mine")).toBeNull(); // read again: what changed is shown
    expect(box.querySelector("#league-join")).not.toBeNull();
  });

  it("a member who left: dropped at the season's end, no leave or join; a division not opened yet says so", async () => {
    net.routes.set("GET /leagues/7", { ...running(), my_membership: membership(2, "2026-12-03T00:00:00Z"),
      season: { ...SEASON, divisions: [division(1, null, ["ann", "bob"])] } });
    const box = await mount(h(LeagueScreen, { id: 7 }));
    expect(box.querySelector("#league-mine")!.textContent).toBe("You left: you are dropped at the end of this season.");
    expect(box.querySelector("#league-leave")).toBeNull();
    expect(box.querySelector("#league-join")).toBeNull();
    expect(box.querySelector("a[data-division-link]")).toBeNull();
    expect(box.querySelector("section[data-division='1']")!.textContent).toContain("Its tournament is being set up.");
  });

  it("an unknown league: the server's words and the way back", async () => {
    net.routes.set("GET /leagues/99", refuse(404, "not_found", "No such league."));
    const box = await mount(h(LeagueScreen, { id: 99 }));
    expect(box.querySelector("#league-error")!.textContent).toBe("No such league.");
    expect(box.querySelector("#league-back")!.getAttribute("href")).toBe("#/leagues");
  });
});

describe("creating a league", () => {
  it("the monthly preset and a name: one tap creates it (starting tomorrow evening), and the page opens", async () => {
    let sent: Record<string, unknown> = {};
    net.routes.set("POST /leagues", (body: Record<string, unknown>) => { sent = body; return leagueDetail({ id: 12 }); });
    const box = await mount(h(LeagueCreateScreen, {}));
    expect(box.querySelector("#league-options")!.hasAttribute("hidden")).toBe(true);
    expect(box.querySelector("input[name=preset][value=monthly]")!.parentElement!.textContent).toBe("Monthly ladder: divisions of 8, 28 days, 2 up/2 down");
    await input(box, "lf-name", "Winter ladder");
    await tap(box.querySelector("#league-submit"));
    expect(sent).toMatchObject({ name: "Winter ladder", kind: "claim", division_size: 8, season_days: 28, movers: 2, rated: true,
      time_control: { type: "days", days_per_move: 3 } });
    expect(Date.parse(sent.starts_at as string)).toBeGreaterThan(Date.now());
    expect(location.hash).toBe("#/leagues/12");
  });

  it("the weekly preset; the client's checks on their field, More options opened, nothing sent", async () => {
    const box = await mount(h(LeagueCreateScreen, {}));
    await tap(box.querySelector("input[name=preset][value=weekly]"));
    await input(box, "lf-name", "Sprint");
    await tap(box.querySelector("#league-more-options"));
    expect((box.querySelector("#lf-division_size") as HTMLInputElement).value).toBe("6");
    expect((box.querySelector("#lf-time_control") as HTMLSelectElement).value).toBe("d1");
    await input(box, "lf-movers", "4");
    await input(box, "lf-time_control", "d5");
    await tap(box.querySelector("#league-more-options"));
    await tap(box.querySelector("#league-submit"));
    expect(net.api).not.toHaveBeenCalled();
    expect(box.querySelector("#league-options")!.hasAttribute("hidden")).toBe(false);
    expect(box.querySelector("#lf-movers-err")!.textContent).toBe("Between 1 and 3 (half a division of 6).");
    expect(box.querySelector("#lf-movers")!.getAttribute("aria-invalid")).toBe("true");
    expect(box.querySelector("#lf-season_days-err")!.textContent).toBe("With this time control a season needs at least 10 days.");
    expect(box.querySelector(".form-err")!.textContent).toBe("Please correct the marked fields.");
    await input(box, "lf-movers", "3");
    expect(box.querySelector("#lf-movers-err")).toBeNull();
    await input(box, "lf-starts_at", "");
    expect(box.querySelector("#lf-starts_at-err")!.textContent).toBe("In the future, at most 90 days ahead.");
  });

  it("the server's 400 on its field (cleared when edited), and a 409 of no field as the form's message", async () => {
    net.routes.set("POST /leagues", refuse(400, "invalid", "starts_at (the first season's start) must be in the future, at most 90 days ahead.",
      { starts_at: ["starts_at (the first season's start) must be in the future, at most 90 days ahead."] }));
    const box = await mount(h(LeagueCreateScreen, {}));
    await input(box, "lf-name", "Ladder");
    await tap(box.querySelector("#league-submit"));
    expect(box.querySelector("#lf-starts_at-err")!.textContent).toBe("starts_at (the first season's start) must be in the future, at most 90 days ahead.");
    await input(box, "lf-starts_at", "2099-01-01T10:00");
    expect(box.querySelector("#lf-starts_at-err")!.textContent).toBe("In the future, at most 90 days ahead."); // the client's own, now
    net.routes.set("POST /leagues", refuse(400, "invalid_options", "claim-mix needs the option \"factions\".", { options: ["claim-mix needs the option \"factions\"."] }));
    await input(box, "lf-starts_at", new Date(Date.now() + 86400000).toISOString().slice(0, 16));
    await tap(box.querySelector("#league-submit"));
    expect(box.querySelector("#lf-kind-err")!.textContent).toBe("claim-mix needs the option \"factions\".");
    expect(box.querySelector("#league-options")!.hasAttribute("hidden")).toBe(false);
    net.routes.set("POST /leagues", refuse(409, "too_many_leagues", "You have 2 leagues not closed, the most allowed."));
    await tap(box.querySelector("#league-submit"));
    expect(box.querySelector(".form-err")!.textContent).toBe("You have 2 leagues not closed, the most allowed.");
    expect(box.querySelector(".form-err")!.getAttribute("role")).toBe("alert");
  });
});
