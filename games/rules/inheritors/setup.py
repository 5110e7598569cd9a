"""Setup (I3): options, the random deal, and building a state from a setup description.

All randomness of a game happens here, from the seed. The result is a *setup description*
(JSON: deck order, hands, rows, start player ...) from which :func:`state_from_setup` builds the
initial state deterministically; the record stores this description, so a replay needs no RNG.
Later "random" choices are fixed by the setup too: the quest row is shuffled here and A4 always
takes the first remaining quest (I5.4.3).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..base import InvalidOptions
from . import cards as C
from . import data
from .state import PRE, InheritorsState, JSONDict
from .types import InheritorsEvent

DEFAULT_OPTIONS: dict[str, Any] = {"clans": "beginner", "guaranteed_one": False}


def normalize_options(options: Mapping[str, Any] | None, seats: int) -> JSONDict:
    """Validate options; fill in defaults. I3.1 2-4 seats; I3.6/I8.7 clan mode; I3.8.2 variant."""
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 4:
        raise InvalidOptions(f"Inheritors is played by 2 to 4 players, not {seats}.")
    opts = dict(DEFAULT_OPTIONS)
    if options is not None and not isinstance(options, Mapping):
        raise InvalidOptions("options must be a JSON object, e.g. {\"clans\": \"random\"}")
    for key, value in dict(options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise InvalidOptions(f"unknown option {key!r} (known: clans, guaranteed_one)")
        opts[key] = value
    if not isinstance(opts["clans"], str) or opts["clans"] not in data.CLAN_MODES:
        modes = ", ".join(sorted(data.CLAN_MODES))
        raise InvalidOptions(f"clan mode {opts['clans']!r} is not available (available: {modes})")
    if not isinstance(opts["guaranteed_one"], bool):
        raise InvalidOptions("option guaranteed_one must be true or false")
    return opts


def make_setup(options: Mapping[str, Any] | None, seats: int, seed: int) -> JSONDict:
    """Draw a random setup description (I3.2-I3.10) from ``seed``."""
    opts = normalize_options(options, seats)
    rng = random.Random(seed)
    # I3.2 active colours: 2 players remove one colour at random.
    removed_colour: str | None = None
    colours = list(data.COLOURS)
    if seats == 2:
        removed_colour = rng.choice(colours)
        colours.remove(removed_colour)
    active = set(colours)
    box: list[str] = []
    pool: list[str] = []
    for cid, c in C.CARDS.items():
        if c.kind in (C.INFLUENCE, C.RELIC):
            (pool if c.colour in active else box).append(cid)
        elif c.kind == C.TOME:
            pool.append(cid)
        elif c.kind == C.BASIC_ADVOCATE:
            # I3.3 keep only copies with min_players <= players.
            (pool if c.min_players <= seats else box).append(cid)
    # I3.4 quests: drop quests tied to a removed colour, choose 5 (2p: 4) at random.
    available_quests = [q for q, d in data.QUESTS.items() if d["tie"] is None or d["tie"] in active]
    rng.shuffle(available_quests)
    n_quests = data.QUESTS_IN_PLAY[seats]
    quest_row, box_quests = available_quests[:n_quests], available_quests[n_quests:]
    # I3.5 honors.
    honors = list(data.HONORS)
    rng.shuffle(honors)
    n_honors = data.HONORS_IN_PLAY[seats]
    honor_row = sorted(honors[:n_honors], key=lambda h: int(h[1:]))
    box_honors = sorted(honors[n_honors:], key=lambda h: int(h[1:]))
    # I3.6 clans: beginner mode, one per active colour, with attachments (I8.4).
    clan_row: list[str] = []
    box_clans: list[str] = []
    clan_attached: dict[str, list[str]] = {}
    attached_anywhere: set[str] = set()
    for clan_id in data.CLAN_MODES[opts["clans"]]:
        clan = data.CLANS[clan_id]
        attached_anywhere.update(clan["attached"])
        if clan["colour"] in active:
            clan_row.append(clan_id)
            clan_attached[clan_id] = list(clan["attached"])
        else:
            box_clans.append(clan_id)
            box.extend(clan["attached"])
    # Special advocates and epics not attached to a placed clan go to the box (I8.7).
    for cid, c in C.CARDS.items():
        if (c.kind in (C.SPECIAL_ADVOCATE, C.EPIC)) and cid not in attached_anywhere:
            box.append(cid)
    # I3.7 / I3.8 deck and hands.
    hands: list[list[str]] = [[] for _ in range(seats)]
    if opts["guaranteed_one"]:
        # I3.8.2: one value-1 card of each active colour set aside, one dealt to each player.
        ones = [f"{colour}-1a" for colour in colours]
        for cid in ones:
            pool.remove(cid)
        rng.shuffle(ones)
        for seat in range(seats):
            hands[seat].append(ones[seat])
        pool.extend(ones[seats:])
    pool.sort()
    rng.shuffle(pool)
    for seat in range(seats):
        hands[seat].extend(pool[: data.HAND_SIZE])
        del pool[: data.HAND_SIZE]
    start_player = rng.randrange(seats)  # I3.10
    return {
        "seats": seats,
        "options": opts,
        "seed": seed,
        "colours": colours,
        "removed_colour": removed_colour,
        "quest_row": quest_row,
        "box_quests": box_quests,
        "honor_row": honor_row,
        "box_honors": box_honors,
        "clan_row": clan_row,
        "box_clans": box_clans,
        "clan_attached": clan_attached,
        "box": sorted(box),
        "hands": hands,
        "deck": pool,  # top first, after dealing, before the market (I3.9)
        "start_player": start_player,
    }


def state_from_setup(setup: Mapping[str, Any]) -> InheritorsState:
    """Build the initial state from a setup description (deterministic)."""
    seats = int(setup["seats"])
    state = InheritorsState(
        seats=seats,
        options=dict(setup["options"]),
        colours=list(setup["colours"]),
        removed_colour=setup["removed_colour"],
        deck=list(setup["deck"]),
        hands=[list(h) for h in setup["hands"]],
        stacks=[{} for _ in range(seats)],
        market=[[], [], []],
        removed=[],
        box=list(setup["box"]),
        quest_row=list(setup["quest_row"]),
        quests=[[] for _ in range(seats)],
        honor_row=list(setup["honor_row"]),
        honors=[[] for _ in range(seats)],
        clan_row=list(setup["clan_row"]),
        clan_attached={k: list(v) for k, v in setup["clan_attached"].items()},
        clans=[None] * seats,
        start_player=int(setup["start_player"]),
        current=int(setup["start_player"]),
        phase=PRE,
        seed=setup.get("seed"),
    )
    events: list[InheritorsEvent] = []
    for pile in range(3):  # I3.9 initial market through the refill procedure I6.5 (AMB-08)
        state.refill(pile, events)
    full = dict(setup)
    full["market"] = [list(p) for p in state.market]
    full["removed"] = list(state.removed)
    state.setup = full
    state.log = [{"type": "setup", "start_player": state.start_player, "market": full["market"],
                  "removed": full["removed"]}]
    return state
