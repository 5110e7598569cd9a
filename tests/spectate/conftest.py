"""Fixtures for the spectating tests: the game service's API clients (tests/service/conftest.py) and games
played a few moves through the service, of every kind."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.service.conftest import Api, make_api  # noqa: F401 — fixtures used here

ALL = ["games:read", "games:play", "chat:read", "chat:write"]


@pytest.fixture(autouse=True)
def _eager(eager_tasks):
    """Tasks inline (tests/conftest.py): AI turns are played where they are enqueued."""


@pytest.fixture
def player(make_api):  # noqa: F811
    def make(name: str, **kw) -> Api:
        kw.setdefault("scopes", ALL)
        return make_api(name, **kw)

    return make


#: (kind, seats) of every kind of game: Claim and Claim 2 (two seats), the mix with 2-4, Inheritors with 2-4.
EVERY_KIND = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3), ("claim-mix", 4),
              ("inheritors", 2), ("inheritors", 3), ("inheritors", 4)]


#: A legal choice of factions for the mix (M1: a pair plus three singles; 3-4 seats, M3: a pair plus five).
MIX_FACTIONS = {2: ["knight", "goblin", "undead", "dragon", "seer"],
                3: ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"],
                4: ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]}


def play_a_few(api: Api, game_id: int, moves: int) -> None:
    """``api`` (a seat against the AI) makes up to ``moves`` of its legal moves (the first each time); the AI
    answers inline."""
    for i in range(moves):
        v = api.view(game_id)
        if not v["my_turn"]:
            return
        r = api.move(game_id, v["version"], v["legal_moves"][0], client_id=f"m{i}")
        assert r.status_code == 201, r.content


@pytest.fixture
def ai_game(player):
    """``ai_game(kind, seats, moves=4, watchable=True)``: ``(game, alice)``: alice against AI seats, a few moves
    played through the service."""

    def make(kind: str = "claim", seats: int = 2, moves: int = 4, watchable: bool = True):
        alice = player("alice")
        body = {"kind": kind, "seats": seats, "opponents": [{"type": "ai", "level": 1}] * (seats - 1)}
        if kind == "claim-mix":
            body["options"] = {"factions": MIX_FACTIONS[seats]}
        created = alice.create(**body)
        Game.objects.filter(pk=created["id"]).update(watchable=watchable)
        play_a_few(alice, created["id"], moves)
        return Game.objects.get(pk=created["id"]), alice

    return make
