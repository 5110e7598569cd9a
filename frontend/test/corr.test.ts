import { describe, expect, it } from "vitest";
import { formatInZone, formatRemaining, needsHomeScreen, poolOf, ratingChart, remainingNow, vapidKeyBytes } from "../src/corr";

const h = (pool: string, before: number, after: number, at: string) => ({ pool, game_id: 1, before, after, deviation: 80, at });

describe("rating chart", () => {
  it("scales one pool oldest→newest into the box, y range rounded to 50s", () => {
    const c = ratingChart([
      h("claim", 1540, 1600, "2026-11-03T10:00:00Z"),
      h("claim2", 1000, 2000, "2026-11-02T10:00:00Z"),
      h("claim", 1500, 1540, "2026-11-01T10:00:00Z"),
    ], "claim", 104, 54, 2);
    expect(c.points.map((p) => p.rating)).toEqual([1500, 1540, 1600]);
    expect(c.min).toBe(1500);
    expect(c.max).toBe(1600);
    expect(c.points[0]).toMatchObject({ x: 2, y: 52 });
    expect(c.points[2]).toMatchObject({ x: 102, y: 2 });
    expect(c.points[1].x).toBe(52);
    expect(c.path.startsWith("M2 52 L52")).toBe(true);
    expect(c.ticks).toEqual([1500, 1550, 1600]);
  });
  it("a flat history gets a 100-point range; no games → empty", () => {
    const c = ratingChart([h("claim", 1500, 1500, "2026-11-01T10:00:00Z")], "claim", 100, 50, 0);
    expect(c.max - c.min).toBe(100);
    expect(c.points.every((p) => p.y > 0 && p.y < 50)).toBe(true);
    expect(ratingChart([], "claim", 100, 50).points).toEqual([]);
  });
});

describe("clock", () => {
  it("formats remaining time", () => {
    expect(formatRemaining(2 * 86400 + 4 * 3600 + 59, "en")).toBe("2 days 4 hr");
    expect(formatRemaining(5 * 3600 + 7 * 60, "en")).toBe("5 hr 7 min");
    expect(formatRemaining(12 * 60 + 30, "en")).toBe("12 min");
    expect(formatRemaining(3 * 86400, "en")).toBe("3 days");
    expect(formatRemaining(-5, "en")).toBe("0 min");
    expect(formatRemaining(null, "en")).toBe("");
    // Units in the reader's language, with its plural forms (issue 33: "d/h/m" everywhere, Czech "2 dní").
    expect(formatRemaining(2 * 86400 + 3600, "cs")).toBe("2 dny 1 h");
    expect(formatRemaining(5 * 86400, "cs")).toBe("5 dnů");
    expect(formatRemaining(86400 + 2 * 3600, "de")).toBe("1 Tg. 2 Std.");
  });
  it("counts down unless paused", () => {
    expect(remainingNow([100, null], 0, 30000, false)).toEqual([70, null]);
    expect(remainingNow([100, null], 0, 30000, true)).toEqual([100, null]);
    expect(remainingNow([10], 0, 30000, false)).toEqual([0]);
  });
  it("shows an instant in the viewer's time zone", () => {
    const iso = "2026-11-29T23:30:00Z";
    expect(formatInZone(iso, "Europe/Prague", "en")).toMatch(/Nov 30.*(00:30|12:30\s?AM)/);
    expect(formatInZone(iso, "America/New_York", "en")).toMatch(/Nov 29.*(18:30|6:30\s?PM)/);
    expect(formatInZone(iso, "UTC", "de")).toContain("23:30");
    expect(formatInZone(iso, "Not/AZone", "de")).toContain("23:30"); // bad zone → UTC
    expect(formatInZone(null, "UTC", "en")).toBe("");
  });
});

describe("push", () => {
  it("iOS needs the home screen first", () => {
    const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
    expect(needsHomeScreen(iphone, false)).toBe(true);
    expect(needsHomeScreen(iphone, true)).toBe(false);
    expect(needsHomeScreen("Mozilla/5.0 (Linux; Android 14) Chrome/120 Mobile", false)).toBe(false);
  });
  it("decodes the URL-safe VAPID key", () => {
    expect([...vapidKeyBytes("AQID_-8")]).toEqual([1, 2, 3, 255, 239]);
  });
  it("names pools", () => {
    expect(poolOf("claim", 2)).toBe("claim");
    expect(poolOf("claim-mix", 4)).toBe("claim-mix-4p");
  });
});
