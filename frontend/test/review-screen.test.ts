// @vitest-environment happy-dom
// Issue 37, the review screen rendered in happy-dom (test/dom.ts) with a mocked API: the progress while the review
// is computed (from the socket's `review` event, and by polling without it), the result stepped through as the
// replay is (the decision of each move: mark, chance bar, every move with its chance, by the card's name), the marks
// list (a tap jumps there), previous / next mistake, asking for a review that is not there, the server's refusals
// (404, 409, 429) said with its message, and the end screen's Review button.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { all, mount, settle, tap, unmount } from "./dom";
import { apiSeat, claimView, decision, fakeBrowser, gameView, review } from "./fixtures";

fakeBrowser();

const net = vi.hoisted(() => {
  const routes = new Map<string, unknown>();
  return {
    routes,
    api: vi.fn(async (method: string, path: string, body?: unknown) => {
      const key = `${method} ${path}`;
      if (!routes.has(key)) throw Object.assign(new Error(`no route ${key}`), { status: 404 });
      const answer = routes.get(key);
      return typeof answer === "function" ? answer(body) : structuredClone(answer);
    }),
  };
});
vi.mock("../src/api", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../src/api")>()), api: net.api,
  getCached: async (path: string) => ({ data: await net.api("GET", path), offline: false }),
}));
vi.mock("../src/realtime", () => ({
  watchTournament: vi.fn(), unwatchTournament: vi.fn(), watchGame: vi.fn(), unwatchGame: vi.fn(), setViewing: vi.fn(), connect: vi.fn(), disconnect: vi.fn(),
}));

const { h } = await import("preact");
const { ApiError } = await import("../src/api");
const { ReviewButton, ReviewScreen } = await import("../src/screens/Review");
const { set, state } = await import("../src/store");
const { EndActions } = await import("../src/screens/EndActions");
const { normGame } = await import("../src/game");

const EVIL = "<img src=x onerror=alert(1)>\u202Eann";
const refuse = (status: number, code: string, message: string) => () => { throw new ApiError(status, { code, message }); };
const STEPS = 6;

/** The finished two-seat game 7: its record and every replay step (seat 0 plays at even steps, seat 1 at odd ones). */
function game() {
  net.routes.set("GET /games/7/record", {
    id: 7, kind: "claim", title: "Claim", seats: [apiSeat({ index: 0, username: "ann", name: EVIL }), apiSeat({ index: 1, username: "bob", name: "Bob" })],
  });
  for (let step = 0; step <= STEPS; step++) {
    net.routes.set(`GET /games/7/replay?step=${step}`, {
      id: 7, step, steps: STEPS, move: step ? { number: step, seat: (step - 1) % 2, move: { play: "knight-7" } } : null, events: [], to_act: [step % 2],
      spectator_view: claimView({ seat: null, hand: undefined }), seat_views: [claimView(), claimView({ seat: 1 })],
    });
  }
}

const DONE = review({
  progress: { done: 6, total: 6 },
  decisions: [
    // indices are the game's versions before each move (its creation and the join made two before the first)
    decision({ index: 2 }),
    decision({
      index: 3, seat: 1, player: "bob", played: { play: "goblin-0" }, best: { play: "knight-7" }, chance_played: 0.31, chance_best: 0.52,
      drop: 0.21, mark: "mistake",
      options: [{ move: { play: "knight-7" }, chance: 0.52 }, { move: { play: "dwarf-3" }, chance: 0.44 }, { move: { play: "goblin-0" }, chance: 0.31 }],
    }),
    decision({ index: 4, options: [] }), // forced
    decision({ index: 6, played: { play: "dwarf-3" }, best: { play: "knight-7" }, chance_played: 0.6, chance_best: 0.67, drop: 0.07, mark: "inaccuracy" }),
  ],
});

const main = (box: HTMLElement) => box.querySelector("main")!;
const step = (box: HTMLElement) => Number(main(box).getAttribute("data-step"));

beforeEach(() => {
  net.routes.clear();
  vi.clearAllMocks();
  set({ me: { id: 1, username: "ann", is_bot: false, date_joined: "2026-01-01T00:00:00Z" } as never, lang: "en", ws: "open", toast: null });
  location.hash = "";
  game();
});

describe("a review being computed", () => {
  it("shows its progress, follows the socket's events, then shows the result", async () => {
    net.routes.set("GET /games/7/review", review({ status: "queued", progress: { done: 0, total: 0 } }));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(main(box).getAttribute("data-status")).toBe("queued");
    expect(box.querySelector("#review-progress")!.textContent).toContain("Waiting for the analysis to start");
    const send = async (detail: unknown) => { window.dispatchEvent(new CustomEvent("claim:review", { detail })); await settle(); };
    await send({ type: "review", game_id: 7, status: "running", progress: { done: 2, total: 6 } });
    expect(box.querySelector("#review-progress [role=status]")!.textContent).toBe("Analysing: 2 of 6 moves");
    expect((box.querySelector("#review-progress progress") as HTMLProgressElement).getAttribute("value")).toBe("33");
    await send({ type: "review", game_id: 8, status: "running", progress: { done: 5, total: 6 } }); // another game's
    await send({ type: "review", game_id: 7, status: "running", progress: { done: 1, total: 6 } }); // late
    expect(box.querySelector("#review-progress [role=status]")!.textContent).toBe("Analysing: 2 of 6 moves");
    expect(box.querySelector("#review-marks")).toBeNull();
    net.routes.set("GET /games/7/review", DONE);
    await send({ type: "review", game_id: 7, status: "done", progress: { done: 6, total: 6 } });
    expect(main(box).getAttribute("data-status")).toBe("done");
    expect(box.querySelector("#review-progress")).toBeNull();
    expect(all(box, "#review-marks .mark-row")).toHaveLength(2);
    await unmount(box);
  });

  it("polls while the socket is down", { timeout: 10000 }, async () => {
    set({ ws: "closed" });
    net.routes.set("GET /games/7/review", review({ status: "running", progress: { done: 3, total: 6 } }));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(box.querySelector("#review-progress")!.textContent).toContain("3 of 6");
    net.routes.set("GET /games/7/review", DONE);
    await new Promise((r) => setTimeout(r, 3200));
    await settle();
    expect(main(box).getAttribute("data-status")).toBe("done");
    await unmount(box);
  });

  it("a failed review is said, and asked for again", async () => {
    net.routes.set("GET /games/7/review", review({ status: "failed" }));
    net.routes.set("POST /games/7/review", review({ status: "queued" }));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(box.querySelector("#review-failed")!.textContent).toContain("The analysis failed.");
    await tap(box.querySelector("#review-retry"));
    expect(net.api).toHaveBeenCalledWith("POST", "/games/7/review", {});
    expect(main(box).getAttribute("data-status")).toBe("queued");
    await unmount(box);
  });
});

describe("the result", () => {
  it("steps like the replay; each move's decision: mark, chance bar, every move with its chance", async () => {
    net.routes.set("GET /games/7/review", DONE);
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(step(box)).toBe(0);
    expect(box.querySelector("#review-decision")!.textContent).toContain("The deal");
    await tap(box.querySelector("#replay-next"));
    expect(step(box)).toBe(1);
    const d1 = box.querySelector("#review-decision")!;
    expect(d1.getAttribute("data-mark")).toBe("");
    expect(box.querySelector("#review-mark")!.textContent).toBe("Best move");
    await tap(box.querySelector("#replay-next"));
    const d = box.querySelector("#review-decision")!;
    expect(d.getAttribute("data-index")).toBe("3");
    expect(d.querySelector("h2")!.textContent).toBe("Move 2: Bob");
    expect(box.querySelector("#review-mark")!.textContent).toBe("Mistake");
    expect(d.textContent).toContain("21 points below the best");
    const bars = all(d, ".chance-row");
    expect(bars.map((b) => b.querySelector("p")!.textContent)).toEqual(["Played: Goblin 0 31%", "Best: Knight 7 52%"]);
    expect(bars.map((b) => (b.querySelector(".chance span") as HTMLElement).style.width)).toEqual(["31%", "52%"]);
    const opts = all(d, "#review-options li");
    expect(opts.map((li) => li.querySelector(".opt-move")!.textContent)).toEqual(["Knight 7", "Dwarf 3", "Goblin 0 · Played"]);
    expect(opts.map((li) => li.querySelector(".opt-chance")!.textContent)).toEqual(["52%", "44%", "31%"]);
    expect(opts.map((li) => li.getAttribute("data-played"))).toEqual([null, null, "1"]);
    await tap(box.querySelector("#replay-next"));
    expect(box.querySelector("#review-mark")!.textContent).toBe("Forced move (the only one)");
    expect(box.querySelector("#review-chance")).toBeNull();
    await tap(box.querySelector("#replay-next"));
    expect(box.querySelector("#review-mark")!.textContent).toBe("Inaccuracy");
    await tap(box.querySelector("#replay-next"));
    expect(box.querySelector("#review-decision")!.textContent).toContain("No analysis for this move."); // past the decisions
    await unmount(box);
  });

  it("lists the mistakes and inaccuracies; a tap and previous / next mistake jump there", async () => {
    net.routes.set("GET /games/7/review", DONE);
    const box = await mount(h(ReviewScreen, { id: 7 }));
    const rows = all(box, "#review-marks .mark-row");
    expect(box.querySelector("#review-marks h2")!.textContent).toBe("Mistakes and inaccuracies (2)");
    expect(rows.map((b) => b.getAttribute("data-step"))).toEqual(["2", "4"]);
    expect(rows[0].textContent).toBe("Move 2 Bob Mistake −21, 21 points below the best"); // the number said in words too
    expect(rows[1].textContent).toBe(`Move 4 ${EVIL} Inaccuracy −7, 7 points below the best`);
    expect(box.querySelectorAll("img")).toHaveLength(0); // a name is text
    expect((box.querySelector("#review-prev-mark") as HTMLButtonElement).disabled).toBe(true);
    await tap(rows[1]);
    expect(step(box)).toBe(4);
    expect(box.querySelector("#review-mark")!.textContent).toBe("Inaccuracy");
    expect(all(box, "#review-marks .mark-row")[1].getAttribute("aria-current")).toBe("step");
    expect((box.querySelector("#review-next-mark") as HTMLButtonElement).disabled).toBe(true);
    await tap(box.querySelector("#review-prev-mark"));
    expect(step(box)).toBe(2);
    expect(box.querySelector("#review-mark")!.textContent).toBe("Mistake");
    await tap(box.querySelector("#review-next-mark"));
    expect(step(box)).toBe(4);
    await unmount(box);
  });

  it("a game without marks says so", async () => {
    net.routes.set("GET /games/7/review", review({ decisions: [decision({ index: 0 })] }));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(box.querySelector("#review-no-marks")!.textContent).toBe("No mistakes or inaccuracies.");
    expect((box.querySelector("#review-next-mark") as HTMLButtonElement).disabled).toBe(true);
    await unmount(box);
  });

  it("is in the reader's language", async () => {
    set({ lang: "de" });
    net.routes.set("GET /games/7/review", DONE);
    const box = await mount(h(ReviewScreen, { id: 7 }));
    await tap(all(box, "#review-marks .mark-row")[0]);
    expect(box.querySelector("#review-mark")!.textContent).toBe("Fehler");
    expect(all(box, "#review-options .opt-chance")[0].textContent).toMatch(/^52\s%$/);
    expect(all(box, "#review-options .opt-move")[0].textContent).toBe("Ritter 7");
    await unmount(box);
  });
});

describe("no review yet, refusals", () => {
  it("none requested yet: asks for one", async () => {
    net.routes.set("GET /games/7/review", refuse(404, "no_review", "No review was requested for this game."));
    net.routes.set("POST /games/7/review", review({ status: "queued" }));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(main(box).getAttribute("data-status")).toBe("none");
    expect(box.querySelector("#review-none")!.textContent).toContain("not been reviewed yet");
    await tap(box.querySelector("#review-request"));
    expect(main(box).getAttribute("data-status")).toBe("queued");
    expect(box.querySelector("#review-progress")).not.toBeNull();
    await unmount(box);
  });

  it("logged out: no button to ask", async () => {
    set({ me: null });
    net.routes.set("GET /games/7/review", refuse(404, "no_review", "No review."));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(box.querySelector("#review-none")).not.toBeNull();
    expect(box.querySelector("#review-request")).toBeNull();
    await unmount(box);
  });

  for (const [status, code, message] of [[404, "not_found", "Not found."], [409, "game_not_over", "The game is not over yet."],
    [429, "throttled", "Too many reviews: try again in 40 seconds."]] as const) {
    it(`${status} ${code}: the server's message`, async () => {
      net.routes.set("GET /games/7/review", refuse(404, "no_review", "none"));
      net.routes.set("POST /games/7/review", refuse(status, code, message));
      const box = await mount(h(ReviewScreen, { id: 7 }));
      await tap(box.querySelector("#review-request"));
      expect(box.querySelector("#review-error")!.textContent).toBe(message);
      expect(box.querySelector("#review-error")!.getAttribute("role")).toBe("alert");
      await unmount(box);
    });
  }

  it("a game I may not see: the server's 404 said", async () => {
    net.routes.set("GET /games/7/review", refuse(404, "not_found", "No such game."));
    const box = await mount(h(ReviewScreen, { id: 7 }));
    expect(box.querySelector("#review-error")!.textContent).toBe("No such game.");
    expect(box.querySelector("#review-request")).toBeNull();
    await unmount(box);
  });
});

describe("the end screen's Review", () => {
  it("is offered for a finished game of the Claim family, not while it runs, not for an aborted one or Inheritors", async () => {
    const seats = [apiSeat({ index: 0, username: "ann", you: true }), apiSeat({ index: 1, type: "ai", ai_level: 1 })];
    const offered = async (over: Parameters<typeof gameView>[0]) => {
      const box = await mount(h(EndActions, { g: normGame(gameView({ my_seat: 0, seats, ...over })) }));
      const there = box.querySelector("#review-open") !== null;
      await unmount(box);
      return there;
    };
    expect(await offered({ status: "finished", kind: "claim" })).toBe(true);
    expect(await offered({ status: "finished", kind: "claim-mix" })).toBe(true);
    expect(await offered({ status: "active", kind: "claim" })).toBe(false);
    expect(await offered({ status: "aborted", kind: "claim" })).toBe(false);
    expect(await offered({ status: "finished", kind: "inheritors" })).toBe(false);
  });


  it("asks for the review and opens its screen", async () => {
    net.routes.set("POST /games/7/review", review({ status: "queued" }));
    const box = await mount(h(ReviewButton, { id: 7 }));
    await tap(box.querySelector("#review-open"));
    expect(net.api).toHaveBeenCalledWith("POST", "/games/7/review", {});
    expect(location.hash).toBe("#/game/7/review");
    await unmount(box);
  });

  it("a refusal stays, with the server's message", async () => {
    net.routes.set("POST /games/7/review", refuse(429, "throttled", "Too many reviews: try again in 40 seconds."));
    const box = await mount(h(ReviewButton, { id: 7 }));
    await tap(box.querySelector("#review-open"));
    expect(location.hash).toBe("");
    expect(state.toast).toEqual({ text: "Too many reviews: try again in 40 seconds.", kind: "error" });
    await unmount(box);
  });
});
