"""Issue 33 item 12, "First contact", in Chromium at 360x740 against the real server: a logged-out friend who
opens an invitation link sees who invites to what (GET /invitations/{code}), signs up on the same page and lands
in the game: at its table when the last seat was theirs, on its invitation page when more players are awaited.
A link that can no longer be used says so."""

from __future__ import annotations

import re
import uuid

import pytest

from .conftest import shot
from .test_pwa import PASSWORD, sign_up
from .test_table_open import api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def _sign_up_here(page, username: str) -> None:
    """Sign up on the page as it is (the landing's own form), not from the start page."""
    page.get_by_role("tab", name="Sign up").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()


def test_logged_out_friend_sees_the_invitation_signs_up_and_plays(server, new_page):
    host = new_page()
    alice = _name("ali")
    sign_up(host, server, alice)
    game = api(host, server, "POST", "/games", {"kind": "claim", "opponents": [{"type": "open"}], "days_per_move": 3})

    friend = new_page()
    friend.goto(f"{server}/#/join/{game['invite_code']}")
    friend.wait_for_selector("#invite-landing[data-state=found]", timeout=10000)
    assert friend.locator("#invite-landing-h").inner_text() == f"{alice} invites you to Claim"
    assert friend.locator("#invite-facts").inner_text() == "2 seats · 1 seat free · 3 days per move · unrated"
    assert friend.locator("#landing").count() == 0  # not the generic landing text
    shot(friend, "invite-landing")
    friend.emulate_media(color_scheme="dark")
    shot(friend, "invite-landing-dark")
    friend.emulate_media(color_scheme="light")
    _sign_up_here(friend, _name("frd"))
    friend.wait_for_url(re.compile(rf"#/game/{game['id']}$"), timeout=15000)
    friend.wait_for_selector("main.table", timeout=15000)  # the last seat: the game started
    shot(friend, "invite-landing-joined-table")
    assert api(host, server, "GET", f"/games/{game['id']}")["status"] == "active"
    assert friend.errors == [] and host.errors == []


def test_a_bigger_game_lands_on_its_invitation_page(server, new_page):
    host = new_page()
    sign_up(host, server, _name("hst"))
    game = api(host, server, "POST", "/games", {"kind": "inheritors", "seats": 3, "days_per_move": 5,
                                                "opponents": [{"type": "open"}, {"type": "open"}]})
    friend = new_page("de-DE")
    friend.goto(f"{server}/#/join/{game['invite_code']}")
    friend.wait_for_selector("#invite-landing[data-state=found]", timeout=10000)
    assert "lädt dich zu Inheritors ein" in friend.locator("#invite-landing-h").inner_text()
    assert "3 Plätze · 2 Plätze frei" in friend.locator("#invite-facts").inner_text()
    shot(friend, "invite-landing-de")
    friend.get_by_role("tab", name="Registrieren").click()
    friend.fill("#username", _name("frd"))
    friend.fill("#password", PASSWORD)
    friend.locator("form button[type=submit]").click()
    friend.wait_for_selector(f"main[data-invitation='{game['id']}']", timeout=15000)
    assert friend.locator("#invite-joined").is_visible()  # joined; one seat is still awaited
    shot(friend, "invite-landing-joined-invitation")
    assert friend.errors == []


def test_a_link_that_cannot_be_used_says_so(server, new_page):
    host = new_page()
    sign_up(host, server, _name("gon"))
    game = api(host, server, "POST", "/games", {"kind": "claim", "opponents": [{"type": "open"}]})
    api(host, server, "POST", f"/games/{game['id']}/abort", {})
    friend = new_page()
    friend.goto(f"{server}/#/join/{game['invite_code']}")
    friend.wait_for_selector("#invite-gone", timeout=10000)
    assert "no longer open" in friend.locator("#invite-gone").inner_text()
    assert friend.locator("#username").is_visible()
    shot(friend, "invite-landing-gone")
    assert friend.errors == []
