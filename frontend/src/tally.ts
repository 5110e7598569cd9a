// The end screen's explanation of a counted Claim-family result (C8, T4, M7): per faction who got the vote
// and why, the votes' tally per column (a seat, or a team with 4 seats), and what decided the game.
// Pure: no DOM, no i18n (the screen words it).
import { parseCard } from "./cards";
import { winnersOf, type Result } from "./game";

export type Why =
  | { code: "more" } // more cards (C8.2)
  | { code: "higher"; n: number; a: number; b: number } // equal count n, first differing card a > b (C8.3, C8.4)
  | { code: "higher_n" } // 3-4 seats: tied at the top, the higher cards decided (M7)
  | { code: "equal"; n: number } // every compared card equal: nobody (C8.4, C8.5)
  | { code: "none" }; // nobody has a card of it

export interface FactionLine { faction: string; counts: number[]; vote: number | null; why: Why }

export type GameWhy =
  | { code: "votes"; col: number; a: number; b: number }
  | { code: "cards"; col: number; v: number; a: number; b: number }
  | { code: "draw" }
  | { code: "shared" };

export interface Tally {
  /** seats of each column: [me] + the others clockwise, or [my team, the other team] with 4 seats */
  columns: number[][];
  lines: FactionLine[];
  votes: number[]; // per column
  game: GameWhy;
}

const values = (ids: string[] | undefined) => (ids ?? []).map((c) => parseCard(c).value).sort((x, y) => y - x);

/** The tally of a result with its count (``votes``); ``me`` is my seat (0 for a spectator). */
export function tallyOf(r: Result, factions: string[], seats: number, me: number): Tally {
  const others = Array.from({ length: seats - 1 }, (_, i) => (me + 1 + i) % seats);
  const team = (s: number) => s % 2;
  const columns = seats === 4 ? [[me, (me + 2) % 4], [(me + 1) % 4, (me + 3) % 4]] : [[me], ...others.map((s) => [s])];
  const colOfVote = (v: number | null | undefined): number | null => {
    if (v == null) return null;
    const i = seats === 4 ? columns.findIndex((c) => team(c[0]) === v) : columns.findIndex((c) => c[0] === v);
    return i < 0 ? null : i;
  };
  const countOf = (col: number[], f: string): number => {
    if (seats === 4 && r.team_counts) return r.team_counts[team(col[0])]?.[f] ?? 0;
    return col.reduce((a, s) => a + (r.counts?.[s]?.[f] ?? r.score?.[s]?.[f]?.length ?? 0), 0);
  };
  const lines = factions.map((f): FactionLine => {
    const counts = columns.map((c) => countOf(c, f));
    const vote = colOfVote(r.votes[f]);
    const top = Math.max(...counts);
    const atTop = counts.filter((n) => n === top).length;
    let why: Why;
    if (top === 0) why = { code: "none" };
    else if (atTop === 1) why = { code: "more" };
    else if (seats === 2) {
      const [x, y] = [values(r.score?.[columns[0][0]]?.[f]), values(r.score?.[columns[1][0]]?.[f])];
      const i = x.findIndex((v, k) => v !== y[k]);
      why = i < 0 ? { code: "equal", n: top } : { code: "higher", n: top, a: Math.max(x[i], y[i]), b: Math.min(x[i], y[i]) };
    } else why = vote == null ? { code: "equal", n: top } : { code: "higher_n" };
    return { faction: f, counts, vote, why };
  });
  const votes = columns.map((_, i) => lines.filter((l) => l.vote === i).length);
  // cards in the factions that voted for each column (C8.7, T4.4, M7)
  const cards = columns.map((_, i) => lines.reduce((a, l) => a + (l.vote === i ? l.counts[i] : 0), 0));
  const winners = winnersOf(r);
  const winCols = [...new Set(winners.map((s) => columns.findIndex((c) => c.includes(s))).filter((i) => i >= 0))];
  let game: GameWhy;
  if (winCols.length === 0) game = { code: "draw" };
  else if (winCols.length > 1) game = { code: "shared" };
  else {
    const col = winCols[0];
    const best = Math.max(...votes.filter((_, i) => i !== col));
    if (votes[col] > best) game = { code: "votes", col, a: votes[col], b: best };
    else {
      const rest = Math.max(...cards.filter((_, i) => i !== col && votes[i] === votes[col]));
      game = { code: "cards", col, v: votes[col], a: cards[col], b: rest };
    }
  }
  return { columns, lines, votes, game };
}
