"""The operator's side (issue 35): a report in the Django admin shows the line, its neighbours and the game, escaped;
actions hide lines, take away a user's chat and resolve reports. And the data export's chat sections."""

from __future__ import annotations

import pytest
from django.test import Client

from games.chat import service
from games.chat.models import ChatMessage, Report
from games.chat.privacy import personal_data_sections

from .conftest import say

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator(make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def _reported(table):
    gid, a, b = table()
    for i in range(3):
        say(a, gid, text=f"before {i}")
    mid = say(b, gid, text="<b>rude</b>").json()["id"]
    say(a, gid, text="after")
    rid = a.post("/api/v1/reports", {"username": "bob", "game_id": gid, "message_id": mid, "reason": "abuse"}).json()
    return gid, a, b, mid, rid["id"]


def test_report_page_shows_the_line_its_neighbours_and_the_game(table, operator):
    gid, _, _, _, rid = _reported(table)
    page = operator.get(f"/admin/chat/report/{rid}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "before 0" in html and "after" in html and f"Game {gid}" in html
    assert "&lt;b&gt;rude&lt;/b&gt;" in html and "<b>rude</b>" not in html
    assert operator.get("/admin/chat/report/").status_code == 200
    assert operator.get("/admin/chat/chatmessage/").status_code == 200


def test_admin_actions_hide_ban_resolve(table, operator, django_capture_on_commit_callbacks):
    gid, a, b, mid, rid = _reported(table)
    for action in ("hide_reported", "ban_reported", "resolve"):
        with django_capture_on_commit_callbacks(execute=True):
            r = operator.post("/admin/chat/report/", {"action": action, "_selected_action": [rid]})
        assert r.status_code == 302, action
    assert ChatMessage.objects.get(pk=mid).hidden
    b.user.refresh_from_db()
    assert b.user.chat_banned
    assert Report.objects.get(pk=rid).status == "resolved"
    assert mid not in [m["id"] for m in a.get(f"/api/v1/games/{gid}/chat").json()["results"]]
    assert say(b, gid, text="again").json()["error"]["code"] == "chat_banned"


def test_chat_message_admin_hide(table, operator):
    gid, a, _ = table()
    mid = say(a, gid, text="x").json()["id"]
    r = operator.post("/admin/chat/chatmessage/", {"action": "hide_lines", "_selected_action": [mid]})
    assert r.status_code == 302 and ChatMessage.objects.get(pk=mid).hidden
    assert service.hide([mid]) == 0  # already hidden


def test_export_has_own_lines_and_reports_made(table):
    _, a, b, mid, rid = _reported(table)
    sections = {s.name: s for s in personal_data_sections(None)}
    lines = sections["chat_messages"].page(b.user, None, 100)
    assert [line["id"] for line in lines] == [mid] and lines[0]["text"] == "<b>rude</b>"
    assert [r["id"] for r in sections["reports"].page(a.user, None, 100)] == [rid]
    assert sections["reports"].page(b.user, None, 100) == []
