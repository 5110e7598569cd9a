// Issue 37: the socket's `review` event (a game's review being computed) reaches the review screen as `claim:review`;
// a frame that only looks like one (another status, a game id that is no number) does not.
import { describe, expect, it, vi } from "vitest";

const store = vi.hoisted(() => ({
  loadGame: vi.fn(async () => null), loadLists: vi.fn(async () => undefined), onPushedView: vi.fn(), onChangeFrame: vi.fn(() => true),
  onSyncedView: vi.fn(), onChallengeEvent: vi.fn(), readGameNotes: vi.fn(), set: vi.fn(), state: { me: { username: "a" }, unread: 0 },
}));
vi.mock("../src/store", () => store);

class FakeSocket {
  static OPEN = 1;
  static CONNECTING = 0;
  static last: FakeSocket | null = null;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) { FakeSocket.last = this; }
  send() { /* nothing to check here */ }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(msg: unknown) { this.onmessage?.({ data: JSON.stringify(msg) }); }
}
const win = new EventTarget();
Object.assign(globalThis, { WebSocket: FakeSocket, window: win, document: { addEventListener: () => undefined, visibilityState: "visible" }, location: { protocol: "http:", host: "h", hash: "#/game/7/review" } });

describe("the review event on the socket", () => {
  it("is handed to the screens as claim:review", async () => {
    const { connect, disconnect } = await import("../src/realtime");
    const heard: unknown[] = [];
    win.addEventListener("claim:review", (e) => heard.push((e as CustomEvent).detail));
    connect();
    const sock = FakeSocket.last!;
    sock.open();
    const ev = { type: "review", game_id: 7, status: "running", progress: { done: 3, total: 9 } };
    sock.receive(ev);
    sock.receive({ type: "review", game_id: "7", status: "running", progress: { done: 3, total: 9 } });
    sock.receive({ type: "review", game_id: 7, status: "whatever", progress: { done: 3, total: 9 } });
    sock.receive({ type: "tournament", tournament_id: 7, event: "round_started" });
    expect(heard).toEqual([ev]);
    disconnect();
  });
});
