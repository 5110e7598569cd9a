// @vitest-environment happy-dom
// The PWA sends the player's language as Accept-Language, so that the server writes the accounts forms' messages in it.
import { describe, expect, it, vi } from "vitest";

describe("the requests' language", () => {
  it("is the player's chosen language from the first request on, and follows a change", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    const { setLang, state } = await import("../src/store");
    const { api } = await import("../src/api");
    const sent = () => (fetch.mock.calls.at(-1)![1].headers as Record<string, string>)["Accept-Language"];
    await api("GET", "/accounts/me");
    expect(sent()).toBe(state.lang);
    setLang("de");
    await api("GET", "/games");
    expect(sent()).toBe("de");
    setLang("cs");
    await api("GET", "/games");
    expect(sent()).toBe("cs");
  });
});
