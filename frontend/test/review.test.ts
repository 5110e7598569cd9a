// Issue 37, the review's pure rules (src/review.ts): which decision a replay step shows, the marks list and the jumps
// between marks, the progress (socket events never going back), the route, chances in numbers.
import { describe, expect, it } from "vitest";
import {
  applyEvent, barWidth, decisionAt, fraction, isReviewEvent, markCounts, marksOf, nextMark, pending, percent, points, pollMs,
  placeDecisions, prevMark, reviewable, reviewPath, reviewRoute, sameMove, type Review,
} from "../src/review";
import { decision, review } from "./fixtures";

// Indices are game versions before each move: the game's creation and joins made versions 1 and 2, and a clock's
// extra day one between moves 3 and 4; the server's order is not trusted.
const D = placeDecisions([
  decision({ index: 2 }),
  decision({ index: 3, seat: 1, mark: "mistake", drop: 0.2 }),
  decision({ index: 4 }),
  decision({ index: 7, mark: "inaccuracy", drop: 0.07 }),
  decision({ index: 6, seat: 1, mark: "inaccuracy", drop: 0.06 }),
]);

describe("steps and decisions", () => {
  it("places the n-th decision (by version) on replay step n, the one that shows its move", () => {
    expect(D.map((d) => [d.index, d.step])).toEqual([[2, 1], [3, 2], [4, 3], [6, 4], [7, 5]]);
    // indices equal to the move count (the contract's wording) place the same way
    expect(placeDecisions([decision({ index: 1 }), decision({ index: 0 })]).map((d) => [d.index, d.step])).toEqual([[0, 1], [1, 2]]);
    expect(placeDecisions([])).toEqual([]);
  });

  it("shows at a step the decision whose move led to it", () => {
    expect(decisionAt(D, 0)).toBeNull(); // the deal
    expect(decisionAt(D, 1)!.index).toBe(2);
    expect(decisionAt(D, 2)!.mark).toBe("mistake");
    expect(decisionAt(D, 4)!.index).toBe(6);
    expect(decisionAt(D, 6)).toBeNull(); // past the decisions
    expect(decisionAt([], 3)).toBeNull();
  });

  it("lists the marked decisions in the order of the game, optionally of one mark", () => {
    expect(marksOf(D).map((d) => d.step)).toEqual([2, 4, 5]);
    expect(marksOf(D, "mistake").map((d) => d.index)).toEqual([3]);
    expect(marksOf(D, "inaccuracy").map((d) => d.index)).toEqual([6, 7]);
    expect(marksOf(placeDecisions([decision()]))).toEqual([]);
  });

  it("jumps to the next and the previous marked move, none past the ends", () => {
    const marks = marksOf(D); // steps 2, 4, 5
    expect(nextMark(marks, 0)).toBe(2);
    expect(nextMark(marks, 2)).toBe(4);
    expect(nextMark(marks, 3)).toBe(4);
    expect(nextMark(marks, 4)).toBe(5);
    expect(nextMark(marks, 5)).toBeNull();
    expect(prevMark(marks, 5)).toBe(4);
    expect(prevMark(marks, 3)).toBe(2);
    expect(prevMark(marks, 2)).toBeNull();
    expect(prevMark(marks, 40)).toBe(5);
    expect(nextMark([], 0)).toBeNull();
    expect(prevMark([], 9)).toBeNull();
  });

  it("counts each seat's marks", () => {
    const c = markCounts(D);
    expect(c.get(0)).toEqual({ inaccuracy: 1, mistake: 0 });
    expect(c.get(1)).toEqual({ inaccuracy: 1, mistake: 1 });
    expect(c.has(2)).toBe(false);
  });

  it("compares moves by their keys and values, not their order", () => {
    expect(sameMove({ play: "knight-7" }, { play: "knight-7" })).toBe(true);
    expect(sameMove({ play: "knight-7" }, { play: "knight-8" })).toBe(false);
    expect(sameMove({ action: "discard_draw", card: "red-1a", pile: 0 }, { pile: 0, card: "red-1a", action: "discard_draw" } as never)).toBe(true);
    expect(sameMove({ action: "discard_draw", card: "red-1a", pile: 0 }, { action: "discard_draw", card: "red-1a", pile: 1 })).toBe(false);
    expect(sameMove(null, { play: "x" })).toBe(false);
  });
});

describe("progress", () => {
  it("is pending while queued or running", () => {
    expect(pending(review({ status: "queued" }))).toBe(true);
    expect(pending(review({ status: "running" }))).toBe(true);
    expect(pending(review({ status: "done" }))).toBe(false);
    expect(pending(review({ status: "failed" }))).toBe(false);
    expect(pending(null)).toBe(false);
  });

  it("is a fraction in 0..1, 0 before the total is known, never above 1", () => {
    expect(fraction({ done: 3, total: 12 })).toBe(0.25);
    expect(fraction({ done: 0, total: 0 })).toBe(0);
    expect(fraction({ done: 5, total: 0 })).toBe(0);
    expect(fraction({ done: 15, total: 12 })).toBe(1);
    expect(fraction({ done: -1, total: 12 })).toBe(0);
  });

  it("takes the socket's events of its game, never back to an earlier state", () => {
    const r = review({ status: "queued" });
    const ev = (status: Review["status"], done: number, game_id = 7) => ({ type: "review" as const, game_id, status, progress: { done, total: 20 } });
    const run = applyEvent(r, ev("running", 4));
    expect(run).toMatchObject({ status: "running", progress: { done: 4, total: 20 } });
    expect(applyEvent(run, ev("running", 9)).progress.done).toBe(9);
    expect(applyEvent(run, ev("running", 2))).toBe(run); // late
    expect(applyEvent(run, ev("queued", 0))).toBe(run); // late
    expect(applyEvent(run, ev("running", 9, 8))).toBe(run); // another game's
    const done = review({ decisions: D });
    expect(applyEvent(done, ev("done", 20))).toBe(done); // the decisions stay
  });

  it("tells a review event from other frames", () => {
    expect(isReviewEvent({ type: "review", game_id: 7, status: "running", progress: { done: 1, total: 3 } })).toBe(true);
    expect(isReviewEvent({ type: "review", game_id: 7, status: "running", progress: { done: 1, total: 3 } }, 8)).toBe(false);
    expect(isReviewEvent({ type: "review", game_id: "7", status: "running" })).toBe(false);
    expect(isReviewEvent({ type: "review", game_id: 7, status: "exploded" })).toBe(false);
    expect(isReviewEvent({ type: "tournament", tournament_id: 7 })).toBe(false);
    expect(isReviewEvent(null)).toBe(false);
  });

  it("polls often without the socket, seldom with it", () => {
    expect(pollMs(false)).toBeLessThan(pollMs(true));
  });
});

describe("paths and numbers", () => {
  it("the kinds reviewed: the Claim family", () => {
    expect(["claim", "claim2", "claim-mix"].every(reviewable)).toBe(true);
    expect(reviewable("inheritors")).toBe(false);
  });


  it("the review's link and its route", () => {
    expect(reviewPath(7)).toBe("/game/7/review");
    expect(reviewRoute("#/game/7/review")).toBe(7);
    expect(reviewRoute("#" + reviewPath(12))).toBe(12);
    expect(reviewRoute("#/game/7/review?x=1")).toBe(7);
    expect(reviewRoute("#/game/7")).toBeNull();
    expect(reviewRoute("#/game/7/reviewer")).toBeNull();
    expect(reviewRoute("#/game/x/review")).toBeNull();
    expect(reviewRoute("#/replay/7/review")).toBeNull();
  });

  it("chances as percentages of the language, drops in points, bars clamped", () => {
    expect(percent(0.573, "en")).toBe("57%");
    expect(percent(0.573, "de")).toMatch(/^57\s%$/);
    expect(percent(null, "en")).toBe("—");
    expect(percent(1.2, "en")).toBe("100%");
    expect(points(0.184)).toBe("18");
    expect(points(null)).toBe("—");
    expect(barWidth(0.5)).toBe(50);
    expect(barWidth(-1)).toBe(0);
    expect(barWidth(2)).toBe(100);
    expect(barWidth(Number.NaN)).toBe(0);
  });
});
