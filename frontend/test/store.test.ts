import { describe, expect, it, vi } from "vitest";

const api = vi.hoisted(() => {
  let answer: (value: { data: Record<string, unknown>; offline: boolean }) => void = () => undefined;
  return {
    api: vi.fn(),
    ApiError: class extends Error {},
    clearCache: vi.fn(),
    rows: vi.fn(),
    storeCached: vi.fn(),
    getCached: vi.fn(() => new Promise((resolve) => { answer = resolve; })),
    answer: (data: Record<string, unknown>) => answer({ data, offline: false }),
  };
});
vi.mock("../src/api", () => api);
const memory = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => memory.get(k) ?? null, setItem: (k: string, v: string) => memory.set(k, v),
    removeItem: (k: string) => memory.delete(k) },
  navigator: { language: "en" },
});

const view = (version: number) => ({ id: 7, version, status: "active", kind: "claim", seats: [] });

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
