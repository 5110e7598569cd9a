// Replay of a finished game: step through the record (GET /games/{id}/replay?step=N, /record).
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, BASE, type Schemas } from "../api";
import { cardName, factionTitle, type Faction } from "../cards";
import { CardView, Glyph } from "../Card";
import { seatInfo, seatName, tricksPerPhase, type EngineView, type Game } from "../game";
import type { Key } from "../i18n";
import { isInhReplay } from "../inheritors";
import { errorText, state, t, useStore } from "../store";
import { InheritorsReplay } from "./InheritorsReplay";

/** GET /games/{id}/replay: one step, its views told apart by their ``game`` (an Inheritors step: isInhReplay). */
type Step = Schemas["Replay"];
type ClaimMove = Schemas["ClaimMove"];

/** The stepping through a finished game's record, shared by the replay and the review (screens/Review.tsx): the
 *  record's kind and seats, the step on screen (``at`` of ``total``), ``go`` to another, the seats' names. */
export interface ReplaySteps {
  rec: Pick<Game, "kind" | "seats"> | null;
  cur: Step | null;
  at: number;
  total: number;
  err: string | null;
  go: (n: number) => void;
  name: (s: number) => string;
}

/** Steps through game ``id`` (GET /games/{id}/record once, /replay?step=N per step), from the deal or, ``atEnd``, from
 *  the last move (the API's default step). */
export function useReplaySteps(id: number, atEnd = false): ReplaySteps {
  const [rec, setRec] = useState<Pick<Game, "kind" | "seats"> | null>(null);
  const [cur, setCur] = useState<Step | null>(null);
  const [step, setStep] = useState<number | null>(atEnd ? null : 0); // null: the last step (the API's default)
  const [err, setErr] = useState<string | null>(null);

  useEffect(() => {
    api<Schemas["Record"]>("GET", `/games/${id}/record`).then((r) => setRec({ kind: r.kind, seats: r.seats.map(seatInfo) }))
      .catch((e) => setErr(errorText(e)));
  }, [id]);
  useEffect(() => {
    let current = true;
    api<Step>("GET", `/games/${id}/replay` + (step == null ? "" : `?step=${step}`))
      .then((s) => { if (current) setCur(s); }).catch((e) => { if (current) setErr(errorText(e)); });
    return () => { current = false; }; // a quick tap on: an earlier step's late answer never wins
  }, [id, step]);

  const total = cur?.steps ?? 0;
  return {
    rec, cur, err, total, at: cur?.step ?? 0,
    // before the first answer the number of steps is unknown: a jump waits for no bound then (the server clamps)
    go: (n: number) => setStep(Math.max(0, cur ? Math.min(total, n) : n)),
    name: (s: number) => (rec ? seatName(rec, s) : `#${s + 1}`),
  };
}

/** First / previous / "Move n of total" / next / last, and the slider. */
export function ReplayNav({ r }: { r: ReplaySteps }) {
  const { at, total, go } = r;
  return (
    <>
      <div class="replay-nav row" role="group" aria-label={t("replay.title")}>
        <button type="button" class="btn ghost" onClick={() => go(0)} disabled={at === 0} aria-label={t("replay.first")}>|◀</button>
        <button type="button" class="btn" onClick={() => go(at - 1)} disabled={at === 0} aria-label={t("replay.prev")} id="replay-prev">◀</button>
        <span role="status" aria-live="polite" id="replay-pos">{t("replay.step", { n: at, total })}</span>
        <button type="button" class="btn" onClick={() => go(at + 1)} disabled={at >= total} aria-label={t("replay.next")} id="replay-next">▶</button>
        <button type="button" class="btn ghost" onClick={() => go(total)} disabled={at >= total} aria-label={t("replay.last")}>▶|</button>
      </div>
      <input type="range" min="0" max={total} value={at} aria-label={t("replay.slider")} onChange={(e) => go(Number((e.target as HTMLInputElement).value))} />
    </>
  );
}

/** The board of the step on screen: an Inheritors game's (InheritorsReplay) or a Claim-family game's (ClaimStep);
 *  null while it loads. */
export function StepBoard({ r }: { r: ReplaySteps }) {
  const { cur, name } = r;
  if (!cur) return null;
  if (isInhReplay(cur)) return <InheritorsReplay step={cur} seatNames={cur.seat_views.map((_, s) => name(s))} />;
  const sv = cur.spectator_view;
  return sv.game !== "inheritors" ? <ClaimStep cur={cur} v={sv} name={name} /> : null;
}

/** The replay of game ``id``, from the deal; ``atEnd`` opens it at the last move (a finished game one did not play,
 *  screens/GameGate.tsx), ``intro`` goes under the title (who played, who won) and ``back`` replaces the link back
 *  to the table (a spectator has no table to go back to). */
export function ReplayScreen({ id, atEnd = false, intro, back }: {
  id: number; atEnd?: boolean; intro?: ComponentChildren; back?: { href: string; label: string };
}) {
  useStore();
  const r = useReplaySteps(id, atEnd);
  const { rec, cur, err, at, total } = r;

  return (
    <main class="page" id="main" data-step={at} data-steps={total}>
      <h1>{t("replay.title")}{rec ? ` – ${t(("game." + rec.kind) as Key)}` : ""}</h1>
      {intro}
      {err && <p class="form-err" role="alert">{err}</p>}
      {cur && (
        <>
          <ReplayNav r={r} />
          <StepBoard r={r} />
          <p class="row">
            <a class="btn ghost" href={`${BASE}/games/${id}/record`} target="_blank" rel="noopener">{t("replay.record")}</a>
            {back ? <a class="btn ghost" href={back.href} id="replay-back">{back.label}</a>
              : <a class="btn ghost" href={`#/game/${id}`} id="replay-back">{t("replay.back")}</a>}
          </p>
        </>
      )}
      {!cur && !err && <p aria-busy="true">{t("common.loading")}</p>}
    </main>
  );
}

/** What a Claim-family move did, in words: "Alice played Knight 7", "Bob smashed a Gnome of Alice (Giant)", the
 *  Seer's choice; the deal for none. ``who`` names the mover, ``name`` any seat. */
export function claimMoveText(m: ClaimMove | null | undefined, who: string, name: (s: number) => string): string {
  return !m ? t("replay.deal")
    : "play" in m ? t("replay.played", { name: who, card: cardName(m.play, state.lang) })
      : "smash" in m ? t("replay.smash", { name: who, victim: name(m.smash) })
      : t("replay.seer", { name: who, choice: m.seer });
}

/** One step of a Claim-family game: the move, the trick on the table, every seat's hand and score piles. */
function ClaimStep({ cur, v, name }: { cur: Step; v: EngineView; name: (s: number) => string }) {
  const m = cur.move?.move;
  const moveText = claimMoveText(m as ClaimMove | undefined, // a Claim-family board: its moves are the Claim ones
    cur.move ? name(cur.move.seat) : "", name);
  return (
    <>
      <p><strong>{moveText}</strong> <span class="muted small">{t("table.phase", { n: v.phase })} · {t("table.trick", { n: Math.min(v.trick, tricksPerPhase(v.seats)), total: tricksPerPhase(v.seats) })}</span></p>
      {v.prize && v.phase === 1 && <p class="row small">{t("table.prize")}: <CardView id={v.prize} size="s" /></p>}
      <div class="trick">
        {v.current_trick.map((tc) => <div class="tc"><span class="small">{name(tc.seat)}</span><CardView id={tc.card} size="m" /></div>)}
        {!v.current_trick.length && <span class="muted small">{t("table.no_last")}</span>}
      </div>
      {cur.seat_views.map((sv, s) => (
        <section class="pile" aria-label={name(s)}>
          <h2 class="small">{name(s)}</h2>
          <div class="pile-row">{(sv.hand || []).map((c) => <CardView id={c} size="s" />)}</div>
          <p class="small">{v.factions.map((f) => {
            const n = (v.score[s]?.[f]?.length ?? 0);
            return n ? <span class="fac-cell"><Glyph faction={f as Faction} size={12} /> {factionTitle(f as Faction, state.lang)} {n} </span> : null;
          })}</p>
        </section>
      ))}
    </>
  );
}
