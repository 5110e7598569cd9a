"""Two last games of a round ending at once pair the next round exactly once (issue 36): real commits
(``transaction=True``), one thread per game, both reaching the tournament together; the tournament's row lock
makes the second wait, and only it sees the round complete."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import service as games
from games import signals
from games.tournaments import receivers, service
from games.tournaments.models import Tournament, TournamentGame
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)

DAYS = {"type": "days", "days_per_move": 3}


def _swiss(n: int = 4) -> tuple[Tournament, dict[int, object]]:
    creator = make_user("org")
    players = [make_user(f"c{i}") for i in range(n)]
    t = service.create(creator, name="Race", kind="claim", format="swiss", rounds=2, max_players=n,
                       time_control=DAYS)
    for p in players:
        service.join(p, t.pk)  # the last entry starts it (eager tasks, on commit)
    t.refresh_from_db()
    assert t.status == "running"
    return t, {u.pk: u for u in players}


def _together(*jobs) -> list[BaseException]:
    """Run the jobs in threads released at the same instant; their exceptions."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job):
        try:
            barrier.wait()
            job()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    return errors


def test_two_last_games_resigned_at_once_pair_the_next_round_once(eager_tasks):
    t, users = _swiss()
    a, b = TournamentGame.objects.filter(tournament=t, round=1).order_by("board")
    errors = _together(lambda: games.resign(users[a.players[1]], a.game_id),
                       lambda: games.resign(users[b.players[0]], b.game_id))
    assert not errors, errors
    t.refresh_from_db()
    assert t.current_round == 2
    assert TournamentGame.objects.filter(tournament=t, round=2).count() == 2
    assert TournamentGame.objects.filter(tournament=t, round=1, finished=True).count() == 2


def test_results_recorded_at_once_and_twice_pair_once(eager_tasks):
    """Both games ended before their results reach the tournament; then four workers deliver them at once
    (each twice, as a redelivered task would)."""
    t, users = _swiss()
    a, b = TournamentGame.objects.filter(tournament=t, round=1).order_by("board")
    signals.game_committed.disconnect(dispatch_uid="games.tournaments.game_ended")
    try:
        games.resign(users[a.players[1]], a.game_id)
        games.resign(users[b.players[1]], b.game_id)
    finally:
        signals.game_committed.connect(receivers.on_game_committed, dispatch_uid="games.tournaments.game_ended")
    assert TournamentGame.objects.filter(tournament=t, finished=True).count() == 0
    recorded: list[bool] = []
    errors = _together(*[lambda g=g: recorded.append(service.record_game(g))
                         for g in (a.game_id, b.game_id, a.game_id, b.game_id)])
    assert not errors, errors
    assert sorted(recorded) == [False, False, True, True]
    t.refresh_from_db()
    assert t.current_round == 2
    assert TournamentGame.objects.filter(tournament=t, round=2).count() == 2
    assert [s["score"] for s in t.standings] == [1.0, 1.0, 0.0, 0.0]
