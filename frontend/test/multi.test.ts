import { describe, expect, it } from "vitest";
import { mixProblem, singlesFor } from "../src/cards";
import { myOutcome, opponentNames, othersClockwise, tricksPerPhase, partnerOf, seatOutcome, shortNames, voteSeats, type Game } from "../src/game";
import { TABLES } from "../src/i18n";
import { MULTI_POWERS, MULTI_RULINGS } from "../src/rules";
import { INH_DEVIATIONS } from "../src/i18n/inheritors";

describe("3-4 player Claim (claim-combined M3-M7)", () => {
  it("mix picker: one pair + 3 singles for 2 players, + 5 singles for 3-4 players", () => {
    const five = ["knight", "goblin", "undead", "dragon", "seer"];
    const seven = [...five, "troll", "dwarf"];
    expect(singlesFor(2)).toBe(3);
    expect(singlesFor(4)).toBe(5);
    expect(mixProblem(five)).toBeNull();
    expect(mixProblem(five, 3)).toBe("singles");
    expect(mixProblem(seven, 4)).toBeNull();
    expect(mixProblem(seven, 2)).toBe("singles");
    expect(mixProblem([...seven, "gnome", "giant"], 4)).toBe("pair");
  });
  it("partners sit diagonally; others are listed clockwise from my left", () => {
    expect(partnerOf(0, 4)).toBe(2);
    expect(partnerOf(3, 4)).toBe(1);
    expect(partnerOf(0, 3)).toBeNull();
    expect(othersClockwise(1, 4)).toEqual([2, 3, 0]); // left, across (partner), right
    expect(othersClockwise(2, 3)).toEqual([0, 1]);
    expect([2, 3, 4].map(tricksPerPhase)).toEqual([13, 12, 9]); // C3.2, M3.2: one trick per card dealt
  });
  it("outcomes from winners (shared wins, teams, draws) and team votes", () => {
    expect(seatOutcome({ winner: null, winners: [1, 3], votes: {}, counts: [], score: [], reason: "seat 1 won 3 factions" }, 3)).toBe("win");
    expect(seatOutcome({ winner: null, winners: [1, 3], votes: {}, counts: [], score: [], reason: "seat 1 won 3 factions" }, 0)).toBe("loss");
    expect(seatOutcome({ winner: null, winners: [], votes: {}, counts: [], score: [], reason: "seat 1 won 3 factions" }, 0)).toBe("draw");
    expect(seatOutcome({ winner: 1, votes: {}, counts: [], score: [], reason: "seat 1 won 3 factions" }, 1)).toBe("win");
    const over = (winners: number[], mySeat: number | null, status = "finished") =>
      ({ status, mySeat, result: { winner: winners.length === 1 ? winners[0] : null, winners } }) as unknown as Game;
    expect(myOutcome(over([0, 2], 2))).toBe("win"); // a team's win is not a draw (winner is null)
    expect(myOutcome(over([1, 3], 0))).toBe("loss");
    expect(myOutcome(over([], 0))).toBe("draw");
    expect(myOutcome(over([1], null))).toBeNull();
    expect(myOutcome(over([1], 1, "active"))).toBeNull();
    expect(voteSeats(1, 4)).toEqual([1, 3]);
    expect(voteSeats(2, 3)).toEqual([2]);
    expect(voteSeats(null, 4)).toEqual([]);
  });
  it("the rulings notice and the 3-4 player rules exist in every language", () => {
    for (const lang of ["en", "de", "cs"] as const) {
      expect(TABLES[lang]["rulings.notice"].length).toBeGreaterThan(40);
      expect(MULTI_RULINGS[lang].length).toBe(MULTI_RULINGS.en.length);
    }
  });
  it("the five powers the 3-4 player versions change, each with what we do and why, in every language", () => {
    for (const lang of ["en", "de", "cs"] as const) {
      expect(MULTI_POWERS[lang].map((p) => p.faction)).toEqual(["knight", "doppelganger", "seer", "dwarf", "giant"]);
      for (const p of MULTI_POWERS[lang]) expect(p.what.length > 10 && p.why.length > 10).toBe(true);
      expect(INH_DEVIATIONS[lang].items.length).toBe(4);
      expect(TABLES[lang]["table.smash_prompt"]).toContain("{gnome}");
    }
  });
});

describe("seat names in the tight spots of a 3-4 seat table", () => {
  const seat = (index: number, name: string, ai: number | null = null) => ({ index, name, ai }) as unknown as Game["seats"][number];
  it("AI seats by their level (and number), people by their first name, the full name when two would match", () => {
    const g = { seats: [seat(0, "Maximilian von Habsburg"), seat(1, "AI (Squire) 1", 1), seat(2, "AI (Squire) 2", 1),
      seat(3, "Maximilian Novák")] } as unknown as Game;
    expect(shortNames(g)).toEqual({ 0: "Maximilian von Habsburg", 1: "Squire 1", 2: "Squire 2", 3: "Maximilian Novák" });
    const h = { seats: [seat(0, "Zdeňka Nováková"), seat(1, "AI (King)", 3), seat(2, "bob_the_builder")] } as unknown as Game;
    expect(shortNames(h)).toEqual({ 0: "Zdeňka", 1: "King", 2: "bob_the_builder" });
  });
  it("a game's title names every opponent, and the partner apart in 4-seat Claim", () => {
    const four = ["Ann Lee", "AI (Squire) 1", "AI (Squire) 2", "AI (Squire) 3"].map((n, i) => seat(i, n, i ? 1 : null));
    const g = (kind: string, seats: Game["seats"], mySeat = 0) => ({ kind, seats, mySeat, view: null }) as unknown as Game;
    expect(opponentNames(g("claim-mix", four))).toEqual({ partner: "Squire 2", names: ["Squire 1", "Squire 3"] });
    expect(opponentNames(g("claim-mix", four, 1))).toEqual({ partner: "Squire 3", names: ["Squire 2", "Ann"] });
    expect(opponentNames(g("inheritors", four))).toEqual({ partner: null, names: ["Squire 1", "Squire 2", "Squire 3"] });
    expect(opponentNames(g("claim", four.slice(0, 2)))).toEqual({ partner: null, names: ["AI (Squire) 1"] });
  });
});
