// #/friends (issue 35): my friends (mutual follows), online first with a dot, each with their watchable games
// (Watch) and Challenge (the new-game screen's challenge, opponent filled in); tabs for whom I follow and who
// follows me (#/friends/following, #/friends/followers). Every list is keyset-paged ("More").
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import type { Friend, FriendPage, PublicUser, UserListPage } from "../api";
import { usePaged, type Page } from "../paged";
import { navigate } from "../router";
import { appendPage, challengeHref, pagePath, setRelation, watchHref } from "../social";
import { errorText, t, toast, useStore } from "../store";
import { UserName } from "./Watch";

export type FriendsTab = "friends" | "following" | "followers";
export const FRIENDS_TABS: FriendsTab[] = ["friends", "following", "followers"];

/** The path of a tab's page after `cursor`. */
export function friendsPath(tab: FriendsTab, cursor: number | null, limit = 30): string {
  return pagePath(`/${tab}`, { limit, cursor });
}

/** The online dot: green with "online" for screen readers, grey "offline" (or nothing when the server says null). */
export function OnlineDot({ online }: { online: boolean | null }) {
  if (online == null) return null;
  return <span class={`dot ${online ? "on" : ""}`} data-online={online ? "1" : "0"} role="img" aria-label={online ? t("social.online") : t("social.offline")} />;
}

export function Friends({ tab: initial }: { tab?: string | null }) {
  useStore();
  const tab: FriendsTab = FRIENDS_TABS.includes(initial as FriendsTab) ? (initial as FriendsTab) : "friends";
  const { rows, next, loaded, busy, err, load } = usePaged<Friend | PublicUser>(
    (cursor) => api<FriendPage | UserListPage>("GET", friendsPath(tab, cursor)) as Promise<Page<Friend | PublicUser>>, tab,
    (r) => ("user" in r ? r.user.username : r.username));

  return (
    <main class="page" id="main" data-tab={tab}>
      <h1>{t("social.friends_title")}</h1>
      <div class="tabs" role="tablist" aria-label={t("social.friends_title")}>
        {FRIENDS_TABS.map((k) => (
          <button type="button" role="tab" aria-selected={tab === k} class={tab === k ? "on" : ""} data-tab={k}
            onClick={() => navigate(k === "friends" ? "/friends" : `/friends/${k}`)}>{t(`social.tab_${k}`)}</button>
        ))}
      </div>
      {tab === "friends" && <p class="muted small">{t("social.friends_help")}</p>}
      {err && <p class="form-err" role="alert">{err}</p>}
      {loaded && !rows.length && !err && <p class="empty" id="friends-empty">{t(`social.empty_${tab}`)}</p>}
      <ul class="people" id="friends-list">
        {rows.map((r) => ("user" in r ? <FriendRow f={r} key={r.user.username} /> : <PersonRow u={r} key={r.username} />))}
      </ul>
      {next && <button type="button" class="btn wide" id="friends-more" disabled={busy} aria-busy={busy} onClick={() => void load(next)}>{busy ? t("common.loading") : t("social.more")}</button>}
    </main>
  );
}

/** A friend: the dot, the name (their own text), Challenge, and a Watch per watchable game. */
export function FriendRow({ f }: { f: Friend }) {
  const name = f.user.name || f.user.username;
  return (
    <li class="person" data-friend={f.user.username} data-online={f.online ? "1" : "0"}>
      <span class="p-name"><OnlineDot online={f.online} /> <UserName user={f.user} />{f.user.is_bot && <span class="badge"> · {t("extra.lobby_bot")}</span>}</span>
      <span class="row">
        {f.watchable_games.map((id, i) => (
          <a class="btn" href={watchHref(id)} data-watch={id} aria-label={t("social.watch_label", { name })}>
            {f.watchable_games.length > 1 ? t("social.watch_n", { n: i + 1 }) : t("social.watch")}</a>
        ))}
        <a class="btn ghost" href={challengeHref(f.user.username)} data-challenge-user={f.user.username} aria-label={t("social.challenge_label", { name })}>{t("social.challenge")}</a>
      </span>
    </li>
  );
}

/** A followed player or a follower: the name, and Challenge. */
function PersonRow({ u }: { u: PublicUser }) {
  return (
    <li class="person" data-user={u.username}>
      <span class="p-name"><UserName user={u} />{u.is_bot && <span class="badge"> · {t("extra.lobby_bot")}</span>}</span>
      <a class="btn ghost" href={challengeHref(u.username)} data-challenge-user={u.username}
        aria-label={t("social.challenge_label", { name: u.name || u.username })}>{t("social.challenge")}</a>
    </li>
  );
}

/** Settings: the players I block or mute (GET /blocks, /mutes; keyset "More"), each with Unblock / Unmute. */
export function BlockedList({ kind }: { kind: "block" | "mute" }) {
  useStore();
  const path = kind === "block" ? "/blocks" : "/mutes";
  const [rows, setRows] = useState<PublicUser[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  async function load(cursor: number | null) {
    try {
      const page = await api<UserListPage>("GET", pagePath(path, { limit: 30, cursor }));
      setRows((before) => (cursor ? appendPage(before, page.results, (u) => u.username) : page.results));
      setNext(page.next);
    } catch { /* an older server: the list stays empty */ }
    setLoaded(true);
  }
  useEffect(() => { void load(null); }, [kind]);
  async function undo(u: PublicUser) {
    try {
      await setRelation(u.username, kind, false);
      setRows((before) => before.filter((r) => r.username !== u.username));
      toast(t(kind === "block" ? "social.done_block_off" : "social.done_mute_off", { name: `\u2068${u.name || u.username}\u2069` }));
    } catch (e) { toast(errorText(e), "error"); }
  }
  return (
    <div id={`${kind}-list`}>
      <h3 class="small">{t(kind === "block" ? "social.blocked_title" : "social.muted_title")}</h3>
      {loaded && !rows.length && <p class="muted small">{t(kind === "block" ? "social.blocked_none" : "social.muted_none")}</p>}
      <ul class="people">
        {rows.map((u) => (
          <li class="person" data-user={u.username} key={u.username}>
            <span class="p-name"><UserName user={u} /></span>
            <button type="button" class="btn ghost" data-undo={u.username} onClick={() => void undo(u)}>{t(kind === "block" ? "social.unblock" : "social.unmute")}</button>
          </li>
        ))}
      </ul>
      {next && <button type="button" class="btn wide" onClick={() => void load(next)}>{t("social.more")}</button>}
    </div>
  );
}
