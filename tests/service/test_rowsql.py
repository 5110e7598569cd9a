"""claim.rowsql: the hot-path SELECTs compiled once build exactly what the ORM's select_related builds."""

from __future__ import annotations

import pytest
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.authentication import _TOKEN_WITH_USER
from accounts.models import ApiToken
from claim.rowsql import insert_statement
from games.models import Game, GameClock, Move, Seat
from games.service._common import SEATS_GAME_CLOCK, game_and_seats, lock_game, save_to_act, seats_of

pytestmark = pytest.mark.django_db(transaction=True)


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _started_game(alice, bob, **extra) -> Game:
    game = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], **extra)
    r = bob.post(f"/api/v1/games/{game['id']}/join")
    assert r.status_code == 201, r.content
    return Game.objects.get(pk=game["id"])


def test_locked_game_equals_the_orm_row_json_and_datetimes_included(alice, bob):
    game = _started_game(alice, bob)
    orm = Game.objects.select_related("clock").get(pk=game.pk)
    fast = lock_game(game.pk)
    assert _fields(fast) == _fields(orm)
    assert isinstance(fast.state, dict) and fast.state == orm.state  # JSON decoded, not text
    assert fast.created_at.tzinfo is not None
    assert not fast._state.adding and fast._state.db == orm._state.db


def test_a_missing_clock_is_cached_as_missing_like_select_related(alice, bob, django_assert_num_queries):
    game = _started_game(alice, bob)

    GameClock.objects.filter(game_id=game.pk).delete()
    fast = lock_game(game.pk)
    with django_assert_num_queries(0), pytest.raises(ObjectDoesNotExist):
        fast.clock  # noqa: B018 - the access is the test


def test_a_present_clock_comes_joined(alice, bob, django_assert_num_queries):
    game = _started_game(alice, bob)
    clock, _ = GameClock.objects.get_or_create(game_id=game.pk)
    fast = lock_game(game.pk)
    with django_assert_num_queries(0):
        joined = fast.clock
    assert joined.pk == clock.pk
    assert _fields(joined) == _fields(GameClock.objects.get(pk=clock.pk))


def test_seats_with_users_match_the_orm_in_order(alice, bob, django_assert_num_queries):
    game = _started_game(alice, bob)
    orm = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    fast = seats_of(game)
    assert [_fields(s) for s in fast] == [_fields(s) for s in orm]
    with django_assert_num_queries(0):
        assert [s.user.username for s in fast] == [s.user.username for s in orm]


def test_an_open_seat_has_no_user(alice):
    r = alice.post("/api/v1/games", {"kind": "claim", "opponents": [{"type": "open"}]})
    assert r.status_code == 201, r.content
    game = Game.objects.get(pk=r.json()["id"])
    seats = seats_of(game)
    assert [s.user_id for s in seats] == [s.user_id for s in Seat.objects.filter(game=game).order_by("index")]
    assert any(s.user_id is None for s in seats)
    assert all(s.user is None for s in seats if s.user_id is None)


def test_token_lookup_builds_token_and_user(alice):
    token = ApiToken.objects.select_related("user").get(user=alice.user)
    found = _TOKEN_WITH_USER.fetch([token.prefix])
    assert len(found) == 1
    assert _fields(found[0]) == _fields(token)
    assert found[0].scopes == token.scopes  # JSON list decoded
    assert _fields(found[0].user) == _fields(token.user)
    assert _TOKEN_WITH_USER.fetch(["00000000"]) == []


def test_the_move_row_insert_stores_what_the_orm_stores_and_skips_a_duplicate(alice, bob):
    game = _started_game(alice, bob)
    row = Move(game=game, number=0, seat=0, move={"play": "goblin-3"}, client_id="c-1", version=game.version + 1,
               created_at=timezone.now(), response={"ok": [1, "two", None]})
    with connection.cursor() as cursor:
        cursor.execute(*insert_statement(row, connection))
        (pk,) = cursor.fetchone()
        stored = Move.objects.get(pk=pk)
        assert (stored.game_id, stored.seat, stored.move, stored.client_id, stored.response) == (
            game.pk, 0, {"play": "goblin-3"}, "c-1", {"ok": [1, "two", None]})
        cursor.execute(*insert_statement(row, connection))  # the same client id again: nothing written
        assert cursor.fetchone() is None
    assert Move.objects.filter(game=game, client_id="c-1").count() == 1


def test_save_to_act_sets_each_changed_seat_in_one_update(alice, bob):
    game = _started_game(alice, bob)
    seats = list(Seat.objects.filter(game=game).order_by("index"))

    def stored() -> list[bool]:
        return list(Seat.objects.filter(game=game).order_by("index").values_list("to_act", flat=True))

    for flags in ([False, True], [True, True], [False, False], [True, False]):
        for seat, flag in zip(seats, flags, strict=True):
            seat.to_act = flag
        with CaptureQueriesContext(connection) as queries:
            save_to_act(seats)
        assert stored() == flags and len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        save_to_act([])
    assert len(queries) == 0

def test_seats_with_their_game_and_clock_in_one_select_match_the_orm(alice, bob, django_assert_num_queries):
    """The publisher's one read (games.service._common.SEATS_GAME_CLOCK): a join through a join."""
    game = _started_game(alice, bob)
    GameClock.objects.get_or_create(game_id=game.pk)
    orm = list(Seat.objects.filter(game=game).select_related("user", "game", "game__clock").order_by("index"))
    fast_game, fast = game_and_seats(SEATS_GAME_CLOCK.fetch([game.pk]))
    with django_assert_num_queries(0):
        assert [_fields(s) for s in fast] == [_fields(s) for s in orm]
        assert [_fields(s.user) for s in fast] == [_fields(s.user) for s in orm]
        assert _fields(fast_game) == _fields(orm[0].game) and all(s.game is fast_game for s in fast)
        assert _fields(fast_game.clock) == _fields(orm[0].game.clock)
    GameClock.objects.filter(game_id=game.pk).delete()
    fast_game, _ = game_and_seats(SEATS_GAME_CLOCK.fetch([game.pk]))
    with django_assert_num_queries(0), pytest.raises(ObjectDoesNotExist):
        fast_game.clock  # noqa: B018 - the access is the test
    assert game_and_seats(SEATS_GAME_CLOCK.fetch([987654321])) == (None, [])
