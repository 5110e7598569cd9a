import { beforeEach, describe, expect, it, vi } from "vitest";

const store = vi.hoisted(() => ({
  loadGame: vi.fn(async () => null),
  loadLists: vi.fn(async () => undefined),
  onPushedView: vi.fn(),
  onChangeFrame: vi.fn(() => true),
  onSyncedView: vi.fn(),
  onChallengeEvent: vi.fn(),
  set: vi.fn(),
  state: { me: { username: "a" }, unread: 0 } as Record<string, unknown>,
}));
vi.mock("../src/store", () => store);

class FakeSocket {
  static OPEN = 1;
  static CONNECTING = 0;
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) { FakeSocket.last = this; }
  send(data: string) { this.sent.push(data); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(msg: unknown) { this.onmessage?.({ data: JSON.stringify(msg) }); }
}

Object.assign(globalThis, { WebSocket: FakeSocket, location: { protocol: "http:", host: "h", hash: "#/game/7" } });

describe("events socket", () => {
  beforeEach(() => { vi.clearAllMocks(); });

  it("reads the lists and the game on screen once the subscription to all games is acknowledged", async () => {
    const { connect, disconnect } = await import("../src/realtime");
    connect();
    const sock = FakeSocket.last!;
    sock.open();
    expect(JSON.parse(sock.sent[0])).toEqual({ type: "subscribe", games: "all" });
    // Opening alone reads nothing: a change made before the server has the subscription would be missed.
    expect(store.loadGame).not.toHaveBeenCalled();
    sock.receive({ type: "subscribed", games: "all" });
    expect(store.loadLists).toHaveBeenCalledTimes(1);
    expect(store.loadGame).toHaveBeenCalledWith(7);
    sock.receive({ type: "subscribed", games: [3], versions: { 3: 1 } });
    expect(store.loadGame).toHaveBeenCalledTimes(1);
    sock.receive({ type: "game", game_id: 7, version: 5, view: { id: 7 } });
    expect(store.onPushedView).toHaveBeenCalledWith(7, 5, { id: 7 });
    disconnect();
  });

  it("hands every challenge event with its challenge to the store", async () => {
    const { connect, disconnect } = await import("../src/realtime");
    connect();
    const sock = FakeSocket.last!;
    sock.open();
    const challenge = { id: "abc", status: "declined", decline_reason: "later" };
    sock.receive({ type: "challenge_declined", challenge });
    sock.receive({ type: "challenge_received", challenge: { id: "xyz" } });
    expect(store.onChallengeEvent).toHaveBeenNthCalledWith(1, "challenge_declined", challenge);
    expect(store.onChallengeEvent).toHaveBeenNthCalledWith(2, "challenge_received", { id: "xyz" });
    expect(store.loadLists).not.toHaveBeenCalled();
    disconnect();
  });
});

describe("change frames on the socket", () => {
  it("asks for change frames, applies them, and syncs when one does not apply", async () => {
    const { connect, disconnect } = await import("../src/realtime");
    connect();
    const sock = FakeSocket.last!;
    sock.open();
    expect(JSON.parse(sock.sent[1])).toEqual({ type: "frames", format: "patch" });
    store.onChangeFrame.mockReturnValueOnce(true);
    const patch = [{ op: "replace", path: "/version", value: 6 }];
    sock.receive({ type: "game", game_id: 7, version: 6, base: 5, events: [], patch });
    expect(store.onChangeFrame).toHaveBeenCalledWith(7, 5, 6, patch, undefined);
    expect(sock.sent).toHaveLength(2);
    store.onChangeFrame.mockReturnValueOnce(false);
    sock.receive({ type: "game", game_id: 7, version: 8, base: 7, events: [], patch });
    expect(JSON.parse(sock.sent[2])).toEqual({ type: "sync", game_id: 7, id: "frames-sync" });
    sock.receive({ type: "game", game_id: 7, version: 8, view: { id: 7 }, id: "frames-sync" });
    expect(store.onSyncedView).toHaveBeenCalledWith(7, 8, { id: 7 });
    expect(store.onPushedView).not.toHaveBeenCalled();
    disconnect();
  });
});
