import { useState } from "preact/hooks";
import { api } from "../api";
import type { Game } from "../game";
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
