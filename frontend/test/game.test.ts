import { describe, expect, it } from "vitest";
import { backoff, inboxOrder, normGame, versionAction } from "../src/game";
import { apiSeat, gameView, summary, timeControl } from "./fixtures";

describe("version-gap detection", () => {
  it("applies the next version, ignores old ones, re-fetches after a gap", () => {
    expect(versionAction(undefined, 5)).toBe("apply");
    expect(versionAction(4, 5)).toBe("apply");
    expect(versionAction(5, 5)).toBe("ignore");
    expect(versionAction(6, 5)).toBe("ignore");
    expect(versionAction(4, 6)).toBe("resync");
    expect(versionAction(0, 9)).toBe("resync");
  });
  it("reconnect backoff grows to 30 s with jitter", () => {
    expect(backoff(0, 0.5)).toBe(1000);
    expect(backoff(3, 0.5)).toBe(8000);
    expect(backoff(10, 0.5)).toBe(30000);
    expect(backoff(0, 0)).toBe(800);
    expect(backoff(0, 1)).toBe(1200);
  });
});

describe("game payloads", () => {
  const payload = gameView({
    id: 7, kind: "claim", status: "open", version: 1, my_seat: 1, my_turn: false, to_act: [],
    seats: [
      apiSeat({ index: 0, type: "user", username: "alice", name: "Alice", joined: true, you: false }),
      apiSeat({ index: 1, type: "user", username: "bob", name: "bob", joined: false, you: true }),
    ],
    time_control: timeControl({ type: "correspondence", days_per_move: 3 }), deadline: null, view: null, invite_code: "K7QX",
  });
  it("reads the API's game payload", () => {
    const g = normGame(payload);
    expect(g.id).toBe(7);
    expect(g.mySeat).toBe(1);
    expect(g.daysPerMove).toBe(3);
    expect(g.invitedMe).toBe(true);
    expect(g.seats[0].name).toBe("Alice");
    expect(g.code).toBe("K7QX");
    const ai = normGame({ ...payload, status: "active", seats: [payload.seats[0], apiSeat({ index: 1, type: "ai", ai_level: 2, name: "AI (Knight)" })] });
    expect(ai.seats[1].ai).toBe(2);
    expect(ai.seats[1].open).toBe(false);
    expect(normGame(summary({ seats: [apiSeat({ index: 1, type: "open" })] })).seats[0]).toMatchObject({ open: true, name: "?", ai: null });
    expect(ai.invitedMe).toBe(false);
  });
  it("orders the inbox: my turn first by deadline, then the rest by last change", () => {
    const g = (id: number, myTurn: boolean, deadline: string | null, updated: string) =>
      normGame(summary({ id, status: "active", my_turn: myTurn, deadline, updated_at: updated, seats: [] }));
    const order = inboxOrder([
      g(1, false, null, "2026-11-20T00:00:00Z"),
      g(2, true, "2026-12-05T00:00:00Z", "2026-11-01T00:00:00Z"),
      g(3, true, "2026-12-01T00:00:00Z", "2026-11-01T00:00:00Z"),
      g(4, false, null, "2026-11-25T00:00:00Z"),
      g(5, true, null, "2026-11-01T00:00:00Z"),
    ]).map((x) => x.id);
    expect(order).toEqual([3, 2, 5, 4, 1]);
  });
});
