"""The move shapes of Inheritors (see :mod:`.engine` and :mod:`.pending` for what each move means; checked
before the engine: :mod:`games.rules.moveshape`)."""

from __future__ import annotations

from games.rules.moveshape import Int, ListOf, Shape, Text, TrueFlag

from .actions import PILES
from .advocates import BASIC_TYPES

CARD = Text(label="card")
PILE = Int(min(PILES), max(PILES), label="pile 0-2")
SEAT = Int(0, 3, label="seat")

MOVE_SHAPES: tuple[Shape, ...] = (
    # I4.2 claims in a window
    Shape({"claim_clan": Text(label="clan")}),
    Shape({"claim_honor": Text(label="honor")}, {"cards": ListOf(CARD, 3)}),
    # I5 actions
    Shape({"action": Text(("play", "advocate")), "card": CARD}),
    Shape({"action": Text(("discard_draw", "quest")), "card": CARD, "pile": PILE}),
    Shape({"action": Text(("discard_take",)), "card": CARD, "pile": PILE, "take": PILE}),
    Shape({"action": Text(("quest",)), "cards": ListOf(CARD, 3), "piles": ListOf(PILE, 3)}),
    Shape({"pass": TrueFlag()}),
    Shape({"end_turn": TrueFlag()}),
    # pending decisions (games.rules.inheritors.pending)
    Shape({"play": CARD}),
    Shape({"skip": TrueFlag()}),
    Shape({"discard": CARD, "pile": PILE}),
    Shape({"skip_play": CARD}),
    Shape({"ask": SEAT, "colour": Text(label="colour")}),
    Shape({"take_card": CARD}),
    Shape({"take_pile": PILE}),
    Shape({"agent_effect": Text(BASIC_TYPES)}),
    Shape({"put_back": CARD}),
)
