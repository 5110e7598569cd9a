"""Table chat through the API (issue 35; docs/api.md, "Chat"): phrases, history, posting and every refusal,
read markers and ``unread_chat``, reports, scopes, rates, the record."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import relations
from accounts.models import ApiToken
from accounts.services import delete_account
from games.chat import service
from games.chat.models import ChatMessage, Report
from games.chat.textcheck import problem
from games.models import Game
from games.notify.models import Notification, Preference
from games.notify.service import digest_text
from games.realtime.presence import mark_present

from .conftest import finish, page, say

pytestmark = pytest.mark.django_db


def err(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.content
    body = r.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body


def test_phrases_in_the_callers_language(chatter):
    a = chatter("alice")
    r = a.get("/api/v1/chat/phrases")
    assert r.status_code == 200
    codes = [p["code"] for p in r.json()]
    assert codes[:3] == ["hello", "good_luck", "have_fun"] and "sorry_slow" in codes and len(codes) == 10
    a.user.language = "de"
    a.user.save()
    assert {p["code"]: p["text"] for p in a.get("/api/v1/chat/phrases").json()}["well_played"] == "Gut gespielt!"


def test_players_chat_phrase_localized_per_reader_and_free_text(table):
    gid, a, b = table()
    b.user.language = "cs"
    b.user.save()
    r = say(a, gid, phrase="good_luck")
    assert r.status_code == 201, r.content
    line = r.json()
    assert line["room"] == "players" and line["phrase"] == "good_luck" and line["text"] == "Good luck!"
    assert line["author"] == {"username": "alice", "name": a.user.public_name, "is_bot": False}
    r = say(b, gid, text="  <script>alert(1)</script> javascript:x  ")
    assert r.status_code == 201 and r.json()["text"] == "<script>alert(1)</script> javascript:x"
    got = page(b, gid).json()
    assert [m["text"] for m in got["results"]] == ["Hodně štěstí!", "<script>alert(1)</script> javascript:x"]
    assert got["before"] is None


@pytest.mark.parametrize(("body", "why"), [
    ({"phrase": "hello", "text": "hi"}, "both"),
    ({}, "neither"),
    ({"phrase": "lol"}, "unknown phrase"),
    ({"text": "   "}, "empty"),
    ({"text": "x" * 141}, "too long"),
    ({"text": "a\u202Eb"}, "bidi override"),
    ({"text": "a\u2066b"}, "bidi isolate"),
    ({"text": "a\nb"}, "line break (C0)"),
    ({"text": "a\x85b"}, "C1 control"),
    ({"text": 5}, "not a string"),
    ({"text": "hi", "colour": "red"}, "unknown field"),
    ({"text": "hi", "room": "lobby"}, "unknown room"),
])
def test_invalid_lines_are_400(table, body, why):
    gid, a, _ = table()
    err(say(a, gid, **body), 400, "invalid")
    assert not ChatMessage.objects.exists(), why


@pytest.mark.parametrize("raw", ['{"text": "a\\ud800b"}', '{"text": "a\\u0000b"}'])
def test_lone_surrogate_and_nul_are_400(table, raw):
    gid, a, _ = table()
    r = a.post(f"/api/v1/games/{gid}/chat", raw, content_type="application/json")
    err(r, 400, "parse_error")  # the API's JSON parser refuses them before the chat sees them (claim/parsers.py)


def test_the_chat_itself_refuses_lone_surrogates():
    assert "surrogate" in problem("a\ud800b")


def test_140_characters_after_stripping_are_fine(table):
    gid, a, _ = table()
    r = say(a, gid, text="  " + "é" * 140 + "\t ".strip())
    assert r.status_code == 201, r.content


def test_not_a_player_and_not_watchable(table, chatter):
    gid, _, _ = table()
    m = chatter("mallory")
    err(say(m, gid, text="hi"), 404, "not_found")
    err(say(m, gid, room="players", text="hi"), 404, "not_found")
    err(page(m, gid), 404, "not_found")
    err(say(m, 999999, text="hi"), 404, "not_found")
    assert say(m, 999999, text="hi").json()["error"]["message"] == say(m, gid, text="hi").json()["error"]["message"]


def test_invited_player_not_joined_is_not_a_player(chatter):
    a, b = chatter("alice"), chatter("bob")
    game = a.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    err(say(b, game["id"], text="hi"), 403, "not_a_player")
    assert say(a, game["id"], phrase="hello").status_code == 201  # the creator is seated while waiting


def test_chat_banned(table):
    gid, a, _ = table()
    a.user.chat_banned = True
    a.user.save()
    err(say(a, gid, text="hi"), 403, "chat_banned")


def test_block_in_a_two_player_game(table):
    gid, a, b = table()
    relations.add(b.user.pk, relations.BLOCK, a.user.pk)
    err(say(a, gid, text="hi"), 403, "blocked")
    err(say(b, gid, text="hi"), 403, "blocked")  # either direction


def test_muted_lines_are_left_out_of_history_for_the_muter(table):
    gid, a, b = table()
    assert say(a, gid, text="one").status_code == 201
    relations.add(b.user.pk, relations.MUTE, a.user.pk)
    assert say(a, gid, text="two").status_code == 201  # muting does not stop the author
    assert page(b, gid).json()["results"] == []
    assert [m["text"] for m in page(a, gid).json()["results"]] == ["one", "two"]


def test_aborted_before_start_is_closed(chatter):
    a = chatter("alice")
    chatter("bob")
    game = a.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    assert a.post(f"/api/v1/games/{game['id']}/abort", {}).status_code in (200, 201)
    err(say(a, game["id"], text="hi"), 409, "chat_closed")


def test_history_pages_backward_by_id(table):
    gid, a, _ = table()
    ids = [say(a, gid, text=f"m{i}").json()["id"] for i in range(7)]
    first = page(a, gid, limit=3).json()
    assert [m["id"] for m in first["results"]] == ids[4:]
    second = page(a, gid, limit=3, before=first["before"]).json()
    assert [m["id"] for m in second["results"]] == ids[1:4]
    third = page(a, gid, limit=3, before=second["before"]).json()
    assert [m["id"] for m in third["results"]] == ids[:1] and third["before"] is None
    for bad in ({"limit": 0}, {"limit": 101}, {"limit": "x"}, {"before": "-1"}, {"room": "x"}):
        err(page(a, gid, **bad), 400, "invalid")


def test_hidden_lines_are_left_out_and_other_games_lines_never_leak(table):
    gid, a, b = table()
    keep = say(a, gid, text="keep").json()["id"]
    gone = say(a, gid, text="gone").json()["id"]
    assert service.hide([gone]) == 1
    assert [m["id"] for m in page(b, gid).json()["results"]] == [keep]
    gid2, _, _ = table_other(a, b)
    assert page(a, gid2).json()["results"] == []


def table_other(a, b):
    game = a.create(kind="claim", opponents=[{"type": "user", "username": "bob"}])
    b.post(f"/api/v1/games/{game['id']}/join", {})
    return game["id"], a, b


def test_spectators_room_closed_to_players_until_the_end(table):
    gid, a, b = table()
    err(say(a, gid, room="spectators", text="hi"), 409, "chat_closed")
    err(page(a, gid, room="spectators"), 403, "chat_closed")
    finish(gid, a)
    assert page(a, gid, room="spectators").status_code == 200
    assert say(b, gid, room="players", phrase="good_game").status_code == 201  # after the end: still the players'


@pytest.mark.usefixtures("watch")
def test_spectators_read_and_write_their_room_only(table, chatter):
    gid, a, _ = table()
    s = chatter("sam")
    r = say(s, gid, text="nice")  # default room for a non-player: spectators
    assert r.status_code == 201 and r.json()["room"] == "spectators"
    err(say(s, gid, room="players", text="hi"), 409, "chat_closed")
    err(page(s, gid, room="players"), 403, "not_a_player")
    assert [m["text"] for m in page(s, gid).json()["results"]] == ["nice"]
    finish(gid, a)
    assert page(s, gid, room="players").status_code == 200
    assert [m["text"] for m in page(a, gid, room="spectators").json()["results"]] == ["nice"]


@pytest.mark.usefixtures("watch")
def test_spectator_blocked_by_a_player_cannot_watch(table, chatter):
    gid, a, _ = table()
    s = chatter("sam")
    relations.add(a.user.pk, relations.BLOCK, s.user.pk)
    err(say(s, gid, text="hi"), 404, "not_found")
    err(page(s, gid), 404, "not_found")


def test_finished_game_chat_is_public_to_users_and_in_the_record(table, chatter):
    gid, a, b = table()
    say(a, gid, phrase="good_luck")
    gone = say(b, gid, text="rude").json()["id"]
    service.hide([gone])
    err(a.get(f"/api/v1/games/{gid}/record"), 409, "not_finished")
    finish(gid, a)
    say(b, gid, phrase="good_game")
    r = a.get(f"/api/v1/games/{gid}/record")
    assert r.status_code == 200
    assert [m["phrase"] for m in r.json()["chat"]] == ["good_luck", "good_game"]
    etag = r["ETag"]
    assert a.client.get(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH=etag).status_code == 304
    say(a, gid, phrase="thanks")
    r2 = a.client.get(f"/api/v1/games/{gid}/record", HTTP_IF_NONE_MATCH=etag)
    assert r2.status_code == 200 and r2["ETag"] != etag  # a new line changes the record
    m = chatter("mallory")
    assert [x["phrase"] for x in page(m, gid, room="players").json()["results"]] == ["good_luck", "good_game",
                                                                                      "thanks"]
    assert a.client.get(f"/api/v1/games/{gid}/record").json()["chat"][-1]["phrase"] == "thanks"


def test_read_marker_and_unread_chat_in_the_inbox(table, chatter):
    gid, a, b = table()
    for i in range(3):
        say(a, gid, text=f"m{i}")
    last = say(a, gid, text="m3").json()["id"]
    inbox = {g["id"]: g for g in b.get("/api/v1/games").json()["results"]}
    assert inbox[gid]["unread_chat"] == 4
    assert {g["id"]: g for g in a.get("/api/v1/games").json()["results"]}[gid]["unread_chat"] == 0  # own lines
    r = b.post(f"/api/v1/games/{gid}/chat/read", {"last_id": last - 1})
    assert r.status_code == 200 and r.json()["unread_chat"] == 1
    r = b.post(f"/api/v1/games/{gid}/chat/read", {"last_id": 1})  # never back
    assert r.json()["last_id"] == last - 1
    relations.add(b.user.pk, relations.MUTE, a.user.pk)
    assert {g["id"]: g for g in b.get("/api/v1/games").json()["results"]}[gid]["unread_chat"] == 0
    err(b.post(f"/api/v1/games/{gid}/chat/read", {"last_id": "1"}), 400, "invalid")
    err(chatter("mallory").post(f"/api/v1/games/{gid}/chat/read", {"last_id": 1}), 404, "not_found")


def test_unread_counts_are_three_queries_for_a_page(table, django_assert_max_num_queries):
    gid, a, b = table()
    say(a, gid, text="hi")
    games = [Game.objects.get(pk=gid)]
    with django_assert_max_num_queries(3):
        assert service.unread_counts(b.user, games) == {gid: 1}


def test_scopes(table, make_api):
    gid, a, _ = table()
    plain = make_api("carol", scopes=["games:read", "games:play"])
    err(plain.get("/api/v1/chat/phrases"), 403, "insufficient_scope")
    reader = ApiToken.issue(a.user, "r", ["chat:read"])[1]
    a.client.credentials(HTTP_AUTHORIZATION=f"Bearer {reader}")
    assert a.get(f"/api/v1/games/{gid}/chat").status_code == 200
    err(say(a, gid, text="hi"), 403, "insufficient_scope")
    assert a.post(f"/api/v1/games/{gid}/chat/read", {"last_id": 0}).status_code == 200  # marking read is reading
    err(a.post("/api/v1/reports", {"username": "bob", "reason": "spam"}), 403, "insufficient_scope")


def test_bot_play_tokens_may_chat(make_api):
    a = make_api("alice", scopes=["games:read", "games:play"])
    bot = make_api("robo", scopes=["bot:play"], is_bot=True)
    game = a.create(kind="claim", opponents=[{"type": "user", "username": "robo"}])
    assert bot.post(f"/api/v1/games/{game['id']}/join", {}).status_code == 201
    assert say(bot, game["id"], phrase="well_played").status_code == 201
    assert bot.get(f"/api/v1/games/{game['id']}/chat").status_code == 200


def test_too_fast_is_429_with_ratelimit_fields(table, rates):
    rates(chat="8/min", chat_burst="3/10s")
    gid, a, _ = table()
    for _ in range(3):
        r = say(a, gid, phrase="hello")
        assert r.status_code == 201
        assert '"chat";q=8;w=60' in r["RateLimit-Policy"] and '"chat_burst";q=3;w=10' in r["RateLimit-Policy"]
    r = say(a, gid, phrase="hello")
    err(r, 429, "throttled")
    assert "Retry-After" in r and '"chat_burst";r=0' in r["RateLimit"]
    assert a.get(f"/api/v1/games/{gid}/chat").status_code == 200  # reading is not counted


def test_chat_message_notification_not_while_the_game_is_open_and_once_until_read(table):
    gid, a, b = table()
    say(a, gid, text="hi")
    notes = list(Notification.objects.filter(user=b.user, event="chat_message"))
    assert len(notes) == 1 and notes[0].data["url"] == f"/#/game/{gid}?chat=1"
    assert "alice" in notes[0].title.lower() or a.user.public_name in notes[0].title
    say(a, gid, text="again")
    assert Notification.objects.filter(user=b.user, event="chat_message").count() == 1
    assert not Notification.objects.filter(user=a.user, event="chat_message").exists()


def test_no_notification_for_a_muter(table):
    gid, a, b = table()
    relations.add(b.user.pk, relations.MUTE, a.user.pk)
    say(a, gid, text="hi")
    assert not Notification.objects.filter(user=b.user, event="chat_message").exists()


def test_reports(table, chatter, rates):
    gid, a, b = table()
    mid = say(b, gid, text="rude").json()["id"]
    r = a.post("/api/v1/reports", {"username": "bob", "game_id": gid, "message_id": mid, "reason": "abuse",
                                   "note": "  insults "})
    assert r.status_code == 201 and r.json()["status"] == "open"
    rep = Report.objects.get(pk=r.json()["id"])
    assert (rep.user, rep.message_id, rep.game_id, rep.note) == (b.user, mid, gid, "insults")
    err(a.post("/api/v1/reports", {"username": "nobody", "reason": "spam"}), 400, "invalid")
    err(a.post("/api/v1/reports", {"username": "alice", "reason": "spam"}), 400, "invalid")
    err(a.post("/api/v1/reports", {"username": "bob", "reason": "meh"}), 400, "invalid")
    err(a.post("/api/v1/reports", {"username": "bob", "reason": "spam", "note": "x" * 501}), 400, "invalid")
    mine = say(a, gid, text="mine").json()["id"]
    err(a.post("/api/v1/reports", {"username": "bob", "message_id": mine, "reason": "spam"}), 400, "invalid")
    gid2, _, _ = table_other(a, b)
    err(a.post("/api/v1/reports", {"username": "bob", "game_id": gid2, "message_id": mid, "reason": "spam"}),
        400, "invalid")  # another game's message id
    m = chatter("mallory")
    err(m.post("/api/v1/reports", {"username": "bob", "message_id": mid, "reason": "spam"}), 400, "invalid")
    err(m.post("/api/v1/reports", {"username": "bob", "game_id": gid, "reason": "spam"}), 404, "not_found")
    assert m.post("/api/v1/reports", {"username": "bob", "reason": "cheating"}).status_code == 201
    rates(reports="1/hour")
    c = chatter("carol")
    assert c.post("/api/v1/reports", {"username": "bob", "reason": "spam"}).status_code == 201
    err(c.post("/api/v1/reports", {"username": "bob", "reason": "spam"}), 429, "throttled")


def test_account_deletion_and_export(table):
    gid, a, b = table()
    mid = say(b, gid, text="mine").json()["id"]
    a.post("/api/v1/reports", {"username": "bob", "message_id": mid, "reason": "abuse"})
    b.post("/api/v1/reports", {"username": "alice", "reason": "spam"})
    delete_account(b.user)
    assert not ChatMessage.objects.filter(author=b.user).exists()
    assert not Report.objects.filter(reporter=b.user).exists()
    kept = Report.objects.get(reporter=a.user)
    assert kept.user_id == b.user.pk and kept.message_id is None


def test_no_chat_message_while_the_recipient_has_the_game_open(table):

    gid, a, b = table()
    mark_present(b.user.pk, gid)
    say(a, gid, text="hi")
    assert not Notification.objects.filter(user=b.user, event="chat_message").exists()


def test_chat_message_preference_per_channel_and_digest(table):


    gid, a, b = table()
    b.user.language = "de"
    b.user.save()
    say(a, gid, text="hi")
    text = digest_text(b.user, timezone.now() - timedelta(hours=1))
    assert text is not None and "hat in" in text and "geschrieben" in text  # the chat line in German
    Notification.objects.all().delete()
    Preference.objects.create(user=b.user, event="chat_message", inapp=False, push=False, email=False)
    say(a, gid, text="again")
    assert not Notification.objects.filter(user=b.user, event="chat_message").exists()
    r = b.get("/api/v1/notifications/preferences")
    assert r.status_code == 200 and "chat_message" in str(r.json())


def test_a_block_in_a_three_player_game_hides_lines_both_ways_without_refusing(chatter):
    a, b, c = chatter("alice"), chatter("bob"), chatter("carol")
    game = a.create(kind="inheritors", seats=3, opponents=[{"type": "user", "username": "bob"},
                                                           {"type": "user", "username": "carol"}])
    gid = game["id"]
    for api in (b, c):
        assert api.post(f"/api/v1/games/{gid}/join", {}).status_code == 201
    relations.add(c.user.pk, relations.BLOCK, a.user.pk)
    assert say(a, gid, text="hi all").status_code == 201  # three humans: the table still talks
    assert say(c, gid, text="hi bob").status_code == 201
    assert [m["text"] for m in page(b, gid).json()["results"]] == ["hi all", "hi bob"]
    assert page(c, gid).json()["results"][0]["text"] == "hi bob" and len(page(c, gid).json()["results"]) == 1
    assert [m["text"] for m in page(a, gid).json()["results"]] == ["hi all"]
    assert not Notification.objects.filter(user=c.user, event="chat_message").exists()
    assert not Notification.objects.filter(user=a.user, event="chat_message").exists()
