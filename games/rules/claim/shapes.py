"""The move shapes of Claim, Claim 2 and the mix (checked before the engine: :mod:`games.rules.moveshape`)."""

from __future__ import annotations

from games.rules.moveshape import Int, Shape, Text

CARD = Text(label="card")

MOVE_SHAPES: tuple[Shape, ...] = (
    Shape({"play": CARD}),  # C4-C6: play a card, e.g. {"play": "knight-7"}
    Shape({"seer": Text(("prize", "top"))}),  # the Seer's choice after winning a trick
    Shape({"smash": Int(0, 3, label="seat")}),  # M6.5 (3-4 players): whose Gnome the Giant smashes
)
