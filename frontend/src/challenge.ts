// Challenges (docs/api.md, "Challenges"): the PWA's way to invite one player to a two-seat game, by
// username or by an open link. Pure helpers: the shape, who is looking at it, its link, decline reasons.
import type { Schemas } from "./api";

export type Person = Schemas["Person"];
export type ChallengeStatus = Schemas["ChallengeStatusEnum"];
/** A challenge (GET /challenges/{id}, the answers of accept/decline/cancel, a socket event's ``challenge``). */
export type Challenge = Schemas["Challenge"];

/** The reasons the PWA offers for a decline, in menu order: of the API's (DeclineReasonEnum), all but
 *  ``only_bot`` (a bot's own reason). */
export type DeclineReason = Schemas["DeclineReasonEnum"];
export const DECLINE_REASONS = ["generic", "later", "time_control", "rated", "casual", "kind", "no_bot"] as const satisfies readonly DeclineReason[];

/** The reasons offered for this challenge: "no bots" only when a bot made it. */
export function reasonsFor(c: Challenge): DeclineReason[] {
  return DECLINE_REASONS.filter((r) => r !== "no_bot" || c.challenger.is_bot);
}

/** Who is looking: the challenger ("mine"), the user challenged ("to_me"), or anyone else with the link of an
 *  open challenge ("link"). */
export type Role = "mine" | "to_me" | "link";

export function roleOf(c: Challenge, username: string | undefined): Role {
  const me = (username || "").toLowerCase();
  if (c.challenger.username.toLowerCase() === me) return "mine";
  if (c.to && c.to.username.toLowerCase() === me) return "to_me";
  return "link";
}

/** A pending challenge past its time is shown expired at once (the server marks it within a minute). */
export function effectiveStatus(c: Challenge, now = Date.now()): ChallengeStatus {
  return c.status === "pending" && Date.parse(c.expires_at) <= now ? "expired" : c.status;
}

/** The page of a challenge: what an open challenge's link points to. */
export function challengeLink(origin: string, id: string): string {
  return `${origin}/#/challenge/${encodeURIComponent(id)}`;
}

/** What a pasted invitation is: a challenge link (or id given as a link), else a game's join code. */
export function parseInvite(text: string): { challenge: string } | { code: string } | null {
  const s = text.trim();
  if (!s) return null;
  const m = s.match(/#\/challenge\/([A-Za-z0-9_-]+)/);
  if (m) return { challenge: m[1] };
  const code = s.replace(/^.*[#/]join\//, "");
  return code ? { code } : null;
}
