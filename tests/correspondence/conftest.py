"""Fixtures for issue 6 (clocks, ratings, seeks, notifications): users, games made through the service,
on-commit hooks run as a real commit would (tasks eager), and frozen time (time-machine)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from games import service

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _eager(eager_tasks, settings):
    settings.VAPID_PRIVATE_KEY = ""


@pytest.fixture
def clock():
    """Frozen time starting at T0; ``clock.shift(timedelta)`` moves it."""
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run the block's on-commit hooks (signals, tasks) as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def play(commit):
    """Service helpers whose on-commit hooks run."""

    class Play:
        def game(self, creator, *others, kind="claim", days=3, rated=True, seats=None):
            with commit():
                g = service.create_game(creator, kind, seats=seats or (len(others) + 1),
                                        opponents=[{"type": "user", "username": o.username} for o in others],
                                        days_per_move=days, rated=rated)
            for o in others:
                with commit():
                    g, _ = service.join_game(o, g.pk)
            g.refresh_from_db()
            return g

        def resign(self, user, game):
            with commit():
                service.resign(user, game.pk)
            game.refresh_from_db()
            return game

    return Play()


def to_act_seat(game):
    return game.seats.get(to_act=True)
