// Game review (issue 37): the pure rules of the review screen (screens/Review.tsx) — which decision a replay step
// shows, the list of marked moves and the jumps between them, the progress of a review being computed, chances as
// percentages — and the calls (POST / GET /games/{id}/review). No DOM, no store.
import { api, ApiError, type Schemas } from "./api";

// ---- the API's shapes (generated from the OpenAPI schema)
/** The chance of winning of one legal move of a decision (0..1). */
export type ReviewOption = Schemas["ReviewOption"];
/** One decision of the game: ``index`` is the game version before the move (see placeDecisions). */
export type ReviewDecision = Schemas["ReviewDecision"];
export type ReviewMark = NonNullable<ReviewDecision["mark"]>;
export type Review = Schemas["Review"];
export type ReviewStatus = Review["status"];
export type ReviewProgress = Schemas["ReviewProgress"];
/** The socket's (and the account stream's) event while a review is computed. */
export type ReviewEvent = Schemas["ReviewEvent"];

const STATUSES: readonly string[] = ["queued", "running", "done", "failed"];

/** Whether a socket frame is a review event (of game `id`, when given). */
export function isReviewEvent(msg: unknown, id?: number): msg is ReviewEvent {
  if (!msg || typeof msg !== "object") return false;
  const m = msg as Partial<ReviewEvent>;
  return m.type === "review" && typeof m.game_id === "number" && (id === undefined || m.game_id === id)
    && typeof m.status === "string" && STATUSES.includes(m.status);
}

/** The kinds the server reviews (games/ai/review.py REVIEW_KINDS: the King's search, the Claim family); another
 *  kind's request is refused (409 `review_unavailable`), so its end screen offers none. */
export const REVIEW_KINDS: readonly string[] = ["claim", "claim2", "claim-mix"];
export const reviewable = (kind: string): boolean => REVIEW_KINDS.includes(kind);

// ---- paths

/** The review screen's path of game `id` (a shareable link: `#/game/7/review`). */
export const reviewPath = (id: number) => `/game/${id}/review`;

/** The game of a review screen's hash (`#/game/7/review`, with or without a query), else null. */
export function reviewRoute(hash: string): number | null {
  const m = /^#?\/game\/(\d{1,12})\/review(?:[/?]|$)/.exec(hash);
  return m ? Number(m[1]) : null;
}

// ---- steps and decisions

/** A decision placed on the replay: `step` is the replay step that shows its move (the step after it). */
export type Placed = ReviewDecision & { step: number };

/** The decisions on the replay's steps. The server reviews every move of the game, in order ("every move of every
 *  seat"), and its `index` is the game *version* before the move, which runs ahead of the move count whenever
 *  something else made a version (the game's creation, the joins, a clock's pause or extra day: games/service
 *  bump). So the n-th decision by `index` is the n-th move, shown at replay step n (the step before it is n - 1);
 *  with `index` equal to the move count (the contract's wording) this is the same placing. */
export function placeDecisions(decisions: readonly ReviewDecision[]): Placed[] {
  return [...decisions].sort((a, b) => a.index - b.index).map((d, i) => ({ ...d, step: i + 1 }));
}

/** The decision whose move replay step `step` shows (the move that led to it), or null (the deal, a step past the
 *  decisions). */
export function decisionAt(placed: readonly Placed[], step: number): Placed | null {
  return placed.find((d) => d.step === step) ?? null;
}

/** The marked decisions (mistakes and inaccuracies), in the order of the game, optionally of one mark. */
export function marksOf(placed: readonly Placed[], only?: ReviewMark): Placed[] {
  return placed.filter((d) => d.mark != null && (only === undefined || d.mark === only)).sort((a, b) => a.step - b.step);
}

/** The step of the first marked move after step `at`, else null. */
export function nextMark(marks: readonly Placed[], at: number): number | null {
  for (const d of marks) if (d.step > at) return d.step;
  return null;
}

/** The step of the last marked move before step `at`, else null. */
export function prevMark(marks: readonly Placed[], at: number): number | null {
  let out: number | null = null;
  for (const d of marks) if (d.step < at) out = d.step;
  return out;
}

/** Counts of each mark per seat, for the summary line. */
export function markCounts(decisions: readonly ReviewDecision[]): Map<number, { inaccuracy: number; mistake: number }> {
  const out = new Map<number, { inaccuracy: number; mistake: number }>();
  for (const d of decisions) {
    if (!d.mark) continue;
    const c = out.get(d.seat) ?? { inaccuracy: 0, mistake: 0 };
    c[d.mark] += 1;
    out.set(d.seat, c);
  }
  return out;
}

/** Whether move `a` is move `b` (the same keys and values, whatever their order). */
export function sameMove(a: Schemas["EngineMove"] | null | undefined, b: Schemas["EngineMove"] | null | undefined): boolean {
  if (!a || !b) return false;
  const key = (m: object) => JSON.stringify(Object.entries(m).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return key(a) === key(b);
}

// ---- progress and numbers

/** Whether the review is still being computed (the screen shows its progress and follows it). */
export const pending = (r: Pick<Review, "status"> | null): boolean => r != null && (r.status === "queued" || r.status === "running");

/** The part done, 0..1 (0 before the total is known; never above 1, whatever the server says). */
export function fraction(p: ReviewProgress): number {
  if (!(p.total > 0) || !(p.done > 0)) return 0;
  return Math.min(1, p.done / p.total);
}

/** A socket event applied to the review held: its status and progress, never back to an earlier state (an event
 *  late after a newer GET). A `done` event keeps the decisions empty: the caller reads them (GET). */
export function applyEvent(r: Review, e: ReviewEvent): Review {
  if (e.game_id !== r.game_id) return r;
  const rank = (s: ReviewStatus) => (s === "queued" ? 0 : s === "running" ? 1 : 2);
  if (rank(e.status) < rank(r.status)) return r;
  if (e.status === r.status && e.progress.done < r.progress.done) return r;
  if (r.status === "done" && e.status === "done") return r;
  return { ...r, status: e.status, progress: e.progress };
}

/** Seconds between polls of a pending review: often without the socket, seldom (a safety net) with it. */
export const pollMs = (socketOpen: boolean): number => (socketOpen ? 10000 : 3000);

/** A chance (0..1) as a whole percentage of the language ("57 %", "57%"); "—" when unknown. */
export function percent(x: number | null | undefined, lang: string): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(Math.max(0, Math.min(1, x)));
}

/** A drop of chance (0..1) in percentage points, whole ("18"). */
export function points(x: number | null | undefined): string {
  if (x == null || !Number.isFinite(x)) return "—";
  return String(Math.round(Math.max(0, x) * 100));
}

/** A bar's width in percent, 0..100. */
export function barWidth(x: number | null | undefined): number {
  if (x == null || !Number.isFinite(x)) return 0;
  return Math.round(Math.max(0, Math.min(1, x)) * 1000) / 10;
}

// ---- the calls

/** POST /games/{id}/review: the review (202 queued, 200 one that exists). */
export function requestReview(id: number): Promise<Review> {
  return api<Review>("POST", `/games/${id}/review`, {});
}

/** GET /games/{id}/review: the review, or null when none was requested yet (404 `no_review`). */
export async function loadReview(id: number): Promise<Review | null> {
  try {
    return await api<Review>("GET", `/games/${id}/review`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && e.code === "no_review") return null;
    throw e;
  }
}
