// Cards of the Claim family: ids "<faction>-<value>", names, colours, and the legal-card logic.
import type { Schemas } from "./api";
import type { Lang } from "./i18n";

export const FACTIONS = [
  "goblin", "knight", "undead", "dwarf", "doppelganger",
  "gnome", "giant", "dragon", "troll", "seer",
] as const;
export type Faction = (typeof FACTIONS)[number];

export const CLAIM_FACTIONS: Faction[] = ["goblin", "knight", "undead", "dwarf", "doppelganger"];
export const CLAIM2_FACTIONS: Faction[] = ["gnome", "giant", "dragon", "troll", "seer"];
export const PAIRS: [Faction, Faction][] = [["knight", "goblin"], ["gnome", "giant"]];
export const SINGLES: Faction[] = ["undead", "dwarf", "doppelganger", "dragon", "troll", "seer"];

// Singular card names (screen readers: "Knight 7") and plural faction titles, per language.
const SINGULAR: Record<Lang, Record<Faction, string>> = {
  en: { goblin: "Goblin", knight: "Knight", undead: "Undead", dwarf: "Dwarf", doppelganger: "Doppelganger",
    gnome: "Gnome", giant: "Giant", dragon: "Dragon", troll: "Troll", seer: "Seer" },
  de: { goblin: "Goblin", knight: "Ritter", undead: "Untoter", dwarf: "Zwerg", doppelganger: "Doppelgänger",
    gnome: "Gnom", giant: "Riese", dragon: "Drache", troll: "Troll", seer: "Seher" },
  cs: { goblin: "Skřet", knight: "Rytíř", undead: "Nemrtvý", dwarf: "Trpaslík", doppelganger: "Dvojník",
    gnome: "Gnóm", giant: "Obr", dragon: "Drak", troll: "Troll", seer: "Věštec" },
};
const PLURAL: Record<Lang, Record<Faction, string>> = {
  en: { goblin: "Goblins", knight: "Knights", undead: "Undead", dwarf: "Dwarves", doppelganger: "Doppelgangers",
    gnome: "Gnomes", giant: "Giants", dragon: "Dragons", troll: "Trolls", seer: "Seers" },
  de: { goblin: "Goblins", knight: "Ritter", undead: "Untote", dwarf: "Zwerge", doppelganger: "Doppelgänger",
    gnome: "Gnome", giant: "Riesen", dragon: "Drachen", troll: "Trolle", seer: "Seher" },
  cs: { goblin: "Skřeti", knight: "Rytíři", undead: "Nemrtví", dwarf: "Trpaslíci", doppelganger: "Dvojníci",
    gnome: "Gnómové", giant: "Obři", dragon: "Draci", troll: "Trollové", seer: "Věštci" },
};

// Short names printed on a card (at most 6 letters): the faction's name is on every card, so its colour is
// never the only cue (issue 25). The full name is the card's accessible name.
const SHORT: Record<Lang, Record<Faction, string>> = {
  en: { goblin: "Goblin", knight: "Knight", undead: "Undead", dwarf: "Dwarf", doppelganger: "Doppel",
    gnome: "Gnome", giant: "Giant", dragon: "Dragon", troll: "Troll", seer: "Seer" },
  de: { goblin: "Goblin", knight: "Ritter", undead: "Untot", dwarf: "Zwerg", doppelganger: "Doppel",
    gnome: "Gnom", giant: "Riese", dragon: "Drache", troll: "Troll", seer: "Seher" },
  cs: { goblin: "Skřet", knight: "Rytíř", undead: "Nemrt.", dwarf: "Trpasl.", doppelganger: "Dvojn.",
    gnome: "Gnóm", giant: "Obr", dragon: "Drak", troll: "Troll", seer: "Věštec" },
};

export function shortName(f: Faction, lang: Lang = "en"): string {
  return SHORT[lang][f];
}

// Card faces: white text at >= 5:1 on every colour (WCAG AA for the small name); hues and lightness spread
// so that any two factions differ by >= 12 (CIELAB) in normal vision and under simulated protanopia,
// deuteranopia and tritanopia (test/palette.test.ts; style.css's --f-* repeat these); the shape
// (Card.tsx GLYPH) and the printed name are the primary cues, the colour the third.
export const FACTION_COLOR: Record<Faction, string> = {
  goblin: "#1e775b", knight: "#326bcc", undead: "#681891", dwarf: "#7b3e00", doppelganger: "#433524",
  gnome: "#a93d83", giant: "#766f36", dragon: "#d60e2d", troll: "#00504f", seer: "#20054d",
};

export interface Card { id: string; faction: Faction; value: number }

export function parseCard(id: string): Card {
  const i = id.lastIndexOf("-");
  const faction = id.slice(0, i) as Faction;
  const value = Number(id.slice(i + 1));
  if (i < 1 || !FACTIONS.includes(faction) || !Number.isInteger(value) || value < 0 || value > 9) {
    throw new Error(`unknown card ${id}`);
  }
  return { id, faction, value };
}

export function factionOf(id: string): Faction {
  return parseCard(id).faction;
}

export function cardName(id: string, lang: Lang = "en"): string {
  const c = parseCard(id);
  return `${SINGULAR[lang][c.faction]} ${c.value}`;
}

export function factionTitle(f: Faction, lang: Lang = "en"): string {
  return PLURAL[lang][f];
}

/** Sort card ids by canonical faction order, then value. */
export function sortCards(ids: string[]): string[] {
  return [...ids].sort((a, b) => {
    const x = parseCard(a), y = parseCard(b);
    return FACTIONS.indexOf(x.faction) - FACTIONS.indexOf(y.faction) || x.value - y.value;
  });
}

/** A Claim-family move (``ClaimMove``: play a card, the Seer's choice, the Giant's smash). */
export type Move = Schemas["ClaimMove"];
/** A legal move of any kind (``GameView.legal_moves``); the card logic below reads the Claim-family ones. */
type AnyMove = Schemas["EngineMove"];

/** Why a card may not be played now (null = it is legal). */
export type DimReason =
  | null
  | { code: "not_your_turn" }
  | { code: "game_over" }
  | { code: "seer_choice" }
  | { code: "smash_choice" }
  | { code: "must_follow"; faction: Faction; doppel: boolean }
  | { code: "must_doppel" };

export interface TableState {
  hand: string[];
  legal_moves: readonly AnyMove[];
  my_turn: boolean;
  over: boolean;
  current_trick: { seat: number; card: string }[];
  factions: string[];
}

/** The set of card ids the player may play now. */
export function legalCards(moves: readonly AnyMove[]): Set<string> {
  const out = new Set<string>();
  for (const m of moves) if ("play" in m) out.add(m.play);
  return out;
}

/** The reason a card in hand is dimmed (null when it is legal). */
export function dimReason(card: string, st: TableState): DimReason {
  if (st.over) return { code: "game_over" };
  if (!st.my_turn) return { code: "not_your_turn" };
  if (st.legal_moves.some((m) => "seer" in m)) return { code: "seer_choice" };
  if (st.legal_moves.some((m) => "smash" in m)) return { code: "smash_choice" };
  if (legalCards(st.legal_moves).has(card)) return null;
  const lead = st.current_trick[0];
  if (!lead) return { code: "not_your_turn" };
  const lf = factionOf(lead.card);
  if (lf === "doppelganger") return { code: "must_doppel" };
  return { code: "must_follow", faction: lf, doppel: st.factions.includes("doppelganger") };
}

/** Group card ids by faction (in the given faction order); values sorted high to low. */
export function groupByFaction(ids: string[], factions: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of factions) out[f] = [];
  for (const id of ids) {
    const f = factionOf(id);
    (out[f] ||= []).push(id);
  }
  for (const f of Object.keys(out)) out[f].sort((a, b) => parseCard(b).value - parseCard(a).value);
  return out;
}

/** claim-mix: exactly one pair (both halves) plus exactly three singles. */
/** Singles to choose: 3 with 2 players (M2.1), 5 with 3-4 players (M3.1). */
export function singlesFor(seats: number): number {
  return seats > 2 ? 5 : 3;
}

export function mixProblem(chosen: string[], seats = 2): null | "pair" | "singles" {
  let pairs = 0;
  for (const [a, b] of PAIRS) {
    const ha = chosen.includes(a), hb = chosen.includes(b);
    if (ha !== hb) return "pair";
    if (ha) pairs++;
  }
  if (pairs !== 1) return "pair";
  if (chosen.filter((f) => (SINGLES as string[]).includes(f)).length !== singlesFor(seats)) return "singles";
  return null;
}

/** A valid faction choice to start from: one pair and 3 singles (2 players) or 5 singles (3-4, M3.1); the new-game
 *  screen's first choice and a claim-mix tournament's factions. */
export function defaultMix(seats: number): string[] {
  return seats > 2 ? ["knight", "goblin", "undead", "dwarf", "dragon", "troll", "seer"] : ["knight", "goblin", "undead", "dragon", "seer"];
}
