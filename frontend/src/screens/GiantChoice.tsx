// M6.5 (3-4 players): the trick's winner chooses whose Gnome each Giant smashes, like the Seer choice.
import { cardName, type Move } from "../cards";
import { CardView } from "../Card";
import { seatName, type Game } from "../game";
import { t, useStore } from "../store";
import { Dialog } from "../ui";

/** The candidates of a pending Giant choice this seat must make (empty when there is none). */
export function smashChoices(g: Game): number[] {
  if (!g.myTurn) return [];
  return g.legal.flatMap((m) => ("smash" in m ? [m.smash] : []));
}

export function GiantChoice({ g, busy, send }: { g: Game; busy: boolean; send: (m: Move) => void }) {
  const st = useStore();
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
            <button type="button" class="btn" aria-disabled={busy} id={`smash-${s}`} data-seat={s}
              onClick={() => { if (!busy) send({ smash: s }); }}>
              {gnome && <CardView id={gnome} size="m" />}
              {t("table.smash_from", { name: seatName(g, s), n: row })}
            </button>
          );
        })}
      </div>
    </Dialog>
  );
}
