"""``watchable`` is chosen when a game is made (issue 35; docs/rulings.md, "Watching"): ``POST /games``,
seeks and "play now" default to true, a private invitation (a challenge, a seat inviting a user by name) to
false, and each respects the choice; a rematch keeps the finished game's; two
seeks make a watchable game only when both allow it. The players' view and the challenge and seek answers
show it."""

from __future__ import annotations

import pytest

from games.models import Game
from games.seeks import service as seeks

from .conftest import watch

pytestmark = pytest.mark.django_db


def _game(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


# --- POST /games -------------------------------------------------------------------------------------------

def test_post_games_is_watchable_unless_asked_not_to(player):
    alice = player("alice")
    default = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    hidden = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}], watchable=False)
    shown = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}], watchable=True)
    assert default["watchable"] is True and _game(default["id"]).watchable is True
    assert hidden["watchable"] is False and _game(hidden["id"]).watchable is False
    assert shown["watchable"] is True
    assert alice.view(hidden["id"])["watchable"] is False
    assert watch(alice, default["id"]).status_code == 200 and watch(alice, hidden["id"]).status_code == 404


@pytest.mark.parametrize(("body", "expected"), [({}, False), ({"watchable": True}, True)])
def test_post_games_inviting_a_user_by_name_is_private_unless_asked(player, body, expected):
    alice, _ = player("alice"), player("bob")
    made = alice.create(kind="claim", opponents=[{"type": "user", "username": "bob"}], **body)
    assert made["watchable"] is expected and _game(made["id"]).watchable is expected
    opened = alice.create(kind="inheritors", seats=3, opponents=[{"type": "open"}, {"type": "open"}])
    assert opened["watchable"] is True


@pytest.mark.parametrize("bad", ["yes", 1, None, "true"])
def test_watchable_is_a_boolean(player, bad):
    r = player("alice").post("/api/v1/games", {"kind": "claim", "watchable": bad})
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "invalid" and "watchable" in r.json()["error"]["fields"]


def test_games_made_by_the_service_without_a_choice_stay_unwatchable(make_user):
    from games.service import create_game  # noqa: PLC0415

    game = create_game(make_user("solo"), "claim", opponents=[{"type": "ai", "level": 1}])
    assert game.watchable is False  # the column's default: older games are not opened up


# --- challenges --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "expected"), [({}, False), ({"watchable": False}, False), ({"watchable": True},
                                                                                              True)])
def test_a_challenge_carries_the_choice_to_its_game(player, body, expected):
    alice, bob = player("alice"), player("bob")
    r = alice.post("/api/v1/challenges", {"to": "bob", "kind": "claim", **body})
    assert r.status_code == 201, r.content
    assert r.json()["watchable"] is expected
    accepted = bob.post(f"/api/v1/challenges/{r.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    game = _game(accepted.json()["game_id"])
    assert game.watchable is expected and game.status == "active"
    assert bob.view(game.pk)["watchable"] is expected


def test_an_open_challenge_too(player):
    alice, bob = player("alice"), player("bob")
    r = alice.post("/api/v1/challenges", {"kind": "claim2", "watchable": False})
    game_id = bob.post(f"/api/v1/challenges/{r.json()['id']}/accept").json()["game_id"]
    assert _game(game_id).watchable is False


# --- seeks -------------------------------------------------------------------------------------------------

def _seek(api, **body):
    r = api.post("/api/v1/seeks", {"kind": "claim", "days_per_move": 3, **body})
    assert r.status_code == 201, r.content
    return r.json()


@pytest.mark.parametrize(("first", "second", "expected"), [
    ({}, {}, True),
    ({"watchable": False}, {}, False),
    ({}, {"watchable": False}, False),
    ({"watchable": False}, {"watchable": False}, False),
    ({"watchable": True}, {"watchable": True}, True),
])
def test_two_seeks_make_a_watchable_game_only_when_both_allow_it(player, first, second, expected):
    a, b = player("alice"), player("bob")
    mine = _seek(a, **first)
    assert mine["status"] == "open" and mine["watchable"] is first.get("watchable", True)
    theirs = _seek(b, **second)
    assert theirs["status"] == "matched", theirs  # watchable is no pairing condition
    assert _game(theirs["game_id"]).watchable is expected


def test_joining_from_the_lobby_follows_the_chosen_seek(player):
    a, b, c, d = player("alice"), player("bob"), player("carol"), player("dan")
    hidden = _seek(a, watchable=False)
    shown = _seek(c, kind="claim2")
    r = b.post(f"/api/v1/seeks/{hidden['id']}/accept")
    assert r.status_code == 201, r.content
    assert _game(r.json()["game_id"]).watchable is False
    r = d.post(f"/api/v1/seeks/{shown['id']}/accept")
    assert r.status_code == 201, r.content
    assert _game(r.json()["game_id"]).watchable is True


@pytest.mark.parametrize(("body", "expected"), [({}, True), ({"watchable": False}, False)])
def test_play_now_and_its_ai_fallback(player, body, expected):
    a = player("alice")
    r = a.post("/api/v1/seeks/quick", {"kind": "claim", **body})
    assert r.status_code == 201 and r.json()["status"] == "open" and r.json()["watchable"] is expected
    game = seeks.fallback_to_ai(r.json()["id"])
    assert game is not None and game.watchable is expected


# --- rematches ---------------------------------------------------------------------------------------------

def _finished(a, b, **body) -> int:
    gid = a.create(kind="claim", opponents=[{"type": "user", "username": b.user.username}], **body)["id"]
    assert b.post(f"/api/v1/games/{gid}/join").status_code == 201
    assert a.post(f"/api/v1/games/{gid}/resign").status_code == 200
    return gid


@pytest.mark.parametrize("watchable", [False, True])
def test_a_rematch_against_a_human_keeps_the_choice(player, watchable):
    a, b = player("alice"), player("bob")
    gid = _finished(a, b, watchable=watchable)
    assert a.post(f"/api/v1/games/{gid}/rematch").status_code == 202  # the offer: a challenge
    r = b.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 200, r.content
    assert r.json()["rematch_of"] == gid and r.json()["watchable"] is watchable


@pytest.mark.parametrize("watchable", [False, True])
def test_a_rematch_made_as_a_game_keeps_the_choice(player, watchable):
    a = player("alice")
    gid = a.create(kind="claim", opponents=[{"type": "ai", "level": 1}], watchable=watchable)["id"]
    assert a.post(f"/api/v1/games/{gid}/resign").status_code == 200
    r = a.post(f"/api/v1/games/{gid}/rematch")
    assert r.status_code == 201, r.content
    assert r.json()["watchable"] is watchable and _game(r.json()["id"]).watchable is watchable
