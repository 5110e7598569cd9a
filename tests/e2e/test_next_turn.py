"""The game screen's bar (issue 33), at 360x740 in Chromium against the real server: Abort in the first moves
(confirmed, apart from Resign, agreed by the other player) and "Next game" to the game where it is my move."""

from __future__ import annotations

import re
import uuid

import pytest

from .conftest import shot
from .test_pwa import act_once, sign_up
from .test_table_open import api, new_ai_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def test_abort_is_offered_confirmed_and_agreed_before_the_first_move(server, new_page):
    ann, ben = new_page(), new_page()
    a, b = _name("ann"), _name("ben")
    sign_up(ann, server, a)
    sign_up(ben, server, b)
    gid = api(ann, server, "POST", "/games", {"kind": "claim", "opponents": [{"type": "user", "username": b}],
                                              "days_per_move": 3})["id"]
    api(ben, server, "POST", f"/games/{gid}/join")
    ann.goto(f"{server}/#/game/{gid}")
    ann.wait_for_selector("main.table")
    abort = ann.locator("#abort")
    assert abort.is_visible() and ann.locator("#resign").is_visible()
    box, resign = abort.bounding_box(), ann.locator("#resign").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    assert resign["y"] - box["y"] > 200, (box, resign)  # Abort under the head, Resign at the foot of the table
    shot(ann, "extra-abort-bar")
    abort.click()
    ann.wait_for_selector("#abort-confirm-dlg[open]")
    assert "No result" in ann.locator("#abort-confirm-dlg").inner_text() or "no result" in \
        ann.locator("#abort-confirm-dlg").inner_text()
    shot(ann, "extra-abort-confirm")
    ann.click("#abort-keep")  # changing one's mind sends nothing
    assert api(ann, server, "GET", f"/games/{gid}")["status"] == "active"
    ann.click("#abort")
    ann.click("#abort-yes")
    ann.wait_for_selector("#abort-waiting")
    ben.goto(f"{server}/#/game/{gid}")
    ben.wait_for_selector("#abort-asked")
    assert a in ben.locator("#abort-asked").inner_text()
    shot(ben, "extra-abort-asked")
    ben.click("#abort")
    ben.click("#abort-yes")
    ben.wait_for_selector("#aborted-note")
    assert api(ben, server, "GET", f"/games/{gid}")["status"] == "aborted"
    assert ben.locator("#hand").count() == 0 and ben.locator("#abort").count() == 0
    shot(ben, "extra-aborted")
    assert not ann.errors and not ben.errors


def test_no_abort_after_my_first_move(server, new_page):
    page = new_page()
    sign_up(page, server, _name("mov"))
    gid = new_ai_game(page, server, "claim")
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("main.table[data-myturn='1']")
    assert page.locator("#abort").is_visible()
    version = page.get_attribute("main.table", "data-version")
    assert act_once(page)
    page.locator(f"main.table:not([data-version='{version}'])").wait_for()
    page.wait_for_timeout(300)
    assert page.locator("#abort").count() == 0 and page.locator("#resign").is_visible()


def test_next_game_opens_the_game_where_it_is_my_move(server, new_page):
    page = new_page()
    sign_up(page, server, _name("nxt"))
    first, second = new_ai_game(page, server, "claim"), new_ai_game(page, server, "claim2")
    for gid in (first, second):  # the AI may lead: wait until it is my move in both
        for _ in range(50):
            if api(page, server, "GET", f"/games/{gid}")["my_turn"]:
                break
            page.wait_for_timeout(200)
    page.goto(f"{server}/#/game/{first}")
    page.wait_for_selector("main.table")
    nxt = page.locator("#next-turn")
    nxt.wait_for()
    assert nxt.get_attribute("data-next") == str(second) and "1" in nxt.inner_text()
    shot(page, "extra-next-turn")
    nxt.click()
    page.wait_for_url(re.compile(rf"#/game/{second}$"))
    page.wait_for_selector("main.table[data-kind='claim2']")
    assert page.locator("#next-turn").get_attribute("data-next") == str(first)
    assert not page.errors
