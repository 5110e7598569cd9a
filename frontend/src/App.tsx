import { useEffect, useRef } from "preact/hooks";
import { api, type Schemas } from "./api";
import { connect, disconnect } from "./realtime";
import { navigate, useRoute } from "./router";
import { Authorize } from "./screens/Authorize";
import { ChallengeScreen } from "./screens/Challenge";
import { Inbox } from "./screens/Inbox";
import { Login, ResetPassword } from "./screens/Login";
import { NewGame } from "./screens/NewGame";
import { Rules } from "./screens/Rules";
import { Settings } from "./screens/Settings";
import { GameGate } from "./screens/GameGate";
import { InviteLanding } from "./screens/InviteLanding";
import { LobbyScreen } from "./screens/Lobby";
import { Leaderboard, Profile } from "./screens/Profile";
import { Bell, Notifications } from "./screens/Notes";
import { ReplayScreen } from "./screens/Replay";
import { ReviewScreen } from "./screens/Review";
import { reviewRoute } from "./review";
import { Friends } from "./screens/Friends";
import { NowPlaying, WatchScreen } from "./screens/Watch";
import { TournamentCreateScreen, TournamentList, TournamentScreen } from "./screens/Tournaments";
import { LeagueCreateScreen, LeagueList, LeagueScreen } from "./screens/Leagues";
import type { FollowedEvent } from "./api";
import { errorText, loadMe, putGame, t, toast, useStore } from "./store";

/** Focus the screen's <main> (skip link; a new screen while focus was on something now gone). */
function focusMain() {
  const m = document.getElementById("main");
  if (m) { m.tabIndex = -1; m.focus({ preventScroll: true }); }
}

export function App() {
  const st = useStore();
  const route = useRoute();

  useEffect(() => { void loadMe(); }, []);
  // Someone followed me (the socket's ``followed`` event): said once, with their name as text.
  useEffect(() => {
    const on = (e: Event) => {
      const by = (e as CustomEvent<FollowedEvent>).detail.by;
      toast(t("social.followed_you", { name: `\u2068${by.name || by.username}\u2069` }));
    };
    window.addEventListener("claim:followed", on);
    return () => window.removeEventListener("claim:followed", on);
  }, []);
  // Keyboard users: a new screen (or logging in/out) must not leave focus on a removed element.
  const screen = `${route.name}/${route.arg}/${reviewRoute(location.hash) != null}/${st.me?.username}`;
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!st.ready) return;
    const a = document.activeElement;
    if (shown.current !== null && shown.current !== screen && (!a || a === document.body || !a.isConnected)) focusMain();
    shown.current = screen;
  }, [screen, st.ready]);
  useEffect(() => {
    if (st.me) connect(); else disconnect();
  }, [st.me?.username]);

  // #/join/CODE: join an open invitation once logged in.
  useEffect(() => {
    if (!st.me || route.name !== "join" || !route.arg) return;
    api<Schemas["GameView"]>("POST", "/games/join", { code: route.arg })
      .then((g) => navigate(`/game/${putGame(g).id}`))
      .catch((e) => { toast(errorText(e), "error"); navigate("/"); });
  }, [st.me?.username, route.name, route.arg]);

  if (!st.ready) return <main class="page" id="main"><p aria-busy="true">{t("common.loading")}</p></main>;

  let body;
  if (location.pathname === "/reset-password") {
    body = <ResetPassword onDone={() => setTimeout(() => location.replace("/#/"), 1500)} />;
  } else if (route.name === "rules") body = <Rules kind={route.arg} />;
  // A game (the table, a spectator's view or "private") and a finished game's replay: also when logged out.
  // A finished game's review (#/game/ID/review, a shareable link): also when logged out (the server says who may see it).
  else if (route.name === "game" && reviewRoute(location.hash) != null) body = <ReviewScreen id={reviewRoute(location.hash)!} key={`review-${route.arg}`} />;
  else if (route.name === "game" && route.arg) body = <GameGate id={Number(route.arg)} key={route.arg} />;
  else if (route.name === "replay" && route.arg) body = <ReplayScreen id={Number(route.arg)} key={route.arg} />;
  // A logged-out friend's invitation link: who invites to what, then sign up / log in (the effect above joins).
  else if (route.name === "join" && route.arg && !st.me) body = <InviteLanding code={route.arg} key={route.arg} />;
  // #/join/CODE, #/challenge/ID, #/authorize?… (the OAuth consent screen) and #/watch/ID come back to themselves after
  // the login.
  else if (!st.me) body = <Login onDone={() => { if (!["join", "challenge", "authorize", "watch", "tournaments", "leagues"].includes(route.name)) navigate("/"); }} />;
  else if (route.name === "join" && route.arg) body = <main class="page" id="main"><p aria-busy="true">{t("gate.joining")}</p></main>;
  else if (route.name === "authorize") body = <Authorize />;
  else if (route.name === "new") body = <NewGame key={location.hash} />;
  else if (route.name === "lobby") body = <LobbyScreen />;
  else if (route.name === "challenge" && route.arg) body = <ChallengeScreen id={route.arg} key={route.arg} />;
  else if (route.name === "settings") body = <Settings onLogout={() => navigate("/")} />;
  else if (route.name === "profile" && route.arg) body = <Profile username={route.arg} key={route.arg} />;
  else if (route.name === "leaders") body = <Leaderboard pool={route.arg || "claim"} />;
  else if (route.name === "notes") body = <Notifications />;
  else if (route.name === "watch" && route.arg) body = <WatchScreen id={Number(route.arg)} key={route.arg} />;
  else if (route.name === "watch") body = <NowPlaying />;
  else if (route.name === "tournaments" && route.arg === "new") body = <TournamentCreateScreen />;
  else if (route.name === "tournaments" && route.arg && /^\d+$/.test(route.arg)) body = <TournamentScreen id={Number(route.arg)} key={route.arg} />;
  else if (route.name === "tournaments") body = <TournamentList tab={route.arg} key={route.arg ?? "open"} />;
  else if (route.name === "leagues" && route.arg === "new") body = <LeagueCreateScreen />;
  else if (route.name === "leagues" && route.arg && /^\d+$/.test(route.arg)) body = <LeagueScreen id={Number(route.arg)} key={route.arg} />;
  else if (route.name === "leagues") body = <LeagueList tab={route.arg} key={route.arg ?? "open"} />;
  else if (route.name === "friends") body = <Friends tab={route.arg} key={route.arg ?? "friends"} />;
  else body = <Inbox />;

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); focusMain(); }}>{t("nav.home")}</a>
      <header class="bar">
        <a class="brand" href="#/" aria-label={`${t("app.name")} – ${t("nav.home")}`}>claim</a>
        <nav aria-label="main">
          {st.me && <a href="#/" aria-current={route.name === "home" ? "page" : undefined}>{t("nav.home")}</a>}
          {st.me && <a href="#/new" aria-current={route.name === "new" ? "page" : undefined}>{t("nav.new")}</a>}
          <a href="#/rules" aria-current={route.name === "rules" ? "page" : undefined}>{t("nav.rules")}</a>
          {st.me && <a href="#/settings" aria-current={route.name === "settings" ? "page" : undefined} id="nav-settings">{t("nav.settings")}</a>}
        </nav>
        {st.me && <Bell />}
      </header>
      {st.offline && <p class="offline" role="status">{t("common.offline")}</p>}
      {body}
      <div class={`toast ${st.toast ? "show " + st.toast.kind : ""}`} role={st.toast?.kind === "error" ? "alert" : "status"} aria-live="polite">{st.toast?.text}</div>
    </>
  );
}
