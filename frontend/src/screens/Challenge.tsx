// A challenge's page (#/challenge/ID) and its answer buttons: the challenger waits here (the link with Share /
// Copy, Cancel), the player challenged or anyone with an open challenge's link accepts (or declines, with a
// reason). It follows the challenge live (socket events, a slow poll as a safety net); once accepted, both
// players go to the table; declined, cancelled and expired challenges say so.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { challengeLink, effectiveStatus, reasonsFor, roleOf, type Challenge } from "../challenge";
import { describeTimeControl } from "../corr";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { answerChallenge, declineText, errorText, state, t, useStore } from "../store";
import { relTime } from "../ui";
import { ShareLink } from "./Invite";

/** "3 days per move · rated". */
export function challengeTerms(c: Challenge): string {
  return `${describeTimeControl(c.time_control, t, state.lang)} · ${c.rated ? t("seek.rated") : t("seek.casual")}`;
}

/** Accept, and Decline with a reason (a to-me challenge; an open one is only accepted). ``onAnswer`` gets the
 *  answer; accepting opens the table. */
export function ChallengeAnswer({ c, onAnswer }: { c: Challenge; onAnswer?: (c: Challenge) => void }) {
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState("generic");
  const [busy, setBusy] = useState(false);
  async function act(action: "accept" | "decline") {
    setBusy(true);
    const done = await answerChallenge(c.id, action, reason);
    setBusy(false);
    if (!done) return;
    if (action === "accept" && done.game_id) { navigate(`/game/${done.game_id}`); return; }
    setDeclining(false);
    onAnswer?.(done);
  }
  if (declining) {
    return (
      <form class="decline" data-decline-form={c.id} onSubmit={(e) => { e.preventDefault(); void act("decline"); }}>
        <label for={`reason-${c.id}`}>{t("challenge.reason")}</label>
        <select id={`reason-${c.id}`} name="reason" value={reason} onChange={(e) => setReason((e.target as HTMLSelectElement).value)}>
          {reasonsFor(c).map((r) => <option value={r}>{t(`challenge.reason.${r}` as Key)}</option>)}
        </select>
        <div class="row">
          <button type="submit" class="btn primary" disabled={busy} data-decline-send={c.id}>{t("challenge.decline_send")}</button>
          <button type="button" class="btn ghost" onClick={() => setDeclining(false)}>{t("common.cancel")}</button>
        </div>
      </form>
    );
  }
  return (
    <div class="row invite">
      <button type="button" class="btn primary" disabled={busy} data-accept-challenge={c.id} onClick={() => act("accept")}>{t("inbox.accept")}</button>
      {!c.open && <button type="button" class="btn ghost" disabled={busy} data-decline-challenge={c.id} onClick={() => setDeclining(true)}>{t("inbox.decline")}</button>}
    </div>
  );
}

/** What the page says about the challenge's state, for the one looking. */
function stateText(c: Challenge, mine: boolean): string {
  const status = effectiveStatus(c);
  const other = mine ? c.to?.name ?? "" : c.challenger.name;
  switch (status) {
    case "pending":
      return mine ? (c.open ? t("challenge.open_waiting") : t("challenge.waiting_for", { name: other }))
        : c.open ? t("challenge.open_from", { name: c.challenger.name }) : t("challenge.from", { name: c.challenger.name });
    case "declined":
      return mine ? t("challenge.declined_by", { name: other, reason: declineText(c) }) : t("challenge.you_declined", { reason: declineText(c) });
    case "cancelled":
      return mine ? t("challenge.cancelled_by_you") : t("challenge.cancelled_by", { name: c.challenger.name });
    case "expired":
      return t("challenge.expired");
    case "accepted":
      return t("challenge.accepted");
  }
}

export function ChallengeScreen({ id }: { id: string }) {
  const st = useStore();
  const [c, setC] = useState<Challenge | null>(null);
  const [err, setErr] = useState<string | null>(null);

  async function load() {
    try { setC(await api<Challenge>("GET", `/challenges/${encodeURIComponent(id)}`)); setErr(null); }
    catch (x) { setErr(errorText(x)); }
  }
  useEffect(() => {
    void load();
    const on = (e: Event) => {
      const pushed = (e as CustomEvent<Challenge>).detail;
      if (pushed.id === id) setC(pushed);
    };
    window.addEventListener("claim:challenge", on);
    return () => window.removeEventListener("claim:challenge", on);
  }, [id]);

  const role = c ? roleOf(c, st.me?.username) : null;
  const status = c ? effectiveStatus(c) : null;
  // Safety net while it waits: a slow poll with the socket up, a quicker one without.
  useEffect(() => {
    if (status !== "pending") return;
    const timer = setInterval(() => void load(), st.ws === "open" ? 20000 : 4000);
    return () => clearInterval(timer);
  }, [id, status, st.ws]);
  // Accepted: both players go to the table (anyone else with the link stays and reads "taken").
  const seated = !!c && (role === "mine" || role === "to_me");
  useEffect(() => {
    if (c && status === "accepted" && c.game_id && seated) navigate(`/game/${c.game_id}`);
  }, [status, c?.game_id, seated]);

  if (!c) {
    return (
      <main class="page" id="main">
        {err ? <p class="form-err" role="alert" id="challenge-error">{err}</p> : <p aria-busy="true">{t("common.loading")}</p>}
        <p><a class="btn" href="#/">{t("nav.home")}</a></p>
      </main>
    );
  }
  const mine = role === "mine";
  const pending = status === "pending";
  async function cancel() {
    const done = await answerChallenge(id, "cancel");
    if (done) setC(done);
  }
  return (
    <main class="page" id="main" data-challenge={c.id} data-status={status} data-role={role}>
      <h1>{t(("game." + c.kind) as Key)}</h1>
      <p class="muted small" id="challenge-terms">{challengeTerms(c)}{pending && <> · {t("challenge.expires", { when: relTime(c.expires_at) })}</>}</p>
      <p id={mine || !pending ? "challenge-state" : "invited-by"} class={pending ? "" : `badge ${status === "accepted" ? "" : "hot"}`}
        role="status">{status === "accepted" && !seated ? t("challenge.taken") : stateText(c, mine)}</p>
      {mine && pending && (
        <ShareLink link={challengeLink(location.origin, c.id)} kind={c.kind}>
          <button type="button" class="btn ghost" id="invite-cancel" onClick={cancel}>{t("invite.cancel")}</button>
        </ShareLink>
      )}
      {!mine && pending && <ChallengeAnswer c={c} onAnswer={setC} />}
      {status === "accepted" && seated && c.game_id && <p><a class="btn primary" href={`#/game/${c.game_id}`}>{t("challenge.open_game")}</a></p>}
      {!pending && status !== "accepted" && (
        <p class="row"><a class="btn primary" href="#/new" id="challenge-new">{t("nav.new")}</a><a class="btn ghost" href="#/">{t("nav.home")}</a></p>
      )}
    </main>
  );
}
