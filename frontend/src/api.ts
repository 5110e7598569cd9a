// REST client: session cookie + CSRF header, the API's one error shape, and an offline cache of GETs.
import type { components } from "./api/schema";

/** The API's request and response types, generated from its OpenAPI schema (src/api/schema.d.ts, written by
 *  scripts/gen_api_types.py: never edit it by hand). */
export type Schemas = Omit<Generated, "GameView" | "GameErrorDetail" | "StreamGameFrame" | "GameChangeFrame"
  | "SpectatorGame" | "SpectatorGameFrame"> & {
  GameView: GameView;
  SpectatorGame: SpectatorGameView;
  SpectatorGameFrame: Omit<Generated["SpectatorGameFrame"], "game"> & { game: SpectatorGameView };
  GameErrorDetail: Omit<Generated["GameErrorDetail"], "view"> & { view?: GameView };
  StreamGameFrame: Omit<Generated["StreamGameFrame"], "view"> & { view: GameView };
  GameChangeFrame: Omit<Generated["GameChangeFrame"], "view"> & { view?: GameView };
};
type Generated = components["schemas"];
/** GameView with its ``view`` as the schema declares it: an ``EngineView`` (told apart by ``game``) or null.
 *  openapi-typescript writes the schema's nullable reference (``allOf: [EngineView]``) as
 *  ``Omit<EngineView, "game">``, dropping the discriminator; this puts it back (and in the three components that
 *  hold a GameView). */
type GameView = Omit<Generated["GameView"], "view"> & { view: Generated["EngineView"] | null };
/** SpectatorGame with its ``view`` an ``EngineView`` (the same repair as GameView's). */
type SpectatorGameView = Omit<Generated["SpectatorGame"], "view"> & { view: Generated["EngineView"] };

// Named components of the generated schema that several screens use (spectating, friends, profiles: issue 35).
export type FollowedEvent = Schemas["FollowedEvent"];
export type Friend = Schemas["Friend"];
export type FriendPage = Schemas["FriendPage"];
export type NowPlayingGame = Schemas["NowPlayingGame"];
export type NowPlayingPage = Schemas["NowPlayingPage"];
export type PublicProfile = Schemas["PublicProfile"];
export type PublicRating = Schemas["PublicRating"];
export type PublicUser = Schemas["PublicUser"];
export type Relationship = Schemas["Relationship"];
export type SpectatorGame = Schemas["SpectatorGame"];
export type SpectatorGameFrame = Schemas["SpectatorGameFrame"];
export type SpectatorSeat = Schemas["SpectatorSeat"];
export type UserListPage = Schemas["UserListPage"];
export type WatchEndedEvent = Schemas["WatchEndedEvent"];

/** The detail of the API's one error body (``{"error": {...}}``). ``fields`` is a free object in the schema
 *  (see issue #34 schematypes): the API sends a list of messages per field. ``redirect_to``: an OAuth refusal the
 *  app should hear about (accounts/oauth_views.py), not in the schema's error shape. */
export type ErrorBody = Omit<Schemas["GameErrorDetail"], "fields"> & { fields?: Record<string, string[]>; redirect_to?: string };

export class ApiError extends Error {
  status: number;
  code: string;
  fields: Record<string, string[]>;
  /** The game's current view of a 409 (``stale_version``, ``not_active``): the body of GET /games/{id}. */
  view: Schemas["GameView"] | undefined;
  /** An OAuth refusal the app should hear about: its redirect URI with the error (accounts/oauth_views.py). */
  redirectTo?: string;
  /** A 429's seconds to wait before trying again (the body's ``retry_after``). */
  retryAfter?: number;
  constructor(status: number, body: ErrorBody) {
    super(body.message || body.code);
    this.status = status;
    this.code = body.code || "error";
    this.fields = body.fields || {};
    this.view = body.view;
    this.redirectTo = body.redirect_to;
    this.retryAfter = body.retry_after;
  }
}

export const BASE = "/api/v1";
const CACHE_PREFIX = "claim.cache:";

function cookie(name: string): string | null {
  const m = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
  return m ? decodeURIComponent(m[1]) : null;
}

export function isOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}

let csrfPromise: Promise<unknown> | null = null;
export function ensureCsrf(force = false): Promise<unknown> {
  if (!force && cookie("csrftoken")) return Promise.resolve();
  if (!csrfPromise || force) {
    csrfPromise = fetch(BASE + "/accounts/csrf", { credentials: "same-origin" }).catch(() => undefined);
  }
  return csrfPromise;
}

/** Normalise any error payload to {code, message, fields}. */
export function errorBody(data: unknown, status: number): ErrorBody {
  const d = data as { error?: ErrorBody; detail?: string } | null;
  if (d && d.error && typeof d.error === "object") return d.error;
  if (d && typeof d.detail === "string") return { code: "error", message: d.detail };
  return { code: "http_" + status, message: `HTTP ${status}` };
}

/** The player's language (the store sets it), sent as ``Accept-Language`` with every request: the server writes
 *  the messages of the accounts forms, and Django's and DRF's own (the password rules, a required field), in it
 *  (docs/api.md, "Errors"). Empty: the browser's own header. */
let language = "";
export function setApiLanguage(lang: string): void {
  language = lang;
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
  const unsafe = method !== "GET" && method !== "HEAD";
  if (unsafe) {
    if (isOffline()) throw new ApiError(0, { code: "offline", message: "offline" });
    await ensureCsrf();
  }
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (unsafe) headers["X-CSRFToken"] = cookie("csrftoken") || "";
  if (language) headers["Accept-Language"] = language;
  let res: Response;
  try {
    res = await fetch(BASE + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { code: "offline", message: "offline" });
  }
  const text = await res.text();
  let data: unknown = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    // A rotated CSRF token (after login/logout) → fetch a fresh one and retry once.
    if (res.status === 403 && unsafe && /csrf/i.test(text) && !retried) {
      await ensureCsrf(true);
      return api<T>(method, path, body, true);
    }
    throw new ApiError(res.status, errorBody(data, res.status));
  }
  if (method === "GET") {
    try { localStorage.setItem(CACHE_PREFIX + path, text); } catch { /* storage full: ignore */ }
  }
  return data as T;
}

/** GET with a fallback to the last stored answer when the network is unavailable. */
export async function getCached<T>(path: string): Promise<{ data: T; offline: boolean }> {
  try {
    return { data: await api<T>("GET", path), offline: false };
  } catch (e) {
    if (e instanceof ApiError && e.status === 0) {
      const stored = localStorage.getItem(CACHE_PREFIX + path);
      if (stored) return { data: JSON.parse(stored) as T, offline: true };
    }
    throw e;
  }
}

/** The last stored answer of a GET, at once (no network); null when there is none or it is unreadable. */
export function peekCached<T>(path: string): T | null {
  try {
    const stored = localStorage.getItem(CACHE_PREFIX + path);
    return stored ? (JSON.parse(stored) as T) : null;
  } catch { return null; }
}

export function storeCached(path: string, data: unknown): void {
  try { localStorage.setItem(CACHE_PREFIX + path, JSON.stringify(data)); } catch { /* ignore */ }
}

export function clearCache(): void {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (k && k.startsWith(CACHE_PREFIX)) localStorage.removeItem(k);
  }
}

export function uuid(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) {
    try { return crypto.randomUUID(); } catch { /* insecure context */ }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
