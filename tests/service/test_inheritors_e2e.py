"""A whole 3-player Inheritors game through the HTTP API: one human (a token client) and two server AI seats
(levels 1 and 2; their turns run inline on commit, ``TASK_MODE = "eager"``), played to the end.

Checks: the game finishes normally with the I12.7 breakdown in the result, the AIs really played, the log
replays to the stored state, and no body the human received ever held another seat's hand, the deck or the
face-down quest row (the hidden-card spy of tests/hardening, against the true engine state of each moment).
"""

from __future__ import annotations

import random

import pytest

from games.models import Game, Move
from games.rules.registry import get_rules
from games.service import replay_log
from tests.hardening.spy import GameTracker, Spy

pytestmark = pytest.mark.django_db

CATEGORIES = ("influence", "tomes", "relics", "quests", "honors")


def _pick(legal: list[dict], rng: random.Random) -> dict:
    """A human-like policy: claim what can be claimed, end the turn after the action, otherwise mostly build
    the tableau, sometimes take a matching pile, else a random legal move (discarding and drawing 2 runs the
    deck down, so the game ends)."""
    for key in ("claim_honor", "claim_clan"):
        claims = [m for m in legal if key in m]
        if claims:
            return claims[0]
    if {"end_turn": True} in legal:
        return {"end_turn": True}
    plays = [m for m in legal if m.get("action") == "play"]
    if plays and rng.random() < 0.8:
        return rng.choice(plays)
    takes = [m for m in legal if m.get("action") == "discard_take"]
    if takes and rng.random() < 0.3:
        return rng.choice(takes)
    return rng.choice(legal)


def _assert_own_view_only(body: dict, seat: int) -> None:
    """Structural I13 check of one game payload: my hand only, and nothing of the end-of-game reveal."""
    view = body.get("view") or {}
    if view.get("game") != "inheritors" or view.get("over"):
        return
    assert view["seat"] == seat
    assert "hands" not in view and "all_quests" not in view and "deck" not in view and "quest_row" not in view
    assert all(set(p) == {"seat", "stacks", "clan", "honors", "quest_count", "hand_count"} for p in view["players"])
    assert len(view["hand"]) == view["players"][seat]["hand_count"]
    assert len(view["quests"]) == view["players"][seat]["quest_count"]


def test_three_player_inheritors_game_against_two_ai_seats_to_the_end(make_api):
    alice = make_api("alice")
    created = alice.create(kind="inheritors", seats=3,
                           opponents=[{"type": "ai", "level": 1}, {"type": "ai", "level": 2}])
    gid = created["id"]
    assert created["status"] == "active" and created["my_seat"] == 0
    assert [s["type"] for s in created["seats"]] == ["user", "ai", "ai"]
    assert created["view"]["game"] == "inheritors" and created["view"]["seats"] == 3
    assert len(created["view"]["market"]) == 3

    rng = random.Random(20261129)
    moves = 0
    view = alice.view(gid)
    while view["status"] == "active":
        # the AI seats move inline on commit: whenever the game waits, it waits for the human
        assert view["to_act"] == [0] and view["my_turn"], view["to_act"]
        assert view["legal_moves"]
        move = _pick(view["legal_moves"], rng)
        r = alice.move(gid, view["version"], move, client_id=f"alice-{moves}")
        assert r.status_code == 201, r.content
        moves += 1
        assert moves < 1500, "the game did not end"
        view = alice.view(gid)

    assert view["status"] == "finished" and view["ended_reason"] == "normal"
    result = view["result"]
    game = Game.objects.get(pk=gid)
    rules = get_rules("inheritors")
    assert result == rules.result(rules.from_json(game.state))
    assert len(result["scores"]) == 3
    for row in result["scores"]:
        assert set(row) == {*CATEGORIES, "total"}
        assert row["total"] == sum(row[c] for c in CATEGORIES)
    assert result["winners"] and set(result["winners"]) <= {0, 1, 2}
    assert sorted(result["ranks"])[0] == 1 and len(result["ranks"]) == 3
    assert result["tiebreak"]["order"] == ["total", "tomes_in_hand", "hand_size"]
    outcomes = {s["index"]: s["outcome"] for s in view["seats"]}
    assert {outcomes[w] for w in result["winners"]} <= {"win", "draw"}
    # after the end the view reveals everything, with the breakdown for the scoring table
    assert view["view"]["over"] and view["view"]["result"] == result and len(view["view"]["hands"]) == 3

    for seat in (1, 2):
        assert Move.objects.filter(game=game, seat=seat).exists(), f"AI seat {seat} never moved"
    assert Move.objects.filter(game=game, seat=0).count() == moves
    assert replay_log(gid).ok

    # nothing hidden ever reached the human: every body, at the move count it describes
    spy = Spy(GameTracker(game), 0, "alice")
    for i, body in enumerate(alice.bodies):
        _assert_own_view_only(body, 0)
        spy.check(body, f"response {i}")
    assert spy.checked >= moves
