import { describe, expect, it } from "vitest";
import type { Result } from "../src/game";
import { tallyOf } from "../src/tally";

const F = ["goblin", "knight", "undead", "dwarf", "doppelganger"];

function result2(score: Record<string, string[]>[], votes: Record<string, number | null>, winner: number | null): Result {
  const counts = score.map((s) => Object.fromEntries(F.map((f) => [f, s[f]?.length ?? 0])));
  const reason = winner == null ? "draw" : `seat ${winner} won`;
  return { winner, winners: winner == null ? [] : [winner], votes, counts, score, reason };
}

describe("end screen tally (C8)", () => {
  it("C8.2 more cards, C8.3 the higher card of equal counts, C8.5 nobody at 0-0, C8.4 all equal", () => {
    const r = result2(
      [{ goblin: ["goblin-3", "goblin-1"], knight: ["knight-9"], undead: ["undead-4"], dwarf: [], doppelganger: [] },
        { goblin: ["goblin-2"], knight: ["knight-7"], undead: ["undead-4"], dwarf: ["dwarf-1"], doppelganger: [] }],
      { goblin: 0, knight: 0, undead: null, dwarf: 1, doppelganger: null }, 0);
    const t = tallyOf(r, F, 2, 0);
    expect(t.columns).toEqual([[0], [1]]);
    expect(t.lines.map((l) => l.why)).toEqual([
      { code: "more" }, { code: "higher", n: 1, a: 9, b: 7 }, { code: "equal", n: 1 }, { code: "more" }, { code: "none" },
    ]);
    expect(t.votes).toEqual([2, 1]);
    expect(t.game).toEqual({ code: "votes", col: 0, a: 2, b: 1 });
  });

  it("C8.7 tied votes: the cards in the factions won decide; seen from the other seat the columns swap", () => {
    const r = result2(
      [{ goblin: ["goblin-3", "goblin-1", "goblin-0"], knight: [], undead: [], dwarf: [], doppelganger: [] },
        { goblin: [], knight: ["knight-7"], undead: [], dwarf: [], doppelganger: [] }],
      { goblin: 0, knight: 1, undead: null, dwarf: null, doppelganger: null }, 0);
    expect(tallyOf(r, F, 2, 0).game).toEqual({ code: "cards", col: 0, v: 1, a: 3, b: 1 });
    const mirrored = tallyOf(r, F, 2, 1);
    expect(mirrored.columns).toEqual([[1], [0]]);
    expect(mirrored.game).toEqual({ code: "cards", col: 1, v: 1, a: 3, b: 1 });
    expect(mirrored.lines[0].counts).toEqual([0, 3]);
  });

  it("M7 four seats: columns are the teams (team_counts), votes are team indexes", () => {
    const r = { winner: null, winners: [1, 3], votes: { goblin: 1, knight: 0, undead: 1, dwarf: null, doppelganger: 1 },
      team_counts: [{ goblin: 1, knight: 3, undead: 2, dwarf: 1, doppelganger: 0 }, { goblin: 4, knight: 1, undead: 2, dwarf: 1, doppelganger: 2 }],
      counts: [], score: [], reason: "team 1 won 3 factions", teams: [[0, 2], [1, 3]], winning_team: 1 } satisfies Result;
    const t = tallyOf(r, F, 4, 0);
    expect(t.columns).toEqual([[0, 2], [1, 3]]);
    expect(t.votes).toEqual([1, 3]);
    expect(t.lines[2].why).toEqual({ code: "higher_n" });
    expect(t.lines[3].why).toEqual({ code: "equal", n: 1 });
    expect(t.game).toEqual({ code: "votes", col: 1, a: 3, b: 1 });
  });
});
