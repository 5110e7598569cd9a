"""Cards of Claim and Claim 2 (C1, T1, M1).

A card is an ``int`` code ``faction * 16 + value``: ``code >> 4`` is the faction id and
``code & 15`` its value. Identical cards (the five Goblin 0s, the three Gnome 1s, ...) share one
code; they are interchangeable for every rule (C1.2), so hands are multisets of codes.

Outside the engine a card is written ``"<faction>-<value>"`` with the singular lowercase faction
name, e.g. ``"goblin-0"``, ``"knight-7"``, ``"doppelganger-3"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

# Faction ids (order = canonical order used in records and views).
# Final: mypyc (scripts/build_engine.py) inlines them in the compiled modules.
GOBLIN: Final = 0
KNIGHT: Final = 1
UNDEAD: Final = 2
DWARF: Final = 3
DOPPELGANGER: Final = 4
GNOME: Final = 5
GIANT: Final = 6
DRAGON: Final = 7
TROLL: Final = 8
SEER: Final = 9

FACTION_NAMES: tuple[str, ...] = (
    "goblin", "knight", "undead", "dwarf", "doppelganger",
    "gnome", "giant", "dragon", "troll", "seer",
)
FACTION_TITLES: tuple[str, ...] = (
    "Goblins", "Knights", "Undead", "Dwarves", "Doppelgangers",
    "Gnomes", "Giants", "Dragons", "Trolls", "Seers",
)
CARD_TITLES: tuple[str, ...] = (
    "Goblin", "Knight", "Undead", "Dwarf", "Doppelganger",
    "Gnome", "Giant", "Dragon", "Troll", "Seer",
)
FACTION_ID: dict[str, int] = {name: i for i, name in enumerate(FACTION_NAMES)}

# Accepted spellings when reading options (plural / capitalised forms are forgiven).
FACTION_ALIASES: dict[str, int] = {
    **FACTION_ID,
    **{t.lower(): i for i, t in enumerate(FACTION_TITLES)},
    **{t.lower(): i for i, t in enumerate(CARD_TITLES)},
}

_ZERO_TO_NINE = tuple(range(10))

# C1.1 and T1.1: the values of each faction (duplicates listed as often as they occur).
FACTION_VALUES: dict[int, tuple[int, ...]] = {
    GOBLIN: (0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9),  # 14
    KNIGHT: (2, 3, 4, 5, 6, 7, 8, 9),  # 8
    UNDEAD: _ZERO_TO_NINE,
    DWARF: _ZERO_TO_NINE,
    DOPPELGANGER: _ZERO_TO_NINE,
    GNOME: (1, 1, 1, 3, 3, 3, 5, 5, 5, 7, 7, 7, 9),  # 13
    GIANT: (1, 1, 3, 3, 5, 5, 7, 7, 9),  # 9
    DRAGON: _ZERO_TO_NINE,
    TROLL: _ZERO_TO_NINE,
    SEER: _ZERO_TO_NINE,
}

# M1.1: the two pairs and the six singles.
PAIRS: tuple[tuple[int, int], ...] = ((KNIGHT, GOBLIN), (GNOME, GIANT))
SINGLES: tuple[int, ...] = (UNDEAD, DWARF, DOPPELGANGER, DRAGON, TROLL, SEER)

CLAIM_FACTIONS: tuple[int, ...] = (GOBLIN, KNIGHT, UNDEAD, DWARF, DOPPELGANGER)
CLAIM2_FACTIONS: tuple[int, ...] = (GNOME, GIANT, DRAGON, TROLL, SEER)


def code(faction: int, value: int) -> int:
    return faction * 16 + value


def faction_of(card: int) -> int:
    return card >> 4


def value_of(card: int) -> int:
    return card & 15


# Every card code that exists, with its id and title.
ALL_CODES: tuple[int, ...] = tuple(
    code(f, v) for f in range(10) for v in sorted(set(FACTION_VALUES[f]))
)
CARD_ID: dict[int, str] = {c: f"{FACTION_NAMES[c >> 4]}-{c & 15}" for c in ALL_CODES}
CARD_CODE: dict[str, int] = {s: c for c, s in CARD_ID.items()}


def card_id(card: int) -> str:
    """``"knight-7"`` for the code of Knight 7."""
    return CARD_ID[card]


def card_title(card: int) -> str:
    """``"Knight 7"``: how a card is named in messages for players."""
    return f"{CARD_TITLES[card >> 4]} {card & 15}"


def parse_card(text: object) -> int:
    """The code of a card id; raises ``KeyError`` for an unknown id."""
    if not isinstance(text, str) or text not in CARD_CODE:
        raise KeyError(text)
    return CARD_CODE[text]


def ids(cards: Iterable[int]) -> list[str]:
    return [CARD_ID[c] for c in cards]


_DECKS: dict[tuple[int, ...], tuple[int, ...]] = {}


def deck_for(factions: Iterable[int]) -> list[int]:
    """The unshuffled deck of the given factions (52 cards for any valid 5-faction choice); a new list."""
    key = tuple(factions)
    deck = _DECKS.get(key)
    if deck is None:
        deck = _DECKS[key] = tuple(code(f, v) for f in key for v in FACTION_VALUES[f])
    return list(deck)
