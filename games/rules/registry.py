"""The registered game kinds: ``GAMES[kind]`` is the engine (a :class:`~games.rules.base.Rules`).

:data:`AnyRules` is the type of every registered engine: its moves, views, events and results are the
unions :data:`Move`, :data:`View`, :data:`Event` and :data:`Result` of the engines' own
(:mod:`games.rules.claim.types`, :mod:`games.rules.inheritors.types`); its state is opaque (``Any``:
each engine's own type, only ever handed back to the same engine).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from games.rules.base import Rules
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.types import ClaimEvent, ClaimMove, ClaimResult, ClaimView
from games.rules.errors import RulesError
from games.rules.inheritors import RULES as INHERITORS
from games.rules.inheritors.types import InheritorsEvent, InheritorsMove, InheritorsResult, InheritorsView

Move: TypeAlias = ClaimMove | InheritorsMove
View: TypeAlias = ClaimView | InheritorsView
Event: TypeAlias = ClaimEvent | InheritorsEvent
Result: TypeAlias = ClaimResult | InheritorsResult
AnyRules: TypeAlias = Rules[Any, Move, View, Event, Result]


class UnknownGame(RulesError, KeyError):
    """No engine is registered under that kind."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


GAMES: Mapping[str, AnyRules] = {
    CLAIM.kind: CLAIM,
    CLAIM2.kind: CLAIM2,
    CLAIM_MIX.kind: CLAIM_MIX,
    INHERITORS.info.kind: INHERITORS,
}
#: The kinds, sorted (the API's choice of ``kind``: GameKindEnum in the OpenAPI schema).
KINDS: list[str] = sorted(GAMES)


def get_rules(kind: str) -> AnyRules:
    """The engine for ``kind``; raises :class:`UnknownGame` (a RulesError and a KeyError)."""
    try:
        return GAMES[kind]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game kind {kind!r} (known: {known})") from None


def from_record(record: Mapping[str, Any]) -> Any:
    """The final state of a game record (its ``"game"`` names the engine); moves are validated."""
    return get_rules(str(record.get("game"))).from_record(record)


def replay_record(record: Mapping[str, Any]) -> Result | None:
    """Replay a record and return the recomputed result (compare with ``record["result"]``)."""
    rules = get_rules(str(record.get("game")))
    return rules.result(rules.from_record(record))
