import { useState } from "preact/hooks";
import { api } from "../api";
import { seatName, type Game } from "../game";
import { navigate } from "../router";
import { errorText, putGame, t, toast } from "../store";

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
    <div class="row">
      <a class="btn primary" href="#/">{t("end.back")}</a>
      {existing && existing !== g.id ? <a class="btn" href={`#/game/${existing}`} id="rematch">{t("end.open_rematch")}</a>
        : g.status !== "aborted" && <button type="button" class="btn" onClick={rematch} disabled={busy} id="rematch">{t("end.rematch")}</button>}
      {g.status !== "aborted" && <a class="btn ghost" href={`#/replay/${g.id}`} id="replay-link">{t("replay.open")}</a>}
    </div>
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
