"""The card model (I2): every physical small card, its colour set, name key and matching.

Card id format (unique per physical card, stable across games):

* influence card: ``<colour>-<value><copy letter>``, e.g. ``red-3a``, ``red-3b`` (copies a, b, ...);
* relic: ``relic-<colour>``, e.g. ``relic-red``;
* tome: ``tome-1`` .. ``tome-6``; epic: ``epic-1`` .. ``epic-3``;
* basic advocate: ``<type>-<n>``, e.g. ``spy-1`` .. ``spy-6`` (copy n has the ``min_players`` mark
  of entry n in :data:`data.BASIC_ADVOCATES`);
* special advocate: ``ambassador-1``, ``ambassador-2``, ``agent-1``, ``knight-1``, ``saboteur-1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from . import data

INFLUENCE: Final = "influence"
RELIC: Final = "relic"
TOME: Final = "tome"
EPIC: Final = "epic"
BASIC_ADVOCATE: Final = "basic_advocate"
SPECIAL_ADVOCATE: Final = "special_advocate"

ALL_COLOURS: Final[frozenset[str]] = frozenset((*data.COLOURS, data.WHITE))


@dataclass(frozen=True)
class Card:
    """One physical small card (I2.1)."""

    id: str
    kind: str
    colour: str | None = None  # influence cards and relics
    value: int | None = None  # influence cards
    advocate_type: str | None = None  # advocates
    min_players: int = 2  # basic advocates (I1.5)

    @property
    def is_advocate(self) -> bool:
        return self.kind in (BASIC_ADVOCATE, SPECIAL_ADVOCATE)

    @property
    def is_wild(self) -> bool:
        return self.kind in (TOME, EPIC)


def _letters(n: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[:n]


def _build_catalog() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for colour in data.COLOURS:
        for value, copies in data.VALUE_COPIES.items():
            for letter in _letters(copies):
                cid = f"{colour}-{value}{letter}"
                cards[cid] = Card(cid, INFLUENCE, colour=colour, value=value)
    for colour in data.COLOURS:
        cid = f"relic-{colour}"
        cards[cid] = Card(cid, RELIC, colour=colour)
    for n in range(1, data.TOME_COUNT + 1):
        cards[f"tome-{n}"] = Card(f"tome-{n}", TOME)
    for n in range(1, data.EPIC_COUNT + 1):
        cards[f"epic-{n}"] = Card(f"epic-{n}", EPIC)
    for atype, marks in data.BASIC_ADVOCATES.items():
        for n, mark in enumerate(marks, start=1):
            cid = f"{atype}-{n}"
            cards[cid] = Card(cid, BASIC_ADVOCATE, advocate_type=atype, min_players=mark)
    for atype, copies in data.SPECIAL_ADVOCATES.items():
        for n in range(1, copies + 1):
            cid = f"{atype}-{n}"
            cards[cid] = Card(cid, SPECIAL_ADVOCATE, advocate_type=atype)
    return cards


#: Every physical small card of the box, by id (I1.12: 111 cards without the 4 reference cards).
CARDS: Final[dict[str, Card]] = _build_catalog()


def card(cid: str) -> Card:
    return CARDS[cid]


def colour_set(cid: str) -> frozenset[str]:
    """I2.2 [R] (AMB-09): influence/relic -> its colour; advocate -> white; tome/epic -> wild,
    i.e. all five realm colours *and* white."""
    c = CARDS[cid]
    if c.kind in (INFLUENCE, RELIC):
        assert c.colour is not None
        return frozenset((c.colour,))
    if c.is_advocate:
        return frozenset((data.WHITE,))
    return ALL_COLOURS


_COLOUR_SETS: Final[dict[str, frozenset[str]]] = {cid: colour_set(cid) for cid in CARDS}


def colours_of(cid: str) -> frozenset[str]:
    """Cached :func:`colour_set`."""
    return _COLOUR_SETS[cid]


def same_colour(a: str, b: str) -> bool:
    """I2.3 [R]: two cards share a colour iff their colour sets intersect."""
    return bool(_COLOUR_SETS[a] & _COLOUR_SETS[b])


def name_key(cid: str) -> str | None:
    """I2.4 [R] (AMB-09): advocates -> type; tome/epic/relic -> kind; influence -> no name."""
    c = CARDS[cid]
    if c.is_advocate:
        return c.advocate_type
    if c.kind in (TOME, EPIC, RELIC):
        return c.kind
    return None


def cards_match(discard: str, top: str, discard_wild: bool = False) -> bool:
    """I6.4 [R] (AMB-09): does discarded card D match the pile's top card T?

    Same value (both influence), a shared colour (I2.3) or the same name key (I2.4). With Fox
    (``discard_wild``) D is wild and matches everything (I8.5).
    """
    if discard_wild:
        return True
    return _match(discard, top)


@cache
def _match(discard: str, top: str) -> bool:
    """:func:`cards_match` without Fox: a function of the two cards only, remembered per pair."""
    d, t = CARDS[discard], CARDS[top]
    if d.kind == INFLUENCE and t.kind == INFLUENCE and d.value == t.value:
        return True
    if same_colour(discard, top):
        return True
    key = name_key(discard)
    return key is not None and key == name_key(top)


def display(cid: str) -> str:
    """A card's name for messages, e.g. ``Red 3``, ``Spy``, ``Tome``, ``Red relic``."""
    c = CARDS[cid]
    if c.kind == INFLUENCE:
        return f"{data.COLOUR_NAMES[c.colour or '']} {c.value}"
    if c.kind == RELIC:
        return f"{data.COLOUR_NAMES[c.colour or '']} relic"
    if c.is_advocate:
        return data.ADVOCATE_NAMES[c.advocate_type or ""]
    return "Tome" if c.kind == TOME else "Epic"


def is_influence(cid: str) -> bool:
    return CARDS[cid].kind == INFLUENCE


def is_advocate(cid: str) -> bool:
    return CARDS[cid].is_advocate


def is_wild(cid: str) -> bool:
    return CARDS[cid].is_wild


def is_relic(cid: str) -> bool:
    return CARDS[cid].kind == RELIC
