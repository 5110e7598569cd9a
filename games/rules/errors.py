"""The errors every engine raises on bad input (re-exported by :mod:`games.rules.base`).

A module of its own so that :mod:`games.rules.moveshape` (which :mod:`games.rules.base` uses) can raise them.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error an engine raises on bad input; the message is for people."""


class IllegalMove(RulesError):
    """The move is not allowed now; ``str(exc)`` explains why in a player's words."""


class NotYourTurn(IllegalMove):
    """The seat is not among the seats that must act now."""


class InvalidOptions(RulesError):
    """Game options (factions, number of seats, ...) are not valid; the message names the problem."""
