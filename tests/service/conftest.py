"""Fixtures for the game service tests: users with tokens, an API helper that runs on-commit hooks
(AI turns run inline: ``TASK_MODE = "eager"``), and hidden-information checks for Claim states."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from games.models import Game, Move
from games.rules.base import replay
from games.rules.cards import CARD_ID
from games.rules.registry import get_rules

PLAY_SCOPES = ["games:read", "games:play"]


@pytest.fixture(autouse=True)
def _eager_tasks(eager_tasks):
    """AI turns and the other tasks run inline (tests/conftest.py)."""


class Api:
    """An HTTP client for one user. Every request runs its on-commit hooks (publish, AI turns) as a
    real commit would, also inside a test transaction."""

    def __init__(self, user: User, token: str | None, capture: Any) -> None:
        self.user = user
        self.client = APIClient()
        if token:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        self._capture = capture
        self.bodies: list[Any] = []  # every JSON body this client received (for hidden-info spying)

    def _run(self, fn, *args, **kwargs):
        with self._capture(execute=True):
            response = fn(*args, **kwargs)
        with contextlib.suppress(ValueError, TypeError):
            self.bodies.append(response.json())
        return response

    def get(self, path: str, params: dict | None = None):
        return self._run(self.client.get, path, params or {})

    def post(self, path: str, data: Any = None, **kw):
        if "content_type" in kw:
            return self._run(self.client.post, path, data, **kw)
        return self._run(self.client.post, path, data if data is not None else {}, format="json", **kw)

    # conveniences
    def create(self, **body) -> dict:
        r = self.post("/api/v1/games", body)
        assert r.status_code == 201, r.content
        return r.json()

    def view(self, game_id: int) -> dict:
        r = self.get(f"/api/v1/games/{game_id}")
        assert r.status_code == 200, r.content
        return r.json()

    def move(self, game_id: int, version: int, move: dict, client_id: str | None = None):
        body: dict[str, Any] = {"version": version, "move": move}
        if client_id is not None:
            body["client_id"] = client_id
        return self.post(f"/api/v1/games/{game_id}/moves", body)


@pytest.fixture
def make_api(make_user, django_capture_on_commit_callbacks):
    def make(username: str, scopes: list[str] | None = None, is_bot: bool = False, user: User | None = None) -> Api:
        user = user or make_user(username, is_bot=is_bot)
        _, plain = ApiToken.issue(user, "tests", scopes if scopes is not None else PLAY_SCOPES)
        return Api(user, plain, django_capture_on_commit_callbacks)

    return make


@pytest.fixture
def alice(make_api) -> Api:
    return make_api("alice")


@pytest.fixture
def bob(make_api) -> Api:
    return make_api("bob")


@pytest.fixture
def stranger(make_api) -> Api:
    return make_api("mallory")


def play_human_vs_human(a: Api, b: Api, game_id: int, pick=lambda legal: legal[0], max_moves: int = 500) -> dict:
    """Play a started game to the end through the HTTP API only; returns the last view."""
    by_seat = {}
    for api in (a, b):
        v = api.view(game_id)
        by_seat[v["my_seat"]] = api
    to_act = v["to_act"]
    for i in range(max_moves):
        if not to_act:
            return a.view(game_id)
        (seat,) = to_act
        player = by_seat[seat]
        mine = player.view(game_id)
        assert mine["my_turn"] and mine["legal_moves"]
        r = player.move(game_id, mine["version"], pick(mine["legal_moves"]), client_id=f"c{i}")
        assert r.status_code == 201, r.content
        to_act = r.json()["to_act"]
    raise AssertionError("game did not end")


# ----------------------------------------------------------------------------- hidden information (Claim)

def state_at(game: Game, move_count: int | None = None) -> Any:
    """The engine state after ``move_count`` moves (default: the stored snapshot), rebuilt from the log."""
    rules = get_rules(game.kind)
    if move_count is None:
        return rules.from_json(game.state)
    moves = list(Move.objects.filter(game=game, number__lte=move_count).order_by("number").values_list("seat", "move"))
    return replay(rules, game.options, game.seat_count, game.seed, moves)


def hidden_card_ids(st: Any, seat: int | None) -> set[str]:
    """Card ids that ``seat`` (None: a spectator) cannot know about in the Claim state ``st``: cards in the
    other seats' hands/follower piles or in the deck, minus every id this seat has seen anywhere."""
    seats = range(st.seats)
    hidden: Counter = Counter()
    for s in seats:
        if s != seat:
            hidden.update(st.hands[s])
            hidden.update(st.followers[s])
    hidden.update(st.deck[st.dpos:])
    seen: Counter = Counter()
    if seat is not None:
        seen.update(st.dealt[seat])
        seen.update(st.hands[seat])
        seen.update(st.followers[seat])
        seen.update(st.peeked[seat])
        if st.seer == seat and st.dpos < len(st.deck):
            seen.update([st.deck[st.dpos]])
    for s in seats:
        seen.update(st.public_followers[s])
        seen.update(st.score[s])
        seen.update(st.gnomes[s])
    seen.update(st.pool)
    seen.update(st.discard)
    seen.update(st.smashed)
    seen.update(st.played)
    if st.prize >= 0:
        seen.update([st.prize])
    for _seat, m in st.moves:
        if m >= 0:  # a played card (core moves: Seer and Giant choices are negative)
            seen.update([m])
    return {CARD_ID[c] for c in hidden if c not in seen}


def assert_no_leak(body: Any, hidden: set[str], seed: int, where: str) -> None:
    text = json.dumps(body)
    leaked = sorted(c for c in hidden if f'"{c}"' in text)
    assert not leaked, f"{where}: hidden cards {leaked} leaked in {text[:400]}"
    assert str(seed) not in text, f"{where}: the seed leaked"
