import { describe, expect, it } from "vitest";
import { cardName, dimReason, groupByFaction, legalCards, mixProblem, parseCard, sortCards, type TableState } from "../src/cards";

describe("card names", () => {
  it("names cards for screen readers", () => {
    expect(cardName("knight-7")).toBe("Knight 7");
    expect(cardName("goblin-0")).toBe("Goblin 0");
    expect(cardName("doppelganger-3")).toBe("Doppelganger 3");
    expect(cardName("seer-9", "de")).toBe("Seher 9");
    expect(cardName("dwarf-4", "cs")).toBe("Trpaslík 4");
    expect(cardName("undead-1", "de")).toBe("Untoter 1");
  });
  it("rejects unknown ids", () => {
    expect(() => parseCard("wizard-3")).toThrow();
    expect(() => parseCard("knight-10")).toThrow();
    expect(() => parseCard("knight")).toThrow();
  });
  it("sorts by faction order then value, groups high to low", () => {
    expect(sortCards(["undead-2", "goblin-9", "goblin-0", "knight-3"])).toEqual(["goblin-0", "goblin-9", "knight-3", "undead-2"]);
    expect(groupByFaction(["goblin-1", "goblin-7", "dwarf-2"], ["goblin", "knight", "dwarf"]))
      .toEqual({ goblin: ["goblin-7", "goblin-1"], knight: [], dwarf: ["dwarf-2"] });
  });
});

describe("legal-card highlighting", () => {
  const base: TableState = {
    hand: ["goblin-0", "knight-2", "doppelganger-1", "dwarf-9"],
    legal_moves: [{ play: "goblin-0" }, { play: "doppelganger-1" }],
    my_turn: true,
    over: false,
    current_trick: [{ seat: 1, card: "goblin-3" }],
    factions: ["goblin", "knight", "undead", "dwarf", "doppelganger"],
  };
  it("legal cards come from the server's legal moves (C9.3)", () => {
    expect([...legalCards(base.legal_moves)].sort()).toEqual(["doppelganger-1", "goblin-0"]);
    expect(dimReason("goblin-0", base)).toBeNull();
    expect(dimReason("doppelganger-1", base)).toBeNull();
  });
  it("explains why a card is dimmed", () => {
    expect(dimReason("knight-2", base)).toEqual({ code: "must_follow", faction: "goblin", doppel: true });
    expect(dimReason("dwarf-9", { ...base, factions: ["goblin", "knight", "gnome", "giant", "dwarf"] }))
      .toEqual({ code: "must_follow", faction: "goblin", doppel: false });
    expect(dimReason("undead-9", { ...base, hand: ["doppelganger-0", "undead-9"], legal_moves: [{ play: "doppelganger-0" }],
      current_trick: [{ seat: 1, card: "doppelganger-4" }] })).toEqual({ code: "must_doppel" });
    expect(dimReason("goblin-0", { ...base, my_turn: false, legal_moves: [] })).toEqual({ code: "not_your_turn" });
    expect(dimReason("goblin-0", { ...base, over: true })).toEqual({ code: "game_over" });
    expect(dimReason("goblin-0", { ...base, legal_moves: [{ seer: "prize" }, { seer: "top" }] })).toEqual({ code: "seer_choice" });
    // M6.5 a pending Giant choice: no card may be played until the winner chose whose Gnome
    expect(dimReason("goblin-0", { ...base, legal_moves: [{ smash: 1 }, { smash: 2 }] })).toEqual({ code: "smash_choice" });
  });
  it("every card is legal for the leader", () => {
    const lead = { ...base, current_trick: [], legal_moves: base.hand.map((c) => ({ play: c })) };
    for (const c of base.hand) expect(dimReason(c, lead)).toBeNull();
  });
});

describe("claim-mix faction picker (M1.2, M2.1)", () => {
  it("needs exactly one whole pair and three singles", () => {
    expect(mixProblem(["knight", "goblin", "undead", "dragon", "seer"])).toBeNull();
    expect(mixProblem(["gnome", "giant", "dwarf", "troll", "doppelganger"])).toBeNull();
    expect(mixProblem(["knight", "undead", "dragon", "seer", "troll"])).toBe("pair");
    expect(mixProblem(["knight", "goblin", "gnome", "giant", "seer"])).toBe("pair");
    expect(mixProblem(["undead", "dwarf", "dragon", "troll", "seer"])).toBe("pair");
    expect(mixProblem(["knight", "goblin", "undead", "dragon"])).toBe("singles");
    expect(mixProblem(["knight", "goblin", "undead", "dragon", "seer", "troll"])).toBe("singles");
  });
});
