"""Every level returns a legal move, deterministically, for every kind (issue 5)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.ai import LEVELS, choose_move, inheritors_king
from games.ai.match import get_engine
from games.rules.registry import get_rules
from tests.ai.helpers import random_state

CLAIM_KINDS = ("claim", "claim2", "claim-mix")
TINY = 0.003  # King budget (seconds) for the property tests


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=hs.sampled_from(CLAIM_KINDS), seed=hs.integers(0, 10**6), steps=hs.integers(0, 60),
       level=hs.sampled_from(sorted(LEVELS)))
def test_claim_moves_are_legal(kind, seed, steps, level):
    rules = get_rules(kind)
    st = random_state(kind, seed, steps)
    seat = next(iter(rules.to_act(st)))
    legal = rules.legal_moves(st, seat)
    move = choose_move(kind, level, rules.view(st, seat), legal, seed, budget=TINY)
    assert move in legal
    rules.apply(st, seat, move)  # the engine accepts it


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=hs.integers(2, 4), seed=hs.integers(0, 10**6), steps=hs.integers(0, 120),
       level=hs.sampled_from(sorted(LEVELS)))
def test_inheritors_moves_are_legal(seats, seed, steps, level):
    rules = get_engine("inheritors")
    st = rules.setup(None, seats, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        acting = sorted(rules.to_act(st))
        if not acting:
            break
        s = rng.choice(acting)
        st, _ = rules.apply(st, s, rng.choice(rules.legal_moves(st, s)))
    for s in sorted(rules.to_act(st)):  # several seats may act at once (Saboteur)
        legal = rules.legal_moves(st, s)
        if legal:
            move = choose_move("inheritors", level, rules.view(st, s), legal, seed, budget=TINY)
            assert move in legal
            rules.apply(st, s, move)


@pytest.mark.parametrize("kind", CLAIM_KINDS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_inputs_same_move(kind, level):
    rules = get_rules(kind)
    for seed in range(6):
        st = random_state(kind, seed, 7 + 5 * seed)
        seat = next(iter(rules.to_act(st)))
        view, legal = rules.view(st, seat), rules.legal_moves(st, seat)
        moves = {str(choose_move(kind, level, view, legal, 1234, budget=0.01)) for _ in range(3)}
        assert len(moves) == 1


def test_unknown_level_and_empty_legal_raise():
    rules = get_rules("claim")
    st = rules.setup(None, 2, 1)
    seat = next(iter(rules.to_act(st)))
    view, legal = rules.view(st, seat), rules.legal_moves(st, seat)
    with pytest.raises(ValueError):
        choose_move("claim", 4, view, legal, 1)
    with pytest.raises(ValueError):
        choose_move("claim", 0, view, legal, 1)
    with pytest.raises(ValueError):
        choose_move("claim", 2, view, [], 1)
    with pytest.raises(ValueError):
        choose_move("inheritors", 9, view, legal, 1)


def test_ai_package_has_no_django_imports():
    root = Path(__file__).resolve().parents[2] / "games" / "ai"
    for path in root.rglob("*.py"):
        text = path.read_text()
        for bad in ("import django", "from django", "celery", "channels"):
            assert bad not in text, f"{path} mentions {bad}"


def test_inheritors_level3_is_the_king():
    rules = get_engine("inheritors")
    for seed in range(5):
        st = rules.setup(None, 2 + seed % 3, seed)
        rng = random.Random(seed)
        for _ in range(10 + 7 * seed):
            acting = sorted(rules.to_act(st))
            s = rng.choice(acting)
            st, _ = rules.apply(st, s, rng.choice(rules.legal_moves(st, s)))
        s = min(rules.to_act(st))
        view, legal = rules.view(st, s), rules.legal_moves(st, s)
        move = choose_move("inheritors", 3, view, legal, seed, budget=0.02)
        assert move == inheritors_king.choose(view, legal, seed, 0.02)


def test_king_budget_is_not_read_from_the_clock(monkeypatch):
    """Determinism under load: the King's work depends on the budget argument, not on time."""
    rules = get_rules("claim2")
    st = random_state("claim2", 3, 9)
    seat = next(iter(rules.to_act(st)))
    view, legal = rules.view(st, seat), rules.legal_moves(st, seat)
    a = choose_move("claim2", 3, view, legal, 5, budget=0.02)
    calls = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(calls)) * 100)
    monkeypatch.setattr(time, "time", lambda: float(next(calls)) * 100)
    assert choose_move("claim2", 3, view, legal, 5, budget=0.02) == a
