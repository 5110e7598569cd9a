// @vitest-environment happy-dom
// Issue 35, the table chat (screens/Chat.tsx, src/chat.ts) rendered in happy-dom (test/dom.ts) with a mocked API:
// history pages, a live line once (a REST page and a frame that cross), the 140-character counter, refusals with the
// server's message, hostile lines as text only, the read marker, the unread badges, mute and report.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { all, mount, settle, tap, unmount } from "./dom";
import { fakeBrowser, gameView } from "./fixtures";
import type { Schemas } from "../src/api";

fakeBrowser();

vi.mock("../src/api", async (importOriginal) => (await import("./net")).mockedApi(await importOriginal<typeof import("../src/api")>()));

const { h } = await import("preact");
const { net } = await import("./net");
const { ApiError } = await import("../src/api");
const { ChatPanel, ChatButton, TableChat, UnreadChat, wantsChat, roomsFor, mayWrite } = await import("../src/screens/Chat");
const { chatLength, mergeLines, onChatFrame, resetPhrases } = await import("../src/chat");
const { set, state } = await import("../src/store");
const { GameBar } = await import("../src/screens/GameBar");
const { normGame } = await import("../src/game");

type Line = Schemas["ChatLine"];
const ann = { username: "ann", name: "Ann", is_bot: false };
function line(id: number, over: Partial<Line> = {}): Line {
  return { id, game_id: 7, room: "players", author: ann, phrase: null, text: `line ${id}`, created_at: "2026-11-01T00:00:00Z", ...over };
}
const PAGE = "GET /games/7/chat?room=players&limit=50";
const frame = async (detail: unknown) => { window.dispatchEvent(new CustomEvent("claim:chat", { detail })); await settle(); };
const texts = (box: HTMLElement) => all(box, ".c-text").map((e) => e.textContent);
const input = async (box: HTMLElement, value: string) => {
  const el = box.querySelector<HTMLInputElement>("#chat-input")!;
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
  await settle();
};

beforeEach(() => {
  net.routes.clear();
  net.api.mockClear();
  resetPhrases();
  net.routes.set("GET /chat/phrases", [{ code: "hello", text: "Hallo!" }, { code: "good_game", text: "Gutes Spiel!" }]);
  net.routes.set("POST /games/7/chat/read", (b: { last_id: number }) => ({ last_id: b.last_id, unread_chat: 0 }));
  set({ me: { id: 1, username: "me", is_bot: false, date_joined: "2026-01-01T00:00:00Z" } as never, lang: "en", ws: "open",
    chatUnread: {}, chatOpen: null, spectators: {} });
});

describe("chat panel", () => {
  it("renders the history oldest first and loads older pages", async () => {
    net.routes.set(PAGE, { results: [line(3), line(4)], before: 3 });
    net.routes.set("GET /games/7/chat?room=players&before=3&limit=50", { results: [line(1), line(2)], before: null });
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    expect(texts(box)).toEqual(["line 3", "line 4"]);
    await tap(box.querySelector("#chat-older"));
    expect(texts(box)).toEqual(["line 1", "line 2", "line 3", "line 4"]);
    expect(box.querySelector("#chat-older")).toBeNull();
    // the quick phrases in the UI's language by their code (not the server's German text)
    expect(all(box, "#chat-phrases button").map((b) => b.textContent)).toEqual(["Hello!", "Good game!"]);
    await unmount(box);
  });

  it("appends a live line once, also when the REST page and the frame cross", async () => {
    let release!: () => void;
    net.routes.set(PAGE, () => new Promise((r) => { release = () => r({ results: [line(1), line(2)], before: null }); }));
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    await frame({ type: "chat", game_id: 7, message: line(2) }); // arrives before the page that also holds it
    await frame({ type: "chat", game_id: 8, message: line(9, { game_id: 8 }) }); // another game's
    release();
    await settle();
    expect(texts(box)).toEqual(["line 1", "line 2"]);
    await frame({ type: "chat", game_id: 7, message: line(3) });
    await frame({ type: "chat", game_id: 7, message: line(3) });
    expect(texts(box)).toEqual(["line 1", "line 2", "line 3"]);
    await frame({ type: "chat_hidden", game_id: 7, message_id: 2 });
    expect(texts(box)).toEqual(["line 1", "line 3"]);
    // the read marker followed the newest line
    expect(net.api).toHaveBeenLastCalledWith("POST", "/games/7/chat/read", { last_id: 3 });
    await unmount(box);
  });

  it("counts characters and disables send past 140", async () => {
    net.routes.set(PAGE, { results: [], before: null });
    net.routes.set("POST /games/7/chat", (b: { text: string }) => line(5, { author: { username: "me", name: "Me", is_bot: false }, text: b.text }));
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    const send = () => box.querySelector<HTMLButtonElement>("#chat-send")!;
    expect(send().disabled).toBe(true);
    await input(box, "x".repeat(141));
    expect(box.querySelector("#chat-count")!.getAttribute("data-count")).toBe("141");
    expect(box.querySelector("#chat-count")!.textContent).toContain("141/140");
    expect(send().disabled).toBe(true);
    await input(box, "  " + "é".repeat(140) + "  ");
    expect(box.querySelector("#chat-count")!.getAttribute("data-count")).toBe("140");
    expect(send().disabled).toBe(false);
    await tap(send());
    expect(net.api).toHaveBeenCalledWith("POST", "/games/7/chat", { room: "players", text: "  " + "é".repeat(140) + "  " });
    expect(texts(box)).toEqual(["é".repeat(140) + "  "].map((s) => "  " + s));
    expect(box.querySelector<HTMLInputElement>("#chat-input")!.value).toBe("");
    await unmount(box);
  });

  it("shows each refusal as the server's message, a 429 with its wait", async () => {
    net.routes.set(PAGE, { results: [], before: null });
    const answers = [
      new ApiError(429, { code: "throttled", message: "Request was throttled.", retry_after: 7 }),
      new ApiError(403, { code: "blocked", message: "You cannot chat with this player." }),
      new ApiError(400, { code: "invalid", message: "Text may not contain control characters." }),
    ];
    net.routes.set("POST /games/7/chat", () => { throw answers.shift(); });
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    await tap(box.querySelector("[data-phrase=\"hello\"]"));
    expect(box.querySelector("#chat-refused")!.textContent).toBe("Request was throttled.");
    expect(box.querySelector("#chat-wait")!.textContent).toBe("You can write again in 7 seconds.");
    expect(box.querySelector<HTMLButtonElement>("[data-phrase=\"hello\"]")!.disabled).toBe(true);
    await unmount(box);
    const again = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    await input(again, "hi");
    await tap(again.querySelector("#chat-send"));
    expect(again.querySelector("#chat-refused")!.textContent).toBe("You cannot chat with this player.");
    await input(again, "hi\u0007");
    await tap(again.querySelector("#chat-send"));
    expect(again.querySelector("#chat-refused")!.textContent).toBe("Text may not contain control characters.");
    await unmount(again);
  });

  it("shows hostile lines as text: no element made of them, names and lines isolated", async () => {
    const evil = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "javascript:alert(1)", "\u202Egnp.exe"];
    net.routes.set(PAGE, { results: evil.map((text, i) => line(i + 1, { text, author: { ...ann, name: "<b>x</b>\u202E" } })), before: null });
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    expect(texts(box)).toEqual(evil);
    const lines = box.querySelector("#chat-lines")!;
    expect(lines.querySelectorAll("script, img, a, b")).toHaveLength(0);
    expect(lines.innerHTML).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(lines.innerHTML).toContain("&lt;img src=x onerror=alert(1)&gt;");
    for (const el of all(box, ".c-text, .c-name")) expect(el.tagName).toBe("BDI");
    expect(all(box, ".c-name")[0].textContent).toBe("<b>x</b>\u202E");
    await unmount(box);
  });

  it("mutes the author and reports a line from its menu", async () => {
    net.routes.set(PAGE, { results: [line(1), line(2, { author: { username: "bob", name: "Bob", is_bot: false } })], before: null });
    net.routes.set("PUT /users/ann/mute", { username: "ann", muting: true });
    net.routes.set("POST /reports", { id: 4, status: "open" });
    const box = await mount(h(ChatPanel, { gameId: 7, role: "player", over: false }));
    await tap(box.querySelector("[data-line-menu=\"2\"]"));
    await tap(box.querySelector("#chat-report"));
    await tap(box.querySelector("input[value=\"spam\"]"));
    await tap(box.querySelector("#chat-report-send"));
    expect(net.api).toHaveBeenCalledWith("POST", "/reports", { username: "bob", game_id: 7, message_id: 2, reason: "spam", note: "" });
    expect(box.querySelector("#chat-menu-dlg")).toBeNull();
    await tap(box.querySelector("[data-line-menu=\"1\"]"));
    await tap(box.querySelector("#chat-mute"));
    expect(net.api).toHaveBeenCalledWith("PUT", "/users/ann/mute");
    expect(texts(box)).toEqual(["line 2"]);
    await unmount(box);
  });

  it("rooms: players write in theirs, spectators read the players' room only after the end", async () => {
    expect(roomsFor("player", false)).toEqual(["players"]);
    expect(roomsFor("spectator", true)).toEqual(["spectators", "players"]);
    expect(mayWrite("spectator", "players", true)).toBe(false);
    expect(mayWrite("player", "spectators", true)).toBe(true);
    net.routes.set("GET /games/7/chat?room=spectators&limit=50", { results: [line(5, { room: "spectators" })], before: null });
    net.routes.set(PAGE, { results: [line(1)], before: null });
    const box = await mount(h(ChatPanel, { gameId: 7, role: "spectator", over: true }));
    expect(texts(box)).toEqual(["line 5"]);
    expect(box.querySelector("#chat-input")).not.toBeNull();
    await tap(box.querySelector("[data-chat-room=\"players\"]"));
    expect(texts(box)).toEqual(["line 1"]);
    expect(box.querySelector("#chat-input")).toBeNull();
    expect(box.querySelector("#chat-read-only")).not.toBeNull();
    // a spectator has no read marker
    expect(net.api.mock.calls.some((c) => String(c[1]).endsWith("/chat/read"))).toBe(false);
    await unmount(box);
  });
});

describe("unread chat", () => {
  it("counts others' players' room lines while the chat is closed; badges on the chat button and the inbox row", async () => {
    set({ chatUnread: { 7: 2 } });
    onChatFrame({ type: "chat", game_id: 7, message: line(3) });
    onChatFrame({ type: "chat", game_id: 7, message: line(4, { author: { username: "me", name: "Me", is_bot: false } }) });
    onChatFrame({ type: "chat", game_id: 7, message: line(5, { room: "spectators" }) });
    expect(state.chatUnread[7]).toBe(3);
    const box = await mount(h("div", {}, h(ChatButton, { gameId: 7 }), h(UnreadChat, { gameId: 7 })));
    expect(box.querySelector("#chat-unread")!.textContent).toBe("3");
    expect(box.querySelector("[data-unread-chat=\"3\"]")!.textContent).toContain("3 unread chat lines");
    set({ chatUnread: { 7: 100 } });
    await settle();
    expect(box.querySelector("#chat-unread")!.textContent).toBe("100+");
    await tap(box.querySelector("#chat-toggle"));
    expect(state.chatOpen).toBe(7);
    expect(box.querySelector("#chat-unread")).toBeNull();
    onChatFrame({ type: "chat", game_id: 7, message: line(6) }); // the open chat reads it
    expect(state.chatUnread[7]).toBe(100);
    await unmount(box);
  });

  it("reads the route's ?chat=1, lengths by code point, merges by id", () => {
    expect(wantsChat("#/game/7?chat=1")).toBe(true);
    expect(wantsChat("#/game/7")).toBe(false);
    expect(chatLength("  😀a \n")).toBe(2);
    expect(mergeLines([line(2), line(1)], [line(2, { text: "new" }), line(3)]).map((l) => [l.id, l.text]))
      .toEqual([[1, "line 1"], [2, "new"], [3, "line 3"]]);
  });
});

describe("spectators at the table", () => {
  it("shows the socket's count as \"N watching\" when above 0, beside the chat button", async () => {
    set({ listsLoaded: true });
    const g = normGame(gameView({ id: 7, status: "active", my_seat: 0 }));
    const box = await mount(h(GameBar, { g }));
    expect(box.querySelector("#chat-toggle")).not.toBeNull();
    expect(box.querySelector("#table-spectators")).toBeNull();
    window.dispatchEvent(new CustomEvent("claim:spectators", { detail: { type: "spectators", game_id: 7, count: 3 } }));
    await settle();
    expect(box.querySelector("#table-spectators")!.textContent).toContain("3 watching");
    window.dispatchEvent(new CustomEvent("claim:spectators", { detail: { type: "spectators", game_id: 7, count: 0 } }));
    await settle();
    expect(box.querySelector("#table-spectators")).toBeNull();
    await unmount(box);
  });
});

describe("the notification's link", () => {
  it("#/game/7?chat=1 opens the table with the chat open; leaving the table closes it", async () => {
    net.routes.set(PAGE, { results: [line(1)], before: null });
    location.hash = "#/game/7?chat=1";
    const box = await mount(h(TableChat, { gameId: 7, over: false }));
    expect(state.chatOpen).toBe(7);
    expect(texts(box)).toEqual(["line 1"]);
    await tap(box.querySelector("#chat-close"));
    expect(box.querySelector("#chat")).toBeNull();
    location.hash = "#/game/7";
    await unmount(box);
    const again = await mount(h(TableChat, { gameId: 7, over: false }));
    expect(again.querySelector("#chat")).toBeNull();
    await unmount(again);
  });
});
