"""Bot accounts through the API (issue 26): what a ``bot:play`` token reads, self-contained records, the
list of bots online."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.realtime.presence import mark_online
from games.rules.registry import get_rules

pytestmark = pytest.mark.django_db


def test_a_bot_play_token_reads_its_own_profile(make_api):
    bot = make_api("robo", scopes=["bot:play"], is_bot=True)
    r = bot.get("/api/v1/accounts/me")
    assert r.status_code == 200 and r.json()["username"] == "robo" and r.json()["is_bot"] is True


def test_a_bot_play_token_of_an_ordinary_account_reads_nothing(make_api):
    human = make_api("human", scopes=["bot:play"])  # made directly: the API refuses to issue it (403)
    r = human.get("/api/v1/accounts/me")
    assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_scope"


def test_a_resigned_games_record_says_how_it_ended(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    assert alice.post(f"/api/v1/games/{gid}/resign").status_code == 200
    record = alice.get(f"/api/v1/games/{gid}/record").json()["record"]
    assert record["ended_reason"] == "resigned"
    assert record["result"]["reason"] == "resigned" and record["result"]["winner"] == 1


def test_a_game_that_ended_by_play_keeps_the_engines_result(alice):
    gid = alice.create(kind="claim", opponents=[{"type": "ai", "level": 1}])["id"]
    view = alice.view(gid)
    while view["status"] == "active":
        r = alice.move(gid, view["version"], view["legal_moves"][0])
        assert r.status_code == 201, r.content
        view = alice.view(gid)  # the AI has answered (eager tasks)
    record = alice.get(f"/api/v1/games/{gid}/record").json()["record"]
    assert record["ended_reason"] == "normal"
    assert get_rules("claim").replay_record(record) == record["result"]


def test_bots_online_lists_bots_with_a_live_connection(make_api, api_client_anonymous):
    bot = make_api("robo", scopes=["bot:play"], is_bot=True)
    make_api("sleepy", scopes=["bot:play"], is_bot=True)
    human = make_api("human")
    mark_online(bot.user.pk)
    mark_online(human.user.pk)  # online, but not a bot: never listed
    r = api_client_anonymous.get("/api/v1/bots/online")
    assert r.status_code == 200
    assert r.json() == {"results": [{"username": "robo", "display_name": "robo"}]}


@pytest.fixture
def api_client_anonymous():
    cache.clear()
    return APIClient()
