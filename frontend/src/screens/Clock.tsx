// The table's clock strip: the time control, every seat's remaining time (a running seat counts down
// to its deadline, shown in the viewer's time zone; a bank waiting for its turn shows what it holds),
// "+1 day" for the opponent, pause (every human seat asks) and resume, and each seat's booked vacation
// ("on vacation until …": its deadline already moved to the end; or the next period ahead). The clock
// comes with the game payload (``clock``, ``time_control``), so a new version needs no extra request; a
// booking, cancelling or shortening is a new version of the games it shows in, pushed like a move.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { describeTimeControl, formatInZone, formatRemaining, seatLeft, vacationState, type GameClockView } from "../corr";
import { seatName, type Game } from "../game";
import { errorText, state, t, toast, useStore } from "../store";

export function Clock({ g }: { g: Game }) {
  const st = useStore();
  const [answer, setAnswer] = useState<{ version: number; clock: GameClockView } | null>(null);
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  const active = g.status === "active";

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 30000);
    return () => clearInterval(timer);
  }, [active]);

  const tc = g.raw.time_control;
  // An action's answer stands until the pushed/fetched game catches up with it; a list row has no clock.
  const c = answer && answer.version > g.version ? answer.clock : g.raw.clock;
  if (!c) return null;

  async function act(what: "give-time" | "pause" | "resume") {
    setBusy(true);
    try {
      // The answer (ClockPayload) holds the same clock, for the version it made.
      const r = await api<Schemas["ClockPayload"]>("POST", `/games/${g.id}/clock/${what}`);
      setAnswer({ version: g.version + 1, clock: r }); setNow(Date.now());
      toast(t(what === "give-time" ? "clock.given" : what === "pause" ? "clock.pause_asked" : "clock.resumed"));
    } catch (e) { toast(errorText(e), "error"); } finally { setBusy(false); }
  }

  const zone = st.me?.time_zone;
  const me = g.mySeat;
  const timed = tc.type !== "unlimited";
  const asked = me != null && c.pause_requests.includes(me);
  const othersToAct = g.toAct.some((s) => s !== me);
  return (
    <section class="clock small" aria-label={t("clock.title")} id="clock">
      <p class="row">
        <span>{describeTimeControl(tc, t, state.lang)}</span>
        {c.paused && <strong class="badge hot">{t("clock.paused")}</strong>}
        {!c.paused && c.pause_requests.length > 0 && <span class="muted">{t("clock.pause_requests", { n: c.pause_requests.map((i) => (i === me ? t("clock.you") : seatName(g, i))).join(", ") })}</span>}
      </p>
      {active && timed && (
        <p class="row clock-seats">
          {c.seats.map((s) => {
            const left = seatLeft(s, now);
            if (left == null) return null;
            return (
              <span class={`rem ${s.index === me ? "me" : ""} ${s.running ? "running" : ""}`} data-seat={s.index}>
                {s.index === me ? t("table.you") : seatName(g, s.index)}: <strong>{formatRemaining(left, st.lang)}</strong>
                {s.running && s.deadline && <span class="muted"> {t("clock.until", { when: formatInZone(s.deadline, zone, state.lang) })}</span>}
              </span>
            );
          })}
        </p>
      )}
      {active && timed && c.seats.map((s) => {
        const kind = vacationState(s.vacation, Date.now()); // not the 30 s tick: a push may bring a period just begun
        if (!kind || !s.vacation) return null;
        const name = s.index === me ? t("table.you") : seatName(g, s.index);
        const end = formatInZone(s.vacation.end, zone, state.lang);
        return (
          <p class="row vacation" data-vacation-seat={s.index}>
            <strong class="badge">{t("vac.badge")}</strong>
            <span>{kind === "on" ? t("vac.seat_on", { name, when: end })
              : t("vac.seat_next", { name, from: formatInZone(s.vacation.start, zone, state.lang), to: end })}</span>
          </p>
        );
      })}
      {active && timed && me != null && (
        <div class="row">
          {othersToAct && !c.paused && <button type="button" class="btn ghost" disabled={busy} onClick={() => act("give-time")} id="give-time">{t("clock.give_time")}</button>}
          {c.paused ? <button type="button" class="btn ghost" disabled={busy} onClick={() => act("resume")} id="resume">{t("clock.resume")}</button>
            : <button type="button" class="btn ghost" disabled={busy || asked} onClick={() => act("pause")} id="pause">
              {asked ? t("clock.pause_waiting") : c.pause_requests.length ? t("clock.pause_agree") : t("clock.pause")}</button>}
        </div>
      )}
    </section>
  );
}
