// Correspondence helpers (pure, unit-tested): rating chart scaling, remaining time, time zones,
// pools, Web Push key decoding and the iOS "add to home screen first" rule.
import { formatDuration } from "./i18n/durations";
import type { Schemas } from "./api";
import type { Lang, Translate } from "./i18n";

/** One rating change of a player (``history`` of GET /ratings/me, /ratings/users/{name}). */
export type HistoryPoint = Schemas["RatingHistory"];
export interface ChartPoint { x: number; y: number; rating: number; at: string }
export interface Chart { points: ChartPoint[]; min: number; max: number; ticks: number[]; path: string }

/** Pools a player can be rated in (2 seats per kind, then claim-mix with 3 and 4 seats). */
export const POOLS = ["claim", "claim2", "claim-mix", "claim-mix-3p", "claim-mix-4p"];

/**
 * Scale one pool's rating history (any order) to an SVG box of w×h with ``pad`` pixels inside.
 * Oldest left, newest right; the first point is the rating before the first game. The y range is
 * rounded out to 50s and is at least 100 wide so a flat history doesn't look dramatic.
 */
export function ratingChart(history: HistoryPoint[], pool: string, w: number, h: number, pad = 4): Chart {
  const rows = history.filter((r) => r.pool === pool).sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (!rows.length) return { points: [], min: 0, max: 0, ticks: [], path: "" };
  const values = [rows[0].before, ...rows.map((r) => r.after)];
  const stamps = [rows[0].at, ...rows.map((r) => r.at)];
  let min = Math.floor(Math.min(...values) / 50) * 50;
  let max = Math.ceil(Math.max(...values) / 50) * 50;
  if (max - min < 100) {
    const mid = (min + max) / 2;
    min = Math.floor((mid - 50) / 50) * 50;
    max = min + 100;
  }
  const n = values.length;
  const points = values.map((v, i) => ({
    x: round1(pad + (n === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (n - 1))),
    y: round1(pad + ((max - v) * (h - 2 * pad)) / (max - min)),
    rating: v,
    at: stamps[i],
  }));
  const path = points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" ");
  return { points, min, max, ticks: [min, (min + max) / 2, max], path };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Remaining seconds in the reader's language, its two largest units: "2 days 4 hr", "5 Std. 7 Min.", "12 min". */
export function formatRemaining(seconds: number | null | undefined, lang: Lang): string {
  return formatDuration(seconds, lang);
}

/** An instant shown in the viewer's time zone (profile ``time_zone``), falling back to UTC. */
export function formatInZone(iso: string | null | undefined, zone: string | null | undefined, lang: string): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (isNaN(d.getTime())) return "";
  const opts: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: zone || "UTC", timeZoneName: "short" };
  try {
    return new Intl.DateTimeFormat(lang, opts).format(d);
  } catch {
    return new Intl.DateTimeFormat(lang, { ...opts, timeZone: "UTC" }).format(d);
  }
}

/** Seconds left per seat now, counting down from the moment the clock was fetched (paused: frozen). */
export function remainingNow(remaining: (number | null)[], fetchedAt: number, now: number, paused: boolean): (number | null)[] {
  const gone = paused ? 0 : Math.max(0, (now - fetchedAt) / 1000);
  return remaining.map((r) => (r == null ? null : Math.max(0, r - gone)));
}

/** iOS only allows Web Push for an app added to the home screen (iOS 16.4+, standalone display). */
export function needsHomeScreen(ua: string, standalone: boolean): boolean {
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && /Mobile\//.test(ua));
  return ios && !standalone;
}

/** The VAPID public key (URL-safe base64) as the bytes PushManager.subscribe wants. */
export function vapidKeyBytes(key: string): Uint8Array {
  const pad = "=".repeat((4 - (key.length % 4)) % 4);
  const b64 = (key + pad).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** The pool a game of ``kind`` with ``seats`` players is rated in. */
export function poolOf(kind: string, seats: number): string {
  return seats > 2 ? `${kind}-${seats}p` : kind;
}

// ---------------------------------------------------------------------------- time controls and the clock

/** A booked vacation period as the clock shows it (UTC instants). */
export type VacationSpan = Schemas["VacationSpan"];
/** ``clock`` of a game payload: instants (``deadline`` of a running seat, already moved by a booked vacation
 *  covering it) or frozen ``left_seconds``; ``vacation``: the seat's period covering its deadline, else its
 *  current or next one. */
export type ClockSeat = Schemas["ClockSeat"];
export type GameClockView = Schemas["Clock"];
/** ``time_control`` of a game payload ("correspondence" = days per move). */
export type TimeControlView = Schemas["TimeControl"];

/** Seconds a seat has left at ``now`` (ms): a running seat counts down to its deadline; null = no clock. */
export function seatLeft(seat: ClockSeat, now: number): number | null {
  if (seat.running && seat.deadline) return Math.max(0, (Date.parse(seat.deadline) - now) / 1000);
  return seat.left_seconds;
}

/** How a seat's vacation reads at ``now`` (ms): "on" (under way, until ``end``), "next" (ahead), or null (none, or over). */
export function vacationState(v: VacationSpan | null | undefined, now: number): "on" | "next" | null {
  if (!v) return null;
  const start = Date.parse(v.start), end = Date.parse(v.end);
  if (isNaN(start) || isNaN(end) || end <= now) return null;
  return start <= now ? "on" : "next";
}

/** A booked period of ``GET /vacation``; ``days_begun``: whole days begun (today's included). */
export type VacationPeriod = Schemas["VacationPeriodOut"];

/** The lengths a period can be shortened to: from the days begun (at least 1) to one less than booked. */
export function shortenChoices(p: VacationPeriod): number[] {
  const out: number[] = [];
  for (let d = Math.max(1, p.days_begun); d < p.days; d++) out.push(d);
  return out;
}

/** A time control choice of the New Game screen and the ``time_control`` body it sends. */
export interface TimeChoice { id: string; body: Schemas["NewTimeControlRequest"]; days: number | null; bank: boolean }
const DAY = 86400;
export const TIME_CHOICES: TimeChoice[] = [
  ...([1, 2, 3, 5, 7, 14] as const).map((d) => ({ id: `d${d}`, body: { type: "days" as const, days_per_move: d }, days: d, bank: false })),
  { id: "b3+1", body: { type: "bank", initial_seconds: 3 * DAY, increment_seconds: DAY, cap_seconds: 7 * DAY }, days: null, bank: true },
  { id: "b7+2", body: { type: "bank", initial_seconds: 7 * DAY, increment_seconds: 2 * DAY, cap_seconds: 14 * DAY }, days: null, bank: true },
  { id: "unlimited", body: { type: "unlimited" }, days: null, bank: false },
];

/** The words for a time control: "3 days per move", "Bank 3 days + 1 day per move (max 7 days)", "No time limit". */
export function describeTimeControl(tc: Partial<TimeControlView> | null | undefined, tr: Translate, lang: Lang): string {
  if (!tc || tc.type === "unlimited") return tr("clock.unlimited");
  if (tc.type === "bank") {
    return tr("clock.bank", { initial: formatRemaining(tc.initial_seconds, lang), inc: formatRemaining(tc.increment_seconds, lang) })
      + (tc.cap_seconds ? " " + tr("clock.cap", { cap: formatRemaining(tc.cap_seconds, lang) }) : "");
  }
  return tr("clock.per_move", { n: tc.days_per_move ?? 0 });
}

/** The time control of a choice, in the payload's shape (for the words on the New Game screen). */
export function choiceView(c: TimeChoice): Partial<TimeControlView> {
  const b = c.body;
  if (b.type === "days") return { type: "correspondence", days_per_move: b.days_per_move ?? null };
  if (b.type === "bank") return { type: "bank", initial_seconds: b.initial_seconds ?? null, increment_seconds: b.increment_seconds ?? null, cap_seconds: b.cap_seconds ?? null };
  return { type: "unlimited" };
}
