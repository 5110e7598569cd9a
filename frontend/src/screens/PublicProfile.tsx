// The social part of a player's profile (#/profile/NAME; issue 35), from GET /users/{username}: online or not,
// since when a member, Follow / Mute / Block (asked first) / Challenge and a Watch per watchable game, and the
// ratings per pool each with a small history sparkline (inline SVG). Own profile and logged out: no relation buttons.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import type { PublicProfile, PublicRating, Relationship } from "../api";
import { challengeHref, relationOn, sparkline, toggleRelation, watchHref, type RelationKind } from "../social";
import { errorText, state, t, toast, useStore } from "../store";
import { OnlineDot } from "./Friends";
import { poolName } from "./Profile";
import { iso } from "./Watch";

/** GET /users/{username}; null while loading and when the server has no such page (an unknown user, an older server). */
export function usePublicProfile(username: string): PublicProfile | null {
  const [p, setP] = useState<PublicProfile | null>(null);
  useEffect(() => {
    let current = true;
    setP(null);
    api<PublicProfile>("GET", `/users/${encodeURIComponent(username)}`).then((x) => { if (current) setP(x); }).catch(() => undefined);
    return () => { current = false; };
  }, [username]);
  return p;
}

/** "Member since March 5, 2026" in the reader's language (a whole date: Czech then takes the month's genitive). */
function joinedText(iso8601: string): string {
  const d = new Date(iso8601);
  if (Number.isNaN(d.getTime())) return "";
  return t("social.joined", { when: new Intl.DateTimeFormat(state.lang, { year: "numeric", month: "long", day: "numeric" }).format(d) });
}

export function SocialCard({ p }: { p: PublicProfile }) {
  const st = useStore();
  const [rel, setRel] = useState<Relationship | null>(p.relationship);
  const [busy, setBusy] = useState<RelationKind | null>(null);
  useEffect(() => setRel(p.relationship), [p]);
  const name = p.user.name || p.user.username;
  const me = st.me?.username.toLowerCase() === p.user.username.toLowerCase();

  async function toggle(kind: RelationKind) {
    if (!rel || busy) return;
    setBusy(kind);
    try {
      const after = await toggleRelation(rel, kind, (q) => confirm(q), t("social.block_confirm", { name: iso(name) }));
      if (after) { setRel(after); toast(t(`social.done_${kind}_${relationOn(after, kind) ? "on" : "off"}`, { name: iso(name) })); }
    } catch (e) { toast(errorText(e), "error"); }
    setBusy(null);
  }

  return (
    <section class="card-panel social" id="social" aria-label={t("social.about", { name: iso(name) })} data-user={p.user.username}>
      <p class="row small">
        <OnlineDot online={p.online} />
        {p.online != null && <span>{p.online ? t("social.online") : t("social.offline")}</span>}
        {p.user.is_bot && <span class="badge">{t("extra.lobby_bot")}</span>}
        <span class="muted">{joinedText(p.joined)}</span>
      </p>
      {rel && (rel.friends || rel.followed_by) && (
        <p class="small" id="rel-note"><strong>{rel.friends ? t("social.are_friends") : t("social.follows_you")}</strong></p>
      )}
      {rel && rel.blocking && <p class="small badge hot" id="rel-blocked">{t("social.you_block")}</p>}
      <div class="row" id="social-actions">
        {rel && !me && (
          <>
            <button type="button" class={`btn ${rel.following ? "" : "primary"}`} id="rel-follow" aria-pressed={rel.following} disabled={busy !== null || rel.blocking}
              onClick={() => void toggle("follow")}>{rel.following ? t("social.unfollow") : t("social.follow")}</button>
            {!rel.blocking && <a class="btn" href={challengeHref(p.user.username)} id="rel-challenge">{t("social.challenge")}</a>}
          </>
        )}
        {p.watchable_games.map((id, i) => (
          <a class="btn" href={watchHref(id)} data-watch={id}>{p.watchable_games.length > 1 ? t("social.watch_n", { n: i + 1 }) : t("social.watch")}</a>
        ))}
      </div>
      {rel && !me && (
        <div class="row small" id="social-safety">
          <button type="button" class="btn ghost" id="rel-mute" aria-pressed={rel.muting} disabled={busy !== null}
            onClick={() => void toggle("mute")}>{rel.muting ? t("social.unmute") : t("social.mute")}</button>
          <button type="button" class="btn ghost" id="rel-block" aria-pressed={rel.blocking} disabled={busy !== null}
            onClick={() => void toggle("block")}>{rel.blocking ? t("social.unblock") : t("social.block")}</button>
        </div>
      )}
    </section>
  );
}

/** A pool's rating history as a small line (oldest left); nothing with fewer than two points. */
export function Sparkline({ r }: { r: PublicRating }) {
  const W = 80, H = 24;
  const s = sparkline(r.history, W, H);
  if (!s.path) return null;
  return (
    <svg class="spark" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" data-pool={r.pool}
      aria-label={t("social.spark_label", { pool: poolName(r.pool), min: s.min, max: s.max, n: r.history.length })}>
      <path d={s.path} fill="none" class="line" />
    </svg>
  );
}

/** Ratings per pool with their sparklines. */
export function PublicRatings({ p }: { p: PublicProfile }) {
  return (
    <table class="breakdown ratings" id="ratings">
      <caption class="sr-only">{t("rating.title")}</caption>
      <thead><tr><th scope="col">{t("rating.pool")}</th><th scope="col">{t("rating.rating")}</th><th scope="col">{t("rating.games")}</th><th scope="col">{t("social.trend")}</th></tr></thead>
      <tbody>
        {p.ratings.map((r) => (
          <tr data-pool={r.pool}>
            <th scope="row"><a href={`#/leaders/${r.pool}`}>{poolName(r.pool)}</a></th>
            <td>{r.rating} <span class="muted small">±{r.deviation}</span></td>
            <td>{r.games}</td>
            <td><Sparkline r={r} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
