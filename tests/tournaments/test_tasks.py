"""The beat task ``tournaments.tick`` in eager mode (issue 36): tournaments whose start time passed start (or are
cancelled below ``min_players``), games past the maximum duration are adjudicated by the clocks (the seat that
used clearly the most time loses, else a draw) through the game service, and the tournament goes on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from claim import tasks as claim_tasks
from games import service as games
from games.models import Game, Seat
from games.tournaments import service
from games.tournaments.models import Tournament, TournamentGame
from games.tournaments.tasks import tick_task

from .conftest import DAYS

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_the_tick_is_in_the_beat_schedule():
    assert settings.CELERY_BEAT_SCHEDULE["tournaments-tick"]["task"] == "tournaments.tick"


def _tick() -> None:
    claim_tasks.enqueue(tick_task)  # eager: run inline, errors raised


def test_start_at_the_time_or_cancel_below_min_players(play):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        users = play.users(5)
        with play.commit():
            a = service.create(org, name="Four", kind="claim", format="round_robin", max_players=8, min_players=4,
                               time_control=DAYS, starts_at=T0 + timedelta(hours=2))
            b = service.create(org, name="Too few", kind="claim", format="swiss", rounds=3, max_players=8,
                               min_players=4, time_control=DAYS, starts_at=T0 + timedelta(hours=2))
        for u in users[:4]:
            with play.commit():
                service.join(u, a.pk)
        for u in users[:3]:
            with play.commit():
                service.join(u, b.pk)
        with play.commit():
            _tick()
        assert Tournament.objects.get(pk=a.pk).status == "open"  # not yet
        clock.shift(timedelta(hours=2, minutes=1))
        with play.commit():
            _tick()
        a.refresh_from_db()
        b.refresh_from_db()
        assert a.status == "running" and TournamentGame.objects.filter(tournament=a).count() == 6
        assert b.status == "cancelled" and b.finished_at is not None
        assert not TournamentGame.objects.filter(tournament=b).exists()


def test_a_game_past_the_maximum_is_adjudicated_by_the_clocks(play):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        users = play.users(4)
        t = play.tournament(org, users, rounds=1, max_game_days=7)
        by_id = {u.pk: u for u in users}
        slow_game, idle_game = TournamentGame.objects.filter(tournament=t).order_by("board")
        slow = slow_game.players[0]
        # The slow player takes 2.5 days a move, the opponent 10 minutes, until the game is 7 days old.
        while Game.objects.get(pk=slow_game.game_id).status == "active" and timezone.now() < T0 + timedelta(days=6):
            index = Seat.objects.get(game_id=slow_game.game_id, to_act=True).index
            mover = by_id[slow_game.players[index]]
            clock.shift(timedelta(days=2, hours=12) if mover.pk == slow else timedelta(minutes=10))
            view = games.view_for(mover, slow_game.game_id)
            with play.commit():
                games.make_move(mover, slow_game.game_id, view["version"], view["legal_moves"][0])
        # In the other game nobody moves: the seat to act has used all the time (the clock was not run).
        idle = idle_game.players[Seat.objects.get(game_id=idle_game.game_id, to_act=True).index]
        clock.move_to(T0 + timedelta(days=7, minutes=1))
        used = service.seconds_used(Game.objects.get(pk=slow_game.game_id))
        assert used[slow_game.players.index(slow)] > 1.5 * used[1 - slow_game.players.index(slow)]
        with play.commit():
            _tick()
    slow_game.refresh_from_db()
    game = Game.objects.get(pk=slow_game.game_id)
    assert game.status == "finished" and game.ended_reason == "adjudicated" and game.result["reason"] == "adjudicated"
    assert slow_game.finished and slow_game.adjudicated
    assert slow_game.places[slow_game.players.index(slow)] == 2
    idle_game.refresh_from_db()
    assert idle_game.finished and idle_game.adjudicated
    assert idle_game.places[idle_game.players.index(idle)] == 2
    t.refresh_from_db()
    assert t.status == "finished"  # one round: both games settled, the tournament is over
    history = games.history_for(by_id[slow], slow_game.game_id)
    assert history


def test_an_even_clock_is_a_draw(play):
    with time_machine.travel(T0, tick=False) as clock:
        org = play.users(1, "org")[0]
        users = play.users(2)
        t = play.tournament(org, users, rounds=1, max_game_days=7)
        (tg,) = TournamentGame.objects.filter(tournament=t)
        by_id = {u.pk: u for u in users}
        while timezone.now() < T0 + timedelta(days=6, hours=12):  # both take a day a move
            index = Seat.objects.get(game_id=tg.game_id, to_act=True).index
            mover = by_id[tg.players[index]]
            clock.shift(timedelta(days=1))
            view = games.view_for(mover, tg.game_id)
            with play.commit():
                games.make_move(mover, tg.game_id, view["version"], view["legal_moves"][0])
        clock.move_to(T0 + timedelta(days=7, minutes=1))
        with play.commit():
            _tick()
    tg.refresh_from_db()
    assert tg.finished and tg.adjudicated and tg.places == [1, 1]
    t.refresh_from_db()
    assert t.status == "finished" and [s["score"] for s in t.standings] == [0.5, 0.5]


def test_a_lost_result_is_picked_up_by_the_tick(play):
    from games import signals  # noqa: PLC0415
    from games.tournaments import receivers  # noqa: PLC0415

    org = play.users(1, "org")[0]
    users = play.users(2)
    t = play.tournament(org, users, rounds=1)
    (tg,) = TournamentGame.objects.filter(tournament=t)
    signals.game_committed.disconnect(dispatch_uid="games.tournaments.game_ended")
    try:
        play.resign(next(u for u in users if u.pk == tg.players[0]), tg.game_id)
    finally:
        signals.game_committed.connect(receivers.on_game_committed, dispatch_uid="games.tournaments.game_ended")
    assert not TournamentGame.objects.get(pk=tg.pk).finished
    with play.commit():
        _tick()
    t.refresh_from_db()
    assert t.status == "finished" and TournamentGame.objects.get(pk=tg.pk).places == [2, 1]
