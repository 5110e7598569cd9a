// Inviting people: the link to send (Share where the browser has the Web Share API, Copy everywhere), and the
// page of an open 3-4 player game (challenges are for two seats; a bigger game invites with its open seats).
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import type { Game } from "../game";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { acceptInvite, declineInvite, t, toast } from "../store";

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

/** An open game's page (3-4 players): who invited whom, the link, Cancel for its creator, Accept/Decline. */
export function Invitation({ g }: { g: Game }) {
  const link = g.code ? `${location.origin}/#/join/${g.code}` : `${location.origin}/#/game/${g.id}`;
  const game = t(("game." + g.kind) as Key);
  const mine = !g.invitedMe && g.seats.some((s) => s.you && s.joined);
  const from = inviterName(g);

  async function cancel() {
    await declineInvite(g.id);
    navigate("/");
  }
  return (
    <main class="page" id="main">
      <h1>{game}</h1>
      {g.invitedMe
        ? <p id="invited-by">{from ? t("invite.from", { name: from }) : t("table.waiting_start")}</p>
        : <p>{t("table.waiting_start")}</p>}
      {mine && (
        <ShareLink link={link} kind={g.kind} code={g.code}>
          <button type="button" class="btn ghost" id="invite-cancel" onClick={cancel}>{t("invite.cancel")}</button>
        </ShareLink>
      )}
      {g.invitedMe && (
        <div class="row">
          <button type="button" class="btn primary" onClick={() => acceptInvite(g.id)} id="accept">{t("inbox.accept")}</button>
          <button type="button" class="btn ghost" onClick={() => declineInvite(g.id)}>{t("inbox.decline")}</button>
        </div>
      )}
    </main>
  );
}
