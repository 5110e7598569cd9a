"""Static game data for Inheritors: every table the engine reads, in one place.

Clause ids refer to ``/work/shared/rules/inheritors.md``.

PROVISIONAL DATA ([P] in the spec, to be replaced once the physical cards are checked, I15):

* ``VALUE_COPIES`` - copies of each value 1..6 per colour (I1.2, AMB-01). Only "14 per colour,
  one 5, one 6, non-increasing" is attested; the 4/3/3/2/1/1 split is invented.
* ``COLOUR_NAMES`` for ``blue`` and ``yellow`` (I1.1, AMB-02): placeholder display names.
* ``BASIC_ADVOCATES`` - split per type and the ``min_players`` mark of each copy (I1.5, AMB-03,
  AMB-38).
* ``QUESTS`` - the seven quests, their colour ties, conditions and VP (I10.4, AMB-12). Invented.
* ``CLANS`` colours of the beginner clans (I8.5/I8.6, AMB-32).

Everything else here (counts of relics, tomes, epics, special advocates, honors) is attested.
The non-beginner clans are unknown (I8.7): the Agent, Knight, Saboteur and the 3 epics are
therefore not attached to any clan and stay in the box in a normal game.
"""

from __future__ import annotations

from typing import Any, Final

#: I1.1 realm colours in a fixed order (ids are internal).
COLOURS: Final[tuple[str, ...]] = ("red", "green", "purple", "blue", "yellow")

#: I2.2 the colour of every advocate.
WHITE: Final[str] = "white"

#: I1.1 display names. [P] for blue and yellow (no source names them).
COLOUR_NAMES: Final[dict[str, str]] = {
    "red": "Red",
    "green": "Green",
    "purple": "Purple",
    "blue": "Blue",  # [P]
    "yellow": "Yellow",  # [P]
    "white": "White",
}

#: I1.2 [P] copies of each influence value per colour (value -> copies); 14 per colour.
VALUE_COPIES: Final[dict[int, int]] = {1: 4, 2: 3, 3: 3, 4: 2, 5: 1, 6: 1}

#: I1.4 tomes, I1.7 epics.
TOME_COUNT: Final[int] = 6
EPIC_COUNT: Final[int] = 3

#: I1.5 [P] basic advocates: type -> list of min_players marks, one entry per physical copy.
BASIC_ADVOCATES: Final[dict[str, tuple[int, ...]]] = {
    "conspirator": (2, 2, 2, 2, 3, 3),
    "spy": (2, 2, 2, 2, 3, 3),
    "advisor": (2, 2, 2, 2, 3, 3),
}

#: I1.6 special advocates: type -> number of copies.
SPECIAL_ADVOCATES: Final[dict[str, int]] = {"ambassador": 2, "agent": 1, "knight": 1, "saboteur": 1}

#: Display names of advocate types and other named cards.
ADVOCATE_NAMES: Final[dict[str, str]] = {
    "conspirator": "Conspirator",
    "spy": "Spy",
    "advisor": "Advisor",
    "ambassador": "Ambassador",
    "agent": "Agent",
    "knight": "Knight",
    "saboteur": "Saboteur",
}

#: I1.10 / I8.5 beginner clans. ``colour`` is [P] (AMB-32). ``attached`` lists card ids that lie
#: beside the clan (I8.4); only Bear's two Ambassadors are known.
CLANS: Final[dict[str, dict[str, Any]]] = {
    "wolf": {"name": "Wolf", "colour": "blue", "attached": ()},  # colour [P]
    "fox": {"name": "Fox", "colour": "red", "attached": ()},  # colour [P]
    "bear": {"name": "Bear", "colour": "green", "attached": ("ambassador-1", "ambassador-2")},  # [P]
    "lynx": {"name": "Lynx", "colour": "yellow", "attached": ()},  # colour [P]
    "rat": {"name": "Rat", "colour": "purple", "attached": ()},  # colour [P]
}

#: I3.6 / I8.7 clan modes offered. Only ``beginner`` until the other five clans are known.
CLAN_MODES: Final[dict[str, tuple[str, ...]]] = {
    "beginner": ("wolf", "fox", "bear", "lynx", "rat"),
}

#: I9.3 the eight honors (conditions are implemented in honors.py; texts are for display).
HONORS: Final[dict[str, str]] = {
    "H1": "Own at least 2 quests.",
    "H2": "Have a stack whose top value is 6.",
    "H3": "Have at least 2 stacks with top value 4 or more.",
    "H4": "Have at least 3 stacks with top value 3 or more.",
    "H5": "Have at least 4 stacks with top value 2 or more.",
    "H6": "Reveal 3 tomes/epics from your hand (they stay in hand).",
    "H7": "Reveal 3 relics from your hand (they stay in hand).",
    "H8": "This turn, a Spy placed an influence card of value 2 or more in your tableau.",
}

#: I10.4 [P] invented quests. ``kind`` selects an evaluator in scoring.py:
#:  - ``colour_cards``: hold >= ``min`` cards whose colour set contains ``colour`` (wilds count);
#:  - ``advocates``: hold >= ``min`` advocates (basic or special);
#:  - ``relics``: hold >= ``min`` relics.
#: ``tie`` is the colour the quest is removed with in a 2-player game (I10.3), or None.
QUESTS: Final[dict[str, dict[str, Any]]] = {
    "Q-red": {"tie": "red", "kind": "colour_cards", "colour": "red", "min": 3, "vp": 2,
              "text": "Hold at least 3 red cards (tomes/epics count) at game end."},
    "Q-yellow": {"tie": "yellow", "kind": "colour_cards", "colour": "yellow", "min": 3, "vp": 2,
                 "text": "Hold at least 3 yellow cards (tomes/epics count) at game end."},
    "Q-green": {"tie": "green", "kind": "colour_cards", "colour": "green", "min": 3, "vp": 2,
                "text": "Hold at least 3 green cards (tomes/epics count) at game end."},
    "Q-blue": {"tie": "blue", "kind": "colour_cards", "colour": "blue", "min": 3, "vp": 2,
               "text": "Hold at least 3 blue cards (tomes/epics count) at game end."},
    "Q-purple": {"tie": "purple", "kind": "colour_cards", "colour": "purple", "min": 3, "vp": 2,
                 "text": "Hold at least 3 purple cards (tomes/epics count) at game end."},
    "Q-advocates": {"tie": None, "kind": "advocates", "min": 2, "vp": 1,
                    "text": "Hold at least 2 advocates at game end."},
    "Q-relics": {"tie": None, "kind": "relics", "min": 2, "vp": 1,
                 "text": "Hold at least 2 relics at game end."},
}

#: I3.4 / I3.5 quests and honors dealt face up/down, by number of players.
QUESTS_IN_PLAY: Final[dict[int, int]] = {2: 4, 3: 5, 4: 5}
HONORS_IN_PLAY: Final[dict[int, int]] = {2: 4, 3: 5, 4: 5}

#: I3.8 starting hand size; I3.8.2 the optional "guaranteed one" adds one value-1 card.
HAND_SIZE: Final[int] = 10

#: I12.3 tome majority prizes; I8.5 Lynx bonus; I12.4 relic values (Bear doubles).
TOME_FIRST: Final[int] = 3
TOME_SECOND: Final[int] = 1
LYNX_TOME_BONUS: Final[int] = 2
RELIC_VALUE: Final[int] = 1
BEAR_RELIC_VALUE: Final[int] = 2

#: Parts of this module that are provisional, for the app's rules page.
PROVISIONAL: Final[dict[str, str]] = {
    "VALUE_COPIES": "Split of the 14 influence cards per colour over values 1-4 (I1.2, AMB-01).",
    "COLOUR_NAMES": "Display names Blue and Yellow (I1.1, AMB-02).",
    "BASIC_ADVOCATES": "6 per type, 2 per type marked for 3-4 players (I1.5, AMB-03).",
    "QUESTS": "All seven quests are invented placeholders (I10.4, AMB-12).",
    "CLANS": "Colours of the beginner clans (I8.6, AMB-32).",
}
