import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import type { Challenge } from "../challenge";
import { ratingChangeText, seatName, type Game, type GameResult } from "../game";
import { navigate } from "../router";
import { reviewable } from "../review";
import { ReviewButton } from "./Review";
import { errorText, loadGame, loadLists, putGame, t, toast, useStore } from "../store";

/** Re-reads of a finished rated game until its rating change is there: the server rates it in the background
 *  right after the end (docs/api.md, "Ratings"), so the view that ended the game may come before it. */
const RATING_RETRIES_MS = [1500, 3000, 6000, 12000];

/** A rated game's end: "Rating: +12 → 1512" for my seat (``seat.rating.change``), "being updated…" meanwhile. */
export function RatingLine({ g }: { g: Game }) {
  const mine = g.seats.find((s) => s.index === g.mySeat);
  const rated = g.status === "finished" && g.raw.rated && mine != null && mine.ai == null;
  const change = mine?.ratingChange ?? null;
  const [tries, setTries] = useState(0);
  useEffect(() => {
    if (!rated || change || tries >= RATING_RETRIES_MS.length) return;
    const timer = setTimeout(() => { void loadGame(g.id).then(() => setTries((n) => n + 1)); }, RATING_RETRIES_MS[tries]);
    return () => clearTimeout(timer);
  }, [g.id, rated, change, tries]);
  if (!rated) return null;
  if (!change) return tries >= RATING_RETRIES_MS.length ? null : <p class="small muted" id="end-rating" data-pending="1">{t("end.rating_pending")}</p>;
  return (
    <p id="end-rating" data-change={change.change} data-after={change.after}>
      <strong class={change.change > 0 ? "up" : change.change < 0 ? "down" : ""}>{t("end.rating", { change: ratingChangeText(change) })}</strong>
    </p>
  );
}

/** A finished game's rematch offer (``rematch_offer`` of its view; docs/api.md, "Rematch"). */
export type RematchOffer = Schemas["RematchOffer"];

export function offerOf(g: Game): RematchOffer | null {
  const o = g.raw.rematch_offer; // a list row has none
  if (!o) return null;
  // A pending challenge past its time is expired at once (the server marks it within a minute).
  if (o.status === "pending" && o.expires_at && Date.parse(o.expires_at) <= Date.now()) return { ...o, status: "expired" };
  return o;
}

/** What the end screen says of the offer, for the one looking (``me``: my seat). */
export function offerText(g: Game, o: RematchOffer, me: number | null): string {
  const humans = g.seats.filter((s) => s.ai == null && !s.open).map((s) => s.index);
  const waiting = humans.filter((i) => !o.joined.includes(i) && i !== me).map((i) => seatName(g, i)).join(", ");
  switch (o.status) {
    case "pending":
      if (o.by === me) return t("rematch.waiting", { names: waiting });
      if (me != null && o.joined.includes(me)) return t("rematch.you_accepted", { names: waiting });
      return t("rematch.offered", { name: seatName(g, o.by) });
    case "accepted": return t("rematch.accepted");
    case "declined": return o.declined_by === me ? t("rematch.you_declined") : t("rematch.declined_by", { name: seatName(g, o.declined_by) });
    case "cancelled": return o.by === me ? t("rematch.you_cancelled") : t("rematch.cancelled", { name: seatName(g, o.by) });
    case "expired": return t("rematch.expired");
  }
}

/** Live: a challenge event naming this game (``rematch_of``), or a change of its rematch game held in the store
 *  (pushed on the socket), re-reads this game's view, whose ``rematch_offer`` says what changed. */
function useLiveOffer(g: Game): void {
  const st = useStore();
  const rematchGame = Object.values(st.games).filter((x) => x.raw.rematch_of === g.id).sort((a, b) => b.id - a.id)[0];
  const sig = rematchGame ? `${rematchGame.id}:${rematchGame.status}:${rematchGame.version}` : "";
  const first = useRef(true);
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    void loadGame(g.id);
  }, [sig]);
  useEffect(() => {
    const on = (e: Event) => {
      const c = (e as CustomEvent<Challenge>).detail;
      if (c.rematch_of === g.id) void loadGame(g.id);
    };
    window.addEventListener("claim:challenge", on);
    return () => window.removeEventListener("claim:challenge", on);
  }, [g.id]);
}

/** The rematch: offer it (POST /games/{id}/rematch: 202 an offer waits, 201 a new game inviting the same players,
 *  200 the other player's offer accepted), and answer an offer live: Accept / Decline for the others, Withdraw for
 *  its maker; once accepted, everyone on this screen goes to the new game. */
export function RematchControls({ g }: { g: Game }) {
  useLiveOffer(g);
  const [busy, setBusy] = useState(false);
  const o = offerOf(g);
  const me = g.mySeat;
  const status = o?.status ?? null;
  const seen = useRef(status);
  useEffect(() => {
    // Accepted while this screen was open (by the other player, or the last invitee): to the table.
    if (seen.current === "pending" && status === "accepted" && o?.game_id) navigate(`/game/${o.game_id}`);
    seen.current = status;
  }, [status]);
  if (g.status === "aborted" || me == null) return null;
  async function run(fn: () => Promise<void>) {
    setBusy(true);
    try { await fn(); } catch (x) { toast(errorText(x), "error"); } finally { setBusy(false); }
  }
  const ask = () => run(async () => {
    const got = putGame(await api<Schemas["GameView"]>("POST", `/games/${g.id}/rematch`, {}));
    if (got.id !== g.id) navigate(`/game/${got.id}`);
  });
  const answer = (what: "decline" | "cancel") => run(async () => {
    if (!o) return;
    await api("POST", o.links[what].replace(/^\/api\/v1/, ""), o.kind === "challenge" && what === "decline" ? { reason: "generic" } : {});
    await loadGame(g.id);
    void loadLists();
  });
  const mine = o != null && o.by === me;
  const joined = o != null && o.joined.includes(me);
  const canOffer = !o || o.status === "expired" || o.status === "cancelled" || (o.status === "declined" && !mine);
  return (
    <div class="rematch" id="rematch-offer" data-status={status ?? "none"} data-kind={o?.kind ?? ""} aria-live="polite"
      style={{ marginBottom: "0.75rem" }}>
      {o && <p id="rematch-text" class={o.status === "expired" || o.status === "cancelled" ? "small muted" : ""}>{offerText(g, o, me)}</p>}
      <div class="row">
        {canOffer && <button type="button" class="btn" onClick={ask} disabled={busy} id="rematch">{t("end.rematch")}</button>}
        {o?.status === "pending" && !mine && !joined && <>
          <button type="button" class="btn primary" onClick={ask} disabled={busy} id="rematch-accept">{t("rematch.accept")}</button>
          <button type="button" class="btn ghost" onClick={() => answer("decline")} disabled={busy} id="rematch-decline">{t("rematch.decline")}</button>
        </>}
        {o?.status === "pending" && mine && <button type="button" class="btn ghost" onClick={() => answer("cancel")} disabled={busy} id="rematch-cancel">{t("rematch.cancel")}</button>}
        {o?.game_id && (o.status === "accepted" || (o.status === "pending" && joined)) &&
          <a class="btn" href={`#/game/${o.game_id}`} id="rematch-open">{t("end.open_rematch")}</a>}
      </div>
    </div>
  );
}

/** Back, the rematch (RematchControls), replay, review (a finished game's, screens/Review.tsx). */
export function EndActions({ g }: { g: Game }) {
  return (
    <>
    <RatingLine g={g} />
    <RematchControls g={g} />
    <div class="row">
      <a class="btn primary" href="#/">{t("end.back")}</a>
      {g.status !== "aborted" && <a class="btn ghost" href={`#/replay/${g.id}`} id="replay-link">{t("replay.open")}</a>}
      {g.status === "finished" && reviewable(g.kind) && <ReviewButton id={g.id} />}
    </div>
    </>
  );
}

/** Why a game ended without the count (resignation, time): "Bob resigned.", "You ran out of time.". */
export function endReasonText(g: Game): string | null {
  const r = g.raw.result;
  const ended = r && !hasCount(r) ? r : null; // an EndedResult: a resignation, a timeout, an abort
  const reason = ended?.reason ?? g.raw.ended_reason;
  const me = g.mySeat;
  if (reason === "resigned") {
    const s = ended?.resigned;
    if (s === undefined) return null;
    return s === me ? t("end.you_resigned") : t("end.resigned", { name: seatName(g, s) });
  }
  if (reason === "timeout") {
    const at = ended?.timeout;
    const list = at === undefined ? [] : Array.isArray(at) ? at : [at];
    if (!list.length) return null;
    return list.map((s) => (s === me ? t("end.you_timed_out") : t("end.timed_out", { name: seatName(g, s) }))).join(" ");
  }
  return null;
}

/** The result carries the count (a game played to its end: a Claim-family ``votes`` or the Inheritors
 *  ``scores``), not only the winners (an ``EndedResult``: resigned, timeout, aborted). */
export function hasCount(r: GameResult): r is Schemas["EngineResult"] {
  return "votes" in r || "scores" in r;
}
