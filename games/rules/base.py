"""The interface every game engine offers (see ../shared/DESIGN.md, "Rules are pure").

A game is fully described by ``(kind, options, seats, seed, moves)``. Everything else (the
state) is a cache that can be rebuilt by replaying the moves.

Conventions shared by all engines:

* Seats are integers ``0 .. seats-1`` in clockwise order.
* A *move* is a small JSON-compatible dict, e.g. ``{"play": "knight-7"}`` or ``{"seer": "top"}``.
  ``legal_moves`` returns moves in exactly the shape ``apply`` accepts.
* ``apply`` never mutates its input state; it returns a new state and a list of *public events*
  (JSON dicts). Events never contain information hidden from any seat: a seat's private
  knowledge is only ever exposed through ``view(state, seat)``.
* Illegal input raises :class:`IllegalMove` whose message is written for a player
  ("you must follow Knights: you hold Knight 5"). Bad options raise :class:`InvalidOptions`.
* ``view(state, seat)`` returns exactly what that seat may know; ``seat=None`` is a spectator.
  After the game has ended the view may reveal everything.
* ``to_json``/``from_json`` round-trip the state losslessly (``from_json(to_json(s))`` behaves
  identically to ``s``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

JSON = dict[str, Any]
Move = dict[str, Any]
Event = dict[str, Any]


class RulesError(ValueError):
    """Base class of every error an engine raises on bad input; the message is for people."""


class IllegalMove(RulesError):
    """The move is not allowed now; ``str(exc)`` explains why in a player's words."""


class NotYourTurn(IllegalMove):
    """The seat is not among the seats that must act now."""


class InvalidOptions(RulesError):
    """Game options (factions, number of seats, ...) are not valid; the message names the problem."""


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself, as data (compare OpenSpiel's GameType)."""

    kind: str  # registry key, e.g. "claim"
    title: str  # display name, e.g. "Claim"
    min_seats: int
    max_seats: int
    record_format: str  # e.g. "claim.record/1"


@runtime_checkable
class State(Protocol):
    """An engine's state object. Opaque to callers; engines may use any (ideally immutable) type."""


@runtime_checkable
class Rules(Protocol):
    """A game engine. Module-level singletons registered in :mod:`games.rules.registry`."""

    info: GameInfo
    #: every shape a move may take (:mod:`games.rules.moveshape`); a move of no such shape is refused before
    #: ``apply`` sees it.
    move_shapes: Sequence[Any]

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSON:
        """Validate options for this number of seats and return them with defaults filled in.

        Raises :class:`InvalidOptions` naming the problem.
        """

    def setup(self, options: Mapping[str, Any] | None, seats: int, seed: int) -> State:
        """A new game; all randomness comes from ``seed`` (deal, first leader, later chance)."""

    def to_act(self, state: State) -> frozenset[int]:
        """The seats that must act now (empty once the game is over)."""

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now (empty when the seat need not act)."""

    def apply(self, state: State, seat: int, move: Mapping[str, Any]) -> tuple[State, list[Event]]:
        """Apply ``move`` by ``seat``; returns the new state and public events.

        Raises :class:`NotYourTurn` or :class:`IllegalMove`.
        """

    def view(self, state: State, seat: int | None) -> JSON:
        """Everything ``seat`` may know now (``None``: a spectator). JSON-compatible."""

    def is_over(self, state: State) -> bool:
        """True once the game has ended."""

    def result(self, state: State) -> JSON | None:
        """The result with its scoring breakdown, or ``None`` while the game runs.

        Always contains ``"winner"``: a seat, ``None`` for a draw; games with teams or shared wins
        also give ``"winners"`` (list of seats) and ``"ranks"`` (per seat, 1 = best).
        """

    def record(self, state: State) -> JSON:
        """The public record (e.g. ``claim.record/1``) of a finished game."""

    def to_json(self, state: State) -> JSON:
        """Serialise the full (secret) state."""

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Inverse of :meth:`to_json`."""


def replay(rules: Rules, options: Mapping[str, Any] | None, seats: int, seed: int,
           moves: Sequence[tuple[int, Mapping[str, Any]]]) -> State:
    """Rebuild a state from its move log (the move log is the truth)."""
    state = rules.setup(options, seats, seed)
    for seat, move in moves:
        state, _ = rules.apply(state, seat, move)
    return state
