"""The JSON shapes the service adds to the engines' own (:mod:`games.rules.registry`), as ``TypedDict`` s.

A history entry's ``events`` (``GET /games/{id}/history``, ``last_events`` of a game view) are the engine's
events of a move, or one of the service's below for every other change (created, joined, resigned, aborted,
clock changes). A game cut short by a resignation or a timeout has no engine result: its ``result`` is an
:class:`EndedResult` (and so is an aborted game's in its record). The OpenAPI components are built from these
(:mod:`games.api.typed_schema`); tests/service/test_schema_matches_answers.py checks real answers against them.
"""

# No ``from __future__ import annotations``: the schema builder reads ``NotRequired`` from evaluated annotations.
from typing import Literal, NotRequired, TypeAlias, TypedDict

from games.rules.registry import Event as EngineEvent
from games.rules.registry import Result as EngineResult

# ---------------------------------------------------------------------------------------------- results


class EndedResult(TypedDict):
    """The result of a game that play did not end: a resignation (``resigned``: the seat), a timeout
    (``timeout``: the seat, or both seats of a two-seat game whose clocks both ran out), an adjudication (a
    tournament game past the tournament's maximum duration: ``ranks`` decide, all 1 for a draw) or, in a
    record, an abort (no winner)."""

    winner: int | None
    winners: list[int]
    reason: Literal["resigned", "timeout", "aborted", "adjudicated"]
    ranks: NotRequired[list[int]]  # per seat, 1 = best
    resigned: NotRequired[int]
    timeout: NotRequired[int | list[int]]


GameResult: TypeAlias = EngineResult | EndedResult

# ---------------------------------------------------------------------------------------------- events


class CreatedEvent(TypedDict):
    """The game was created by ``seat``; a rematch names the game it is the rematch of."""

    type: Literal["created"]
    seat: int
    rematch_of: NotRequired[int]


class SeatChangeEvent(TypedDict):
    """A seat joined, resigned, offered or called off the abort, asked for or made a pause."""

    type: Literal["joined", "resigned", "abort_offered", "aborted", "paused", "pause_asked"]
    seat: int


class AbortedEvent(TypedDict):
    """Every human seat offered the abort: the game is aborted (after the last ``abort_offered``)."""

    type: Literal["aborted"]


class AIFilledEvent(TypedDict):
    """The creator gave an empty seat to the AI at ``ai_level``."""

    type: Literal["ai_filled"]
    seat: int
    ai_level: int


class StartedEvent(TypedDict):
    """The last seat was filled: the engine dealt; ``to_act`` are the seats to act first."""

    type: Literal["started"]
    to_act: list[int]


class ResumedEvent(TypedDict):
    """A paused clock runs again: both players agreed, or (``by: "move"``) a move ended the pause."""

    type: Literal["resumed"]
    seat: int
    by: NotRequired[Literal["move"]]


class TimeoutEvent(TypedDict):
    """A seat ran out of time: with two seats it loses (a ``game_over`` follows); with three or four the AI
    takes the seat over at ``level`` (``replaced_by: "ai"``) and play goes on."""

    type: Literal["timeout"]
    seat: int
    replaced_by: NotRequired[Literal["ai"]]
    level: NotRequired[int]


class VacationPeriod(TypedDict):
    start: str  # ISO 8601
    end: str


class VacationEvent(TypedDict):
    """The seat's player's vacation now covers (or no longer covers: null) the seat's deadline."""

    type: Literal["vacation"]
    seat: int
    vacation: VacationPeriod | None


class TimeGivenEvent(TypedDict):
    """Seat ``by`` gave ``seconds`` more to the seats ``to`` (whose clocks were running)."""

    type: Literal["time_given"]
    by: int
    to: list[int]
    seconds: int


class EndedEvent(TypedDict):
    """The game ended by a resignation, a timeout or an adjudication (an ended game's engine ``game_over`` is the
    engine's)."""

    type: Literal["game_over"]
    result: EndedResult


ServiceEvent: TypeAlias = (CreatedEvent | SeatChangeEvent | AbortedEvent | AIFilledEvent | StartedEvent | ResumedEvent
                           | TimeoutEvent | VacationEvent | TimeGivenEvent | EndedEvent)
#: One event of a history entry: the engine's (a move) or the service's (every other change).
HistoryEvent: TypeAlias = EngineEvent | ServiceEvent
