// Pure helpers of the Inheritors table, on real engine views (test/inheritors-fixture.json is a 3-seat AI
// self-play game dumped from games/rules/inheritors: its first view, one view per pending decision, a
// post-action window with a claim, and the final view with the result).
import { describe, expect, it } from "vitest";
import { INH_EN, INH_RULES, INH_TABLES, inhCards, inhTranslate } from "../src/i18n/inheritors";
import {
  ADVOCATES, CLAN_COLOURS, COLOURS, cardTint, eventText, recentEvents, groupMoves, inhView, moveCard, moveId, moveKind, moveLabel, orderCardMoves,
  outcomeOf, parseInhCard, pendingKey, scoreTable, seatLabels, seatOrder, sortHand, stacksInOrder, influenceOf, turnState,
  pileOf, type InhEvent, type InhResult, type InhView, type Move, type Names,
} from "../src/inheritors";
import { claimView } from "./fixtures";
import fixture from "./inheritors-fixture.json";

type Snap = { view: InhView; legal_moves: Move[] };
const F = fixture as unknown as { start: Snap; pending: Record<string, Snap>; post: Snap; end: Snap };
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

const names: Names = {
  card: (id) => `<${id}>`, seat: (s) => `S${s}`, colour: (c) => c.toUpperCase(), clan: (c) => `clan:${c}`,
  honor: (h) => `honor:${h}`, advocate: (a) => `adv:${a}`, pileSize: (p) => [3, 1, 5][p], cards: (n) => inhCards("en", n),
};
const en = (key: string, params?: Record<string, string | number>) => inhTranslate("en", key, params);

describe("Inheritors cards", () => {
  it("parses every kind of card id", () => {
    expect(parseInhCard("red-3a")).toEqual({ id: "red-3a", kind: "influence", colour: "red", value: 3, advocate: null });
    expect(parseInhCard("relic-blue")).toMatchObject({ kind: "relic", colour: "blue" });
    expect(parseInhCard("tome-6").kind).toBe("tome");
    expect(parseInhCard("epic-2").kind).toBe("epic");
    expect(parseInhCard("saboteur-1")).toMatchObject({ kind: "advocate", advocate: "saboteur", colour: "white" });
    expect(() => parseInhCard("goblin-3")).toThrow();
    expect(() => parseInhCard("black-3a")).toThrow();
  });

  it("parses every card the real views show", () => {
    const ids = new Set<string>();
    for (const s of [F.start, F.end, F.post, ...Object.values(F.pending)]) {
      s.view.hand?.forEach((c) => ids.add(c));
      s.view.market.flat().forEach((c) => ids.add(c));
      s.view.removed.forEach((c) => ids.add(c));
      s.view.hands?.flat().forEach((c) => ids.add(c));
      s.view.players.forEach((p) => Object.values(p.stacks).forEach((st) => st.cards.forEach((c) => ids.add(c))));
    }
    expect(ids.size).toBeGreaterThan(30);
    for (const id of ids) expect(() => parseInhCard(id), id).not.toThrow();
  });

  it("tints: realm colours, white advocates, wild tomes and epics", () => {
    expect(cardTint("green-1a")).toBe("green");
    expect(cardTint("relic-yellow")).toBe("yellow");
    expect(cardTint("spy-2")).toBe("white");
    expect(cardTint("tome-1")).toBe("wild");
    expect(cardTint("epic-3")).toBe("wild");
  });

  it("sorts a hand: influence by colour and value, then relics, tomes, epics, advocates", () => {
    expect(sortHand(["spy-2", "tome-1", "blue-1a", "relic-red", "red-4a", "red-1b", "epic-1", "advisor-3"]))
      .toEqual(["red-1b", "red-4a", "blue-1a", "relic-red", "tome-1", "epic-1", "advisor-3", "spy-2"]);
    const hand = F.start.view.hand!;
    expect(sortHand(hand).slice().sort()).toEqual(hand.slice().sort());
  });
});

describe("Inheritors legal moves as controls", () => {
  it("reads the view out of a game payload only for Inheritors", () => {
    expect(inhView({ view: F.start.view })?.seats).toBe(3);
    expect(inhView({ view: claimView() })).toBeNull();
    expect(inhView({ view: null })).toBeNull();
  });

  it("move ids are stable and independent of key order", () => {
    expect(moveId({ pile: 0, card: "red-1a", action: "discard_draw" })).toBe("action=discard_draw;card=red-1a;pile=0");
    expect(moveId({ end_turn: true })).toBe("end_turn=true");
    const ids = F.start.legal_moves.map(moveId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("groups the opening moves by hand card; every card move uses a card of my hand", () => {
    const { view, legal_moves } = F.start;
    const g = groupMoves(legal_moves);
    const hand = new Set(view.hand);
    for (const c of g.byCard.keys()) expect(hand.has(c)).toBe(true);
    // A2 (discard one, draw two) is legal with every card: every hand card has a control
    expect([...g.byCard.keys()].sort()).toEqual([...hand].sort());
    const total = [...g.byCard.values()].reduce((a, ms) => a + ms.length, 0) + g.other.length;
    expect(total).toBe(legal_moves.length);
    for (const m of g.other) expect(moveCard(m)).toBeNull();
  });

  it("pending decisions: hand-card answers go to the cards, the others to buttons", () => {
    const q = F.pending.quest_discard;
    expect(groupMoves(q.legal_moves).other).toEqual([]);
    expect(moveKind(q.legal_moves[0])).toBe("discard");
    const spy = F.pending.spy;
    expect(groupMoves(spy.legal_moves).byCard.size).toBe(0);
    const ask = spy.legal_moves[0];
    if (!("ask" in ask)) throw new Error(`not a Spy question: ${moveId(ask)}`);
    expect(moveLabel(ask, en, names)).toBe(`Ask S${ask.ask} for ${ask.colour.toUpperCase()}`);
    const rat = F.pending.rat;
    expect(groupMoves(rat.legal_moves).byCard.size).toBe(rat.view.hand!.length);
    const post = F.post;
    const other = groupMoves(post.legal_moves).other.map(moveKind);
    expect(other).toContain("end_turn");
    expect(other.some((k) => k === "claim_honor" || k === "claim_clan")).toBe(true);
  });

  it("labels every kind of move in words, never with the raw id", () => {
    const samples: Move[] = [
      { action: "play", card: "red-1a" }, { action: "discard_draw", card: "red-1a", pile: 2 },
      { action: "discard_take", card: "red-1a", pile: 0, take: 2 }, { action: "quest", card: "red-1a", pile: 1 },
      { action: "advocate", card: "spy-1" }, { play: "red-2a" }, { skip: true }, { discard: "red-1a", pile: 0 },
      { skip_play: "red-3a" }, { put_back: "red-1a" }, { claim_clan: "wolf" }, { claim_honor: "H3" }, { end_turn: true },
      { pass: true }, { ask: 1, colour: "red" }, { take_card: "blue-2a" }, { take_pile: 0 }, { agent_effect: "spy" },
    ];
    for (const m of samples) {
      const label = moveLabel(m, en, names);
      expect(label, moveId(m)).not.toBe(moveId(m));
      expect(label, moveId(m)).not.toMatch(/inh\.|\{/);
    }
    expect(moveLabel(samples[2], en, names)).toBe("<red-1a>: discard on pile 1, take pile 3 (5 cards)");
    expect(moveLabel(samples[2], en, names, false)).toBe("discard on pile 1, take pile 3 (5 cards)");
    expect(moveLabel({ take_pile: 0 }, en, names)).toBe("Take pile 1 (3 cards)");
    expect(moveLabel({ take_pile: 1 }, en, names)).toBe("Take pile 2 (1 card)");
    expect(moveLabel({ claim_honor: "H3" }, en, names)).toBe("Claim honor H3: honor:H3");
    expect(moveLabel({ play: "red-2a" }, en, names, false)).toBe("play it as a second card (Wolf)");
  });

  it("orders one card's sheet: play, advocate, take a pile, quest, then discard and draw", () => {
    const ms: Move[] = [
      { action: "discard_draw", card: "x", pile: 0 }, { action: "quest", card: "x", pile: 0 },
      { action: "discard_take", card: "x", pile: 0, take: 1 }, { action: "play", card: "x" }, { action: "discard_draw", card: "x", pile: 1 },
    ];
    expect(orderCardMoves(ms).map((m) => `${moveKind(m)}${pileOf(m) ?? ""}`)).toEqual(["play", "discard_take0", "quest0", "discard_draw0", "discard_draw1"]);
  });
});

describe("Inheritors event log", () => {
  it("puts the public events of real views in words and skips bookkeeping", () => {
    let shown = 0;
    for (const s of [F.start, F.post, F.end, ...Object.values(F.pending)]) {
      for (const e of s.view.log) {
        const text = eventText(e, en, names);
        if (text === null) continue;
        shown++;
        expect(text, JSON.stringify(e)).not.toMatch(/inh\.|\{|undefined|NaN/);
      }
    }
    expect(shown).toBeGreaterThan(20);
    expect(eventText({ type: "action", seat: 0, action: "play" }, en, names)).toBeNull();
    expect(eventText({ type: "discard", seat: 1, card: "red-1a", pile: 2, reason: "discard_draw" }, en, names))
      .toBe("S1 discarded <red-1a> on pile 3");
    expect(eventText({ type: "take_pile", seat: 0, pile: 0, cards: ["a", "b"], reason: "discard_take" }, en, names))
      .toBe("S0 took pile 1 (2 cards)");
    expect(eventText({ type: "draw", seat: 2, count: 0 }, en, names)).toBeNull();
  });

  it("lists the newest events first, at most the limit", () => {
    const log: InhEvent[] = [{ type: "turn", seat: 0, turn: 1 }, { type: "draw", seat: 0, count: 2 }, { type: "end_turn", seat: 0 },
      { type: "turn", seat: 1, turn: 2 }];
    expect(recentEvents(log, en, names)).toEqual(["Turn 2: S1", "S0 drew 2 cards", "Turn 1: S0"]);
    expect(recentEvents(log, en, names, 1)).toEqual(["Turn 2: S1"]);
  });
});

describe("Inheritors turn, seats and scores", () => {
  it("tells apart seats with the same name", () => {
    expect(seatLabels(["ann", "AI (Squire)", "AI (Squire)", "AI (Knight)"])).toEqual(["ann", "AI (Squire) #2", "AI (Squire) #3", "AI (Knight)"]);
  });

  it("seat order starts with me and goes clockwise", () => {
    expect(seatOrder(2, 4)).toEqual([2, 3, 0, 1]);
    expect(seatOrder(null, 3)).toEqual([0, 1, 2]);
  });

  it("who must act, including several seats at once (Saboteur)", () => {
    const v = F.start.view;
    expect(turnState(v, v.to_act[0])).toEqual({ kind: "mine", others: [] });
    const other = (v.to_act[0] + 1) % 3;
    expect(turnState(v, other)).toEqual({ kind: "waiting", seats: v.to_act });
    const sab: InhView = { ...v, to_act: [0, 2], pending: { kind: "saboteur_discard", seat: 1, waiting: [0, 2] } };
    expect(turnState(sab, 0)).toEqual({ kind: "mine", others: [2] });
    expect(turnState(sab, 1)).toEqual({ kind: "waiting", seats: [0, 2] });
    expect(pendingKey(sab, 2)).toBe("inh.p.saboteur_discard");
    expect(pendingKey(sab, 1)).toBeNull();
    expect(turnState(F.end.view, 0)).toEqual({ kind: "over" });
    for (const [kind, s] of Object.entries(F.pending)) {
      const me = s.view.seat!;
      expect(pendingKey(s.view, me)).toBe(`inh.p.${kind}`);
      expect(INH_EN).toHaveProperty(`inh.p.${kind}`);
    }
  });

  it("the scoring table is the result's S1-S5 breakdown and total, in my seat order", () => {
    const r = F.end.view.result as InhResult;
    const order = seatOrder(1, 3);
    const rows = scoreTable(r, order);
    expect(rows.map((x) => x.row)).toEqual(["influence", "tomes", "relics", "quests", "honors", "total"]);
    for (const { row, values } of rows) expect(values).toEqual(order.map((s) => r.scores[s][row]));
    const total = rows.find((x) => x.row === "total")!.values;
    const parts = rows.filter((x) => x.row !== "total");
    order.forEach((_, i) => expect(parts.reduce((a, x) => a + x.values[i], 0)).toBe(total[i]));
    const w = r.winners[0];
    expect(outcomeOf(r, w)).toBe(r.winners.length > 1 ? "shared" : "win");
    expect(outcomeOf(r, (w + 1) % 3)).toBe("loss");
    expect(outcomeOf({ ...r, winner: null, winners: [0, 2] }, 2)).toBe("shared");
  });

  it("influence and stacks of a tableau follow the view", () => {
    const v = F.end.view;
    const r = v.result as InhResult;
    v.players.forEach((p, s) => {
      expect(influenceOf(p)).toBe(r.scores[s].influence);
      const order = stacksInOrder(p, v.colours).map(([c]) => c);
      expect(order).toEqual(v.colours.filter((c) => p.stacks[c]));
    });
  });
});

describe("Inheritors translations and rules page", () => {
  it("every English key exists, non-empty, with the same placeholders, in de and cs", () => {
    for (const lang of ["de", "cs"] as const) {
      const table = INH_TABLES[lang] as Record<string, string>;
      // en's keys, plus the extra plural variants of en's plural messages ("inh.cards#few" in cs)
      const own = Object.keys(table).filter((k) => k in INH_EN || !(`${k.split("#")[0]}#other` in INH_EN));
      expect(own.sort()).toEqual(Object.keys(INH_EN).sort());
      for (const [k, v] of Object.entries(INH_EN)) {
        expect(table[k].trim(), `${lang} ${k}`).not.toBe("");
        expect(placeholders(table[k]), `${lang} ${k}`).toEqual(placeholders(v));
      }
    }
  });

  it("counts cards with each language's plural forms", () => {
    expect([1, 2, 5].map((n) => inhCards("en", n))).toEqual(["1 card", "2 cards", "5 cards"]);
    expect([1, 3].map((n) => inhCards("de", n))).toEqual(["1 Karte", "3 Karten"]);
    expect([1, 3, 5, 0].map((n) => inhCards("cs", n))).toEqual(["1 karta", "3 karty", "5 karet", "0 karet"]);
  });

  it("names every colour, advocate, clan and honor the engine has", () => {
    const keys = [
      ...COLOURS.map((c) => `inh.c.${c}`), "inh.c.white", ...ADVOCATES.map((a) => `inh.a.${a}`),
      ...Object.keys(CLAN_COLOURS).map((c) => `inh.clan.${c}`), ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `inh.h.H${n}`),
    ];
    for (const k of keys) expect(INH_EN, k).toHaveProperty(k);
    for (const h of F.start.view.honor_row) expect(inhTranslate("en", `inh.h.${h.id}`)).toBe(h.text);
  });

  it("the rules page lists the provisional data of the engine in every language", () => {
    const provisional = Object.keys(F.start.view.provisional);
    for (const lang of ["en", "de", "cs"] as const) {
      const r = INH_RULES[lang];
      expect(r.provisional.length).toBe(provisional.length);
      expect(r.provisionalTitle).toContain("[P]");
      expect(r.sections.length).toBeGreaterThanOrEqual(4);
    }
  });
});
