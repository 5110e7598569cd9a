"""The interface every game engine offers (see ../shared/DESIGN.md, "Rules are pure").

A game is fully described by ``(kind, options, seats, seed, moves)``. Everything else (the
state) is a cache that can be rebuilt by replaying the moves.

Conventions shared by all engines:

* Seats are integers ``0 .. seats-1`` in clockwise order.
* A *move* is a small JSON object, e.g. ``{"play": "knight-7"}`` or ``{"seer": "top"}``.
  ``legal_moves`` returns moves in exactly the shape ``apply`` accepts.
* ``apply`` never mutates its input state; it returns a new state and a list of *public events*
  (JSON objects). Events never contain information hidden from any seat: a seat's private
  knowledge is only ever exposed through ``view(state, seat)``.
* Moves, views, events and results are typed: each engine declares them as ``TypedDict`` s that are
  exactly the JSON's shape (:mod:`games.rules.claim.types`, :mod:`games.rules.inheritors.types`) and
  is a ``Rules[State, Move, View, Event, Result]`` of them; :mod:`games.rules.registry` gives the
  registered engines as one type (``AnyRules``) whose moves, views, events and results are the unions.
* Illegal input raises :class:`IllegalMove` whose message is written for a player
  ("you must follow Knights: you hold Knight 5"). Bad options raise :class:`InvalidOptions`.
* ``view(state, seat)`` returns exactly what that seat may know; ``seat=None`` is a spectator, and
  ``spectator_view(state)`` is that view (public information only). After the game has ended the view
  may reveal everything.
* ``to_json``/``from_json`` round-trip the state losslessly (``from_json(to_json(s))`` behaves
  identically to ``s``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from games.rules.errors import IllegalMove, InvalidOptions, NotYourTurn, RulesError
from games.rules.moveshape import Shape

__all__ = [
    "JSON", "GameInfo", "IllegalMove", "InvalidOptions", "NotYourTurn", "Rules", "RulesError", "replay",
]

#: A JSON object of no declared shape: options, records and the stored (secret) state.
JSON = dict[str, Any]

StateT = TypeVar("StateT")
# Only returned by an engine (never taken), so an engine of narrower moves, views, ... is also a
# ``Rules`` of wider ones: the registry's ``AnyRules`` has the unions of every engine's.
MoveT = TypeVar("MoveT", bound=Mapping[str, object], covariant=True)
ViewT = TypeVar("ViewT", bound=Mapping[str, object], covariant=True)
EventT = TypeVar("EventT", bound=Mapping[str, object], covariant=True)
ResultT = TypeVar("ResultT", bound=Mapping[str, object], covariant=True)


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself, as data (compare OpenSpiel's GameType)."""

    kind: str  # registry key, e.g. "claim"
    title: str  # display name, e.g. "Claim"
    min_seats: int
    max_seats: int
    record_format: str  # e.g. "claim.record/1"


@runtime_checkable
class Rules(Protocol[StateT, MoveT, ViewT, EventT, ResultT]):
    """A game engine of states ``StateT`` with moves, views, events and results of those types.

    Module-level singletons registered in :mod:`games.rules.registry`. ``apply`` takes any JSON object (a
    client's move, checked against :attr:`move_shapes` first) and so also every move ``legal_moves`` gives.
    """

    @property
    def info(self) -> GameInfo:
        """The kind, title, seat range and record format."""

    @property
    def move_shapes(self) -> Sequence[Shape]:
        """Every shape a move may take (:mod:`games.rules.moveshape`); a move of no such shape is refused
        before ``apply`` sees it."""

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSON:
        """Validate options for this number of seats and return them with defaults filled in.

        Raises :class:`InvalidOptions` naming the problem.
        """

    def setup(self, options: Mapping[str, Any] | None, seats: int, seed: int) -> StateT:
        """A new game; all randomness comes from ``seed`` (deal, first leader, later chance)."""

    def to_act(self, state: StateT) -> frozenset[int]:
        """The seats that must act now (empty once the game is over)."""

    def legal_moves(self, state: StateT, seat: int) -> Sequence[MoveT]:
        """Every legal move of ``seat`` now (empty when the seat need not act)."""

    def apply(self, state: StateT, seat: int, move: Mapping[str, Any]) -> tuple[StateT, Sequence[EventT]]:
        """Apply ``move`` by ``seat``; returns the new state and public events.

        Raises :class:`NotYourTurn` or :class:`IllegalMove`.
        """

    def view(self, state: StateT, seat: int | None) -> ViewT:
        """Everything ``seat`` may know now (``None``: a spectator). JSON-compatible."""

    def spectator_view(self, state: StateT) -> ViewT:
        """What someone who is no player may know now: ``view(state, None)``, public information only.

        While the game runs it holds no hand, deck order, seed or private choice of any seat (it is the same
        for two states that differ only in those: tests/rules/test_spectator_view.py); after the end it may
        reveal everything, like every view.
        """

    def is_over(self, state: StateT) -> bool:
        """True once the game has ended."""

    def result(self, state: StateT) -> ResultT | None:
        """The result with its scoring breakdown, or ``None`` while the game runs.

        Always contains ``"winner"``: a seat, ``None`` for a draw; games with teams or shared wins
        also give ``"winners"`` (list of seats) and ``"ranks"`` (per seat, 1 = best).
        """

    def record(self, state: StateT) -> JSON:
        """The public record (e.g. ``claim.record/1``) of a finished game."""

    def from_record(self, record: Mapping[str, Any]) -> StateT:
        """The final state of a record (every move validated); raises :class:`RulesError`."""

    def to_json(self, state: StateT) -> JSON:
        """Serialise the full (secret) state."""

    def from_json(self, data: Mapping[str, Any]) -> StateT:
        """Inverse of :meth:`to_json`."""


def replay(rules: Rules[StateT, Any, Any, Any, Any], options: Mapping[str, Any] | None, seats: int, seed: int,
           moves: Sequence[tuple[int, Mapping[str, Any]]]) -> StateT:
    """Rebuild a state from its move log (the move log is the truth)."""
    state = rules.setup(options, seats, seed)
    for seat, move in moves:
        state, _ = rules.apply(state, seat, move)
    return state
