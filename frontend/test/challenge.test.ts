import { describe, expect, it } from "vitest";
import { challengeLink, effectiveStatus, parseInvite, reasonsFor, roleOf, type Challenge } from "../src/challenge";
import { timeControl } from "./fixtures";

function ch(over: Partial<Challenge> = {}): Challenge {
  return {
    id: "AbC-12_xyz", status: "pending", challenger: { username: "Alice", name: "Alice A.", is_bot: false },
    to: { username: "bob", name: "Bob", is_bot: false }, open: false, kind: "claim", title: "Claim",
    options: {}, time_control: timeControl(), rated: false, watchable: false, seat: null, decline_reason: null,
    decline_message: null, game_id: null, rematch_of: null, created_at: "2026-01-01T00:00:00Z", expires_at: "2026-01-04T00:00:00Z",
    ended_at: null, links: { self: "", accept: "", decline: "", cancel: "", game: null }, ...over,
  };
}

describe("challenges", () => {
  it("knows who is looking (usernames compare without case)", () => {
    expect(roleOf(ch(), "alice")).toBe("mine");
    expect(roleOf(ch(), "BOB")).toBe("to_me");
    expect(roleOf(ch({ to: null, open: true }), "carol")).toBe("link");
    expect(roleOf(ch(), undefined)).toBe("link");
  });
  it("shows a pending challenge past its time as expired", () => {
    const c = ch();
    expect(effectiveStatus(c, Date.parse("2026-01-03T23:59:59Z"))).toBe("pending");
    expect(effectiveStatus(c, Date.parse("2026-01-04T00:00:00Z"))).toBe("expired");
    expect(effectiveStatus(ch({ status: "declined" }), Date.parse("2027-01-01T00:00:00Z"))).toBe("declined");
  });
  it("links to the challenge page and reads pasted links and codes", () => {
    const link = challengeLink("https://claim.example", "AbC-12_xyz");
    expect(link).toBe("https://claim.example/#/challenge/AbC-12_xyz");
    expect(parseInvite(` ${link} `)).toEqual({ challenge: "AbC-12_xyz" });
    expect(parseInvite("https://claim.example/#/join/K7QX")).toEqual({ code: "K7QX" });
    expect(parseInvite("K7QX")).toEqual({ code: "K7QX" });
    expect(parseInvite("   ")).toBeNull();
  });
  it("offers 'no bots' only to a bot's challenge", () => {
    expect(reasonsFor(ch())).not.toContain("no_bot");
    expect(reasonsFor(ch({ challenger: { username: "b0t", name: "B", is_bot: true } }))).toContain("no_bot");
    expect(reasonsFor(ch())[0]).toBe("generic");
  });
});
