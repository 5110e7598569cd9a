// Inheritors in the PWA: the view the API sends (games/rules/inheritors/views.py), card ids, and the
// pure helpers the table uses to turn the legal-move list into tappable controls. No DOM, no store.
import type { Schemas } from "./api";
import { winnersOf } from "./game";

/** The generated schema types of an Inheritors game (docs/api.md, "Typed shapes in the OpenAPI schema"). */
export type Move = Schemas["InheritorsMove"];
export type Stack = Schemas["InheritorsStackView"];
export type InhPlayer = Schemas["InheritorsPlayerView"];
export type InhPending = Schemas["InheritorsPendingView"];
export type ScoreRow = Schemas["InheritorsScoreRow"];
export type InhResult = Schemas["InheritorsResult"];
export type InhQuest = Schemas["InheritorsQuestView"];
/** GameView.view of an Inheritors game (``game`` is ``inheritors``). */
export type InhView = Schemas["InheritorsView"];
export type InhEvent = Schemas["InheritorsEvent"];

/** The Inheritors view inside a game payload (GET /games/{id}, a move answer or a pushed view), else null. */
export function inhView(payload: { view?: Schemas["EngineView"] | null } | null | undefined): InhView | null {
  const v = payload?.view;
  return v && v.game === "inheritors" ? v : null;
}

// ------------------------------------------------------------------ cards
export const COLOURS = ["red", "green", "purple", "blue", "yellow"] as const;
export const ADVOCATES = ["conspirator", "spy", "advisor", "ambassador", "agent", "knight", "saboteur"] as const;

/** Beginner clans and their colours ([P] data, games/rules/inheritors/data.py CLANS): a claimed clan leaves the row. */
export const CLAN_COLOURS: Record<string, string> = { wolf: "blue", fox: "red", bear: "green", lynx: "yellow", rat: "purple" };

export type CardKind = "influence" | "relic" | "tome" | "epic" | "advocate";
export interface InhCard { id: string; kind: CardKind; colour: string | null; value: number | null; advocate: string | null }

/** Parse a card id (games/rules/inheritors/cards.py): ``red-3a``, ``relic-red``, ``tome-2``, ``epic-1``, ``spy-4``. */
export function parseInhCard(id: string): InhCard {
  let m = /^([a-z]+)-(\d)[a-z]$/.exec(id);
  if (m && (COLOURS as readonly string[]).includes(m[1])) return { id, kind: "influence", colour: m[1], value: Number(m[2]), advocate: null };
  m = /^relic-([a-z]+)$/.exec(id);
  if (m) return { id, kind: "relic", colour: m[1], value: null, advocate: null };
  if (/^tome-\d+$/.test(id)) return { id, kind: "tome", colour: null, value: null, advocate: null };
  if (/^epic-\d+$/.test(id)) return { id, kind: "epic", colour: null, value: null, advocate: null };
  m = /^([a-z]+)-\d+$/.exec(id);
  if (m && (ADVOCATES as readonly string[]).includes(m[1])) return { id, kind: "advocate", colour: "white", value: null, advocate: m[1] };
  throw new Error(`not an Inheritors card: ${id}`);
}

/** The colour class of a card for drawing it: a realm colour, "white" (advocates) or "wild" (tomes, epics). */
export function cardTint(id: string): string {
  const c = parseInhCard(id);
  return c.kind === "tome" || c.kind === "epic" ? "wild" : c.colour ?? "white";
}

const KIND_ORDER: Record<CardKind, number> = { influence: 0, relic: 1, tome: 2, epic: 3, advocate: 4 };

/** Hand order: influence cards by colour then value, then relics, tomes, epics, advocates. */
export function sortHand(hand: readonly string[]): string[] {
  const col = (c: string | null) => (c ? (COLOURS as readonly string[]).indexOf(c) : 9);
  return [...hand].sort((a, b) => {
    const x = parseInhCard(a), y = parseInhCard(b);
    return KIND_ORDER[x.kind] - KIND_ORDER[y.kind] || col(x.colour) - col(y.colour) || (x.value ?? 0) - (y.value ?? 0)
      || (x.advocate ?? "").localeCompare(y.advocate ?? "") || a.localeCompare(b);
  });
}

// ------------------------------------------------------------------ moves
/** A stable text id of a move (keys sorted): ``action=discard_draw;card=red-1a;pile=0``. */
export function moveId(m: Move): string {
  return Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${String(v)}`).join(";");
}

/** The card from my hand a move uses (actions, Wolf, quest/Saboteur discards, skip-plays, Rat), else null. */
export function moveCard(m: Move): string | null {
  if ("card" in m) return m.card;
  if ("play" in m) return m.play;
  if ("discard" in m) return m.discard;
  if ("skip_play" in m) return m.skip_play;
  if ("put_back" in m) return m.put_back;
  return null;
}

/** The market pile a move discards onto (A2, A3, a quest's first card, the quest and Saboteur discards), else null. */
export function pileOf(m: Move): number | null {
  return "pile" in m ? m.pile : null;
}

type DiscardTake = Schemas["InheritorsDiscardTakeMove"];
/** Whether the move is A3: discard to a pile and take another whole. */
export function isDiscardTake(m: Move): m is DiscardTake {
  return "take" in m;
}

/** The legal moves of an Inheritors game (``GameView.legal_moves``, an ``EngineMove`` list): none of them is the
 *  Claim family's Seer or Giant choice (a Claim ``play`` has the Wolf's shape). */
export function inhMoves(legal: readonly Schemas["EngineMove"][]): Move[] {
  return legal.filter((m): m is Move => !("seer" in m) && !("smash" in m));
}

export interface MoveGroups {
  /** hand card -> the moves that use it, in the server's order */
  byCard: Map<string, Move[]>;
  /** claims, end of turn, pass and pending decisions that need no card of my hand */
  other: Move[];
}

export function groupMoves(legal: readonly Move[]): MoveGroups {
  const byCard = new Map<string, Move[]>();
  const other: Move[] = [];
  for (const m of legal) {
    const c = moveCard(m);
    if (c === null) other.push(m);
    else byCard.set(c, [...(byCard.get(c) ?? []), m]);
  }
  return { byCard, other };
}

/** The kind of a move for grouping and ordering the buttons of one card. */
export function moveKind(m: Move): string {
  if ("action" in m) return m.action;
  for (const k of ["claim_clan", "claim_honor", "end_turn", "pass", "skip", "play", "discard", "skip_play", "ask",
    "take_card", "take_pile", "agent_effect", "put_back"]) if (k in m) return k;
  return "unknown";
}

export type Tr = (key: string, params?: Record<string, string | number>) => string;

export interface Names {
  card: (id: string) => string;
  seat: (s: number) => string;
  colour: (c: string) => string;
  clan: (c: string) => string;
  honor: (h: string) => string;
  advocate: (a: string) => string;
  pileSize: (p: number) => number;
  /** "3 cards" in the UI language */
  cards: (n: number) => string;
}

/** The label of a move's button. ``withCard`` names the card too (off inside one card's sheet). */
export function moveLabel(m: Move, tr: Tr, n: Names, withCard = true): string {
  const card = moveCard(m);
  const cn = card ? n.card(card) : "";
  const pile = (p: number) => String(p + 1);
  const pre = (s: string) => (withCard && cn ? `${cn}: ${s}` : s);
  if ("action" in m) {
    switch (m.action) {
      case "play": return pre(tr("inh.m.play"));
      case "advocate": return pre(tr("inh.m.advocate"));
      case "discard_draw": return pre(tr("inh.m.discard_draw", { pile: pile(m.pile) }));
      case "discard_take": return pre(tr("inh.m.discard_take", { pile: pile(m.pile), take: pile(m.take), cards: n.cards(n.pileSize(m.take)) }));
      case "quest":
        if ("cards" in m) { // the whole quest at once: each card and its pile
          const piles = m.piles;
          return tr("inh.m.quest3", { cards: m.cards.map((c, i) => tr("inh.m.onto", { card: n.card(c), pile: pile(piles[i]) })).join(", ") });
        }
        return pre(tr("inh.m.quest", { pile: pile(m.pile) }));
    }
  }
  if ("play" in m) return pre(tr("inh.m.wolf_play"));
  if ("discard" in m) return pre(tr("inh.m.discard", { pile: pile(m.pile) }));
  if ("skip_play" in m) return pre(tr("inh.m.skip_play"));
  if ("put_back" in m) return pre(tr("inh.m.put_back"));
  if ("claim_clan" in m) return tr("inh.m.claim_clan", { clan: n.clan(m.claim_clan) });
  if ("claim_honor" in m) return tr("inh.m.claim_honor", { honor: m.claim_honor, text: n.honor(m.claim_honor) });
  if ("end_turn" in m) return tr("inh.m.end_turn");
  if ("pass" in m) return tr("inh.m.pass");
  if ("skip" in m) return tr("inh.m.skip");
  if ("ask" in m) return tr("inh.m.ask", { name: n.seat(m.ask), colour: n.colour(m.colour) });
  if ("take_card" in m) return tr("inh.m.take_card", { card: n.card(m.take_card) });
  if ("take_pile" in m) return tr("inh.m.take_pile", { pile: pile(m.take_pile), cards: n.cards(n.pileSize(m.take_pile)) });
  if ("agent_effect" in m) return tr("inh.m.agent_effect", { effect: n.advocate(m.agent_effect) });
  return moveId(m);
}

const CARD_MOVE_ORDER = ["play", "advocate", "discard_take", "quest", "discard_draw", "discard", "skip_play", "put_back"];

/** One card's moves in the order of the sheet: play, advocate, take a pile, quest, discard & draw. */
export function orderCardMoves(moves: readonly Move[]): Move[] {
  const rank = (m: Move) => { const i = CARD_MOVE_ORDER.indexOf(moveKind(m)); return i < 0 ? 99 : i; };
  return moves.map((m, i) => [m, i] as const).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(([m]) => m);
}

// ------------------------------------------------------------------ choosing with few taps (issue 33)
// A tap on a hand card chooses that card's most likely move; chips change the kind of move and the piles;
// one Confirm sends it. These helpers pick the defaults and keep every choice inside the legal moves.

/** The colours a card counts as for "same colour" (I2.2): its realm colour, white for advocates, every colour
 *  (and white) for tomes and epics. */
export function colourSet(id: string): string[] {
  const c = parseInhCard(id);
  if (c.kind === "tome" || c.kind === "epic") return [...COLOURS, "white"];
  return c.colour ? [c.colour] : [];
}

/** May these cards be the discards of one quest (I5.4.1): some colour lies in the colour set of each (Fox: any)? */
export function questCompatible(cards: readonly string[], fox: boolean): boolean {
  if (new Set(cards).size !== cards.length) return false;
  if (fox || cards.length === 0) return true;
  let common = colourSet(cards[0]);
  for (const c of cards.slice(1)) { const s = colourSet(c); common = common.filter((k) => s.includes(k)); }
  return common.length > 0;
}

/** How readily a card goes as a quest discard (lower first): dead influence cards (value at or below my stack's top,
 *  never playable again), then low influence cards, advocates, relics (they score in hand, S3), tomes/epics last. */
function discardCost(id: string, tops: Readonly<Record<string, number>>): number {
  const c = parseInhCard(id);
  if (c.kind === "influence") return (c.value ?? 0) <= (tops[c.colour ?? ""] ?? 0) ? 0 : 1 + (c.value ?? 0) / 10;
  if (c.kind === "advocate") return 3;
  if (c.kind === "relic") return 4;
  return 5;
}

/** The two cards that complete a quest started with ``first``: the cheapest discards of the colour with the most
 *  cards in hand ([] when no colour has two more). ``tops``: my stacks' top values. */
export function questPartners(first: string, hand: readonly string[], fox: boolean,
  tops: Readonly<Record<string, number>> = {}): string[] {
  const rest = hand.filter((c) => c !== first).sort((a, b) => discardCost(a, tops) - discardCost(b, tops) || a.localeCompare(b));
  if (fox) return rest.slice(0, 2);
  let best: string[] = [];
  let bestPlain = -1;
  for (const k of colourSet(first)) {
    const fits = rest.filter((c) => colourSet(c).includes(k));
    const plain = fits.filter((c) => colourSet(c).length === 1).length; // prefer a colour held without wilds
    if (fits.length >= 2 && plain > bestPlain) { best = fits.slice(0, 2); bestPlain = plain; }
  }
  return best;
}

/** The quest discards after a tap on ``card``: it leaves if chosen; joins if the three still share a colour;
 *  with three chosen it takes the place of the last one. null: it can't join. */
export function toggleQuestCard(chosen: readonly string[], card: string, fox: boolean): string[] | null {
  if (chosen.includes(card)) return chosen.filter((c) => c !== card);
  if (chosen.length < 3) return questCompatible([...chosen, card], fox) ? [...chosen, card] : null;
  for (let i = 2; i >= 0; i--) {
    const next = chosen.map((c, j) => (j === i ? card : c));
    if (questCompatible(next, fox)) return next;
  }
  return null;
}

/** The whole quest as one move (engine: A4 with all three discards at once, in this order). */
export function questMove(cards: readonly string[], piles: readonly number[]): Move {
  return { action: "quest", cards: [...cards], piles: [...piles] };
}

/** The pile with the fewest cards (a discard there gives the others the least), lowest number on ties. */
export function smallestPile(market: readonly (readonly string[])[], among: readonly number[] = [0, 1, 2]): number {
  return [...among].sort((a, b) => (market[a]?.length ?? 0) - (market[b]?.length ?? 0) || a - b)[0] ?? 0;
}

/** The kinds of move a card offers, in the order of CARD_MOVE_ORDER. */
export function kindsOf(moves: readonly Move[]): string[] {
  return [...new Set(orderCardMoves(moves).map(moveKind))];
}

/** The preselected move of one kind: a discard onto the smallest pile; taking the biggest pile it may take. */
export function defaultOfKind(moves: readonly Move[], kind: string, market: readonly (readonly string[])[]): Move | null {
  const of = moves.filter((m) => moveKind(m) === kind);
  if (!of.length) return null;
  if (kind === "discard_take") {
    const dt = of.filter(isDiscardTake);
    const takes = [...new Set(dt.map((m) => m.take))];
    const take = takes.sort((a, b) => (market[b]?.length ?? 0) - (market[a]?.length ?? 0) || a - b)[0];
    const onto = dt.filter((m) => m.take === take);
    const pile = smallestPile(market, onto.map((m) => m.pile));
    return onto.find((m) => m.pile === pile) ?? onto[0];
  }
  const piles = of.map(pileOf);
  if (piles.every((p): p is number => p !== null)) {
    const pile = smallestPile(market, piles);
    return of.find((m) => pileOf(m) === pile) ?? of[0];
  }
  return of[0];
}

/** What a tap on a card chooses: play it if it can go to the tableau, else its advocate effect, else the first
 *  kind (a skip-play, putting it back, ...) before the plain discard and draw 2 onto the smallest pile. Never a
 *  quest or a pile taken: those are one more tap on their chip. */
export function defaultCardMove(moves: readonly Move[], market: readonly (readonly string[])[]): Move | null {
  const kinds = kindsOf(moves).filter((k) => k !== "quest" && k !== "discard_take");
  return defaultOfKind(moves, kinds[0] ?? kindsOf(moves)[0] ?? "", market);
}

/** The same card's move of the same kind onto another ``pile`` (the take kept when it still may be taken). */
export function withPile(moves: readonly Move[], current: Move, pile: number): Move | null {
  const takeOf = (m: Move) => (isDiscardTake(m) ? m.take : null);
  const same = moves.filter((m) => moveKind(m) === moveKind(current) && pileOf(m) === pile);
  return same.find((m) => takeOf(m) === takeOf(current)) ?? same[0] ?? null;
}

/** The same card's A3 taking pile ``take`` (its discard pile kept when allowed, else the smallest other pile). */
export function withTake(moves: readonly Move[], current: Move, take: number, market: readonly (readonly string[])[]): Move | null {
  const same = moves.filter(isDiscardTake).filter((m) => m.take === take);
  const keep = same.find((m) => m.pile === pileOf(current));
  if (keep) return keep;
  const pile = smallestPile(market, same.map((m) => m.pile));
  return same.find((m) => m.pile === pile) ?? null;
}

/** A move there is no choice about, sent without asking: ending the turn when nothing can be claimed, passing
 *  with an empty hand. */
export function forcedMove(legal: readonly Move[]): Move | null {
  if (legal.length !== 1) return null;
  const m = legal[0];
  return "end_turn" in m || "pass" in m ? m : null;
}

// ------------------------------------------------------------------ turn, seats, scores
/** Seat order for the table: me first, then the others clockwise (a spectator sees 0, 1, ...). */
export function seatOrder(me: number | null, seats: number): number[] {
  const first = me ?? 0;
  return Array.from({ length: seats }, (_, i) => (first + i) % seats);
}

/** Seat names, with "#n" (seat number) added where two seats share a name (e.g. two "Ada (AI)" of cached games). */
export function seatLabels(names: readonly string[]): string[] {
  return names.map((x, i) => (names.filter((y) => y === x).length > 1 ? `${x} #${i + 1}` : x));
}

export type TurnState =
  | { kind: "over" }
  | { kind: "mine"; others: number[] } // I must act (others may have to act at the same time)
  | { kind: "waiting"; seats: number[] };

export function turnState(v: InhView, me: number | null): TurnState {
  if (v.over) return { kind: "over" };
  const acting = v.to_act ?? [];
  if (me !== null && acting.includes(me)) return { kind: "mine", others: acting.filter((s) => s !== me) };
  return { kind: "waiting", seats: acting };
}

/** Which pending decision I'm asked for, as an i18n key (null when there is none or it isn't mine). */
export function pendingKey(v: InhView, me: number | null): string | null {
  const p = v.pending;
  if (!p || me === null || !(v.to_act ?? []).includes(me)) return null;
  return `inh.p.${p.kind}`;
}

export const SCORE_ROWS = ["influence", "tomes", "relics", "quests", "honors", "total"] as const;

/** The final scoring table: one row per category S1-S5 and the total, one column per seat in ``order``. */
export function scoreTable(r: InhResult, order: readonly number[]): { row: (typeof SCORE_ROWS)[number]; values: number[] }[] {
  return SCORE_ROWS.map((row) => ({ row, values: order.map((s) => r.scores[s]?.[row] ?? 0) }));
}

/** "win" | "shared" | "loss" for a seat, from the result. */
export function outcomeOf(r: Pick<InhResult, "winner" | "winners">, seat: number): "win" | "shared" | "loss" {
  const w = winnersOf(r);
  if (!w.includes(seat)) return "loss";
  return w.length > 1 ? "shared" : "win";
}

/** Influence of a player's tableau: the sum of the top values (S1). */
export function influenceOf(p: InhPlayer): number {
  return Object.values(p.stacks).reduce((a, s) => a + (s.top || 0), 0);
}

/** A player's stacks in the game's colour order (only colours with a stack). */
export function stacksInOrder(p: InhPlayer, colours: readonly string[]): [string, Stack][] {
  return colours.filter((c) => p.stacks[c]?.cards.length).map((c) => [c, p.stacks[c]]);
}

/** One public engine event of the view's log in words, or null for bookkeeping events (action, end_turn, ...). */
export function eventText(e: InhEvent, tr: Tr, n: Names): string | null {
  const name = "seat" in e ? n.seat(e.seat) : "";
  switch (e.type) {
    case "place": return tr("inh.e.place", { name, card: n.card(e.card) });
    case "discard": return tr("inh.e.discard", { name, card: n.card(e.card), pile: String(e.pile + 1) });
    case "take_pile": return tr("inh.e.take_pile", { name, pile: String(e.pile + 1), cards: n.cards(e.cards.length) });
    case "draw": return e.count > 0 ? tr("inh.e.draw", { name, cards: n.cards(e.count) }) : null;
    case "take_quest": return tr("inh.e.take_quest", { name });
    case "claim_clan": return tr("inh.e.claim_clan", { name, clan: n.clan(e.clan) });
    case "claim_honor": return tr("inh.e.claim_honor", { name, honor: e.honor });
    case "advocate": return tr("inh.e.advocate", { name, card: n.card(e.card) });
    case "spy": return e.target !== null ? tr("inh.e.spy", { name, target: n.seat(e.target), colour: n.colour(String(e.colour)) }) : null;
    case "take_card": return tr("inh.e.take_card", { name, card: n.card(e.card) });
    case "refill": return e.card !== null ? tr("inh.e.refill", { pile: String(e.pile + 1), card: n.card(e.card) }) : null;
    case "reveal_removed": return tr("inh.e.reveal_removed", { card: e.card === null ? "" : n.card(e.card) });
    case "end_triggered": return tr("inh.e.end_triggered");
    case "extra_turn": return tr("inh.e.extra_turn", { name });
    case "turn": return tr("inh.e.turn", { n: e.turn, name });
    case "rat_put_back": return tr("inh.e.rat_put_back", { name });
    case "saboteur_choice": return tr("inh.e.saboteur_choice", { name });
    case "agent_effect": return tr("inh.e.agent_effect", { name, effect: n.advocate(e.effect) });
    case "effect_skipped": return tr("inh.e.effect_skipped", { name, effect: n.advocate(e.effect) });
    default: return null;
  }
}

/** The newest ``limit`` log lines, newest first. */
export function recentEvents(log: readonly InhEvent[], tr: Tr, n: Names, limit = 8): string[] {
  const out: string[] = [];
  for (let i = log.length - 1; i >= 0 && out.length < limit; i--) {
    const text = eventText(log[i], tr, n);
    if (text) out.push(text);
  }
  return out;
}

// ------------------------------------------------------------------ replay
/** One step of GET /games/{id}/replay?step=N of an Inheritors game (games/service/moves.py replay_step): the
 *  Replay schema with its views, move and events of that kind. */
export type InhReplayStep = Omit<Schemas["Replay"], "move" | "events" | "spectator_view" | "seat_views"> & {
  move: { number: number; seat: number; move: Move } | null;
  events: InhEvent[];
  spectator_view: InhView;
  seat_views: InhView[];
};

/** A replay step is an Inheritors one when its spectator view is (by its ``game``; the Claim replay shows tricks
 *  instead): its events and move are then that kind's too. */
export function isInhReplay(step: Schemas["Replay"] | null | undefined): step is InhReplayStep {
  return step?.spectator_view.game === "inheritors";
}

/** What the step's move did, in words: its public events in order; a move without any (a pass) by its label. */
export function stepEvents(step: Pick<InhReplayStep, "move" | "events">, tr: Tr, n: Names): string[] {
  if (!step.move) return [];
  const lines = (step.events ?? []).map((e) => eventText(e, tr, n)).filter((x): x is string => x !== null);
  return lines.length ? lines : [`${n.seat(step.move.seat)}: ${moveLabel(step.move.move, tr, n)}`];
}

/** A seat's hand at this step (the replay is of an ended game: every seat's view shows its own hand). */
export function seatHand(step: Pick<InhReplayStep, "seat_views" | "spectator_view">, seat: number): string[] {
  return sortHand(step.seat_views[seat]?.hand ?? step.spectator_view.hands?.[seat] ?? []);
}
