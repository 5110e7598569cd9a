"""The public game record ``inheritors.record/1`` (docs/records-inheritors.md) and its replay."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..base import RulesError
from .setup import state_from_setup
from .state import InheritorsState, JSONDict, _deep
from .types import InheritorsEvent

ApplyFn = Callable[[InheritorsState, int, Mapping[str, Any]], tuple[InheritorsState, list[InheritorsEvent]]]


def make_record(state: InheritorsState, fmt: str) -> JSONDict:
    """The full record; complete (with result) once the game is over."""
    return {
        "format": fmt,
        "game": "inheritors",
        "seats": state.seats,
        "options": _deep(state.options),
        "setup": _deep(state.setup),
        "moves": _deep(state.moves),
        "result": _deep(state.result),
    }


def replay_record(record: Mapping[str, Any], apply: ApplyFn) -> InheritorsState:
    """Rebuild the state from a record's setup and moves; checks the stored result if present."""
    if record.get("format") != "inheritors.record/1":
        raise RulesError(f"not an inheritors.record/1 record: format {record.get('format')!r}")
    state = state_from_setup(record["setup"])
    for entry in record["moves"]:
        state, _ = apply(state, int(entry["seat"]), entry["move"])
    expected = record.get("result")
    if expected is not None and state.result != expected:
        raise RulesError("replaying the record gives a different result than the one stored")
    return state
