// Issue 33 item 8: the AI seats' own names ("Ada (AI)") read as nobody's faction, level or number.
import { describe, expect, it } from "vitest";
import { opponentNames, seatLabel, seatName, shortNames, type Game } from "../src/game";

const seat = (index: number, name: string, ai: number | null = null) => ({ index, name, ai }) as unknown as Game["seats"][number];
const game = (kind: string, seats: Game["seats"], mySeat = 0) => ({ kind, seats, mySeat, view: null }) as unknown as Game;
const four = game("claim-mix", [seat(0, "Ann Lee"), seat(1, "Boris (AI)", 2), seat(2, "Cleo (AI)", 2), seat(3, "Dario (AI)", 1)]);

describe("AI seat names", () => {
  it("the tight spots show the AI's own name, no level, no number", () => {
    expect(shortNames(four, "en")).toEqual({ 0: "Ann", 1: "Boris", 2: "Cleo", 3: "Dario" });
    expect(opponentNames(four)).toEqual({ partner: "Cleo", names: ["Boris", "Dario"] });
    for (const name of Object.values(shortNames(four, "en"))) expect(name).not.toMatch(/Knight|Squire|King|\d/);
  });
  it("sentences name the AI in the reader's language, the header adds the level apart", () => {
    expect(seatName(four, 1, "en")).toBe("Boris (AI)");
    expect(seatName(four, 1, "de")).toBe("Boris (KI)");
    expect(seatName(four, 1, "cs")).toBe("Boris (AI)");
    expect(seatLabel(four, 1, "en")).toBe("Boris · AI, Knight level");
    expect(seatLabel(four, 3, "de")).toBe("Dario · KI, Stufe Squire");
    expect(seatLabel(four, 2, "cs")).toBe("Cleo · AI, úroveň Knight");
    expect(seatLabel(four, 0, "en")).toBe("Ann Lee");
    expect(opponentNames(game("claim", [seat(0, "Ann"), seat(1, "Boris (AI)", 3)]))).toEqual({ partner: null, names: ["Boris (AI)"] });
  });
  it("a person named like an AI seat's short name gets full names on both sides", () => {
    const g = game("inheritors", [seat(0, "Ann"), seat(1, "Cleo (AI)", 1), seat(2, "Cleo Smith")]);
    expect(shortNames(g, "de")).toEqual({ 0: "Ann", 1: "Cleo (KI)", 2: "Cleo Smith" });
  });
});
