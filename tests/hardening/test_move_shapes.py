"""Issue 22 item 1: every game declares the exact shapes of its moves (games/rules/moveshape.py); a move of
no such shape is refused with a 400 naming the problem before the engine sees it, on the Django path and on
the fast move path (which hands anything unusual to Django).

The class: unknown keys, missing keys, nesting, size, wrong types, NUL and lone surrogates, in every game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import FACTION_NAMES
from games.rules.claim.options import random_mix
from games.rules.moveshape import MalformedMove, check_move
from games.rules.registry import GAMES, get_rules

DEEP = json.loads("[" * 600 + "]" * 600)

# (kind, seats) of every game kind and seat count the service offers
KINDS = [("claim", 2), ("claim2", 2), ("claim-mix", 2), ("claim-mix", 3), ("claim-mix", 4),
         ("inheritors", 2), ("inheritors", 3), ("inheritors", 4)]


def _options(kind: str, seats: int, seed: int) -> dict | None:
    if kind == "claim-mix":
        return {"factions": [FACTION_NAMES[f] for f in random_mix(random.Random(seed), seats)]}
    return None


def test_every_game_declares_its_move_shapes():
    for kind, rules in GAMES.items():
        assert rules.move_shapes, kind


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(KINDS), seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False))
def test_every_legal_move_of_a_random_game_has_a_declared_shape(game, seed, rnd):
    """The shapes never refuse a legal move: random games to the end, every legal move of every seat to act
    checked (no test could pass by declaring too little)."""
    kind, seats = game
    rules = get_rules(kind)
    state = rules.setup(_options(kind, seats, seed), seats, seed)
    for _ in range(2000):
        if rules.is_over(state):
            break
        seat = sorted(rules.to_act(state))[0]
        legal = rules.legal_moves(state, seat)
        for move in legal:
            check_move(rules.move_shapes, move)
        state, _ = rules.apply(state, seat, rnd.choice(legal))
    assert rules.is_over(state)


MALFORMED = {
    "unknown extra key with deep nesting": ({"x": DEEP}, "unknown key"),
    "unknown key": ({"steal": "everything"}, "unknown key"),
    "not an object": (["play"], "non-empty JSON object"),
    "empty": ({}, "non-empty JSON object"),
    "value nested": ({"claim_clan": [[["wolf"]]]}, "must be text"),
    "NUL in value": ({"claim_clan": "wo\x00lf"}, "forbidden character"),
    "lone surrogate in value": ({"claim_clan": "\ud800"}, "forbidden character"),
    "bidi in value": ({"claim_clan": "\u202ewolf"}, "forbidden character"),
    "NUL in key": ({"claim_clan\x00": "wolf"}, "forbidden character"),
    "huge text": ({"claim_clan": "w" * 10_000}, "1 to 64 characters"),
    "bool as pile": ({"take_pile": True}, "whole number"),
    "pile out of range": ({"take_pile": 7}, "whole number from 0 to 2"),
    "true flag false": ({"end_turn": False}, "must be true"),
    "list too long": ({"action": "quest", "cards": ["a"] * 1000, "piles": [0] * 1000}, "list of 3"),
    "unknown action": ({"action": "steal", "card": "x"}, "must be one of"),
    "too many keys": ({f"k{i}": 1 for i in range(50)}, "no move of that shape"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_inheritors_refuses_each_malformed_shape_naming_the_problem(name):
    move, words = MALFORMED[name]
    with pytest.raises(MalformedMove) as refused:
        check_move(get_rules("inheritors").move_shapes, move)
    assert words in str(refused.value)


@pytest.mark.parametrize("move", [{"play": "knight-7", "x": DEEP}, {"seer": "later"}, {"play": 7},
                                  {"play": "knight-7\x00"}, {"giant": 0, "play": "knight-7"},
                                  {"smash": True}, {"smash": "1"}, {"smash": 9}, {"smash": [1]}])
def test_claim_refuses_malformed_shapes(move):
    for kind in ("claim", "claim2", "claim-mix"):
        with pytest.raises(MalformedMove):
            check_move(get_rules(kind).move_shapes, move)


# ------------------------------------------------------------------------------------------ through the API
@pytest.fixture
def inheritors_duel(make_api):
    alice, bob = make_api("alice"), make_api("bob")
    game = alice.create(kind="inheritors", opponents=[{"type": "user", "username": "bob"}])
    assert bob.post(f"/api/v1/games/{game['id']}/join", {}).status_code == 201
    va = alice.view(game["id"])
    mover, view = (alice, va) if va["my_turn"] else (bob, bob.view(game["id"]))
    return game["id"], mover, view


@pytest.mark.django_db
@pytest.mark.parametrize("accept", ["text/html", "application/json"])
def test_a_legal_move_with_a_deep_extra_key_is_a_400_naming_it_and_shows_no_state(inheritors_duel, accept):
    """The attack of issue 22 item 1: a legal move plus an extra key nested 600 deep, asking for HTML."""
    gid, mover, view = inheritors_duel
    legal = view["legal_moves"][0]
    body = json.dumps({"version": view["version"], "move": {**legal, "x": json.loads("[" * 12 + "]" * 12)}})
    r = mover.client.post(f"/api/v1/games/{gid}/moves", body, content_type="application/json", HTTP_ACCEPT=accept)
    assert r.status_code == 400 and r["Content-Type"] == "application/json", r.content[:300]
    error = r.json()["error"]
    assert error["code"] == "illegal_move" and 'unknown key "x"' in error["message"]
    assert "hand" not in r.content.decode() and "deck" not in r.content.decode()
    deep = json.dumps({"version": view["version"], "move": {**legal, "x": DEEP}})
    r = mover.client.post(f"/api/v1/games/{gid}/moves", deep, content_type="application/json", HTTP_ACCEPT=accept)
    assert r.status_code == 400 and r.json()["error"]["code"] == "parse_error", r.content[:300]
    assert "nested deeper" in r.json()["error"]["message"]
    assert mover.view(gid)["version"] == view["version"]
