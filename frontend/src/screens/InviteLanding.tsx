// #/join/<code> for a logged-out visitor (issue 33 item 12): who invites to what ("Alice invites you to
// Inheritors · 4 seats · 2 seats free · 3 days per move · unrated", GET /invitations/{code}), above the sign-up /
// log-in form. Once logged in, App.tsx joins the game with the code and opens it.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type Schemas } from "../api";
import { describeTimeControl } from "../corr";
import type { Key } from "../i18n";
import { errorText, state, t, useStore } from "../store";
import { Login } from "./Login";

/** GET /invitations/{code} (games/api/invitations.py). */
export type InvitationPreview = Schemas["InvitationPreview"];

type Found = { state: "loading" } | { state: "found"; p: InvitationPreview } | { state: "gone" } | { state: "error"; message: string };

/** The invitation's facts in one line: seats, free seats, time control, rated or not. */
export function invitationFacts(p: InvitationPreview): string {
  return [t("gate.seats", { n: p.seats }), t("gate.free", { n: p.open_seats }),
    describeTimeControl(p.time_control, t, state.lang), p.rated ? t("seek.rated") : t("seek.casual")].join(" · ");
}

export function InviteLanding({ code }: { code: string }) {
  useStore();
  const [found, setFound] = useState<Found>({ state: "loading" });
  useEffect(() => {
    let current = true;
    api<InvitationPreview>("GET", `/invitations/${encodeURIComponent(code)}`)
      .then((p) => { if (current) setFound({ state: "found", p }); })
      .catch((e) => {
        if (!current) return;
        setFound(e instanceof ApiError && e.status === 404 ? { state: "gone" } : { state: "error", message: errorText(e) });
      });
    return () => { current = false; };
  }, [code]);

  const intro = (
    <div class="brand-hero" id="invite-landing" data-state={found.state}>
      {found.state === "found" ? (
        <>
          <h1 id="invite-landing-h">{t("gate.invite_title", { name: found.p.inviter.name, game: t(("game." + found.p.kind) as Key) })}</h1>
          <p id="invite-facts">{invitationFacts(found.p)}</p>
          <p class="small">{t("gate.invite_next")}</p>
        </>
      ) : found.state === "gone" ? (
        <><h1>{t("app.name")}</h1><p id="invite-gone" role="status">{t("gate.invite_gone")}</p></>
      ) : found.state === "error" ? (
        <><h1>{t("app.name")}</h1><p class="form-err" role="alert">{found.message}</p></>
      ) : (
        <><h1>{t("app.name")}</h1><p aria-busy="true">{t("gate.invite_loading")}</p></>
      )}
    </div>
  );
  return <Login onDone={() => undefined} intro={intro} />;
}
