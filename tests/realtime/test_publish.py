"""The publisher's contract: per-user views to ``user.<id>``, one query to load, never raises."""

from __future__ import annotations

import logging

import pytest

from games.realtime import publish
from games.service import create_game, make_move

from .conftest import view_of

pytestmark = pytest.mark.django_db


def test_loads_game_and_seats_in_one_query(two_player_game, django_assert_num_queries):
    game_id, alice, bob = two_player_game()
    with django_assert_num_queries(1):
        game, seats = publish.load_game_and_seats(game_id)
        assert [s.user for s in seats] == [alice, bob]
        assert all(s.game is game for s in seats)
    assert publish.load_game_and_seats(game_id + 10_000) == (None, [])


def test_builds_one_message_per_seated_human_with_their_own_view(two_player_game, make_user):
    game_id, alice, bob = two_player_game()
    messages = publish.build_messages(game_id)
    assert [group for group, _ in messages] == [f"user.{alice.pk}", f"user.{bob.pk}"]
    for (_, message), user in zip(messages, (alice, bob), strict=True):
        assert message["type"] == "game.update"
        assert message["game_id"] == game_id
        assert message["view"] == view_of(game_id, user)
        assert message["version"] == message["view"]["version"]

    carol = make_user()
    ai_game = create_game(carol, "claim", opponents=[{"type": "ai", "level": 1}])
    assert [group for group, _ in publish.build_messages(ai_game.pk)] == [f"user.{carol.pk}"]  # no AI group


def test_missing_game_publishes_nothing():
    assert publish.build_messages(987654321) == []
    publish.publish_game_update(987654321)


def test_a_broken_channel_layer_never_breaks_the_caller(two_player_game, monkeypatch, caplog):
    game_id, _, _ = two_player_game()

    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("redis is down")

    monkeypatch.setattr(publish, "get_channel_layer", lambda: Broken())
    with caplog.at_level(logging.WARNING, logger="games.realtime.publish"):
        publish.publish_game_update(game_id)
    assert "redis is down" in caplog.text


def test_a_failing_view_never_breaks_the_caller(two_player_game, monkeypatch, caplog):
    game_id, _, _ = two_player_game()

    def boom(*args, **kwargs):
        raise ValueError("engine bug")

    monkeypatch.setattr("games.service.payload.game_view_payload", boom)
    with caplog.at_level(logging.WARNING, logger="games.realtime.publish"):
        publish.publish_game_update(game_id)
    assert "engine bug" in caplog.text


def test_the_service_publishes_on_commit(two_player_game, monkeypatch, django_capture_on_commit_callbacks):
    game_id, alice, bob = two_player_game()
    seen: list[int] = []
    # The service hands over the committed game, seats and the mover's view (keyword arguments).
    monkeypatch.setattr(publish, "publish_game_update", lambda game_id, **prepared: seen.append(game_id))
    view = view_of(game_id, alice) if view_of(game_id, alice)["my_turn"] else None
    user = alice if view else bob
    view = view or view_of(game_id, bob)
    with django_capture_on_commit_callbacks(execute=True):
        make_move(user, game_id, view["version"], view["legal_moves"][0])
    assert seen == [game_id]


def test_prebuilt_game_seats_and_views_are_reused(two_player_game, django_assert_num_queries):
    game_id, alice, bob = two_player_game()
    game, seats = publish.load_game_and_seats(game_id)
    alice_view = view_of(game_id, alice)
    bob_view = view_of(game_id, bob)
    with django_assert_num_queries(0):
        messages = publish.build_messages(game_id, game=game, seats=seats,
                                          views={alice.pk: alice_view, bob.pk: bob_view})
    assert [m["view"] for _, m in messages] == [alice_view, bob_view]
    # Only the missing view is built.
    messages = publish.build_messages(game_id, game=game, seats=seats, views={alice.pk: {"prebuilt": True}})
    assert [m["view"] for _, m in messages] == [{"prebuilt": True}, bob_view]
