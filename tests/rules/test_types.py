"""The engines' JSON has exactly the declared shapes (games/rules/claim/types.py, games/rules/inheritors/types.py).

mypy checks the dicts the engines write out literally; this checks what they build at run time too (trick
summaries, deep copies, stored results): every legal move, event, view (each seat and a spectator) and result
of random games of every kind and seat count is an instance of its ``TypedDict``: every required key, no
unknown key, each value of its declared type.
"""

from __future__ import annotations

import functools
import random
import types
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from games.rules.cards import FACTION_NAMES
from games.rules.claim import CLAIM, CLAIM2, CLAIM_MIX
from games.rules.claim.options import random_mix
from games.rules.claim.types import ClaimEvent, ClaimMove, ClaimResult, ClaimView
from games.rules.inheritors import RULES as INHERITORS
from games.rules.inheritors.types import InheritorsEvent, InheritorsMove, InheritorsResult, InheritorsView
from games.rules.registry import GAMES, Event, Move, Result, View


@functools.cache
def _hints(tp: Any) -> dict[str, Any]:
    return get_type_hints(tp)


def problem(value: Any, tp: Any, path: str = "$") -> str | None:
    """Why ``value`` is not of type ``tp`` (``None`` when it is); ``tp`` is a JSON type of the types modules."""
    if tp is Any:
        return None
    origin = get_origin(tp)
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return f"{path}: {type(value).__name__}, not a {tp.__name__} object"
        hints = _hints(tp)
        missing = sorted(tp.__required_keys__ - set(value))
        unknown = sorted(set(value) - set(hints))
        if missing or unknown:
            return f"{path}: {tp.__name__} missing {missing}, unknown {unknown}"
        for key, item in value.items():
            found = problem(item, hints[key], f"{path}.{key}")
            if found:
                return found
        return None
    if origin in (Union, types.UnionType):
        found = [problem(value, arg, path) for arg in get_args(tp)]
        if all(found):
            # the deepest: the alternative that matched furthest
            return max((f for f in found if f), key=lambda f: len(f.split(":")[0]))
        return None
    if origin is Literal:
        ok = any(type(value) is type(arg) and value == arg for arg in get_args(tp))
        return None if ok else f"{path}: {value!r} is not one of {get_args(tp)}"
    if origin is list:
        if not isinstance(value, list):
            return f"{path}: {type(value).__name__}, not a list"
        (item_type,) = get_args(tp)
        for i, item in enumerate(value):
            found = problem(item, item_type, f"{path}[{i}]")
            if found:
                return found
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{path}: {type(value).__name__}, not an object"
        key_type, value_type = get_args(tp)
        for key, item in value.items():
            found = problem(key, key_type, f"{path} key") or problem(item, value_type, f"{path}.{key}")
            if found:
                return found
        return None
    if tp is type(None):
        return None if value is None else f"{path}: {value!r} is not null"
    if tp in (int, str, bool):
        return None if type(value) is tp else f"{path}: {value!r} is not a {tp.__name__}"
    raise AssertionError(f"{path}: the checker does not know {tp!r}")


def assert_shape(value: Any, tp: Any, what: str) -> None:
    found = problem(value, tp)
    assert found is None, f"{what}: {found}"


CASES = [
    (CLAIM, 2, ClaimMove, ClaimView, ClaimEvent, ClaimResult),
    (CLAIM2, 2, ClaimMove, ClaimView, ClaimEvent, ClaimResult),
    (CLAIM_MIX, 2, ClaimMove, ClaimView, ClaimEvent, ClaimResult),
    (CLAIM_MIX, 3, ClaimMove, ClaimView, ClaimEvent, ClaimResult),
    (CLAIM_MIX, 4, ClaimMove, ClaimView, ClaimEvent, ClaimResult),
    (INHERITORS, 2, InheritorsMove, InheritorsView, InheritorsEvent, InheritorsResult),
    (INHERITORS, 3, InheritorsMove, InheritorsView, InheritorsEvent, InheritorsResult),
    (INHERITORS, 4, InheritorsMove, InheritorsView, InheritorsEvent, InheritorsResult),
]


@pytest.mark.parametrize(("rules", "seats", "move_t", "view_t", "event_t", "result_t"), CASES,
                         ids=[f"{c[0].info.kind}-{c[1]}" for c in CASES])
@pytest.mark.parametrize("seed", [1, 2])
def test_moves_events_views_and_results_have_their_declared_shapes(rules: Any, seats: int, move_t: Any,
                                                                      view_t: Any, event_t: Any, result_t: Any,
                                                                      seed: int) -> None:
    rng = random.Random(seed)
    options: Mapping[str, Any] | None = None
    if rules is CLAIM_MIX:
        options = {"factions": [FACTION_NAMES[f] for f in random_mix(rng, seats)]}
    state = rules.setup(options, seats, seed)
    step = 0
    while not rules.is_over(state):
        seat = min(rules.to_act(state))
        legal = rules.legal_moves(state, seat)
        for move in legal:
            assert_shape(move, move_t, f"step {step}: a legal move")
            assert_shape(move, Move, f"step {step}: a legal move (registry union)")
        for viewer in [*range(seats), None] if step % 25 == 0 else [seat] if step % 3 == 0 else []:
            view = rules.view(state, viewer)
            assert_shape(view, view_t, f"step {step}: the view of {viewer}")
            if step % 25 == 0:
                assert_shape(view, View, f"step {step}: the view of {viewer} (registry union)")
        state, events = rules.apply(state, seat, rng.choice(legal))
        for event in events:
            assert_shape(event, event_t, f"step {step}: an event")
            assert_shape(event, Event, f"step {step}: an event (registry union)")
        step += 1
    result = rules.result(state)
    assert_shape(result, result_t, "the result")
    assert_shape(result, Result, "the result (registry union)")
    for viewer in [*range(seats), None]:
        assert_shape(rules.view(state, viewer), view_t, f"the final view of {viewer}")
    # a state read back from its JSON gives the same shapes
    again = rules.from_json(rules.to_json(state))
    assert_shape(rules.view(again, 0), view_t, "the final view after a JSON round trip")


def test_every_registered_kind_is_covered():
    assert {c[0].info.kind for c in CASES} == set(GAMES)


def test_the_checker_refuses_what_it_should():
    move = {"play": "knight-7"}
    assert problem(move, ClaimMove) is None
    assert problem({"play": 7}, ClaimMove) is not None
    assert problem({"play": "knight-7", "extra": 1}, ClaimMove) is not None
    assert problem({"seer": "maybe"}, ClaimMove) is not None
    assert problem({"pass": 1}, InheritorsMove) is not None  # Literal[True], not 1
    assert problem({"pass": True}, InheritorsMove) is None
