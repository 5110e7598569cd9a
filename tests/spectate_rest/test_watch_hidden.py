"""No hidden information in ``GET /games/{id}/watch`` (issue 35): games of every kind between humans, played
over the API; after every move an anonymous caller, a stranger and each player read the watch endpoint, and
each body is checked at once against the true engine state of that moment (the hardening suite's spy,
tests/hardening/spy.py): no card of any hand (the reader's own included: it is the spectator view), of the deck
or of a face-down row, and never the seed, before the game ends."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.ai import choose_move
from games.models import Game
from tests.hardening.spy import GameTracker, Spy

from .conftest import watch

pytestmark = pytest.mark.django_db

MIX = {2: {"factions": ["knight", "goblin", "dragon", "troll", "seer"]},
       3: {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "troll", "seer"]},
       4: {"factions": ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]}}
CASES = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 4), ("inheritors", 2), ("inheritors", 3)]
#: Moves played per game (the opening and the middle: every hand is full of hidden cards).
MOVES = 24


@pytest.mark.parametrize(("kind", "seats"), CASES)
def test_no_hidden_card_in_the_watch_payload(player, kind, seats):
    players = [player(f"{'abcd'[s]}{kind}") for s in range(seats)]
    body = {"kind": kind, "seats": seats, "watchable": True,
            "opponents": [{"type": "user", "username": p.user.username} for p in players[1:]]}
    if kind == "claim-mix":
        body["options"] = MIX[seats]
    gid = players[0].create(**body)["id"]
    for p in players[1:]:
        assert p.post(f"/api/v1/games/{gid}/join", {}).status_code == 201
    game = Game.objects.get(pk=gid)
    assert game.watchable and game.status == "active"
    tracker = GameTracker(game)
    anon, stranger = APIClient(), player(f"m{kind}")
    spies = [Spy(tracker, None, who) for who in ("anonymous", "stranger", "a player")]

    def check() -> None:
        tracker.refresh()
        for spy, client in zip(spies, (anon, stranger, players[0]), strict=True):
            r = watch(client, gid)
            assert r.status_code == 200, r.content
            answer = r.json()
            assert answer["view"]["seat"] is None
            text = json.dumps(answer)
            for secret in ('"hand"', '"legal_moves"', '"invite_code"', '"rating"', '"seed"'):
                assert secret not in text, (spy.who, secret)
            spy.check(answer, "watch")

    for turn in range(MOVES):
        check()
        views = [p.view(gid) for p in players]
        mover = next((i for i, v in enumerate(views) if v["my_turn"] and v["legal_moves"]), None)
        if mover is None:
            break
        v = views[mover]
        move = choose_move(kind, 1, v["view"], v["legal_moves"], seed=turn)
        assert players[mover].move(gid, v["version"], move, client_id=f"t{turn}").status_code == 201
    check()
    assert all(spy.checked > 0 for spy in spies)
