import { describe, expect, it } from "vitest";
import { choiceView, describeTimeControl, seatLeft, TIME_CHOICES } from "../src/corr";
import { translate, type Translate } from "../src/i18n";
import { parseRoute } from "../src/router";
import swTemplate from "../scripts/sw-template.js?raw";

const tr: Translate = (k, ...p) => translate("en", k, ...p);

describe("clock seats", () => {
  const now = Date.parse("2026-11-29T12:00:00Z");
  it("a running seat counts down to its deadline; a waiting bank shows what it holds", () => {
    expect(seatLeft({ index: 0, running: true, deadline: "2026-11-30T13:30:00Z", left_seconds: null, vacation: null }, now)).toBe(25 * 3600 + 1800);
    expect(seatLeft({ index: 1, running: false, deadline: null, left_seconds: 255600, vacation: null }, now)).toBe(255600);
    expect(seatLeft({ index: 1, running: true, deadline: "2026-11-29T11:00:00Z", left_seconds: null, vacation: null }, now)).toBe(0);
    expect(seatLeft({ index: 2, running: false, deadline: null, left_seconds: null, vacation: null }, now)).toBeNull();
  });
});

describe("time controls", () => {
  it("offers days per move, banks and unlimited with the bodies the API takes", () => {
    expect(TIME_CHOICES.map((c) => c.id)).toEqual(["d1", "d2", "d3", "d5", "d7", "d14", "b3+1", "b7+2", "unlimited"]);
    expect(TIME_CHOICES.find((c) => c.id === "d3")!.body).toEqual({ type: "days", days_per_move: 3 });
    expect(TIME_CHOICES.find((c) => c.id === "b3+1")!.body).toEqual({ type: "bank", initial_seconds: 259200, increment_seconds: 86400, cap_seconds: 604800 });
    expect(TIME_CHOICES.find((c) => c.id === "unlimited")!.body).toEqual({ type: "unlimited" });
  });
  it("describes a payload's time control", () => {
    expect(describeTimeControl({ type: "correspondence", days_per_move: 3 }, tr, "en")).toBe("3 days per move");
    expect(describeTimeControl({ type: "correspondence", days_per_move: 1 }, tr, "en")).toBe("1 day per move");
    expect(describeTimeControl({ type: "unlimited" }, tr, "en")).toBe("No time limit");
    expect(describeTimeControl(choiceView(TIME_CHOICES.find((c) => c.id === "b3+1")!), tr, "en")).toBe("Bank 3 days + 1 day per move (max 7 days)");
  });
});

describe("Web Push target (service worker)", () => {
  // The function the service worker runs, taken from its template and run against a fake worker origin.
  const body = swTemplate.match(/function pushTarget\(d\) \{[\s\S]*?\n\}\n/)![0];
  const pushTarget = new Function("self", `${body}; return pushTarget;`)({ location: { origin: "https://claim.example.org" } }) as (d: object) => string;

  it("opens the server's hash route on this origin, which the router resolves to the game", () => {
    const url = pushTarget({ game_id: 7, url: "https://claim.example.org/#/game/7" });
    expect(url).toBe("/#/game/7");
    expect(parseRoute(url.slice(url.indexOf("#")))).toEqual({ name: "game", arg: "7" });
    expect(pushTarget({ game_id: null, url: "https://claim.example.org/#/notes" })).toBe("/#/notes");
  });
  it("builds the route from game_id when the url is elsewhere or missing", () => {
    expect(pushTarget({ game_id: 9, url: "https://other.example/#/game/9" })).toBe("/#/game/9");
    expect(pushTarget({ game_id: 9 })).toBe("/#/game/9");
    expect(pushTarget({})).toBe("/#/notes");
  });
});
