"""The registered game kinds: ``GAMES[kind]`` is the engine (a :class:`~games.rules.base.Rules`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.rules.base import JSON, Rules, RulesError, State
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.inheritors import RULES as INHERITORS


class UnknownGame(RulesError, KeyError):
    """No engine is registered under that kind."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


GAMES: dict[str, Rules] = {
    CLAIM.kind: CLAIM,
    CLAIM2.kind: CLAIM2,
    CLAIM_MIX.kind: CLAIM_MIX,
    INHERITORS.info.kind: INHERITORS,
}


def get_rules(kind: str) -> Rules:
    """The engine for ``kind``; raises :class:`UnknownGame` (a RulesError and a KeyError)."""
    try:
        return GAMES[kind]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game kind {kind!r} (known: {known})") from None


def from_record(record: Mapping[str, Any]) -> State:
    """The final state of a game record (its ``"game"`` names the engine); moves are validated."""
    rules = get_rules(str(record.get("game")))
    loader = getattr(rules, "from_record", None)
    if loader is None:  # pragma: no cover - every registered engine has one so far
        raise RulesError(f"{rules.info.kind} cannot replay records")
    state: State = loader(record)
    return state


def replay_record(record: Mapping[str, Any]) -> JSON | None:
    """Replay a record and return the recomputed result (compare with ``record["result"]``)."""
    rules = get_rules(str(record.get("game")))
    return rules.result(from_record(record))
