"""Hidden information never leaves the server before the end: every payload each seat and a stranger
receive is checked against the engine state of that moment (no card of another seat's hand or of the deck
that this seat has not seen, no seed). The AI is checked too: it is only ever handed its seat's view."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from games.models import Game
from games.rules.cards import CARD_ID
from games.service import create_game
from games.service import moves as service_moves

from .conftest import Api, assert_no_leak, hidden_card_ids, state_at

pytestmark = pytest.mark.django_db


def _move_count_of(body: Any, gid: int) -> int | None:
    if isinstance(body, dict):
        if body.get("id") == gid and "move_count" in body:
            return body["move_count"]
        err = body.get("error")
        if isinstance(err, dict) and isinstance(err.get("view"), dict):
            return err["view"]["move_count"]
    return None


def check_body(body: Any, game: Game, seat: int | None, where: str) -> None:
    game.refresh_from_db()
    if game.status == "finished":
        return
    st = state_at(game, _move_count_of(body, game.pk))
    assert_no_leak(body, hidden_card_ids(st, seat), game.seed, where)


class Spy:
    """Sends every request through an Api and checks the body for the requester's seat."""

    def __init__(self, api: Api, game: Game, seat: int | None) -> None:
        self.api, self.game, self.seat = api, game, seat
        self.checked = 0

    def _check(self, response, where: str):
        self.checked += 1
        if self.game.status != "finished":
            check_body(response.json(), self.game, self.seat, f"{self.api.user.username} {where}")
        return response

    def get(self, path: str, params: dict | None = None):
        return self._check(self.api.get(path, params), f"GET {path}")

    def post(self, path: str, data: Any = None):
        return self._check(self.api.post(path, data), f"POST {path}")

    def look_around(self, gid: int, everything: bool = False) -> None:
        """The read endpoints: view, inbox and history; with ``everything`` also the whole history, record
        and replay (409 before the end)."""
        self.get(f"/api/v1/games/{gid}")
        self.get(f"/api/v1/games/{gid}/history", {"from_version": max(0, self.game.version - 3)})
        if everything:
            self.get("/api/v1/games", {"status": "all"})
            self.get(f"/api/v1/games/{gid}/history", {"limit": 500})
            self.get(f"/api/v1/games/{gid}/record")
            self.get(f"/api/v1/games/{gid}/replay", {"step": 1})


@pytest.fixture
def ai_spy(monkeypatch):
    """Wrap the AI: check the view it is handed against the true state of its game at that moment."""
    calls: list[int] = []
    real = service_moves.choose_move

    def spying_choose_move(kind, level, view, legal, seed):
        seat = view["seat"]
        game = Game.objects.filter(kind=kind, status="active", seats__index=seat, seats__to_act=True,
                                   seats__ai_level__isnull=False).order_by("-updated_at").first()
        st = state_at(game)
        assert_no_leak({"view": view, "legal": legal}, hidden_card_ids(st, seat), game.seed, "AI input")
        calls.append(seat)
        return real(kind, level, view, legal, seed)

    monkeypatch.setattr(service_moves, "choose_move", spying_choose_move)
    return calls


def test_human_vs_ai_payloads_never_leak(alice, stranger, ai_spy, caplog):
    caplog.set_level(logging.DEBUG)
    gid = alice.create(kind="claim2", opponents=[{"type": "ai", "level": 1}])["id"]
    game = Game.objects.get(pk=gid)
    me, them = Spy(alice, game, 0), Spy(stranger, game, None)
    for i in range(300):
        me.look_around(gid, everything=i % 3 == 0)
        view = me.get(f"/api/v1/games/{gid}").json()
        if i % 5 == 0:
            them.look_around(gid, everything=True)
            # a stranger finds no active game; a finished one is a public record
            assert them.get(f"/api/v1/games/{gid}").status_code == (404 if view["status"] == "active" else 200)
        if view["status"] != "active":
            break
        r = me.post(f"/api/v1/games/{gid}/moves", {"version": view["version"], "move": view["legal_moves"][0],
                                                   "client_id": f"x{i}"})
        assert r.status_code == 201
        # a stale retry gets the current view in the error body: checked too
        assert me.post(f"/api/v1/games/{gid}/moves", {"version": view["version"],
                                                      "move": view["legal_moves"][0]}).status_code == 409
    game.refresh_from_db()
    assert game.status == "finished"
    assert len(ai_spy) > 20 and me.checked > 100
    _assert_logs_clean(caplog, game)


def test_human_vs_human_payloads_never_leak(alice, bob, stranger):
    gid = alice.create(kind="claim", opponents=[{"type": "open"}])["id"]
    game = Game.objects.get(pk=gid)
    code = alice.view(gid)["invite_code"]
    assert bob.post("/api/v1/games/join", {"code": code}).status_code == 201
    spies = {0: Spy(alice, game, 0), 1: Spy(bob, game, 1)}
    them = Spy(stranger, game, None)
    for i in range(200):
        for spy in spies.values():
            spy.look_around(gid, everything=i % 4 == 0)
        if i % 8 == 0:
            them.look_around(gid, everything=True)
        view = spies[0].get(f"/api/v1/games/{gid}").json()
        if view["status"] != "active":
            break
        (seat,) = view["to_act"]
        mover, waiting = spies[seat], spies[1 - seat]
        mine = mover.get(f"/api/v1/games/{gid}").json()
        assert waiting.post(f"/api/v1/games/{gid}/moves",
                            {"version": mine["version"], "move": mine["legal_moves"][0]}).status_code == 409
        r = mover.post(f"/api/v1/games/{gid}/moves", {"version": mine["version"], "move": mine["legal_moves"][-1],
                                                       "client_id": f"h{i}"})
        assert r.status_code == 201
        assert waiting.post(f"/api/v1/games/{gid}/moves",
                            {"version": mine["version"], "move": {"play": "goblin-0"}}).status_code == 409
    game.refresh_from_db()
    assert game.status == "finished"


def test_ai_vs_ai_ai_sees_only_its_view(make_user, ai_spy, django_capture_on_commit_callbacks, caplog):
    caplog.set_level(logging.DEBUG)
    owner = make_user("owner")
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(owner, "claim", opponents=[{"type": "ai", "level": 1}, {"type": "ai", "level": 2}],
                           seat=None)
    game.refresh_from_db()
    assert game.status == "finished"
    assert sorted(set(ai_spy)) == [0, 1] and len(ai_spy) == 52
    _assert_logs_clean(caplog, game)


def _assert_logs_clean(caplog, game: Game) -> None:
    """No log line carries a card id or the seed."""
    ids = set(CARD_ID.values())
    for record in caplog.records:
        text = record.getMessage()
        assert str(game.seed) not in text
        assert not [c for c in ids if c in text], text


def test_admin_never_shows_secrets_of_active_games(alice, make_user, client):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    game = Game.objects.get(pk=gid)
    view = alice.view(gid)
    assert view["status"] == "active"
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    hand = state_at(game).hands
    secret_cards = {c for h in hand for c in h}

    for url in ("/admin/games/game/", f"/admin/games/game/{gid}/change/", "/admin/games/move/",
                "/admin/games/gameevent/"):
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.content.decode()
        assert str(game.seed) not in text, url
        assert '"hands"' not in text and "&quot;hands&quot;" not in text, url
    change = client.get(f"/admin/games/game/{gid}/change/").content.decode()
    assert "field-seed" not in change and "field-state" not in change and "field-status" in change
    move = game.moves.order_by("number").first()
    if move is not None:
        text = client.get(f"/admin/games/move/{move.pk}/change/").content.decode()
        assert "field-number" in text and "field-response" not in text and "field-move" not in text
        for c in secret_cards:
            if CARD_ID[c] not in json.dumps(move.move):
                assert f"&quot;{CARD_ID[c]}&quot;" not in text
    # once the game has ended, the admin may show everything
    Game.objects.filter(pk=gid).update(status="finished")
    text = client.get(f"/admin/games/game/{gid}/change/").content.decode()
    assert str(game.seed) in text and "field-state" in text
