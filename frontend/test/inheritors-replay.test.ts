// The replay helpers of Inheritors (screens/InheritorsReplay.tsx), on real engine output: the views and the
// event log of test/inheritors-fixture.json (a 3-seat AI self-play game dumped from games/rules/inheritors).
import { describe, expect, it } from "vitest";
import { inhCards, inhTranslate } from "../src/i18n/inheritors";
import { isInhReplay, seatHand, sortHand, stepEvents, type InhReplayStep, type InhView, type Move, type Names } from "../src/inheritors";
import { claimView } from "./fixtures";
import fixture from "./inheritors-fixture.json";

type Snap = { view: InhView; legal_moves: Move[] };
const F = fixture as unknown as { start: Snap; pending: Record<string, Snap>; post: Snap; end: Snap };
const en = (key: string, params?: Record<string, string | number>) => inhTranslate("en", key, params);
const names: Names = {
  card: (id) => `<${id}>`, seat: (s) => ["Ann", "Bo", "Cy"][s], colour: (c) => c, clan: (c) => c, honor: (h) => h,
  advocate: (a) => a, pileSize: (p) => [2, 0, 4][p], cards: (n) => inhCards("en", n),
};

/** The last move of the fixture's game (seat 1 played blue-4b, claimed H3 and ended it), as replay_step returns it. */
function lastStep(): InhReplayStep {
  const log = F.end.view.log;
  const from = log.map((e) => e.type).lastIndexOf("turn") + 1; // the events since the last turn began
  return {
    id: 5, step: 40, steps: 40, move: { number: 40, seat: 1, move: { end_turn: true } }, events: log.slice(from), to_act: [],
    spectator_view: { ...F.end.view, seat: null, hand: undefined }, seat_views: [],
  };
}

describe("Inheritors replay steps", () => {
  it("tells an Inheritors step from a Claim one", () => {
    expect(isInhReplay(lastStep())).toBe(true);
    expect(isInhReplay({ ...lastStep(), spectator_view: claimView({ seat: null }), seat_views: [] })).toBe(false);
    expect(isInhReplay(null)).toBe(false);
  });

  it("says what a move did from its public events, in order, without bookkeeping events", () => {
    const lines = stepEvents(lastStep(), en, names);
    expect(lines).toEqual(["Bo placed <blue-4b>", "Bo claimed honor H3", "The end was triggered"]);
  });

  it("names a move by its label when none of its events says anything (a pass)", () => {
    const pass: Pick<InhReplayStep, "move" | "events"> = { move: { number: 7, seat: 2, move: { pass: true } }, events: [{ type: "action", seat: 2, action: "pass" }] };
    expect(stepEvents(pass, en, names)).toEqual(["Cy: Pass (no cards in hand)"]);
    expect(stepEvents({ move: null, events: [] }, en, names)).toEqual([]);
  });

  it("describes a take with the cards the event lists, not the pile's size after the refill", () => {
    const take: Pick<InhReplayStep, "move" | "events"> = {
      move: { number: 9, seat: 2, move: { action: "discard_take", card: "purple-3a", pile: 1, take: 2 } },
      events: [
        { type: "action", seat: 2, action: "discard_take" },
        { type: "discard", seat: 2, card: "purple-3a", pile: 1, reason: "discard_take" },
        { type: "take_pile", seat: 2, pile: 2, cards: ["blue-1a", "tome-3", "yellow-2c", "tome-2", "purple-3c"], reason: "discard_take" },
        { type: "refill", pile: 2, card: "red-1b" },
      ],
    };
    expect(stepEvents(take, en, names)).toEqual([
      "Cy discarded <purple-3a> on pile 2", "Cy took pile 3 (5 cards)", "Pile 3 was refilled with <red-1b>",
    ]);
  });

  it("shows each seat's own hand, sorted; the revealed hands when a seat view is missing", () => {
    const step = lastStep();
    const own = { ...F.end.view, seat: 0 };
    expect(seatHand({ ...step, seat_views: [own] }, 0)).toEqual(sortHand(F.end.view.hand!));
    expect(seatHand(step, 2)).toEqual(sortHand(F.end.view.hands![2]));
    expect(seatHand(step, 2).length).toBe(F.end.view.players[2].hand_count);
    expect(seatHand({ ...step, spectator_view: { ...step.spectator_view, hands: undefined } }, 1)).toEqual([]);
  });
});
