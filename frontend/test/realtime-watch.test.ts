// Issue 35: the socket's spectator feed (src/realtime.ts): `watch` / `unwatch`, asked for again after a reconnect
// (not once the server ended it), its frames handed to the screens as `claim:watch`; `followed` as `claim:followed`.
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
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(public url: string) { FakeSocket.last = this; }
  send(data: string) { this.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; }
  open() { this.readyState = 1; this.onopen?.(); }
  receive(msg: unknown) { this.onmessage?.({ data: JSON.stringify(msg) }); }
}
const win = new EventTarget();
Object.assign(globalThis, { WebSocket: FakeSocket, window: win, document: { addEventListener: () => undefined, visibilityState: "visible" }, location: { protocol: "http:", host: "h", hash: "#/watch/7" } });

describe("the spectator feed on the socket", () => {
  it("watches, hands frames on, unwatches; watches again after a reconnect unless the server ended it", async () => {
    const { connect, disconnect, unwatchGame, watchGame } = await import("../src/realtime");
    const heard: { type: string }[] = [];
    win.addEventListener("claim:watch", (e) => heard.push((e as CustomEvent).detail));
    const followed: unknown[] = [];
    win.addEventListener("claim:followed", (e) => followed.push((e as CustomEvent).detail));
    watchGame(7); // before the socket is open: sent once it opens
    connect();
    let sock = FakeSocket.last!;
    sock.open();
    expect(sock.sent).toContainEqual({ type: "watch", game_id: 7 });
    watchGame(8);
    expect(sock.sent.at(-1)).toEqual({ type: "watch", game_id: 8 });
    sock.receive({ type: "watching", game_id: 7 });
    sock.receive({ type: "spectator_game", game_id: 7, version: 3, game: { id: 7 } });
    sock.receive({ type: "watch_ended", game_id: 8, reason: "blocked" });
    sock.receive({ type: "followed", by: { username: "b", name: "B", is_bot: false } });
    // chat lines and hidden lines reach the panels as claim:chat; the spectator count as claim:spectators
    const chat: { type: string }[] = [];
    win.addEventListener("claim:chat", (e) => chat.push((e as CustomEvent).detail));
    const counts: unknown[] = [];
    win.addEventListener("claim:spectators", (e) => counts.push((e as CustomEvent).detail));
    sock.receive({ type: "chat", game_id: 7, message: { id: 1, room: "players", text: "hi" } });
    sock.receive({ type: "chat_hidden", game_id: 7, message_id: 1 });
    sock.receive({ type: "spectators", game_id: 7, count: 2 });
    expect(chat.map((f) => f.type)).toEqual(["chat", "chat_hidden"]);
    expect(counts).toEqual([{ type: "spectators", game_id: 7, count: 2 }]);
    expect(heard.map((f) => f.type)).toEqual(["watching", "spectator_game", "watch_ended"]);
    expect(followed).toHaveLength(1);
    // a reconnect asks again for 7 only (8 was ended by the server)
    sock.readyState = 3;
    sock.onclose?.({ code: 1006 });
    connect();
    sock = FakeSocket.last!;
    sock.open();
    expect(sock.sent.filter((m) => m.type === "watch")).toEqual([{ type: "watch", game_id: 7 }]);
    unwatchGame(7);
    expect(sock.sent.at(-1)).toEqual({ type: "unwatch", game_id: 7 });
    unwatchGame(7); // twice: sent once
    expect(sock.sent.filter((m) => m.type === "unwatch")).toHaveLength(1);
    disconnect();
  });

  it("issue 36: follows a tournament while its page is open, again after a reconnect; its events reach the page", async () => {
    const { connect, disconnect, unwatchTournament, watchTournament } = await import("../src/realtime");
    const heard: unknown[] = [];
    win.addEventListener("claim:tournament", (e) => heard.push((e as CustomEvent).detail));
    watchTournament(5); // before the socket is open: sent once it opens
    connect();
    let sock = FakeSocket.last!;
    sock.open();
    expect(sock.sent).toContainEqual({ type: "watch_tournament", tournament_id: 5 });
    const ev = { type: "tournament", tournament_id: 5, what: "result", round: 1, game_id: 40 };
    sock.receive(ev);
    sock.receive({ type: "tournament", tournament_id: "5", what: "x" }); // not a tournament event's shape: ignored
    expect(heard).toEqual([ev]);
    sock.readyState = 3;
    sock.onclose?.({ code: 1006 });
    connect();
    sock = FakeSocket.last!;
    sock.open();
    expect(sock.sent.filter((m) => m.type === "watch_tournament")).toEqual([{ type: "watch_tournament", tournament_id: 5 }]);
    unwatchTournament(5);
    unwatchTournament(5); // twice: sent once
    expect(sock.sent.filter((m) => m.type === "unwatch_tournament")).toEqual([{ type: "unwatch_tournament", tournament_id: 5 }]);
    disconnect();
  });
});
