"""The spectator's payload (games/spectate/payload.py) and the spectator counts (games/spectate/counts.py)."""

from __future__ import annotations

import json

import pytest

from games.service._common import seats_of
from games.spectate import counts
from games.spectate.payload import now_playing_game, spectator_game
from tests.service.conftest import assert_no_leak, hidden_card_ids, state_at

from .conftest import EVERY_KIND

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("kind", "seats"), EVERY_KIND)
def test_spectator_payload_has_the_spectator_view_and_public_seats(ai_game, kind, seats):
    game, alice = ai_game(kind, seats)
    body = spectator_game(game, seats_of(game), spectators=3)
    assert body["id"] == game.pk and body["kind"] == kind and body["status"] == "active"
    assert body["version"] == game.version and body["watchable"] is True and body["spectators"] == 3
    assert body["view"]["seat"] is None
    assert body["result"] is None
    assert [s["index"] for s in body["seats"]] == list(range(seats))
    assert body["seats"][0]["user"] == {"username": "alice", "name": alice.user.public_name, "is_bot": False}
    assert all(s["user"] is None and s["ai_level"] == 1 and s["ai_name"] for s in body["seats"][1:])
    assert body["clock"] is not None and "seats" in body["clock"]
    text = json.dumps(body)
    # an honor claimed by revealing cards shows them in the public log (``claim_honor.revealed``, I13)
    unlogged = json.dumps({**body, "view": {k: v for k, v in body["view"].items() if k != "log"}})
    for secret in ('"hand"', '"quests"', '"legal_moves"', '"peek"', '"peeked_cards"', '"deck_top"', '"revealed"',
                   '"your_choices"', '"followers"', '"rating"', '"invite_code"'):
        assert secret not in unlogged, secret
    assert str(game.seed) not in text
    if kind != "inheritors":
        assert_no_leak(body, hidden_card_ids(state_at(game), None), game.seed, f"{kind}/{seats}")
    else:
        st = state_at(game)
        private = {c for h in st.hands for c in h} | set(st.deck) | set(st.quest_row) | {q for qs in st.quests
                                                                                          for q in qs}
        logged = json.dumps(body["view"]["log"])
        # a card that came into a hand from the public market shows in the public log (I13); no other card of a
        # hand, the deck or a quest shows anywhere
        leaked = sorted(c for c in private if f'"{c}"' in text and f'"{c}"' not in logged)
        assert not leaked, leaked


def test_the_players_own_payload_is_unchanged(ai_game):
    game, alice = ai_game("claim", 2)
    mine = alice.view(game.pk)
    assert mine["view"]["seat"] == 0 and "hand" in mine["view"]
    assert mine["seats"][0]["you"] is True


def test_now_playing_entry(ai_game):
    game, alice = ai_game("claim-mix", 3)
    body = now_playing_game(game, seats_of(game), spectators=2)
    assert body == {"id": game.pk, "kind": "claim-mix", "rated": game.rated,
                    "seats": [{"username": "alice", "name": alice.user.public_name, "is_bot": False}, None, None],
                    "version": game.version, "moved_at": body["moved_at"], "spectators": 2}
    assert body["moved_at"].endswith("Z")


def test_counts_per_watcher_key(db):
    assert counts.counts([1, 2]) == {1: 0, 2: 0}
    assert counts.watch_started(1, "chan-a") == 1
    assert counts.watch_started(1, "chan-b") == 2
    assert counts.watch_started(1, "chan-a") == 2  # a refresh, not a second watcher
    assert counts.watch_started(2, "chan-a") == 1
    assert counts.counts([1, 2, 3]) == {1: 2, 2: 1, 3: 0}
    assert counts.watch_stopped(1, "chan-a") == 1
    assert counts.watch_stopped(1, "chan-unknown") == 1
    assert counts.watch_stopped(1, "chan-b") == 0
    assert counts.count(1) == 0 and counts.count(2) == 1
    assert counts.counts([]) == {}


def test_counts_forget_a_watcher_without_refresh(db, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(counts.time, "time", lambda: now[0])
    counts.watch_started(5, "a")
    counts.watch_started(5, "b")
    now[0] += counts.WATCHER_TTL - 30
    assert counts.watch_refresh(5, "a") == 2
    now[0] += 31  # b's entry has expired, a's was refreshed
    assert counts.counts([5]) == {5: 1}
    assert counts.watch_started(5, "c") == 2
    now[0] += counts.WATCHER_TTL + 1
    assert counts.count(5) == 0


def test_counts_are_bounded_per_game(db, monkeypatch):
    monkeypatch.setattr(counts, "MAX_WATCHERS", 3)
    for i in range(5):
        counts.watch_started(9, f"k{i}")
    assert counts.count(9) == 3
    assert counts.watch_stopped(9, "k0") == 2
    assert counts.watch_started(9, "k4") == 3
