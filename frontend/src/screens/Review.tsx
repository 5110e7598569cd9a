// #/game/<id>/review (issue 37): a finished game's move-by-move review. The replay's stepping and boards
// (Replay.tsx: useReplaySteps, ReplayNav, StepBoard) with, at each step, the decision whose move led to it: the
// played move's chance of winning against the best's (a bar), every legal move with its chance, the mark; the list
// of mistakes and inaccuracies (a tap jumps there) and previous / next mistake. While the review is computed: its
// progress, from the socket's `review` events (realtime.ts: `claim:review`) and polling as a fallback.
import { useEffect, useMemo, useState } from "preact/hooks";
import { cardName } from "../cards";
import type { Schemas } from "../api";
import type { Key } from "../i18n";
import type { Move as InhMove } from "../inheritors";
import { moveLabel } from "../inheritors";
import {
  applyEvent, barWidth, decisionAt, fraction, isReviewEvent, loadReview, marksOf, nextMark, pending, percent, points, pollMs, prevMark,
  placeDecisions, requestReview, reviewPath, sameMove, type Placed, type Review, type ReviewMark,
} from "../review";
import { navigate } from "../router";
import { errorText, state, t, toast, useStore } from "../store";
import { inhNames } from "./InheritorsReplay";
import { ti } from "./InheritorsTable";
import { ReplayNav, StepBoard, useReplaySteps, type ReplaySteps } from "./Replay";

/** A move's short label as the game's screens name it: a Claim card by its name ("Knight 7"), the Giant's smash and
 *  the Seer's choice in words, an Inheritors move by its button's label (inheritors.ts moveLabel). */
export function moveWords(m: Schemas["EngineMove"], r: Pick<ReplaySteps, "cur" | "name">): string {
  const v = r.cur?.spectator_view;
  if (v?.game === "inheritors") return moveLabel(m as InhMove, ti, inhNames(v, r.name));
  if ("seer" in m) return m.seer === "prize" ? t("review.m_seer_prize") : t("review.m_seer_top");
  if ("smash" in m) return t("review.m_smash", { victim: r.name(m.smash) });
  if ("play" in m && typeof m.play === "string") return cardName(m.play, state.lang);
  return JSON.stringify(m);
}

const markText = (m: ReviewMark) => t(`review.mark_${m}` as Key);

/** Ask for the review of game `id` (POST) and open its screen; a refusal (not over, not yours to see, too many
 *  requests) is said with the server's message. The end screens' button (EndActions, GameGate, Watch). */
export function ReviewButton({ id }: { id: number }) {
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    try {
      await requestReview(id);
      navigate(reviewPath(id));
    } catch (e) {
      toast(errorText(e), "error");
    } finally { setBusy(false); }
  }
  return <button type="button" class="btn ghost" id="review-open" onClick={open} disabled={busy}>{t("review.open")}</button>;
}

export function ReviewScreen({ id }: { id: number }) {
  const st = useStore();
  const r = useReplaySteps(id);
  /** undefined: being read; null: none requested yet */
  const [review, setReview] = useState<Review | null | undefined>(undefined);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let current = true;
    loadReview(id).then((x) => { if (current) { setReview(x); setErr(null); } })
      .catch((e) => { if (current) setErr(errorText(e)); });
    return () => { current = false; };
  }, [id, reads]);
  // The socket's progress; its end (done, failed) is read in full (the event carries no decisions).
  useEffect(() => {
    const on = (e: Event) => {
      const ev = (e as CustomEvent<unknown>).detail;
      if (!isReviewEvent(ev, id)) return;
      if (ev.status === "done" || ev.status === "failed") setReads((n) => n + 1);
      else setReview((cur) => (cur ? applyEvent(cur, ev) : cur));
    };
    window.addEventListener("claim:review", on);
    return () => window.removeEventListener("claim:review", on);
  }, [id]);
  // Polling while it is computed: the fallback when the socket is down or an event was missed.
  const waiting = pending(review ?? null);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setReads((n) => n + 1), pollMs(st.ws === "open"));
    return () => clearTimeout(timer);
  }, [waiting, review, st.ws]);

  async function ask() {
    setBusy(true);
    try { setReview(await requestReview(id)); setErr(null); } catch (e) { setErr(errorText(e)); } finally { setBusy(false); }
  }

  const done = review?.status === "done" ? review : null;
  const placed = useMemo(() => (done ? placeDecisions(done.decisions) : []), [done]);
  const marks = marksOf(placed);
  const d = decisionAt(placed, r.at);
  const prev = prevMark(marks, r.at), next = nextMark(marks, r.at);

  return (
    <main class="page review" id="main" data-step={r.at} data-steps={r.total} data-status={review === undefined ? "loading" : review === null ? "none" : review.status}>
      <h1>{t("review.title")}{r.rec ? ` – ${t(("game." + r.rec.kind) as Key)}` : ""}</h1>
      {err && <p class="form-err" role="alert" id="review-error">{err}</p>}
      {r.err && <p class="form-err" role="alert">{r.err}</p>}
      {review === undefined && !err && <p aria-busy="true">{t("common.loading")}</p>}
      {review === null && (
        <div class="card-panel" id="review-none">
          <p>{t("review.none")}</p>
          {st.me && <p><button type="button" class="btn primary" id="review-request" onClick={ask} disabled={busy}>{t("review.request")}</button></p>}
        </div>
      )}
      {review && pending(review) && <Progress review={review} />}
      {review?.status === "failed" && (
        <div class="card-panel" id="review-failed" role="alert">
          <p>{t("review.failed")}</p>
          {st.me && <p><button type="button" class="btn" id="review-retry" onClick={ask} disabled={busy}>{t("review.retry")}</button></p>}
        </div>
      )}
      {done && (
        <p class="row review-jumps">
          <button type="button" class="btn" id="review-prev-mark" disabled={prev == null} onClick={() => prev != null && r.go(prev)}>◀ {t("review.prev_mark")}</button>
          <button type="button" class="btn" id="review-next-mark" disabled={next == null} onClick={() => next != null && r.go(next)}>{t("review.next_mark")} ▶</button>
        </p>
      )}
      {r.cur && <ReplayNav r={r} />}
      {done && r.cur && <DecisionPanel d={d} at={r.at} r={r} />}
      {done && <MarksList marks={marks} at={r.at} r={r} />}
      <StepBoard r={r} />
      <p class="row">
        <a class="btn ghost" href={`#/replay/${id}`} id="review-replay">{t("replay.open")}</a>
        <a class="btn ghost" href={`#/game/${id}`} id="review-back">{t("review.back")}</a>
      </p>
    </main>
  );
}

/** "Waiting for the analysis…" / "Analysing: 12 of 40 moves", with a progress bar. */
function Progress({ review }: { review: Review }) {
  const p = review.progress;
  const text = review.status === "queued" || !(p.total > 0) ? t("review.queued") : t("review.running", { done: Math.min(p.done, p.total), total: p.total });
  return (
    <div class="card-panel" id="review-progress" data-done={p.done} data-total={p.total}>
      <p role="status" aria-live="polite">{text}</p>
      <progress max={100} value={Math.round(fraction(p) * 100)} aria-label={t("review.progress")} />
    </div>
  );
}

/** The decision whose move led to this step: who chose, the mark, the chance bar, every move with its chance. */
function DecisionPanel({ d, at, r }: { d: Placed | null; at: number; r: ReplaySteps }) {
  if (!d) {
    return <section class="card-panel review-d" id="review-decision" aria-label={t("review.decision_h")}>
      <p class="small muted">{at === 0 ? t("review.at_deal") : t("review.no_decision")}</p>
    </section>;
  }
  const who = r.name(d.seat);
  const forced = d.options.length === 0;
  const best = sameMove(d.played, d.best);
  return (
    <section class="card-panel review-d" id="review-decision" aria-labelledby="review-d-h" data-index={d.index} data-seat={d.seat} data-mark={d.mark ?? ""}>
      <h2 id="review-d-h" class="small">{t("review.decision", { n: d.step, name: who })}</h2>
      <p>
        {d.mark ? <strong class={`mark ${d.mark}`} id="review-mark">{markText(d.mark)}</strong>
          : <strong id="review-mark">{forced ? t("review.forced") : best ? t("review.best_move") : t("review.good_move")}</strong>}
        {d.mark && d.drop != null && <span class="small"> · {t("review.drop", { n: points(d.drop) })}</span>}
      </p>
      {!forced && (
        <div class="chance-bar" id="review-chance">
          <ChanceRow label={t("review.played")} move={moveWords(d.played, r)} x={d.chance_played} cls={d.mark ?? "ok"} />
          {!best && <ChanceRow label={t("review.best")} move={moveWords(d.best, r)} x={d.chance_best} cls="best" />}
        </div>
      )}
      {!forced && (
        <details class="review-opts" open>
          <summary>{t("review.options", { n: d.options.length })}</summary>
          <ol id="review-options">
            {d.options.map((o) => {
              const played = sameMove(o.move, d.played);
              return (
                <li class={played ? "played" : ""} data-played={played ? "1" : undefined}>
                  <span class="opt-move"><span dir="auto">{moveWords(o.move, r)}</span>{played && <span class="badge"> · {t("review.played")}</span>}</span>
                  <span class="opt-chance">{percent(o.chance, state.lang)}</span>
                </li>
              );
            })}
          </ol>
        </details>
      )}
    </section>
  );
}

/** One bar of the chance bar: "Played: Knight 7" and its chance of winning, drawn and in numbers. */
function ChanceRow({ label, move, x, cls }: { label: string; move: string; x: number | null; cls: string }) {
  return (
    <div class="chance-row">
      <p class="row-between small"><span><b>{label}:</b> <span dir="auto">{move}</span></span> <b class="nw">{percent(x, state.lang)}</b></p>
      <div class={`chance ${cls}`} aria-hidden="true"><span style={{ width: `${barWidth(x)}%` }} /></div>
    </div>
  );
}

/** The mistakes and inaccuracies in the order of the game: a tap opens that move. */
function MarksList({ marks, at, r }: { marks: Placed[]; at: number; r: ReplaySteps }) {
  return (
    <section id="review-marks" aria-labelledby="review-marks-h">
      <h2 id="review-marks-h" class="small">{t("review.marks", { n: marks.length })}</h2>
      {marks.length === 0 ? <p class="small muted" id="review-no-marks">{t("review.no_marks")}</p> : (
        <ol class="mark-list">
          {marks.map((d) => (
            <li>
              <button type="button" class="mark-row" data-step={d.step} data-mark={d.mark!} aria-current={d.step === at ? "step" : undefined}
                onClick={() => r.go(d.step)}>
                <span class="nw">{t("review.move_n", { n: d.step })}</span>{" "}
                <span class="uname" dir="auto">{r.name(d.seat)}</span>{" "}
                <strong class={`mark ${d.mark}`}>{markText(d.mark!)}</strong>
                {d.drop != null && <><span class="small nw" aria-hidden="true"> −{points(d.drop)}</span><span class="sr-only">, {t("review.drop", { n: points(d.drop) })}</span></>}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
