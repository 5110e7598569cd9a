import { describe, expect, it, vi } from "vitest";
import { claimView, fakeBrowser, gameView, summary as row } from "./fixtures";

const api = vi.hoisted(() => {
  let answer: (value: { data: Record<string, unknown>; offline: boolean }) => void = () => undefined;
  const cache = new Map<string, unknown>();
  return {
    cache,
    peekCached: vi.fn((path: string) => cache.get(path) ?? null),
    api: vi.fn(),
    ApiError: class extends Error {},
    clearCache: vi.fn(),
    setApiLanguage: vi.fn(),
    storeCached: vi.fn(),
    getCached: vi.fn(() => new Promise((resolve) => { answer = resolve; })),
    answer: (data: Record<string, unknown>) => answer({ data, offline: false }),
  };
});
vi.mock("../src/api", () => api);
fakeBrowser();

const view = (version: number) => gameView({ id: 7, version, status: "active", kind: "claim", seats: [] });

describe("loading a game", () => {
  it("keeps a newer view pushed while the GET was in flight", async () => {
    const { loadGame, onPushedView, putGame, state } = await import("../src/store");
    putGame(view(1));
    const loading = loadGame(7);
    onPushedView(7, 2, view(2)); // the AI moved right after the game was created
    api.answer(view(1)); // the GET was answered before that move
    await loading;
    expect(state.games[7].version).toBe(2);
  });

  it("heals a wrong version held from before the GET", async () => {
    const { loadGame, putGame, state } = await import("../src/store");
    putGame(view(9), true);
    const loading = loadGame(7);
    api.answer(view(5));
    await loading;
    expect(state.games[7].version).toBe(5);
  });
});

describe("a reload", () => {
  it("shows the game stored on this device at once, then the server's answer", async () => {
    const { heldGame, loadGame, state } = await import("../src/store");
    expect(heldGame(8)).toBeUndefined();
    api.cache.set("/games/8", { ...view(30), id: 8, status: "finished" });
    const g = heldGame(8);
    expect(g?.status).toBe("finished");
    expect(g?.version).toBe(30);
    expect(state.games[8]).toBe(g); // held from now on: a list's summary row does not replace it
    expect(heldGame(8)).toBe(g);
    const loading = loadGame(8);
    api.answer({ ...view(31), id: 8, status: "finished" });
    await loading;
    expect(state.games[8].version).toBe(31);
  });

  it("ignores an unreadable stored game", async () => {
    const { heldGame } = await import("../src/store");
    api.cache.set("/games/9", "garbage");
    expect(heldGame(9)).toBeUndefined();
  });
});

describe("a list refresh", () => {
  it("does not undo a table's view that arrived while it was in flight", async () => {
    const { hasTableView } = await import("../src/game");
    const { loadLists, putGame, state } = await import("../src/store");
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => { release = ok; });
    const summary = row({ id: 11, version: 4, status: "active", kind: "claim", seats: [] });
    api.getCached.mockImplementation((async (path: string) => {
      await gate;
      const results = path.includes("active") ? [summary] : [];
      return { data: { count: results.length, results }, offline: false };
    }) as never);
    const refreshing = loadLists();
    putGame({ ...summary, view: claimView() });
    expect(hasTableView(state.games[11])).toBe(true);
    release();
    await refreshing;
    expect(state.lists.active).toEqual([11]);
    expect(hasTableView(state.games[11])).toBe(true); // the summary did not replace it
  });
});
