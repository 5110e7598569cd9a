"""A profile's finished games (issue 33), at 360x740 in Chromium against the real server: newest first, a page
of ten, "Older games" for the next keyset page, each row opening the replay; seen by another player."""

from __future__ import annotations

import re
import uuid

import pytest

from .conftest import shot
from .test_pwa import sign_up
from .test_table_open import api, new_ai_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_profile_lists_finished_games_in_pages_and_opens_the_replay(server, new_page):
    owner, visitor = new_page(), new_page()
    name = f"pro{uuid.uuid4().hex[:6]}"
    sign_up(owner, server, name)
    done = []
    for _ in range(12):
        gid = new_ai_game(owner, server, "claim")
        version = api(owner, server, "GET", f"/games/{gid}")["version"]
        api(owner, server, "POST", f"/games/{gid}/resign", {"version": version})
        done.append(gid)
    new_ai_game(owner, server, "claim")  # in play: not listed
    sign_up(visitor, server, f"vis{uuid.uuid4().hex[:6]}")
    visitor.goto(f"{server}/#/profile/{name}")
    rows = visitor.locator("#profile-games [data-pgame]")
    rows.first.wait_for()
    assert [int(x) for x in rows.evaluate_all("els => els.map(e => e.dataset.pgame)")] == done[::-1][:10]
    assert "Lost (resigned)" in rows.first.inner_text()
    visitor.locator("#profile-games").scroll_into_view_if_needed()
    shot(visitor, "extra-profile-games")
    more = visitor.locator("#pgames-more")
    assert more.bounding_box()["height"] >= 44
    more.click()
    rows.nth(11).wait_for()
    assert visitor.locator("#pgames-more").count() == 0
    assert [int(x) for x in rows.evaluate_all("els => els.map(e => e.dataset.pgame)")] == done[::-1]
    shot(visitor, "extra-profile-games-all")
    rows.nth(11).click()
    visitor.wait_for_url(re.compile(rf"#/replay/{done[0]}$"))
    visitor.wait_for_selector("main")
    visitor.wait_for_timeout(500)
    assert "Replay" in visitor.locator("main").inner_text() or visitor.locator("main .replay, main [data-step]").count()
    shot(visitor, "extra-profile-replay")
    assert not owner.errors and not visitor.errors
