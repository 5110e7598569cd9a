"""``/api/v1/games/{id}/review`` (issue 37): the review of an ended game from each seat's own information, every
refusal, fair play (nothing while the game runs), stored once, reproducible."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from accounts import relations
from games.ai import review as ai_review
from games.models import Game, Move
from games.review import events, service
from games.review.models import Review
from games.rules.cards import FACTION_NAMES
from games.rules.claim.options import random_mix
from games.rules.registry import get_rules
from tests.service.conftest import play_human_vs_human

from .conftest import Blunderer, start_game

pytestmark = pytest.mark.django_db


def canon(move: dict) -> str:
    """A move as sorted JSON (stored JSON objects need not keep their key order)."""
    return json.dumps(move, sort_keys=True)


def url(game_id: int) -> str:
    return f"/api/v1/games/{game_id}/review"


@pytest.fixture
def pushed(monkeypatch):
    """Every review frame pushed: ``[(user_id, frame)]``."""
    got: list[tuple[int, dict]] = []

    def send(messages, what):
        for group, message in messages:
            got.append((int(group.split(".")[1]), message["frame"]))

    monkeypatch.setattr(events, "send_to_groups", send)
    return got


@pytest.fixture
def blunder_game(make_api):
    """``(game_id, alice, bob, thrown)``: a finished Claim game in which one seat threw away a won endgame."""
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=20261206)
    pick = Blunderer(gid)
    play_human_vs_human(a, b, gid, pick=pick)
    assert pick.thrown is not None, "no decisive endgame decision in this deal"
    return gid, a, b, pick.thrown


def test_a_thrown_away_trick_is_marked_a_mistake(blunder_game, pushed):
    gid, alice, bob, (version, seat, move) = blunder_game
    r = alice.post(url(gid))
    assert r.status_code == 202, r.content  # queued; the eager task ran on commit
    assert r.json()["status"] == "queued" and r.json()["decisions"] == []
    body = alice.get(url(gid)).json()
    assert body["status"] == "done"
    total = Move.objects.filter(game_id=gid).count()
    assert body["progress"] == {"done": total, "total": total}
    assert body["thresholds"] == {"inaccuracy": ai_review.INACCURACY, "mistake": ai_review.MISTAKE}
    decisions = body["decisions"]
    assert len(decisions) == total
    assert [d["index"] for d in decisions] == sorted(d["index"] for d in decisions)
    thrown = next(d for d in decisions if d["index"] == version)
    assert thrown["seat"] == seat and thrown["played"] == move
    names = {0: None, 1: None}
    for api in (alice, bob):
        names[api.view(gid)["my_seat"]] = api.user.username
    assert thrown["player"] == names[seat]
    assert thrown["chance_played"] == 0.0 and thrown["chance_best"] == 1.0 and thrown["drop"] == 1.0
    assert thrown["mark"] == "mistake" and thrown["best"] != move
    assert thrown["options"][0] == {"move": thrown["best"], "chance": 1.0}
    for d in decisions:
        if d["options"]:
            chances = [o["chance"] for o in d["options"]]
            assert chances == sorted(chances, reverse=True)
            assert d["drop"] == pytest.approx(d["chance_best"] - d["chance_played"], abs=1e-4)
            # a mark needs the drop over its threshold (and over twice its standard error, not in the payload)
            assert d["mark"] in (None, ai_review.mark_for(d["drop"]))
        else:
            assert d["chance_played"] is None and d["drop"] is None and d["mark"] is None
            assert d["best"] == d["played"]
    # the requester heard it start, progress and end; nobody else did
    frames = [f for uid, f in pushed]
    assert {uid for uid, _ in pushed} == {alice.user.pk}
    assert all(f["type"] == "review" and f["game_id"] == gid for f in frames)
    assert frames[0]["status"] == "running" and frames[-1] == {
        "type": "review", "game_id": gid, "status": "done", "progress": {"done": total, "total": total}}
    assert [f["progress"]["done"] for f in frames if f["status"] == "running"][-1] == total


def test_the_stored_decisions_are_each_seats_view_then_and_reproducible(blunder_game):
    """Recomputed independently from the record (seed + moves), with the views only: the same decisions."""
    gid, alice, _bob, _ = blunder_game
    assert alice.post(url(gid)).status_code == 202
    stored = Review.objects.get(pk=gid).decisions
    game = Game.objects.get(pk=gid)
    rules = get_rules(game.kind)
    state = rules.setup(game.options, game.seat_count, game.seed)
    for d, (seat, move, version) in zip(stored, Move.objects.filter(game_id=gid).order_by("number").values_list(
            "seat", "move", "version"), strict=True):
        again = ai_review.review_decision(game.kind, rules.view(state, seat), rules.legal_moves(state, seat), move,
                                          service.decision_seed(gid, version - 1), ai_review.PLAYOUTS)
        assert d["played"] == move and d["index"] == version - 1
        assert d["chance_played"] == again.chance_played and d["options"] == [
            {"move": o.move, "chance": o.chance} for o in again.options]
        state, _ = rules.apply(state, seat, move)


def test_stored_once_a_second_request_returns_it(blunder_game, pushed):
    gid, alice, bob, _ = blunder_game
    assert alice.post(url(gid)).status_code == 202
    first = alice.get(url(gid)).json()
    n = len(pushed)
    r = bob.post(url(gid))
    assert r.status_code == 200 and r.json() == first
    assert len(pushed) == n  # not computed again
    assert Review.objects.get(pk=gid).listeners == [alice.user.pk, bob.user.pk]


def test_a_failed_review_can_be_requested_again(blunder_game, monkeypatch):
    gid, alice, _bob, _ = blunder_game

    def boom(*args, **kwargs):
        raise RuntimeError("engine trouble")

    with monkeypatch.context() as m:
        m.setattr(ai_review, "review_decision", boom)
        assert alice.post(url(gid)).status_code == 202
    body = alice.get(url(gid)).json()
    assert body["status"] == "failed" and body["decisions"] == []
    r = alice.post(url(gid))
    assert r.status_code == 202 and r.json()["status"] == "queued"
    assert alice.get(url(gid)).json()["status"] == "done"


def test_a_review_whose_task_was_lost_is_queued_again(blunder_game, settings):
    gid, alice, bob, _ = blunder_game
    settings.TASK_MODE = "celery"  # the task goes to a broker nobody reads here: lost for this test
    with mock.patch("games.review.tasks.enqueue") as sent:
        assert alice.post(url(gid)).status_code == 202
        assert sent.call_count == 1
        assert bob.post(url(gid)).status_code == 200  # still queued, recently: not again
        assert sent.call_count == 1
        Review.objects.filter(pk=gid).update(touched_at=timezone.now() - timedelta(seconds=service.STALE_SECONDS + 1))
        r = bob.post(url(gid))
        assert r.status_code == 202 and r.json()["status"] == "queued"
        assert sent.call_count == 2
    settings.TASK_MODE = "eager"
    Review.objects.filter(pk=gid).update(touched_at=timezone.now() - timedelta(seconds=service.STALE_SECONDS + 1))
    assert alice.post(url(gid)).status_code == 202
    assert alice.get(url(gid)).json()["status"] == "done"


def test_no_review_while_the_game_runs(make_api, pushed):
    """Fair play: a running game's review is refused (409) for its players and its spectators, nothing is stored,
    queued or pushed, and no answer of the game's own endpoints carries any evaluation."""
    a, b, watcher = make_api("alice"), make_api("bob"), make_api("walter")
    gid = start_game(a, b, seed=7, watchable=True)
    for api in (a, b, watcher):
        r = api.post(url(gid))
        assert r.status_code == 409, r.content
        assert r.json()["error"]["code"] == "game_not_over"
        assert r.json()["error"]["message"] == "No review while a game is running: fair play."
        assert api.get(url(gid)).json()["error"]["code"] == "game_not_over"
    # half the game, asking before every move
    for _ in range(10):
        view = a.view(gid)
        mover = a if view["my_turn"] else b
        mine = mover.view(gid)
        assert mover.post(url(gid)).status_code == 409
        assert mover.move(gid, mine["version"], mine["legal_moves"][0]).status_code == 201
    assert not Review.objects.filter(pk=gid).exists()
    assert pushed == []
    for api in (a, b, watcher):
        text = repr(api.bodies)
        assert "chance" not in text and "'review'" not in text and "inaccuracy" not in text


def test_an_aborted_game_has_no_review(make_api):
    a, _b = make_api("alice"), make_api("bob")
    game = a.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    assert a.post(f"/api/v1/games/{game['id']}/abort", {}).status_code in (200, 201)
    assert Game.objects.get(pk=game["id"]).status == Game.Status.ABORTED
    r = a.post(url(game["id"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"


def _finished(make_api, *, watchable: bool):
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=3, watchable=watchable)
    assert a.post(f"/api/v1/games/{gid}/resign", {}).status_code == 200
    assert Game.objects.get(pk=gid).status == Game.Status.FINISHED
    return gid, a, b


def test_refusals(make_api, rates):
    gid, alice, _bob = _finished(make_api, watchable=False)
    stranger = make_api("mallory")
    # no such game / a game the caller may not see: 404 (a finished game that was not watchable)
    assert alice.post(url(999999)).status_code == 404
    r = stranger.post(url(gid))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert stranger.get(url(gid)).status_code == 404
    # none requested yet
    r = alice.get(url(gid))
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_review"
    # anonymous, and a token without the scope
    from rest_framework.test import APIClient  # noqa: PLC0415

    assert APIClient().post(url(gid)).status_code == 401
    assert APIClient().get(url(gid)).status_code == 401
    reader = make_api("reader", scopes=["games:read"], user=alice.user)
    r = reader.post(url(gid))
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope"
    # throttled per user (POST only; the 404 above counted)
    rates(review="3/min")
    assert alice.post(url(gid)).status_code == 202
    assert alice.post(url(gid)).status_code == 200
    r = alice.post(url(gid))
    assert r.status_code == 429
    assert alice.get(url(gid)).status_code == 200  # reads are not counted
    assert reader.get(url(gid)).status_code == 200  # games:read reads it


def test_watchers_of_a_watchable_game_may_review_it_unless_blocked(make_api):
    gid, _alice, bob = _finished(make_api, watchable=True)
    watcher, blocked = make_api("walter"), make_api("boris")
    relations.add(bob.user.pk, relations.BLOCK, blocked.user.pk)
    assert watcher.post(url(gid)).status_code == 202
    assert watcher.get(url(gid)).json()["status"] == "done"
    assert blocked.post(url(gid)).status_code == 404
    assert blocked.get(url(gid)).status_code == 404


def test_an_ai_seat_has_no_player_name(make_api):
    alice = make_api("alice")
    game = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])
    gid = game["id"]
    assert alice.post(f"/api/v1/games/{gid}/resign", {}).status_code == 200
    moves = Move.objects.filter(game_id=gid).count()
    assert alice.post(url(gid)).status_code == 202
    decisions = alice.get(url(gid)).json()["decisions"]
    assert len(decisions) == moves
    mine = alice.view(gid)["my_seat"]
    for d in decisions:
        assert d["player"] == ("alice" if d["seat"] == mine else None)


def test_a_kind_without_a_search_is_refused(make_api, monkeypatch):
    """Every kind has a search today; a kind the review does not support answers 409 ``review_unavailable``."""
    monkeypatch.setattr(ai_review, "REVIEW_KINDS", ("claim2",))
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=5, kind="inheritors")
    assert a.post(f"/api/v1/games/{gid}/resign", {}).status_code == 200
    r = a.post(url(gid))
    assert r.status_code == 409 and r.json()["error"]["code"] == "review_unavailable"


def test_a_running_inheritors_game_has_no_review(make_api):
    a, b = make_api("alice"), make_api("bob")
    gid = start_game(a, b, seed=5, kind="inheritors")
    r = a.post(url(gid))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    assert not Review.objects.filter(game_id=gid).exists()


def test_the_review_scope_is_per_user(settings):
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["review"]
    assert settings.CELERY_TASK_ROUTES["review.compute"] == {"queue": "review"}


def test_the_admin_lists_reviews_read_only(blunder_game, make_user):
    gid, alice, _bob, _ = blunder_game
    assert alice.post(url(gid)).status_code == 202
    from django.test import Client  # noqa: PLC0415

    client = Client()
    client.force_login(make_user("op", is_staff=True, is_superuser=True))
    page = client.get("/admin/review/review/")
    assert page.status_code == 200 and str(gid).encode() in page.content
    assert client.get(f"/admin/review/review/{gid}/change/").status_code == 200
    assert client.get("/admin/review/review/add/").status_code == 403


@pytest.fixture(scope="module")
def components():
    from tests.service.test_schema_matches_answers import Components  # noqa: PLC0415 — its validators, reused

    return Components()


@pytest.mark.parametrize(("kind", "seats"), [("claim", 2), ("claim2", 2), ("claim-mix", 3), ("claim-mix", 4),
                                            ("inheritors", 2)])
def test_whole_games_of_every_kind_and_seat_count_answer_as_the_schema_says(make_api, components, kind, seats):
    """A whole game against Squires, reviewed: every answer a ``Review`` of the schema, every decision of every seat
    (AI seats too: ``player`` null), each legal move of the seat then among the options."""
    rng = random.Random(f"{kind}-{seats}")
    alice = make_api("alice")
    body: dict = {"kind": kind, "seats": seats, "opponents": [{"type": "ai", "level": 1}] * (seats - 1)}
    if kind == "claim-mix":
        body["options"] = {"factions": [FACTION_NAMES[f] for f in random_mix(rng, seats)]}
    view = alice.create(**body)
    gid = view["id"]
    assert alice.post(url(gid)).status_code == 409
    while view["status"] == "active":
        if not view["my_turn"]:
            view = alice.view(gid)
            continue
        view = alice.move(gid, view["version"], rng.choice(view["legal_moves"])).json()
    first = alice.post(url(gid))
    assert first.status_code == 202
    components.check("Review", first.json(), "the review requested")
    review = alice.get(url(gid)).json()
    components.check("Review", review, "the review done")
    game = Game.objects.get(pk=gid)
    rules = get_rules(kind)
    state = rules.setup(game.options, game.seat_count, game.seed)
    rows = list(Move.objects.filter(game_id=gid).order_by("number").values_list("seat", "move"))
    assert len(review["decisions"]) == len(rows) == review["progress"]["total"]
    mine = alice.view(gid)["my_seat"]
    for d, (seat, move) in zip(review["decisions"], rows, strict=True):
        legal = rules.legal_moves(state, seat)
        assert d["seat"] == seat and d["played"] == move
        assert d["player"] == ("alice" if seat == mine else None)
        if len(legal) > 1:
            assert sorted(map(canon, (o["move"] for o in d["options"]))) == sorted(map(canon, legal))
            assert all(0.0 <= o["chance"] <= 1.0 for o in d["options"])
        else:
            assert d["options"] == []
        state, _ = rules.apply(state, seat, move)
