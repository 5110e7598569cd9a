import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { ratingChangeText, seatName, type Game } from "../game";
import { navigate } from "../router";
import { errorText, loadGame, putGame, t, toast } from "../store";

/** Re-reads of a finished rated game until its rating change is there: the server rates it in the background
 *  right after the end (docs/api.md, "Ratings"), so the view that ended the game may come before it. */
const RATING_RETRIES_MS = [1500, 3000, 6000, 12000];

/** A rated game's end: "Rating: +12 → 1512" for my seat (``seat.rating.change``), "being updated…" meanwhile. */
export function RatingLine({ g }: { g: Game }) {
  const mine = g.seats.find((s) => s.index === g.mySeat);
  const rated = g.status === "finished" && g.raw.rated === true && mine != null && mine.ai == null;
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

/** Back, rematch (POST /games/{id}/rematch: 201 new game, 200 joined the one another player asked for), replay. */
export function EndActions({ g }: { g: Game }) {
  const [busy, setBusy] = useState(false);
  const existing = typeof g.raw.rematch === "number" ? (g.raw.rematch as number) : null;
  async function rematch() {
    setBusy(true);
    try {
      const res = await api<Record<string, unknown>>("POST", `/games/${g.id}/rematch`, {});
      navigate(`/game/${putGame(res).id}`);
    } catch (x) { toast(errorText(x), "error"); } finally { setBusy(false); }
  }
  return (
    <>
    <RatingLine g={g} />
    <div class="row">
      <a class="btn primary" href="#/">{t("end.back")}</a>
      {existing && existing !== g.id ? <a class="btn" href={`#/game/${existing}`} id="rematch">{t("end.open_rematch")}</a>
        : g.status !== "aborted" && <button type="button" class="btn" onClick={rematch} disabled={busy} id="rematch">{t("end.rematch")}</button>}
      {g.status !== "aborted" && <a class="btn ghost" href={`#/replay/${g.id}`} id="replay-link">{t("replay.open")}</a>}
    </div>
    </>
  );
}

/** Why a game ended without the count (resignation, time): "Bob resigned.", "You ran out of time.". */
export function endReasonText(g: Game): string | null {
  const r = (g.result ?? {}) as Record<string, unknown>;
  const reason = (r.reason ?? g.raw.ended_reason) as string | undefined;
  const me = g.mySeat;
  const who = (s: unknown) => (typeof s === "number" ? s : null);
  if (reason === "resigned") {
    const s = who(r.resigned);
    if (s === null) return null;
    return s === me ? t("end.you_resigned") : t("end.resigned", { name: seatName(g, s) });
  }
  if (reason === "timeout") {
    const list = (Array.isArray(r.timeout) ? r.timeout : [r.timeout]).map(who).filter((s): s is number => s !== null);
    if (!list.length) return null;
    return list.map((s) => (s === me ? t("end.you_timed_out") : t("end.timed_out", { name: seatName(g, s) }))).join(" ");
  }
  return null;
}

/** The result carries the per-faction count (a game played to its end), not only the winners (resigned, timeout). */
export function hasCount(r: unknown): boolean {
  const x = r as { votes?: unknown; scores?: unknown } | null;
  return !!x && ((typeof x.votes === "object" && x.votes !== null) || Array.isArray(x.scores));
}
