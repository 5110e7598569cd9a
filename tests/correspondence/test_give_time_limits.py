"""Issue 22: "+time" had no limit (60 taps gave 60 days) and a burst of it held the opponent's moves off
(every gift made a new version, so the move the opponent was sending was refused as stale).

Now (docs/rulings.md, "+time"): one tap gives one day; one player gives at most 7 days in a game; no gift
leaves anyone more than 14 days for a move; the clock actions have their own rate limit; and a clock entry
(+time, pause) never makes a move stale: a move made against the version before it is taken.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games import service
from games.clock import service as clock_service
from games.clock.models import VacationAccount
from games.models import Game, GameEvent
from games.rules.registry import get_rules
from games.service.errors import Conflict

from .conftest import T0, to_act_seat


def _no_vacation(*users):
    for u in users:
        VacationAccount.objects.update_or_create(user=u, defaults={"auto_use": False, "accrued_until": T0})


def _give(api_client, user, game_id, commit):
    api_client.force_authenticate(user)
    with commit():
        return api_client.post(f"/api/v1/games/{game_id}/clock/give-time")


def _first_legal(game: Game, seat: int) -> dict:
    rules = get_rules(game.kind)
    return rules.legal_moves(rules.from_json(game.state), seat)[0]


@pytest.mark.django_db
def test_one_player_gives_at_most_seven_days_in_a_game(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=1)
    mover = to_act_seat(game)
    giver = game.seats.exclude(pk=mover.pk).get().user
    for n in range(1, 8):
        r = _give(api_client, giver, game.pk, commit)
        assert r.status_code == 200, (n, r.content)
        assert r.json()["deadline"] == (T0 + timedelta(days=1 + n)).isoformat().replace("+00:00", "Z")
    version = Game.objects.get(pk=game.pk).version
    r = _give(api_client, giver, game.pk, commit)
    assert r.status_code == 409, r.content
    error = r.json()["error"]
    assert error["code"] == "give_time_limit"
    assert error["message"] == "You have given 7 days in this game, the most one player may give."
    game.refresh_from_db()
    assert game.version == version and game.deadline == T0 + timedelta(days=8)  # the refusal stored nothing
    assert GameEvent.objects.filter(game=game, type="time_given").count() == 7


@pytest.mark.django_db
def test_no_gift_leaves_anyone_more_than_fourteen_days(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=14)
    mover = to_act_seat(game)
    giver = game.seats.exclude(pk=mover.pk).get().user
    r = _give(api_client, giver, game.pk, commit)  # 14 days left: a day more would be 15
    assert r.status_code == 409, r.content
    assert r.json()["error"] == {"code": "time_left_limit", "message": (
        "That would leave 15 days for this move; a gift may not leave anyone more than 14 days.")}
    clock.shift(timedelta(days=1, hours=12))  # 12 days 12 hours left
    r = _give(api_client, giver, game.pk, commit)
    assert r.status_code == 200, r.content
    r = _give(api_client, giver, game.pk, commit)
    assert r.status_code == 409 and r.json()["error"]["code"] == "time_left_limit"
    assert "14 days 12 hours" in r.json()["error"]["message"]
    game.refresh_from_db()
    assert game.deadline == T0 + timedelta(days=15)


@pytest.mark.django_db
def test_a_bank_is_capped_too(make_user, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    with commit():
        game = service.create_game(alice, "claim", opponents=[{"type": "user", "username": "bob"}],
                                   time_control={"type": "bank", "initial_seconds": 13 * 86400,
                                                 "increment_seconds": 0})
    with commit():
        service.join_game(bob, game.pk)
    game.refresh_from_db()
    mover = to_act_seat(game)
    giver = game.seats.exclude(pk=mover.pk).get().user
    r = _give(api_client, giver, game.pk, commit)  # 13 days -> 14: allowed
    assert r.status_code == 200, r.content
    r = _give(api_client, giver, game.pk, commit)  # 14 -> 15: refused
    assert r.status_code == 409 and r.json()["error"]["code"] == "time_left_limit", r.content


@pytest.mark.django_db
def test_a_gift_or_a_pause_request_never_makes_a_move_stale(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    game = play.game(alice, bob, days=1)
    mover = to_act_seat(game)
    giver = game.seats.exclude(pk=mover.pk).get().user
    seen = game.version  # the version the mover's device shows
    for _ in range(3):
        assert _give(api_client, giver, game.pk, commit).status_code == 200
    api_client.force_authenticate(giver)
    for _ in range(3):  # asking again is no new version
        with commit():
            assert api_client.post(f"/api/v1/games/{game.pk}/clock/pause").status_code == 200
    game.refresh_from_db()
    assert game.version == seen + 4
    api_client.force_authenticate(mover.user)
    with commit():
        r = api_client.post(f"/api/v1/games/{game.pk}/moves",
                            {"version": seen, "move": _first_legal(game, mover.index)}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["version"] == seen + 5
    # A move against a version before a real move is still stale.
    game.refresh_from_db()
    other = to_act_seat(game)
    api_client.force_authenticate(other.user)
    r = api_client.post(f"/api/v1/games/{game.pk}/moves",
                        {"version": seen, "move": _first_legal(game, other.index)}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version", r.content


@pytest.mark.django_db
def test_the_clock_actions_are_rate_limited(make_user, play, clock, commit, api_client):
    alice, bob = make_user("alice"), make_user("bob")
    game = play.game(alice, bob, days=1)
    mover = to_act_seat(game).user
    api_client.force_authenticate(mover)
    codes = [api_client.post(f"/api/v1/games/{game.pk}/clock/give-time").status_code for _ in range(31)]
    assert codes[:30] == [409] * 30  # own turn
    assert codes[30] == 429
    r = api_client.post(f"/api/v1/games/{game.pk}/clock/pause")
    assert r.status_code == 429 and r.json()["error"]["code"] == "throttled"
    assert "Retry-After" in r.headers


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_gifts_in_parallel_with_a_move_never_refuses_the_move(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    alice, bob = make_user("alice"), make_user("bob")
    _no_vacation(alice, bob)
    for attempt in range(4):
        game = service.create_game(alice, "claim", opponents=[{"type": "user", "username": "bob"}], days_per_move=1)
        service.join_game(bob, game.pk)
        game.refresh_from_db()
        mover = to_act_seat(game)
        giver = game.seats.exclude(pk=mover.pk).get().user
        move, seen = _first_legal(game, mover.index), game.version
        barrier = threading.Barrier(6)
        results: dict[str, object] = {}

        def run(name, fn, barrier=barrier, results=results):
            try:
                barrier.wait(timeout=10)
                results[name] = fn()
            except Conflict as exc:
                results[name] = exc.code
            except BaseException as exc:
                results[name] = exc
            finally:
                connection.close()

        def gift(g=game.pk, u=giver):
            return clock_service.give_time(u, g)

        threads = [threading.Thread(target=run, args=(f"gift{i}", gift)) for i in range(5)]
        threads.append(threading.Thread(target=run, args=(
            "move", lambda g=game.pk, m=move, v=seen, u=mover.user: service.make_move(u, g, v, m)[1])))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert results["move"] is True, (attempt, results)
        gifts = [results[f"gift{i}"] for i in range(5)]
        assert all(isinstance(g, Game) or g == "own_turn" for g in gifts), gifts  # after the move: bob's turn
