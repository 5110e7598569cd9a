// Issue 33, items 11, 7 and 5: trick news, rating changes, the "Play now" countdown and the seats of an invitation.
import { describe, expect, it } from "vitest";
import {
  countdownText, emptySeats, iCreated, normGame, ratingChangeText, secondsUntil, seatStates, trickNews, type EngineView,
} from "../src/game";
import { apiSeat, claimView, rating, summary } from "./fixtures";

const view = (over: Partial<EngineView>): EngineView => claimView(over);
const trick = (phase: number, n: number, winner: number) => ({ phase, trick: n, cards: [], winner, next_leader: winner });

describe("trick news", () => {
  it("names the winner of a trick just completed, also when the winner has led the next one at once", () => {
    const before = view({ last_trick: trick(1, 3, 0), current_trick: [{ seat: 0, card: "knight-4" }] });
    // seat 1 wins trick 4 and leads trick 5 in the same version (the AI answers at once): the table shows trick 5
    const after = view({ last_trick: trick(1, 4, 1), current_trick: [{ seat: 1, card: "goblin-2" }] });
    expect(trickNews(before, after)).toEqual({ winner: 1, phase: null });
  });
  it("says nothing while the same trick goes on, nor for the first view held", () => {
    const a = view({ last_trick: trick(1, 4, 1) });
    expect(trickNews(a, view({ last_trick: trick(1, 4, 1) }))).toEqual({ winner: null, phase: null });
    expect(trickNews(null, a)).toEqual({ winner: null, phase: null });
  });
  it("announces phase 2 with the last trick of phase 1, and no phase once the game is over", () => {
    const end1 = view({ phase: 1, last_trick: trick(1, 12, 2) });
    expect(trickNews(end1, view({ phase: 2, last_trick: trick(1, 13, 0) }))).toEqual({ winner: 0, phase: 2 });
    expect(trickNews(end1, view({ phase: 2, over: true, last_trick: trick(2, 13, 0) }))).toEqual({ winner: 0, phase: null });
  });
});

describe("rating change", () => {
  it("reads seat.rating.after / change and writes +12 → 1512", () => {
    const g = normGame(summary({ id: 1, status: "finished", seats: [
      apiSeat({ index: 0, type: "user", username: "ann", name: "Ann", you: true, rating: rating({ rating: 1500, after: 1512, change: 12 }) }),
      apiSeat({ index: 1, type: "user", username: "bob", name: "Bob", rating: rating({ rating: 1490, after: 1478, change: -12 }) }),
      apiSeat({ index: 2, type: "user", username: "cy", name: "Cy", rating: rating({ rating: 1400 }) }),
    ] }));
    expect(g.seats.map((s) => s.ratingChange)).toEqual([{ after: 1512, change: 12 }, { after: 1478, change: -12 }, null]);
    expect(ratingChangeText({ after: 1512, change: 12 })).toBe("+12 → 1512");
    expect(ratingChangeText({ after: 1478, change: -12 })).toBe("−12 → 1478");
    expect(ratingChangeText({ after: 1500, change: 0 })).toBe("±0 → 1500");
  });
});

describe("the Play now countdown", () => {
  it("counts whole seconds down to the AI fallback and never below zero", () => {
    const at = "2026-12-03T12:02:00Z";
    const t0 = Date.parse("2026-12-03T12:00:00Z");
    expect(secondsUntil(at, t0)).toBe(120);
    expect(secondsUntil(at, t0 + 119_500)).toBe(1);
    expect(secondsUntil(at, t0 + 200_000)).toBe(0);
    expect(secondsUntil(null, t0)).toBeNull();
    expect(countdownText(120)).toBe("2:00");
    expect(countdownText(65)).toBe("1:05");
    expect(countdownText(9)).toBe("0:09");
  });
});

describe("the seats of an invitation", () => {
  const payload = (mySeat: number) => summary({
    id: 7, kind: "claim-mix", status: "open", my_seat: mySeat, creator_seat: 0, seats: [
      apiSeat({ index: 0, type: "user", username: "ann", name: "Ann", joined: true, you: mySeat === 0 }),
      apiSeat({ index: 1, type: "user", username: "bob", name: "Bob", joined: true, you: mySeat === 1 }),
      apiSeat({ index: 2, type: "user", username: "cy", name: "Cy", joined: false, you: false }),
      apiSeat({ index: 3, type: "open", username: null, name: null, joined: false, you: false }),
    ],
  });
  it("says who has joined, who is invited and which seat is open; the creator is marked", () => {
    const g = normGame(payload(0));
    expect(seatStates(g).map((s) => [s.state, s.creator])).toEqual([["you", true], ["joined", false], ["invited", false], ["open", false]]);
    expect(emptySeats(g)).toEqual([3]);
  });
  it("gives the creator's actions to the creator only", () => {
    expect(iCreated(normGame(payload(0)))).toBe(true);
    expect(iCreated(normGame(payload(1)))).toBe(false);
    expect(iCreated(normGame({ ...payload(1), creator_seat: null }))).toBe(false);
  });
  it("an AI seat filled by the creator is the AI's, not open", () => {
    const p = payload(0);
    p.seats[3] = apiSeat({ index: 3, type: "ai", ai_level: 2, username: null, name: "AI (Knight)", joined: true, you: false });
    expect(seatStates(normGame(p))[3].state).toBe("ai");
    expect(emptySeats(normGame(p))).toEqual([]);
  });
});
