// Notifications: the in-app inbox, preferences per event and channel, and Web Push.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { needsHomeScreen, vapidKeyBytes } from "../corr";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { errorText, loadUnread, set, t, toast, useStore } from "../store";
import { relTime } from "../ui";

type Note = Schemas["Notification"];
type Prefs = Schemas["PreferencesOut"];
type PrefEvent = keyof NonNullable<Schemas["PatchedPrefRequest"]["events"]>;

const EVENTS: PrefEvent[] = ["your_turn", "opponent_moved", "deadline_near", "game_over", "match_found", "challenge_received", "vacation_used", "seat_replaced", "chat_message",
  "tournament_starting", "tournament_game", "tournament_round", "tournament_finished", "tournament_cancelled"];
const CHANNELS = ["inapp", "push", "email"] as const;

export function Notifications() {
  const st = useStore();
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [err, setErr] = useState<string | null>(null);

  async function load() {
    try {
      const r = await api<Schemas["Inbox"]>("GET", "/notifications");
      setNotes(r.results);
      set({ unread: r.unread });
    } catch (e) { setErr(errorText(e)); }
  }
  useEffect(() => { void load(); }, []);
  useEffect(() => { // pushed over the socket while the inbox is open
    const on = () => void load();
    window.addEventListener("claim:notification", on);
    return () => window.removeEventListener("claim:notification", on);
  }, []);

  async function markRead(ids: number[] | "all") {
    try {
      await api("POST", "/notifications/read", ids === "all" ? { all: true } : { ids });
      await load();
    } catch (e) { toast(errorText(e), "error"); }
  }

  function open(n: Note) {
    if (!n.read) void markRead([n.id]);
    // a chat line's notification opens the table with its chat open (docs/api.md "Chat")
    if (n.game_id) navigate(`/game/${n.game_id}${n.event === "chat_message" ? "?chat=1" : ""}`);
    // a tournament's notification without a game (starting, round, final standings, cancelled) opens its page
    else if (typeof n.data?.tournament_id === "number") navigate(`/tournaments/${n.data.tournament_id}`);
  }

  return (
    <main class="page" id="main">
      <div class="row-between">
        <h1>{t("notes.title")}</h1>
        <button class="btn ghost" type="button" onClick={() => markRead("all")} disabled={!st.unread} id="read-all">{t("notes.read_all")}</button>
      </div>
      {err && <p class="form-err" role="alert">{err}</p>}
      {!notes && !err && <p aria-busy="true">{t("common.loading")}</p>}
      {notes && notes.length === 0 && <p class="empty">{t("notes.empty")}</p>}
      <ul class="games" id="notes">
        {(notes || []).map((n) => (
          <li>
            <button type="button" class={`game-row note ${n.read ? "" : "turn"}`} onClick={() => open(n)} data-note={n.id} data-game={n.game_id ?? undefined}>
              <span class="gr-main"><strong>{n.title || eventName(n.event)}</strong>{!n.read && <span class="sr-only"> ({t("notes.unread")})</span>}</span>
              <span class="gr-sub small">{n.body} <span class="muted">· {eventName(n.event)} · {relTime(n.created_at)}</span></span>
            </button>
          </li>
        ))}
      </ul>
      <Preferences />
    </main>
  );
}

function eventName(e: string): string {
  return (EVENTS as string[]).includes(e) ? t(("notes.ev_" + e) as Key) : e;
}

function Preferences() {
  const [p, setP] = useState<Prefs | null>(null);
  useEffect(() => { api<Prefs>("GET", "/notifications/preferences").then(setP).catch((e) => toast(errorText(e), "error")); }, []);

  async function patch(body: Schemas["PatchedPrefRequest"]) {
    try { setP(await api<Prefs>("PATCH", "/notifications/preferences", body)); toast(t("common.saved")); } catch (e) { toast(errorText(e), "error"); }
  }
  if (!p) return null;
  return (
    <section aria-labelledby="h-prefs">
      <h2 id="h-prefs">{t("notes.prefs")}</h2>
      <table class="breakdown prefs" id="prefs">
        <caption class="sr-only">{t("notes.prefs")}</caption>
        <thead><tr><th scope="col">{t("notes.event")}</th>{CHANNELS.map((c) => <th scope="col">{t(("notes.ch_" + c) as Key)}</th>)}</tr></thead>
        <tbody>
          {EVENTS.filter((e) => p.events[e]).map((e) => (
            <tr>
              <th scope="row">{eventName(e)}</th>
              {CHANNELS.map((c) => (
                <td><label class="check-cell"><input type="checkbox" checked={p.events[e][c]} aria-label={`${eventName(e)}: ${t(("notes.ch_" + c) as Key)}`}
                  onChange={(ev) => patch({ events: { [e]: { [c]: (ev.target as HTMLInputElement).checked } } })} /></label></td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <label class="radio"><input type="checkbox" checked={p.email_digest} onChange={(ev) => patch({ email_digest: (ev.target as HTMLInputElement).checked })} id="digest" />{t("notes.digest")}</label>
      <Push vapid={p.vapid_public_key} />
    </section>
  );
}

function Push({ vapid }: { vapid: string | null }) {
  const [status, setStatus] = useState<"unknown" | "on" | "off">("unknown");
  const [busy, setBusy] = useState(false);
  const supported = typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  const standalone = typeof window !== "undefined" && (window.matchMedia?.("(display-mode: standalone)").matches || (navigator as unknown as { standalone?: boolean }).standalone === true);
  const ios = needsHomeScreen(navigator.userAgent, !!standalone);

  useEffect(() => {
    if (!supported) return;
    navigator.serviceWorker.getRegistration("/").then((reg) => reg?.pushManager.getSubscription())
      .then((s) => setStatus(s ? "on" : "off")).catch(() => setStatus("off"));
  }, []);

  async function enable() {
    if (!vapid) return;
    setBusy(true);
    try {
      if ((await Notification.requestPermission()) !== "granted") { toast(t("push.denied"), "error"); return; }
      const reg = await navigator.serviceWorker.getRegistration("/");
      if (!reg) { toast(t("push.no_worker"), "error"); return; }
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidKeyBytes(vapid) as BufferSource });
      await api("POST", "/notifications/push-subscriptions", sub.toJSON());
      setStatus("on");
      toast(t("push.enabled"));
    } catch (e) {
      toast(errorText(e), "error");
    } finally { setBusy(false); }
  }

  async function disable() {
    setBusy(true);
    try {
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await api("DELETE", "/notifications/push-subscriptions", { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      setStatus("off");
    } catch (e) { toast(errorText(e), "error"); } finally { setBusy(false); }
  }

  let body;
  if (!vapid) body = <p class="muted" id="push-msg">{t("push.not_configured")}</p>;
  else if (ios) body = <p class="muted" id="push-msg">{t("push.ios")}</p>;
  else if (!supported) body = <p class="muted" id="push-msg">{t("push.unsupported")}</p>;
  else if (status === "on") body = <p class="row"><span>{t("push.on")}</span><button class="btn ghost" type="button" disabled={busy} onClick={disable}>{t("push.disable")}</button></p>;
  else body = <button class="btn" type="button" disabled={busy} onClick={enable} id="push-enable">{t("push.enable")}</button>;
  return (
    <div aria-labelledby="h-push">
      <h3 id="h-push">{t("push.title")}</h3>
      {body}
    </div>
  );
}

/** The bell in the header with the unread count (polled each minute and on every screen change). */
export function Bell() {
  const st = useStore();
  useEffect(() => {
    void loadUnread();
    const timer = setInterval(() => void loadUnread(), 60000);
    return () => clearInterval(timer);
  }, []);
  const label = st.unread ? t("notes.bell_unread", { n: st.unread }) : t("notes.title");
  return (
    <a href="#/notes" class="bell" aria-label={label} id="bell">
      <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" /></svg>
      {st.unread > 0 && <span class="count" aria-hidden="true">{st.unread > 99 ? "99+" : st.unread}</span>}
    </a>
  );
}
