// Issue 33 item 1: the helpers that let a turn of Inheritors take two taps (a card chooses its likely move, chips
// change the kind and the pile) and a quest three or four (the whole quest in one move, partners preselected).
// On the real engine views of test/inheritors-fixture.json and on small hand-made hands.
import { describe, expect, it } from "vitest";
import { inhTranslate } from "../src/i18n/inheritors";
import {
  colourSet, defaultCardMove, defaultOfKind, forcedMove, groupMoves, kindsOf, type InhView, type Move, moveKind, moveLabel, type Names,
  questCompatible, questMove, questPartners, smallestPile, toggleQuestCard, withPile, withTake,
} from "../src/inheritors";
import fixture from "./inheritors-fixture.json";

type Snap = { view: InhView; legal_moves: Move[] };
const F = fixture as unknown as { start: Snap; pending: Record<string, Snap>; post: Snap; end: Snap };
const en = (key: string, params?: Record<string, string | number>) => inhTranslate("en", key, params);
const names: Names = {
  card: (id) => `<${id}>`, seat: (s) => `S${s}`, colour: (c) => c, clan: (c) => c, honor: (h) => h, advocate: (a) => a,
  pileSize: () => 1, cards: (n) => `${n} cards`,
};

describe("a card's default move and its chips", () => {
  it("every opening card has a default that is one of its legal moves, never a quest or a pile taken", () => {
    const { view, legal_moves } = F.start;
    const g = groupMoves(legal_moves);
    for (const [card, moves] of g.byCard) {
      const m = defaultCardMove(moves, view.market)!;
      expect(moves).toContainEqual(m);
      expect(["quest", "discard_take"]).not.toContain(moveKind(m));
      if (moves.some((x) => moveKind(x) === "play" && "action" in x)) expect(m).toEqual({ action: "play", card });
      else if (moves.some((x) => moveKind(x) === "advocate")) expect(m).toEqual({ action: "advocate", card });
      else expect(m).toMatchObject({ action: "discard_draw", card, pile: smallestPile(view.market) });
    }
  });

  it("kinds come in the order play, advocate, take a pile, quest, discard and draw", () => {
    const ms: Move[] = [
      { action: "discard_draw", card: "x", pile: 0 }, { action: "quest", card: "x", pile: 0 },
      { action: "discard_take", card: "x", pile: 0, take: 1 }, { action: "play", card: "x" },
    ];
    expect(kindsOf(ms)).toEqual(["play", "discard_take", "quest", "discard_draw"]);
  });

  it("discards go to the smallest pile; A3 takes the biggest pile it may and discards on the smallest other", () => {
    const market = [["a", "b"], ["c"], ["d", "e", "f"]];
    expect(smallestPile(market)).toBe(1);
    expect(smallestPile([["a"], ["b"], []])).toBe(2);
    expect(smallestPile([["a"], ["b"], ["c"]])).toBe(0);
    const ms: Move[] = [0, 1, 2].flatMap((p) => [
      { action: "discard_draw", card: "x", pile: p },
      ...[0, 1, 2].filter((y) => y !== p && y !== 0).map((y): Move => ({ action: "discard_take", card: "x", pile: p, take: y })),
    ]);
    expect(defaultOfKind(ms, "discard_draw", market)).toEqual({ action: "discard_draw", card: "x", pile: 1 });
    const take = defaultOfKind(ms, "discard_take", market)!;
    expect(take).toEqual({ action: "discard_take", card: "x", pile: 1, take: 2 });
    // another pile chip keeps the take; another take chip keeps the discard pile when allowed
    expect(withPile(ms, take, 0)).toEqual({ action: "discard_take", card: "x", pile: 0, take: 2 });
    expect(withTake(ms, take, 1, market)).toEqual({ action: "discard_take", card: "x", pile: 0, take: 1 });
    expect(withPile(ms, { action: "discard_draw", card: "x", pile: 1 }, 2)).toEqual({ action: "discard_draw", card: "x", pile: 2 });
  });

  it("pending decisions with a card: the default is the card's one answer (Rat) or a discard on the smallest pile", () => {
    const rat = F.pending.rat;
    for (const [card, moves] of groupMoves(rat.legal_moves).byCard) expect(defaultCardMove(moves, rat.view.market)).toEqual({ put_back: card });
    const q = F.pending.quest_discard;
    for (const moves of groupMoves(q.legal_moves).byCard.values()) {
      expect(defaultCardMove(moves, q.view.market)).toMatchObject({ pile: smallestPile(q.view.market) });
    }
  });

  it("sends by itself only what needs no decision: End turn when nothing can be claimed, a pass", () => {
    expect(forcedMove([{ end_turn: true }])).toEqual({ end_turn: true });
    expect(forcedMove([{ pass: true }])).toEqual({ pass: true });
    expect(forcedMove(F.post.legal_moves)).toBeNull(); // a claim is possible: the player decides
    expect(forcedMove([{ take_pile: 0 }])).toBeNull();
    expect(forcedMove(F.start.legal_moves)).toBeNull();
    expect(forcedMove([])).toBeNull();
  });
});

describe("the whole quest in one move", () => {
  it("colour sets: realm colour, white advocates, wild tomes and epics (I2.2)", () => {
    expect(colourSet("red-3a")).toEqual(["red"]);
    expect(colourSet("relic-blue")).toEqual(["blue"]);
    expect(colourSet("spy-2")).toEqual(["white"]);
    expect(colourSet("tome-1")).toContain("white");
    expect(colourSet("epic-1")).toHaveLength(6);
  });

  it("three cards go together when one colour is in each card's set (Fox: any three)", () => {
    expect(questCompatible(["red-1a", "red-2a", "tome-1"], false)).toBe(true);
    expect(questCompatible(["red-1a", "relic-red", "red-5a"], false)).toBe(true);
    expect(questCompatible(["spy-1", "advisor-2", "tome-3"], false)).toBe(true);
    expect(questCompatible(["red-1a", "blue-2a", "tome-1"], false)).toBe(false);
    expect(questCompatible(["red-1a", "spy-1"], false)).toBe(false);
    expect(questCompatible(["red-1a", "spy-1", "blue-1a"], true)).toBe(true);
    expect(questCompatible(["red-1a", "red-1a", "red-2a"], true)).toBe(false); // the same card twice
  });

  it("partners: the cheapest cards of the colour, dead cards first, wilds last; none without two more", () => {
    const hand = ["red-1a", "red-4a", "red-2a", "tome-1", "blue-3a", "relic-red"];
    expect(questPartners("red-4a", hand, false, { red: 2 })).toEqual(["red-1a", "red-2a"]); // both dead (red shows 2)
    expect(questPartners("red-4a", hand, false, {})).toEqual(["red-1a", "red-2a"]);
    expect(questPartners("blue-3a", hand, false, {})).toEqual([]); // one tome is not two more blue cards
    expect(questPartners("blue-3a", [...hand, "epic-1"], false, {})).toEqual(["epic-1", "tome-1"]);
    // a tome starts the colour held most without wilds
    expect(questPartners("tome-1", hand, false, {})).toEqual(["red-1a", "red-2a"]);
    expect(questPartners("blue-3a", hand, true, { red: 2 })).toEqual(["red-1a", "red-2a"]); // Fox: any two
  });

  it("a tap on a card toggles it; with three chosen it takes the place of the last one that fits", () => {
    expect(toggleQuestCard(["red-1a", "red-2a", "red-3a"], "red-2a", false)).toEqual(["red-1a", "red-3a"]);
    expect(toggleQuestCard(["red-1a", "red-3a"], "tome-1", false)).toEqual(["red-1a", "red-3a", "tome-1"]);
    expect(toggleQuestCard(["red-1a", "red-3a"], "blue-1a", false)).toBeNull();
    expect(toggleQuestCard(["red-1a", "red-3a", "tome-1"], "red-5a", false)).toEqual(["red-1a", "red-3a", "red-5a"]);
    expect(toggleQuestCard(["tome-1", "red-3a", "red-1a"], "blue-1a", false)).toBeNull();
    expect(toggleQuestCard(["tome-1", "tome-2", "red-1a"], "blue-1a", false)).toEqual(["tome-1", "tome-2", "blue-1a"]);
  });

  it("the move is the engine's all-at-once A4 and is labelled card by card", () => {
    const m = questMove(["red-1a", "red-2a", "tome-1"], [1, 1, 0]);
    expect(m).toEqual({ action: "quest", cards: ["red-1a", "red-2a", "tome-1"], piles: [1, 1, 0] });
    expect(moveLabel(m, en, names)).toBe("start a quest: <red-1a> on pile 2, <red-2a> on pile 2, <tome-1> on pile 1, draw 1");
    for (const lang of ["de", "cs"] as const) {
      const label = moveLabel(m, (k, p) => inhTranslate(lang, k, p), names);
      expect(label).not.toMatch(/inh\.|\{/);
    }
    expect(inhTranslate("cs", "inh.quest_need", { n: 2 })).toBe("Vyber v ruce ještě 2 karty stejné barvy.");
    expect(inhTranslate("cs", "inh.quest_need", { n: 1 })).toBe("Vyber v ruce ještě 1 kartu stejné barvy.");
    expect(inhTranslate("de", "inh.quest_need", { n: 2 })).toBe("Wähle noch 2 Karten derselben Farbe aus deiner Hand.");
  });
});
