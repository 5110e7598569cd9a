"""Fixtures for the review tests (issue 37): the game service's API clients (tests/service/conftest.py), tasks
inline, a small review budget (the budget is a module constant of games.ai.review), finished games."""

from __future__ import annotations

import random

import pytest

from games.ai import review as ai_review
from games.ai.inheritors_king import search as inheritors_search
from games.models import Game
from games.rules.registry import get_rules
from tests.service.conftest import Api, make_api  # noqa: F401 — fixtures used here

SCOPES = ["games:read", "games:play"]


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Tasks inline (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def _small_budget(monkeypatch):
    """A few playouts per decision: the tests check the plumbing and the exact endgames, not the estimates."""
    monkeypatch.setattr(ai_review, "PLAYOUTS", 24)
    monkeypatch.setattr(ai_review, "MIN_ITERATIONS", 2)
    monkeypatch.setattr(ai_review, "INHERITORS_PLAYOUTS", 4)
    monkeypatch.setattr(ai_review, "INHERITORS_MIN_ITERATIONS", 1)
    monkeypatch.setattr(inheritors_search, "MAX_PLAYOUT_MOVES", 12)  # short playouts, scored on the totals then


@pytest.fixture(autouse=True)
def _generous(rates):
    rates(review="1000/min")


def force_value(rules, st, seat: int) -> float:
    """Best final result for ``seat`` with perfect play by both (brute force on the true state; test only)."""
    if rules.is_over(st):
        w = rules.result(st)["winner"]
        return 0.5 if w is None else float(w == seat)
    s = next(iter(rules.to_act(st)))
    vals = [force_value(rules, rules.apply(st, s, m)[0], seat) for m in rules.legal_moves(st, s)]
    return max(vals) if s == seat else min(vals)


class Blunderer:
    """Picks moves for a 2-seat Claim game from its stored state: seeded random moves, except once, late in
    phase 2 (at most 3 cards in each hand), a seat that can force a win plays a move that then loses against best
    play (a trick it would surely have won, thrown away). ``thrown``: (version before the move, seat, move)."""

    def __init__(self, game_id: int, seed: int = 1) -> None:
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.thrown: tuple[int, int, dict] | None = None

    def __call__(self, legal: list[dict]) -> dict:
        game = Game.objects.get(pk=self.game_id)
        rules = get_rules(game.kind)
        st = rules.from_json(game.state)
        seat = next(iter(rules.to_act(st)))
        if self.thrown is None and st.phase == 2 and max(len(h) for h in st.hands) <= 3 and len(legal) > 1:
            values = [force_value(rules, rules.apply(st, seat, m)[0], seat) for m in legal]
            if max(values) == 1.0 and min(values) == 0.0:
                move = legal[values.index(0.0)]
                self.thrown = (game.version, seat, move)
                return move
        return self.rng.choice(legal)


def start_game(a: Api, b: Api, *, seed: int, watchable: bool = False, kind: str = "claim") -> int:
    game = a.create(kind=kind, opponents=[{"type": "user", "username": b.user.username}], watchable=watchable)
    Game.objects.filter(pk=game["id"]).update(seed=seed)  # the deal happens when the last seat joins
    r = b.post(f"/api/v1/games/{game['id']}/join", {})
    assert r.status_code == 201, r.content
    return game["id"]
