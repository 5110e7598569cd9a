"""claim.rowsql: the hot-path SELECTs compiled once build exactly what the ORM's select_related builds."""

from __future__ import annotations

import pytest
from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from accounts.authentication import _TOKEN_WITH_USER
from accounts.models import ApiToken
from claim.rowsql import insert_row, set_flags, update_row
from games.models import Game, GameClock, GameEvent, Seat
from games.service._common import SEATS_GAME_CLOCK, game_and_seats, lock_game, seats_of

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


def test_writes_compiled_once_store_what_the_orm_stores(alice, bob):
    game = _started_game(alice, bob)
    game.version += 1
    game.updated_at = timezone.now()
    game.state = {**game.state, "probe": [1, "two", None]}
    update_row(game, ["version", "updated_at", "state"])
    again = Game.objects.get(pk=game.pk)
    assert (again.version, again.updated_at, again.state["probe"]) == (game.version, game.updated_at, [1, "two", None])

    entry = GameEvent(game=game, version=game.version, type="move", seat=1, events=[{"a": 1}],
                      created_at=game.updated_at)
    insert_row(entry)
    stored = GameEvent.objects.get(pk=entry.pk)
    assert (stored.game_id, stored.version, stored.events, stored.seat) == (game.pk, game.version, [{"a": 1}], 1)

    seats = list(Seat.objects.filter(game=game).order_by("index"))
    set_flags(Seat, "to_act", on=[seats[1].pk], off=[seats[0].pk])
    assert list(Seat.objects.filter(game=game).order_by("index").values_list("to_act", flat=True)) == [False, True]
    set_flags(Seat, "to_act", on=[seats[0].pk, seats[1].pk], off=[])
    assert list(Seat.objects.filter(game=game).order_by("index").values_list("to_act", flat=True)) == [True, True]
    set_flags(Seat, "to_act", on=[], off=[seats[0].pk])
    assert list(Seat.objects.filter(game=game).order_by("index").values_list("to_act", flat=True)) == [False, True]


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
