// The table's clock strip: time control, remaining time of the seats to act (in the viewer's time
// zone), "+1 day" for the opponent, pause (every human seat asks) and resume.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { formatInZone, formatRemaining, remainingNow } from "../corr";
import { seatName, type Game } from "../game";
import { errorText, state, t, toast, useStore } from "../store";

export interface ClockData {
  control: "days" | "bank" | "unlimited";
  days_per_move: number | null;
  initial_seconds: number | null;
  increment_seconds: number | null;
  deadline: string | null;
  remaining_seconds: (number | null)[];
  paused: boolean;
  pause_requests: number[];
}

export function Clock({ g }: { g: Game }) {
  const st = useStore();
  const [c, setC] = useState<ClockData | null>(null);
  const [at, setAt] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  const active = g.status === "active";

  useEffect(() => {
    api<ClockData>("GET", `/games/${g.id}/clock`).then((d) => { setC(d); setAt(Date.now()); setNow(Date.now()); }).catch(() => setC(null));
  }, [g.id, g.version, g.status]);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 30000);
    return () => clearInterval(timer);
  }, [active]);

  if (!c) return null;
  async function act(what: "give-time" | "pause" | "resume") {
    setBusy(true);
    try {
      setC(await api<ClockData>("POST", `/games/${g.id}/clock/${what}`));
      setAt(Date.now()); setNow(Date.now());
      toast(t(what === "give-time" ? "clock.given" : what === "pause" ? "clock.pause_asked" : "clock.resumed"));
    } catch (e) { toast(errorText(e), "error"); } finally { setBusy(false); }
  }

  const control = c.control === "unlimited" ? t("clock.unlimited")
    : c.control === "bank" ? t("clock.bank", { initial: formatRemaining(c.initial_seconds), inc: formatRemaining(c.increment_seconds) })
      : c.days_per_move === 1 ? t("clock.per_move_1") : t("clock.per_move", { n: c.days_per_move ?? 0 });
  const left = remainingNow(c.remaining_seconds, at, now, c.paused);
  const me = g.mySeat;
  const timed = c.control !== "unlimited";
  const asked = me != null && c.pause_requests.includes(me);
  const othersToAct = g.toAct.some((s) => s !== me);
  return (
    <section class="clock small" aria-label={t("clock.title")} id="clock">
      <p class="row">
        <span>{control}</span>
        {c.paused && <strong class="badge hot">{t("clock.paused")}</strong>}
        {!c.paused && c.pause_requests.length > 0 && <span class="muted">{t("clock.pause_requests", { n: c.pause_requests.length })}</span>}
        {active && timed && left.map((r, s) => (r == null ? null : (
          <span class={`rem ${s === me ? "me" : ""}`} data-seat={s}>{s === me ? t("table.you") : seatName(g, s)}: <strong>{formatRemaining(r)}</strong></span>
        )))}
      </p>
      {active && timed && (
        <div class="row">
          {c.deadline && !c.paused && <span class="muted">{t("clock.until", { when: formatInZone(c.deadline, st.me?.time_zone, state.lang) })}</span>}
          {me != null && othersToAct && !c.paused && <button type="button" class="btn ghost" disabled={busy} onClick={() => act("give-time")} id="give-time">{t("clock.give_time")}</button>}
          {me != null && (c.paused ? <button type="button" class="btn ghost" disabled={busy} onClick={() => act("resume")} id="resume">{t("clock.resume")}</button>
            : <button type="button" class="btn ghost" disabled={busy || asked} onClick={() => act("pause")} id="pause">
              {asked ? t("clock.pause_waiting") : c.pause_requests.length ? t("clock.pause_agree") : t("clock.pause")}</button>)}
        </div>
      )}
    </section>
  );
}
