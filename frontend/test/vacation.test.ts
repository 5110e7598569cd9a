import { describe, expect, it } from "vitest";
import { shortenChoices, vacationState } from "../src/corr";

describe("vacation on the clock", () => {
  const v = { start: "2026-12-05T00:00:00Z", end: "2026-12-10T00:00:00Z" };
  it("is ahead, under way, then gone", () => {
    expect(vacationState(v, Date.parse("2026-12-04T12:00:00Z"))).toBe("next");
    expect(vacationState(v, Date.parse("2026-12-05T00:00:00Z"))).toBe("on");
    expect(vacationState(v, Date.parse("2026-12-09T23:59:00Z"))).toBe("on");
    expect(vacationState(v, Date.parse("2026-12-10T00:00:00Z"))).toBeNull();
    expect(vacationState(null, 0)).toBeNull();
    expect(vacationState({ start: "x", end: "y" }, 0)).toBeNull();
  });
});

describe("shortening a period", () => {
  const base = { id: 1, start: "2026-12-05T00:00:00Z", end: "2026-12-10T00:00:00Z", days: 5, started: false, days_begun: 0 };
  it("offers 1 to one less than booked before the start", () => {
    expect(shortenChoices(base)).toEqual([1, 2, 3, 4]);
  });
  it("keeps the days begun once under way", () => {
    expect(shortenChoices({ ...base, started: true, days_begun: 3 })).toEqual([3, 4]);
    expect(shortenChoices({ ...base, started: true, days_begun: 5 })).toEqual([]);
  });
});
