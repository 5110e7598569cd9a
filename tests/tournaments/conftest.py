"""Fixtures of the tournament tests (issue 36): users, tournaments made through the service, the games' ends
through the game service and the clock (resignations, adjudicated draws, real timeouts), on-commit hooks run as a
real commit would (tasks eager: a game's end reaches its tournament at once)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import service as games
from games.clock.service import expire_deadline
from games.models import Game, Seat
from games.tournaments import service
from games.tournaments.models import Entry, Tournament, TournamentGame
from tests.factories import make_user

DAYS = {"type": "days", "days_per_move": 3}


@pytest.fixture(autouse=True)
def _eager(eager_tasks, settings):
    settings.VAPID_PRIVATE_KEY = ""


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run the block's on-commit hooks (signals, tasks) as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


class Play:
    """Service helpers whose on-commit hooks run."""

    def __init__(self, commit: Callable[[], Any]) -> None:
        self.commit = commit

    def users(self, n: int, prefix: str = "p", **fields: Any) -> list[Any]:
        return [make_user(f"{prefix}{i}", **fields) for i in range(n)]

    def tournament(self, creator: Any, players: list[Any], **terms: Any) -> Tournament:
        """A tournament by ``creator`` entered by ``players`` and started (the last entry fills it)."""
        terms.setdefault("name", "Test cup")
        terms.setdefault("kind", "claim")
        terms.setdefault("format", "swiss")
        terms.setdefault("time_control", DAYS)
        terms.setdefault("max_players", len(players))
        if terms["format"] != "round_robin":
            terms.setdefault("rounds", 3)
        with self.commit():
            t = service.create(creator, **terms)
        for p in players:
            with self.commit():
                service.join(p, t.pk)
        t.refresh_from_db()
        return t

    def resign(self, user: Any, game_id: int) -> None:
        with self.commit():
            games.resign(user, game_id)

    def draw(self, game_id: int) -> None:
        with self.commit():
            games.adjudicate(game_id, [1, 1])

    def finish(self, tg: TournamentGame, result: str) -> None:
        """``first``: seat 0 wins, ``second``: seat 1 wins (the loser resigns), ``draw``: adjudicated a draw."""
        users = {u.pk: u for u in _users(tg.players)}
        if result == "draw":
            self.draw(tg.game_id)
        else:
            loser = tg.players[1] if result == "first" else tg.players[0]
            self.resign(users[loser], tg.game_id)

    def time_out(self, tg: TournamentGame, user_id: int) -> None:
        """``user_id`` runs out of time in this game: the others move until it is their turn, then the clock's
        deadline task finds the deadline passed (the real timeout path)."""
        users = {u.pk: u for u in _users(tg.players)}
        mine = tg.players.index(user_id)
        for _ in range(50):
            game = Game.objects.get(pk=tg.game_id)
            to_act = set(Seat.objects.filter(game=game, to_act=True).values_list("index", flat=True))
            if mine in to_act:
                break
            seat = min(to_act)
            other = users[tg.players[seat]]
            view = games.view_for(other, game.pk)
            with self.commit():
                games.make_move(other, game.pk, view["version"], view["legal_moves"][0])
        game = Game.objects.get(pk=tg.game_id)
        past = timezone.now() - timedelta(minutes=1)
        Game.objects.filter(pk=game.pk).update(deadline=past)
        with self.commit():
            assert expire_deadline(game.pk, game.version) in ("timeout", "replaced")

    def withdraw(self, user: Any, t: Tournament) -> None:
        with self.commit():
            service.leave(user, t.pk)


def _users(ids: list[int]) -> list[Any]:
    from accounts.models import User  # noqa: PLC0415

    return list(User.objects.filter(pk__in=ids))


@pytest.fixture
def play(commit) -> Play:
    return Play(commit)


def round_games(t: Tournament, number: int | None = None) -> list[TournamentGame]:
    t.refresh_from_db()
    qs = TournamentGame.objects.filter(tournament=t).order_by("round", "board")
    if number is not None:
        qs = qs.filter(round=number)
    return list(qs)


def entries(t: Tournament) -> dict[int, Entry]:
    return {e.user_id: e for e in Entry.objects.filter(tournament=t)}


# ----------------------------------------------------------------------------------------------- the API

class Api:
    """An HTTP client for one user (a token with the play scopes); every request runs its on-commit hooks."""

    def __init__(self, user: Any, token: str | None, capture: Any) -> None:
        from rest_framework.test import APIClient  # noqa: PLC0415

        self.user = user
        self.client = APIClient()
        if token:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        self._capture = capture

    def get(self, path: str, params: dict | None = None) -> Any:
        with self._capture(execute=True):
            return self.client.get(path, params or {})

    def post(self, path: str, data: Any = None) -> Any:
        with self._capture(execute=True):
            return self.client.post(path, data if data is not None else {}, format="json")


@pytest.fixture
def make_api(django_capture_on_commit_callbacks):
    from accounts.models import ApiToken  # noqa: PLC0415

    def make(username: str, *, scopes: list[str] | None = None, **fields: Any) -> Api:
        user = make_user(username, **fields)
        _, plain = ApiToken.issue(user, "tests", scopes if scopes is not None else ["games:read", "games:play"])
        return Api(user, plain, django_capture_on_commit_callbacks)

    return make
