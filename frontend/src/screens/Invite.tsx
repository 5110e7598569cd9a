// Inviting people: the link to send (Share where the browser has the Web Share API, Copy everywhere), and the
// page of an open 3-4 player game (challenges are for two seats; a bigger game invites with its open seats).
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { emptySeats, iCreated, seatStates, type Game, type SeatState } from "../game";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { acceptInvite, declineInvite, errorText, putGame, t, toast } from "../store";

/** The name of the player who made the invitation (the seated, joined human). */
export function inviterName(g: Game): string | null {
  return g.seats.find((s) => s.joined && !s.open && s.ai == null && !s.you)?.name ?? null;
}

/** The link with Share / Copy, and whatever else the page puts beside them (Cancel). */
export function ShareLink({ link, kind, code, children }: { link: string; kind: string; code?: string | null; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const game = t(("game." + kind) as Key);
  const canShare = typeof navigator !== "undefined" && typeof navigator.share === "function";
  async function share() {
    try { await navigator.share({ title: t("invite.share_title", { game }), text: t("invite.share_text", { game }), url: link }); }
    catch { /* the person closed the share sheet */ }
  }
  async function copy() {
    try { await navigator.clipboard.writeText(link); setCopied(true); toast(t("invite.copied")); }
    catch { toast(t("invite.copy_failed"), "error"); }
  }
  return (
    <section aria-labelledby="h-invite" id="invite">
      <h2 id="h-invite">{t("invite.send")}</h2>
      {code && <p>{t("inbox.share_code", { code })}</p>}
      <p><code id="invite-link">{link}</code></p>
      <div class="row">
        {canShare && <button type="button" class="btn primary" id="invite-share" onClick={share}>{t("invite.share")}</button>}
        <button type="button" class={`btn ${canShare ? "" : "primary"}`} id="invite-copy" onClick={copy}>{copied ? t("invite.copied") : t("invite.copy")}</button>
        {children}
      </div>
    </section>
  );
}

/** An open game's page (3-4 players): every seat and where it stands (who invites, who has joined, who is awaited),
 *  and only the actions that are the viewer's: the creator shares the link, fills empty seats with the AI and cancels;
 *  an invitee accepts or declines; a friend who has joined waits (the page updates live when the game starts). */
export function Invitation({ g }: { g: Game }) {
  const link = g.code ? `${location.origin}/#/join/${g.code}` : `${location.origin}/#/game/${g.id}`;
  const game = t(("game." + g.kind) as Key);
  const creator = iCreated(g);
  const from = inviterName(g);
  const seats = seatStates(g);
  const awaited = seats.filter((s) => s.state === "open" || s.state === "invited").length;
  const creatorName = seats.find((s) => s.creator)?.name ?? from ?? "";

  async function cancel() {
    await declineInvite(g.id);
    navigate("/");
  }
  return (
    <main class="page" id="main" data-invitation={g.id}>
      <h1>{game}</h1>
      {g.invitedMe && <p id="invited-by">{from ? t("invite.from", { name: from }) : t("table.waiting_start")}</p>}
      <p id="invite-waiting" role="status" aria-live="polite">{t("invite.waiting", { n: awaited })}</p>
      <section aria-labelledby="h-seats">
        <h2 id="h-seats">{t("invite.seats")}</h2>
        <ul class="games" id="invite-seats">
          {seats.map((s) => (
            <li class="game-row" data-seat={s.index} data-state={s.state}>
              <span class="gr-main"><strong>{s.state === "open" ? t("invite.fill_seat", { n: s.index + 1 }) : s.name}</strong></span>
              <span class="gr-sub small">
                <span class={`badge ${s.state === "open" || s.state === "invited" ? "hot" : ""}`}>{seatWord(s.state)}</span>
                {s.creator && <span class="muted"> · {t("invite.seat_creator")}</span>}
              </span>
            </li>
          ))}
        </ul>
      </section>
      {creator && <FillSeats g={g} />}
      {creator && g.code && emptySeats(g).length > 0 && (
        <ShareLink link={link} kind={g.kind} code={g.code}>
          <button type="button" class="btn ghost" id="invite-cancel" onClick={cancel}>{t("invite.cancel")}</button>
        </ShareLink>
      )}
      {creator && !(g.code && emptySeats(g).length > 0) && (
        <div class="row"><button type="button" class="btn ghost" id="invite-cancel" onClick={cancel}>{t("invite.cancel")}</button></div>
      )}
      {!creator && !g.invitedMe && <p class="muted" id="invite-joined">{t("invite.joined_wait", { name: creatorName })}</p>}
      {g.invitedMe && (
        <div class="row">
          <button type="button" class="btn primary" onClick={() => acceptInvite(g.id)} id="accept">{t("inbox.accept")}</button>
          <button type="button" class="btn ghost" onClick={() => declineInvite(g.id)}>{t("inbox.decline")}</button>
        </div>
      )}
    </main>
  );
}

function seatWord(state: SeatState): string {
  switch (state) {
    case "you": return t("invite.seat_you");
    case "joined": return t("invite.seat_joined");
    case "ai": return t("invite.seat_ai");
    case "invited": return t("invite.seat_invited");
    case "open": return t("invite.seat_open");
  }
}

const AI_LEVELS: Record<number, string> = { 1: "Squire", 2: "Knight", 3: "King" };

/** The creator gives empty seats to the AI, a level each (POST /games/{id}/fill); a seat set to "keep open" stays
 *  for people. When no seat is left empty the game starts and the answer's view opens the table. */
function FillSeats({ g }: { g: Game }) {
  const empty = emptySeats(g);
  const levels: Schemas["LevelEnum"][] = [1, 2, 3];
  const [choice, setChoice] = useState<Record<number, Schemas["LevelEnum"] | 0>>({});
  const [busy, setBusy] = useState(false);
  if (!empty.length) return null;
  const picked = (i: number) => (i in choice ? choice[i] : levels[0]);
  const chosen = empty.flatMap((i): Schemas["FillSeatRequest"][] => { const level = picked(i); return level ? [{ index: i, level }] : []; });
  async function fill(e: Event) {
    e.preventDefault();
    if (!chosen.length) return;
    setBusy(true);
    try {
      const body: Schemas["FillWithAIRequest"] = { seats: chosen };
      putGame(await api<Schemas["GameView"]>("POST", `/games/${g.id}/fill`, body), true);
      toast(t("invite.filled"));
    } catch (x) { toast(errorText(x), "error"); } finally { setBusy(false); }
  }
  return (
    <form class="inline-form" id="fill-ai" onSubmit={fill} aria-labelledby="h-fill">
      <h2 id="h-fill">{t("invite.fill_title")}</h2>
      {empty.map((i) => (
        <p class="row">
          <label for={`fill-${i}`}>{t("invite.fill_seat", { n: i + 1 })}</label>
          <select id={`fill-${i}`} data-fill-seat={i} value={String(picked(i))} onChange={(e) => setChoice({ ...choice, [i]: Number((e.target as HTMLSelectElement).value) as Schemas["LevelEnum"] | 0 })}>
            {levels.map((l) => <option value={String(l)}>{`${t("invite.seat_ai")} (${AI_LEVELS[l]})`}</option>)}
            <option value="0">{t("invite.fill_keep")}</option>
          </select>
        </p>
      ))}
      <button type="submit" class="btn primary" id="fill-submit" disabled={busy || !chosen.length}>
        {chosen.length === empty.length ? t("invite.fill_start") : t("invite.fill")}
      </button>
    </form>
  );
}
