// Change frames (docs/realtime.md): the store applies a patch to the full view held at its base, and refuses
// (so the socket asks for sync) when it holds another version or the patch does not apply.
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "../src/api";
import { fakeBrowser, gameView } from "./fixtures";

const api = vi.hoisted(() => ({
  peekCached: vi.fn(() => null),
  api: vi.fn(),
  ApiError: class extends Error {},
  clearCache: vi.fn(),
  setApiLanguage: vi.fn(),
  rows: vi.fn(),
  storeCached: vi.fn(),
  getCached: vi.fn(),
  isOffline: vi.fn(() => false),
  uuid: vi.fn(() => "u"),
}));
vi.mock("../src/api", () => api);
fakeBrowser();

const view = (id: number, version: number, extra: Partial<Schemas["GameView"]> = {}): Schemas["GameView"] =>
  gameView({ id, version, status: "active", kind: "claim", seats: [], my_turn: false, legal_moves: [], ...extra });

describe("change frames", () => {
  it("applies a patch whose base is the version held, giving the server's next view", async () => {
    const { onChangeFrame, putGame, state } = await import("../src/store");
    putGame(view(21, 4, { legal_moves: [] }));
    const ok = onChangeFrame(21, 4, 5, [
      { op: "replace", path: "/version", value: 5 },
      { op: "replace", path: "/my_turn", value: true },
      { op: "replace", path: "/legal_moves", value: [{ play: "knight-3" }] },
    ]);
    expect(ok).toBe(true);
    expect(state.games[21].version).toBe(5);
    expect(api.storeCached).toHaveBeenLastCalledWith("/games/21", view(21, 5, { my_turn: true, legal_moves: [{ play: "knight-3" }] }));
    // and the next one applies to that result
    expect(onChangeFrame(21, 5, 6, [{ op: "replace", path: "/version", value: 6 }])).toBe(true);
    expect(state.games[21].version).toBe(6);
    expect(state.lists.active[0]).toBe(21);
  });

  it("refuses a patch for another base (a missed version): the caller syncs", async () => {
    const { onChangeFrame, putGame, state } = await import("../src/store");
    putGame(view(22, 4));
    expect(onChangeFrame(22, 5, 6, [{ op: "replace", path: "/version", value: 6 }])).toBe(false);
    expect(state.games[22].version).toBe(4);
    expect(onChangeFrame(23, 1, 2, [{ op: "replace", path: "/version", value: 2 }])).toBe(false); // nothing held
  });

  it("refuses a patch that does not apply or gives another version", async () => {
    const { onChangeFrame, putGame, state } = await import("../src/store");
    putGame(view(24, 4));
    expect(onChangeFrame(24, 4, 5, [{ op: "remove", path: "/no/such/member" }])).toBe(false);
    expect(onChangeFrame(24, 4, 5, [{ op: "replace", path: "/my_turn", value: true }])).toBe(false); // still v4
    expect(state.games[24].version).toBe(4);
  });

  it("takes a change frame's view (its patch was larger), and ignores old news", async () => {
    const { onChangeFrame, putGame, state } = await import("../src/store");
    putGame(view(25, 4));
    expect(onChangeFrame(25, 4, 5, undefined, view(25, 5, { status: "finished" }))).toBe(true);
    expect(state.games[25].status).toBe("finished");
    expect(onChangeFrame(25, 3, 4, [{ op: "replace", path: "/version", value: 4 }])).toBe(true);
    expect(state.games[25].version).toBe(5);
  });
});
