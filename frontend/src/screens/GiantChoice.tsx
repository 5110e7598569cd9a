// M6.5 (3-4 players): the trick's winner chooses whose Gnome each Giant smashes, like the Seer choice.
import { cardName, type Move } from "../cards";
import { CardView } from "../Card";
import { seatName, type Game } from "../game";
import { useEffect, useState } from "preact/hooks";
import { t, useStore } from "../store";
import { Dialog } from "../ui";

/** The candidates of a pending Giant choice this seat must make (empty when there is none). */
export function smashChoices(g: Game): number[] {
  if (!g.myTurn) return [];
  return g.legal.flatMap((m) => ("smash" in m ? [m.smash] : []));
}

export function GiantChoice({ g, busy, send }: { g: Game; busy: boolean; send: (m: Move) => void }) {
  const st = useStore();
  const [pick, setPick] = useState<number | null>(null);
  useEffect(() => setPick(null), [g.version]);
  const seats = smashChoices(g);
  const v = g.view;
  const gnome = v?.smash_pending?.gnome ?? null;
  if (!seats.length || !v) return null;
  const name = gnome ? cardName(gnome, st.lang) : "";
  return (
    <Dialog title={t("table.smash_title")} id="smash">
      <p>{t("table.smash_prompt", { gnome: name })}</p>
      <div class="seer-opts">
        {seats.map((s) => {
          const row = v.gnome_rows?.[s]?.length ?? 0;
          return (
            <button type="button" class={`btn ${pick === s ? "primary" : ""}`} aria-disabled={busy} id={`smash-${s}`} data-seat={s}
              aria-pressed={pick === s} onClick={() => { // choose, then commit (issue 25); one-tap play sends at once
                if (busy) return;
                if (st.oneTap || pick === s) send({ smash: s }); else setPick(s);
              }}>
              {gnome && <CardView id={gnome} size="m" />}
              {t("table.smash_from", { name: seatName(g, s), n: row })}
            </button>
          );
        })}
        <button type="button" class="btn primary" id="smash-commit" aria-disabled={busy || pick === null}
          onClick={() => { if (!busy && pick !== null) send({ smash: pick }); }}>{t("table.commit")}</button>
      </div>
    </Dialog>
  );
}
