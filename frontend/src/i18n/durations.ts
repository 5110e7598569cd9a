// Durations and relative times in the reader's language, by Intl (no catalogue strings): "2 days 4 hr",
// "2 Tg. 4 Std.", "2 dny 4 h"; "in 3 days", "vor 3 Stunden", "za 2 dny". Intl applies the CLDR plural rules.
import type { Lang } from "./index";

type Unit = "day" | "hour" | "minute";

const unitFormats = new Map<string, Intl.NumberFormat>();
const relativeFormats = new Map<Lang, Intl.RelativeTimeFormat>();

function unitFormat(lang: Lang, unit: Unit): Intl.NumberFormat {
  const key = `${lang}:${unit}`;
  let f = unitFormats.get(key);
  if (!f) { f = new Intl.NumberFormat(lang, { style: "unit", unit, unitDisplay: "short" }); unitFormats.set(key, f); }
  return f;
}

/**
 * A length of time as its two largest units, zero parts left out: "2 days 4 hr", "5 hr 7 min", "12 min",
 * "3 days"; under a minute (or negative) "0 min"; null → "".
 */
export function formatDuration(seconds: number | null | undefined, lang: Lang): string {
  if (seconds == null) return "";
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts: [number, Unit][] = d > 0 ? [[d, "day"], [h, "hour"]] : h > 0 ? [[h, "hour"], [m, "minute"]] : [[m, "minute"]];
  return parts.filter(([n], i) => i === 0 || n > 0).map(([n, u]) => unitFormat(lang, u).format(n)).join(" ");
}

/**
 * How far an instant is from `now`, coarsely (correspondence deadlines): whole days from 48 hours on, whole
 * hours from one hour, minutes below it in the future; `justNow` within the past hour; "" without an instant.
 */
export function relativeTime(iso: string | null | undefined, lang: Lang, now: number, justNow: string): string {
  if (!iso) return "";
  const at = Date.parse(iso);
  if (isNaN(at)) return "";
  let f = relativeFormats.get(lang);
  if (!f) { f = new Intl.RelativeTimeFormat(lang, { numeric: "always", style: "long" }); relativeFormats.set(lang, f); }
  const d = at - now;
  const h = Math.abs(d) / 3600000;
  const sign = d >= 0 ? 1 : -1;
  if (h >= 48) return f.format(sign * Math.floor(h / 24), "day");
  if (h >= 1) return f.format(sign * Math.floor(h), "hour");
  if (d >= 0) return f.format(Math.max(1, Math.floor(h * 60)), "minute");
  return justNow;
}
