"""The lobby of open seeks (issue 33), at 360x740 in Chromium against the real server: another player's seek is
listed with its game, seats, time control, window and rated flag; Join starts the game; the list refreshes."""

from __future__ import annotations

import re
import uuid

import pytest

from .conftest import shot
from .test_pwa import sign_up
from .test_table_open import api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_join_another_players_seek_from_the_lobby(server, new_page):
    seeker, joiner = new_page(), new_page()
    s_name, j_name = f"skr{uuid.uuid4().hex[:6]}", f"jnr{uuid.uuid4().hex[:6]}"
    sign_up(seeker, server, s_name)
    sign_up(joiner, server, j_name)
    joiner.goto(f"{server}/#/new")
    joiner.click("#to-lobby")
    joiner.wait_for_selector("#lobby-empty")
    seek = api(seeker, server, "POST", "/seeks", {"kind": "claim2", "days_per_move": 5, "rated": True,
                                                  "rating_range": 300})
    assert seek["status"] == "open"
    joiner.click("#lobby-refresh")
    row = joiner.locator(f"[data-lobby-seek='{seek['id']}']")
    row.wait_for()
    text = row.inner_text()
    for part in ("Claim 2", "2 players", s_name, "5 days", "rated", "± 300"):
        assert part in text, (part, text)
    join = row.locator("button[data-join]")
    box = join.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44 and box["x"] + box["width"] <= 360
    row.scroll_into_view_if_needed()
    shot(joiner, "extra-lobby")
    join.click()
    joiner.wait_for_url(re.compile(r"#/game/\d+$"))
    joiner.wait_for_selector("main.table[data-kind='claim2']")
    gid = int(joiner.url.rsplit("/", 1)[1])
    game = api(seeker, server, "GET", f"/games/{gid}")
    assert game["status"] == "active" and game["rated"] and {s["username"] for s in game["seats"]} == {s_name, j_name}
    shot(joiner, "extra-lobby-joined")
    # the seek is gone from every lobby; the seeker's own seek was never listed to them
    assert api(joiner, server, "GET", "/seeks/lobby")["results"] == []
    assert not seeker.errors and not joiner.errors
