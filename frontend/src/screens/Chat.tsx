// The chat panel of a game (issue 35; docs/api.md "Chat"): at the table (players' room) and on the watch screen
// (spectators' room); after the end both rooms can be read (and players write in the spectators' room). History by
// REST, newest page first with "Older messages"; live lines from the socket (``claim:chat``, realtime.ts); quick
// phrases in the UI language by their code; free text with a 140-character counter; every refusal says the server's
// message (a 429 also when to try again); a line's menu mutes its author or reports it. Everything people wrote is
// text (Preact text nodes, never markup, never a link), their names and lines isolated for bidi (<bdi>).
import { useEffect, useRef, useState } from "preact/hooks";
import {
  CHAT_MAX, chatLength, dropLines, lineText, loadChatPage, loadPhrases, markRead, mergeLines, phraseText, postChat,
  refusal, reportLine, unreadLabel, type ChatFrame, type ChatLine, type ChatPhrase, type ChatRoom,
} from "../chat";
import type { Schemas } from "../api";
import type { Key } from "../i18n";
import { setRelation } from "../social";
import { errorText, set, state, t, toast, useStore } from "../store";
import { Dialog, relTime } from "../ui";

interface RoomState {
  lines: ChatLine[];
  /** The ``before`` of the next older page; null: none; undefined: not loaded yet. */
  before: number | null | undefined;
  error: string | null;
  busy: boolean;
}
const EMPTY: RoomState = { lines: [], before: undefined, error: null, busy: false };

/** Who reads a game's chat, and so which rooms this panel shows: a player's own room is ``players``, a
 *  spectator's ``spectators``; the other one joins once the game is over (read-only for spectators). */
export type ChatRole = "player" | "spectator";

export function roomsFor(role: ChatRole, over: boolean): ChatRoom[] {
  const own: ChatRoom = role === "player" ? "players" : "spectators";
  const other: ChatRoom = role === "player" ? "spectators" : "players";
  return over ? [own, other] : [own];
}

/** Whether ``role`` may write in ``room`` (docs/api.md: spectators never in the players' room; players in the
 *  spectators' room after the end). */
export function mayWrite(role: ChatRole, room: ChatRoom, over: boolean): boolean {
  return role === "player" ? room === "players" || over : room === "spectators";
}

export function ChatPanel({ gameId, role, over, onClose }: { gameId: number; role: ChatRole; over: boolean; onClose?: () => void }) {
  const st = useStore();
  const rooms = roomsFor(role, over);
  const [room, setRoom] = useState<ChatRoom>(rooms[0]);
  const [byRoom, setByRoom] = useState<Record<ChatRoom, RoomState>>({ players: EMPTY, spectators: EMPTY });
  const [phrases, setPhrases] = useState<ChatPhrase[]>([]);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [menu, setMenu] = useState<ChatLine | null>(null);
  const read = useRef(0);
  const listRef = useRef<HTMLOListElement>(null);
  const cur = byRoom[room];

  const patch = (r: ChatRoom, f: (s: RoomState) => RoomState) => setByRoom((b) => ({ ...b, [r]: f(b[r]) }));

  async function load(r: ChatRoom, before: number | null) {
    patch(r, (s) => ({ ...s, busy: true }));
    try {
      const page = await loadChatPage(gameId, r, before);
      // merged into what is held (socket lines that arrived meanwhile stay, each once)
      patch(r, (s) => ({ lines: mergeLines(s.lines, page.results), before: before != null || s.before === undefined ? page.before : s.before, error: null, busy: false }));
    } catch (e) {
      patch(r, (s) => ({ ...s, error: errorText(e), busy: false }));
    }
  }

  useEffect(() => { if (byRoom[room].before === undefined && !byRoom[room].busy) void load(room, null); }, [gameId, room]);
  useEffect(() => { loadPhrases().then(setPhrases).catch(() => setPhrases([])); }, []);
  // Live lines (and hidden ones) of this game, into their room.
  useEffect(() => {
    const on = (e: Event) => {
      const f = (e as CustomEvent<ChatFrame>).detail;
      if (f.game_id !== gameId) return;
      if (f.type === "chat") patch(f.message.room, (s) => ({ ...s, lines: mergeLines(s.lines, [f.message]) }));
      else setByRoom((b) => ({ players: { ...b.players, lines: dropLines(b.players.lines, { id: f.message_id }) },
        spectators: { ...b.spectators, lines: dropLines(b.spectators.lines, { id: f.message_id }) } }));
    };
    window.addEventListener("claim:chat", on);
    return () => window.removeEventListener("claim:chat", on);
  }, [gameId]);
  // A player who sees the players' room has read it: the marker moves to its newest line.
  const newest = byRoom.players.lines.length ? byRoom.players.lines[byRoom.players.lines.length - 1].id : 0;
  useEffect(() => {
    if (role !== "player" || room !== "players" || newest <= read.current || !st.me) return;
    read.current = newest;
    markRead(gameId, newest).catch(() => { read.current = 0; });
  }, [role, room, newest, gameId]);
  // The newest line in sight when lines arrive (not when older ones are loaded above).
  const last = cur.lines.length ? cur.lines[cur.lines.length - 1].id : 0;
  useEffect(() => { const l = listRef.current; if (l) l.scrollTop = l.scrollHeight; }, [last, room]);
  // A 429's wait, counted down.
  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => { setNow(Date.now()); if (Date.now() >= waitUntil) clearInterval(timer); }, 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const wait = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  const writable = !!st.me && mayWrite(role, room, over);
  const len = chatLength(text);
  const tooLong = len > CHAT_MAX;

  async function send(what: { phrase: Schemas["ChatPhraseEnum"] } | { text: string }) {
    if (sending || wait > 0) return;
    setSending(true);
    setRefused(null);
    try {
      const line = await postChat(gameId, room, what);
      patch(room, (s) => ({ ...s, lines: mergeLines(s.lines, [line]) }));
      if ("text" in what) setText("");
    } catch (e) {
      const r = refusal(e);
      setRefused(r.message);
      if (r.retryAfter) { setWaitUntil(Date.now() + r.retryAfter * 1000); setNow(Date.now()); }
    }
    setSending(false);
  }

  function muted(username: string) {
    setByRoom((b) => ({ players: { ...b.players, lines: dropLines(b.players.lines, { author: username }) },
      spectators: { ...b.spectators, lines: dropLines(b.spectators.lines, { author: username }) } }));
  }

  const me = st.me?.username;
  return (
    <section class="chat" id="chat" aria-labelledby="chat-h" data-room={room}>
      <div class="row-between">
        <h2 id="chat-h" tabIndex={-1}>{t("chat.title")}</h2>
        {onClose && <button type="button" class="btn ghost" id="chat-close" onClick={onClose}>{t("chat.close")}</button>}
      </div>
      {rooms.length > 1 && (
        <div class="seg" role="group" aria-label={t("chat.rooms")} id="chat-rooms">
          {rooms.map((r) => (
            <button type="button" class={`seg-b ${room === r ? "on" : ""}`} aria-pressed={room === r} data-chat-room={r}
              onClick={() => { setRoom(r); setRefused(null); }}>{t(`chat.room_${r}` as Key as "chat.room_players")}</button>
          ))}
        </div>
      )}
      {cur.before != null && (
        <button type="button" class="btn ghost wide" id="chat-older" disabled={cur.busy} aria-busy={cur.busy}
          onClick={() => void load(room, cur.before ?? null)}>{t("chat.older")}</button>
      )}
      {cur.error && <p class="form-err" role="alert" id="chat-load-error">{cur.error}</p>}
      <ol class="chat-lines" id="chat-lines" ref={listRef} aria-label={t("chat.lines")} aria-live="polite" aria-busy={cur.busy}>
        {cur.lines.map((l) => {
          const mine = l.author.username === me;
          const name = mine ? t("chat.you") : l.author.name || l.author.username;
          return (
            <li key={l.id} data-line={l.id} class={mine ? "mine" : ""}>
              <span class="c-head small"><bdi class="c-name">{name}</bdi> <time class="muted" dateTime={l.created_at}>{relTime(l.created_at)}</time></span>
              <bdi class="c-text" data-phrase={l.phrase ?? undefined}>{lineText(l)}</bdi>
              {!mine && st.me && (
                <button type="button" class="btn ghost c-menu" data-line-menu={l.id} aria-haspopup="dialog"
                  aria-label={t("chat.line_menu", { name: l.author.name || l.author.username })} onClick={() => setMenu(l)}>⋯</button>
              )}
            </li>
          );
        })}
      </ol>
      {cur.before !== undefined && !cur.lines.length && !cur.busy && <p class="muted small" id="chat-empty">{t("chat.empty")}</p>}
      {refused && <p class="form-err" role="alert" id="chat-refused">{refused}</p>}
      {wait > 0 && <p class="small" id="chat-wait" role="status">{t("chat.retry_in", { n: wait })}</p>}
      {writable ? (
        <>
          {phrases.length > 0 && (
            <div class="chat-phrases" role="group" aria-label={t("chat.phrases")} id="chat-phrases" data-scrolls>
              {phrases.map((p) => (
                <button type="button" class="chip" data-phrase={p.code} disabled={sending || wait > 0}
                  onClick={() => void send({ phrase: p.code })}>{phraseText(p.code, p.text)}</button>
              ))}
            </div>
          )}
          <form class="chat-form" id="chat-form" onSubmit={(e) => { e.preventDefault(); if (len && !tooLong) void send({ text }); }}>
            <label class="sr-only" for="chat-input">{t("chat.input")}</label>
            <input id="chat-input" name="chat" type="text" autocomplete="off" enterKeyHint="send" value={text}
              aria-invalid={tooLong ? "true" : undefined} aria-describedby="chat-count"
              onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <button type="submit" class="btn primary" id="chat-send" disabled={!len || tooLong || sending || wait > 0}>{t("chat.send")}</button>
          </form>
          <p class={`small chat-count ${tooLong ? "over" : ""}`} id="chat-count" data-count={len}>
            <span aria-hidden="true">{len}/{CHAT_MAX}</span>
            <span class="sr-only">{t("chat.count", { n: len, max: CHAT_MAX })}</span>
            {tooLong && <> · <span role="alert">{t("chat.too_long", { max: CHAT_MAX })}</span></>}
          </p>
        </>
      ) : st.me ? <p class="small muted" id="chat-read-only">{t("chat.read_only")}</p> : null}
      {menu && <LineMenu line={menu} onClose={() => setMenu(null)} onMuted={muted} />}
    </section>
  );
}

const REASONS: Schemas["ReportReasonEnum"][] = ["spam", "abuse", "cheating", "other"];

/** A line's menu: mute its author (their lines leave this panel; the server hides them from now on) or report it. */
function LineMenu({ line, onClose, onMuted }: { line: ChatLine; onClose: () => void; onMuted: (username: string) => void }) {
  const name = line.author.name || line.author.username;
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState<Schemas["ReportReasonEnum"]>("abuse");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const nameIso = `\u2068${name}\u2069`;

  async function mute() {
    setBusy(true);
    try {
      await setRelation(line.author.username, "mute", true);
      onMuted(line.author.username);
      toast(t("social.done_mute_on", { name: nameIso }));
      onClose();
    } catch (e) { setErr(refusal(e).message); setBusy(false); }
  }
  async function report() {
    setBusy(true);
    try {
      await reportLine(line, reason, note.trim());
      toast(t("chat.reported"));
      onClose();
    } catch (e) { setErr(refusal(e).message); setBusy(false); }
  }
  return (
    <Dialog title={t("chat.line_title", { name: nameIso })} onClose={onClose} id="chat-menu">
      <blockquote class="c-quote"><bdi>{lineText(line)}</bdi></blockquote>
      {err && <p class="form-err" role="alert" id="chat-menu-error">{err}</p>}
      {!reporting ? (
        <div class="row" style={{ flexWrap: "wrap", gap: ".5rem" }}>
          <button type="button" class="btn" id="chat-mute" aria-disabled={busy} onClick={() => { if (!busy) void mute(); }}>{t("chat.mute", { name: nameIso })}</button>
          <button type="button" class="btn" id="chat-report" onClick={() => setReporting(true)}>{t("chat.report")}</button>
        </div>
      ) : (
        <form id="chat-report-form" onSubmit={(e) => { e.preventDefault(); if (!busy) void report(); }}>
          <fieldset class="plain">
            <legend>{t("chat.reason")}</legend>
            {REASONS.map((r) => (
              <label class="radio"><input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
                {t(`chat.reason_${r}` as "chat.reason_spam")}</label>
            ))}
          </fieldset>
          <label for="chat-note">{t("chat.note")}</label>
          <input id="chat-note" type="text" maxLength={500} value={note} onInput={(e) => setNote((e.target as HTMLInputElement).value)} />
          <button type="submit" class="btn primary wide" id="chat-report-send" aria-disabled={busy}>{t("chat.report_send")}</button>
        </form>
      )}
    </Dialog>
  );
}

/** The table's chat button: opens (or closes) the panel below the table, with the unread lines as a badge. */
export function ChatButton({ gameId }: { gameId: number }) {
  const st = useStore();
  const open = st.chatOpen === gameId;
  const n = st.chatUnread[gameId] ?? 0;
  return (
    <button type="button" class="btn" id="chat-toggle" aria-expanded={open} aria-controls="chat"
      onClick={() => openChat(open ? null : gameId)}>
      {t("chat.open")}
      {n > 0 && !open && <><span class="badge hot" id="chat-unread" aria-hidden="true">{unreadLabel(n)}</span>
        <span class="sr-only"> {t("chat.unread", { n })}</span></>}
    </button>
  );
}

/** Opens game ``id``'s chat at its table (null closes it); the panel scrolls into sight and takes focus. */
export function openChat(id: number | null): void {
  set({ chatOpen: id });
  if (id == null) return;
  setTimeout(() => {
    const h = document.getElementById("chat-h");
    h?.scrollIntoView?.({ block: "start", behavior: "smooth" });
    h?.focus({ preventScroll: true });
  }, 0);
}

/** Whether a route's hash asks for the chat open (a notification's ``/#/game/<id>?chat=1``). */
export function wantsChat(hash: string): boolean {
  const q = hash.split("?")[1];
  return !!q && new URLSearchParams(q).get("chat") === "1";
}

/** An inbox row's unread chat lines: a badge, and the count in words for screen readers. */
export function UnreadChat({ gameId }: { gameId: number }) {
  const n = state.chatUnread[gameId] ?? 0;
  if (n <= 0) return null;
  return (
    <span class="chat-badge" data-unread-chat={n}>
      {" · "}<span class="badge hot" aria-hidden="true">💬 {unreadLabel(n)}</span><span class="sr-only">{t("chat.unread", { n })}</span>
    </span>
  );
}

/** The chat below a table (both tables: Claim family and Inheritors): shown while open, opened at once by
 *  ``?chat=1`` in the route (a ``chat_message`` notification's link), closed when the table is left. */
export function TableChat({ gameId, over }: { gameId: number; over: boolean }) {
  const st = useStore();
  useEffect(() => {
    const on = () => { if (wantsChat(location.hash)) openChat(gameId); };
    on();
    window.addEventListener("hashchange", on); // the link followed while this table is on screen
    return () => { window.removeEventListener("hashchange", on); if (state.chatOpen === gameId) set({ chatOpen: null }); };
  }, [gameId]);
  if (st.chatOpen !== gameId) return null;
  return <ChatPanel gameId={gameId} role="player" over={over} onClose={() => openChat(null)} />;
}
