"""Fixtures of the tournament tests (issue 36): users, tournaments made through the service, the games' ends
through the game service and the clock (resignations, adjudicated draws, real timeouts in virtual time), on-commit
hooks run as a real commit would (tasks eager: a game's end reaches its tournament at once); and the simulations'
oracle: the games read back from their own rows (not the tournament's copy of them)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from games import service as games
from games.clock.service import expire_deadline
from games.models import Game, Seat, SeatDeparture
from games.tournaments import service
from games.tournaments.core import standings as core
from games.tournaments.core.tables import TableGame
from games.tournaments.models import Bye, Entry, Tournament, TournamentGame
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

    def users_of(self, ids: list[int]) -> list[Any]:
        return _users(ids)

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
        assert game.deadline is not None
        with self.commit():  # the deadline task, run in virtual time a minute past the deadline
            assert expire_deadline(game.pk, game.version, now=game.deadline + timedelta(minutes=1)) in (
                "timeout", "replaced")

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


# ----------------------------------------------------------------------------------------------- the oracle

@dataclass(frozen=True)
class Played:
    """A tournament game as its own rows tell it (``Game``, ``Seat``, ``SeatDeparture``), not the tournament's
    copy: the round, the users by seat index (a seat the AI took is its departed user's), the places per seat
    (None while it runs; at 3-4 seats a seat lost on time is last, as docs/tournaments.md says), the users who
    lost it on time, and how it ended."""

    game_id: int
    round: int
    seats: tuple[int, ...]
    places: tuple[int, ...] | None
    timed_out: tuple[int, ...]
    reason: str | None


def played(t: Tournament) -> list[Played]:
    """Every game of ``t`` from the games' rows (five queries whatever the size)."""
    rounds = dict(TournamentGame.objects.filter(tournament=t).values_list("game_id", "round"))
    rows = {g.pk: g for g in Game.objects.filter(pk__in=rounds)}
    seats: dict[int, dict[int, tuple[int | None, int | None]]] = defaultdict(dict)
    for game_id, index, user_id, rank in Seat.objects.filter(game_id__in=rounds).values_list(
            "game_id", "index", "user_id", "rank"):
        seats[game_id][index] = (user_id, rank)
    gone: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)
    for game_id, index, user_id, reason in SeatDeparture.objects.filter(game_id__in=rounds).values_list(
            "game_id", "seat", "user_id", "reason"):
        gone[game_id][index] = (user_id, reason)
    out = []
    for game_id, number in sorted(rounds.items(), key=lambda kv: (kv[1], kv[0])):
        game, by_seat = rows[game_id], seats[game_id]
        users = tuple(gone[game_id][i][0] if i in gone[game_id] else by_seat[i][0] for i in sorted(by_seat))
        assert all(u is not None for u in users)
        late = sorted(i for i, (_u, reason) in gone[game_id].items() if reason == "timeout")
        if game.ended_reason == "timeout":
            named = game.result["timeout"]
            late = sorted({*late, *([named] if isinstance(named, int) else named)})
        places = None
        if game.is_over:
            ranks = [by_seat[i][1] or 1 for i in sorted(by_seat)]
            if len(users) > 2 and late and len(late) < len(users):
                last = max(r for i, r in enumerate(ranks) if i not in late) + 1
                ranks = [last if i in late else r for i, r in enumerate(ranks)]
            places = tuple(ranks)
        out.append(Played(game_id, number, users, places,  # type: ignore[arg-type]
                          tuple(users[i] for i in late), game.ended_reason or None))
    return out


def seed_order(t: Tournament) -> list[int]:
    return list(Entry.objects.filter(tournament=t).order_by("seed", "pk").values_list("user_id", flat=True))


def byes_of(t: Tournament, before: int | None = None) -> list[int]:
    qs = Bye.objects.filter(tournament=t)
    if before is not None:
        qs = qs.filter(round__lt=before)
    return list(qs.order_by("round", "user_id").values_list("user_id", flat=True))


def two_seat_games(games: list[Played]) -> list[core.Game]:
    """The core's games from the rows: the result from the places, the loser on time (one seat only)."""
    out = []
    for g in games:
        result: core.Result | None = None
        if g.places is not None:
            a, b = g.places
            result = "draw" if a == b else "first" if a < b else "second"
        out.append(core.Game(g.round, g.seats[0], g.seats[1], result,
                             g.timed_out[0] if len(g.timed_out) == 1 else None))
    return out


def table_games(games: list[Played]) -> list[TableGame]:
    return [TableGame(g.round, g.seats, g.places, g.timed_out[0] if g.timed_out else None) for g in games]


def as_rows(standings: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The tournament's cached standings as ``(user, score, *tie-breaks)``, to compare with the core's."""
    return [(s["user_id"], s["score"], *s["tiebreaks"]) for s in standings]


def core_rows(standings: list[core.Standing]) -> list[tuple[Any, ...]]:
    return [(s.player, s.score, *s.tiebreaks) for s in standings]


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
