"""AI players for Inheritors (2-4 seats), from a seat's view and legal moves only.

Level 1 "Squire": claims any honor or clan it may (they only ever add points, I9/I8), otherwise a
random kind of move (play, discard and draw, discard and take, quest, advocate...), then a random move of
that kind: drawn uniformly over all legal moves it would mostly draw (a card has one "play" and up to nine
discard moves), hoard its hand and play nearly nothing.

Level 2 "Knight": scores every legal move with a hand-written estimate of the points it brings
(I12): honors (+1 VP each) and clans first; playing an influence card raises its stack top (S1, +1)
and more if it keeps a relic in hand on top (S3); taking a market pile is worth the playable cards
and tomes in it; quests are worth their average VP; the card given away by a discard is the one we
can least use (already below our stack top, or far above it). Pending decisions (Wolf extra play,
quest discards, Spy/Advisor/Agent/Rat/Saboteur, take-pile) use the same card value. Ties are broken
by the seed.

Level 3 "King" is a search on top of this scorer: :mod:`games.ai.inheritors_king`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.inheritors.cards import CARDS

CLAIM_HONOR = 100.0
CLAIM_CLAN = 80.0


class _Ctx:
    """What the Knight's scorer reads: the seat, its hand, stack tops (its own and the best other's), the
    market and the deck size. Built from a view (:func:`context`) or, in the King's playouts, from a state."""

    def __init__(self, seat: int, hand: list[str], tops: dict[str, int], best_other: dict[str, int],
                 market: list[list[str]], deck_count: int) -> None:
        self.seat = seat
        self.hand = hand
        self.tops = tops
        self.best_other = best_other
        self.market = market
        self.deck_count = deck_count
        self._values: dict[str, float] = {}
        self._piles: dict[int, float] = {}

    def top(self, colour: str | None) -> int:
        return self.tops.get(colour or "", 0)

    def card_value(self, cid: str) -> float:
        """How useful a card is to keep in hand (0 = dead weight); remembered per card for this context."""
        value = self._values.get(cid)
        if value is None:
            value = self._values[cid] = self._card_value(cid)
        return value

    def _card_value(self, cid: str) -> float:
        card = CARDS.get(cid)
        if card is None:
            return 0.5
        if card.kind == "influence":
            need = (card.value or 0) - self.top(card.colour)
            if need <= 0:
                return 0.0  # I5.1.1 can never be played any more
            return max(0.2, 2.0 - 0.4 * (need - 1)) + 0.1 * (card.value or 0)
        if card.kind == "relic":
            mine = self.top(card.colour)
            lead = mine > 0 and mine >= self.best_other.get(card.colour or "", 0)
            return 1.5 if lead else 0.3  # I12.4 +1 when our stack leads, -1 otherwise
        if card.kind in ("tome", "epic"):
            return 1.4  # I12.3 tome majority
        return 1.0  # advocates: an action for later

    def pile_value(self, pile: Sequence[str]) -> float:
        return sum(max(0.0, self.card_value(c)) for c in pile)

    def market_value(self, index: int) -> float:
        """:meth:`pile_value` of market pile ``index``, remembered for this context."""
        value = self._piles.get(index)
        if value is None:
            value = self._piles[index] = self.pile_value(self.market[index])
        return value


def context(view: Mapping[str, Any]) -> _Ctx:
    """The scorer's context for the seat that sees ``view``."""
    seat = int(view["seat"])
    players = view["players"]
    best_other: dict[str, int] = {}
    for p in players:
        if p["seat"] == seat:
            continue
        for c, st in p["stacks"].items():
            best_other[c] = max(best_other.get(c, 0), st["top"])
    return _Ctx(seat, list(view.get("hand", [])), {c: st["top"] for c, st in players[seat]["stacks"].items()},
                best_other, [list(p) for p in view["market"]], int(view.get("deck_count", 0)))


def score(ctx: _Ctx, move: Mapping[str, Any]) -> float:
    if "claim_honor" in move:
        return CLAIM_HONOR
    if "claim_clan" in move:
        return CLAIM_CLAN
    action = move.get("action")
    card = move.get("card")
    if action == "play" or "play" in move:
        cid = card if action == "play" else move["play"]
        c = CARDS.get(cid) if isinstance(cid, str) else None
        bonus = 0.0
        if c is not None and c.colour is not None:
            relics = sum(1 for h in ctx.hand if h == f"relic-{c.colour}")
            new_top = (c.value or 0)
            if relics and new_top >= ctx.best_other.get(c.colour, 0):
                bonus += 1.5 * relics
        return 20.0 + bonus
    if action == "advocate":
        return 6.0
    if action == "quest":
        return 9.0 - ctx.card_value(card or "")
    if action == "discard_take":
        return 4.0 + 1.2 * ctx.market_value(int(move["take"])) - ctx.card_value(card or "")
    if action == "discard_draw":
        return (5.0 if ctx.deck_count >= 2 else 1.0) - ctx.card_value(card or "")
    if "discard" in move:  # quest / Saboteur discards: give away the least useful card
        return -ctx.card_value(move["discard"])
    if "take_card" in move:
        return ctx.card_value(move["take_card"])
    if "take_pile" in move:
        return ctx.market_value(int(move["take_pile"]))
    if "put_back" in move:
        return -ctx.card_value(move["put_back"])
    if "skip_play" in move:
        return 1.0
    if move.get("skip") is True:
        return 0.0
    if move.get("end_turn") is True or move.get("pass") is True:
        return 0.0
    return 0.5  # spy requests, agent effects: no preference


def choose(view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], seed: int, level: int) -> dict[str, Any]:
    rng = random.Random(seed)
    claims = [m for m in legal if "claim_honor" in m or "claim_clan" in m]
    if level <= 1:
        if claims:
            return dict(claims[rng.randrange(len(claims))])
        kinds: dict[str, list[Mapping[str, Any]]] = {}
        for m in legal:
            kinds.setdefault(str(m.get("action", next(iter(m), ""))), []).append(m)
        some = list(kinds.values())[rng.randrange(len(kinds))]
        return dict(some[rng.randrange(len(some))])
    ctx = context(view)
    scored = [(score(ctx, m) + 1e-6 * rng.random(), i) for i, m in enumerate(legal)]
    return dict(legal[max(scored)[1]])
