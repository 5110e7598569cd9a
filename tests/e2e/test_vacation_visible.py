"""Issue 33 item 2 in Chromium against the real server: alice books vacation and bob's open tables (Claim and
Inheritors) show it live on her seat's clock, with its end date; alice's own table says it too; she shortens
it in Settings (days given back) and cancels it, and bob's table follows each change without a reload."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from .conftest import shot
from .test_pwa import sign_up
from .test_table_open import api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _game(page_a, page_b, base: str, kind: str, b_name: str) -> int:
    game = api(page_a, base, "POST", "/games", {"kind": kind, "opponents": [{"type": "user", "username": b_name}],
                                                "time_control": {"type": "days", "days_per_move": 3}})
    api(page_b, base, "POST", f"/games/{game['id']}/join")
    return game["id"]


def _open(page, base: str, gid: int, kind: str) -> None:
    page.goto(f"{base}/#/game/{gid}")
    page.wait_for_selector("main.table[data-kind='inheritors']" if kind == "inheritors" else "main.table")
    page.wait_for_selector("#clock")


def _line(page, seat: int):
    return page.locator(f"#clock [data-vacation-seat='{seat}']")


def test_vacation_shows_live_on_both_players_clocks_and_follows_shorten_and_cancel(server, new_page):
    first, second = new_page(), new_page()
    names = {first: f"va{uuid.uuid4().hex[:8]}", second: f"vb{uuid.uuid4().hex[:8]}"}
    sign_up(first, server, names[first])
    sign_up(second, server, names[second])
    claim = _game(first, second, server, "claim", names[second])
    heirs = _game(first, second, server, "inheritors", names[second])
    # "alice" goes on vacation: the player whose move is due in the Claim game, so her deadline moves; "bob" watches.
    seats = api(first, server, "GET", f"/games/{claim}")["seats"]
    due = next(s["username"] for s in seats if s["to_act"])
    alice, bob = (first, second) if due == names[first] else (second, first)
    a_name = names[alice]
    a_seat = next(s["index"] for s in seats if s["username"] == a_name)
    h_seat = next(s["index"] for s in api(alice, server, "GET", f"/games/{heirs}")["seats"] if s["you"])

    # Bob looks at the Claim table (a second tab of his on the Inheritors table): nothing about vacation yet.
    bob_heirs = new_page()
    bob_heirs.context.add_cookies(bob.context.cookies())
    _open(bob, server, claim, "claim")
    _open(bob_heirs, server, heirs, "inheritors")
    assert _line(bob, a_seat).count() == 0

    # Alice books 5 days from now (through the API, as the PWA's Settings form does).
    start = datetime.now(UTC).replace(microsecond=0)
    end = start + timedelta(days=5)
    booked = api(alice, server, "POST", "/vacation/periods", {"start": start.isoformat(), "days": 5})
    period = booked["periods"][0]["id"]
    for page, seat in ((bob, a_seat), (bob_heirs, h_seat)):
        line = _line(page, seat)
        line.wait_for(timeout=10000)  # pushed: no reload
        text = line.inner_text()
        assert a_name in text and "on vacation until" in text and end.strftime("%-d") in text, text
    view = api(bob, server, "GET", f"/games/{claim}")
    assert view["clock"]["seats"][a_seat]["vacation"]["end"] == end.isoformat().replace("+00:00", "Z")
    assert view["clock"]["seats"][a_seat]["running"]  # her move is due at the end of the vacation now
    assert view["clock"]["seats"][a_seat]["deadline"] == view["clock"]["seats"][a_seat]["vacation"]["end"]
    assert view["deadline"] == view["clock"]["seats"][a_seat]["deadline"]
    # Her countdown runs to the vacation's end: the same instant as the vacation line says.
    until = _line(bob, a_seat).inner_text().split("until ")[-1]
    assert bob.locator(f"#clock [data-seat='{a_seat}']").inner_text().endswith("until " + until)
    bob.emulate_media(color_scheme="light")
    bob.locator("#clock").scroll_into_view_if_needed()
    shot(bob, "vacation-bob-sees-alice-claim")
    bob_heirs.locator("#clock").scroll_into_view_if_needed()
    shot(bob_heirs, "vacation-bob-sees-alice-inheritors")

    # Alice's own table says it of her ("You").
    _open(alice, server, claim, "claim")
    mine = _line(alice, a_seat)
    mine.wait_for()
    assert mine.inner_text().startswith("Vacation") and "You: on vacation until" in mine.inner_text()
    alice.emulate_media(color_scheme="dark")
    alice.locator("#clock").scroll_into_view_if_needed()
    shot(alice, "vacation-alice-own-clock-dark")
    alice.emulate_media(color_scheme="light")

    # Settings: the period is listed; Shorten to 2 days gives 3 back; bob's table follows.
    alice.goto(f"{server}/#/settings")
    row = alice.locator(f"#vac-periods li[data-period='{period}']")
    row.wait_for()
    assert row.locator("[data-act='cancel']").count() == 0  # under way: no cancelling, only shortening
    for act in ("end-today", "shorten"):
        box = row.locator(f"[data-act='{act}']").bounding_box()
        assert box and box["height"] >= 44 and box["width"] >= 44, (act, box)
    before = _line(bob, a_seat).inner_text()
    row.locator("[data-act='shorten']").click()
    row.locator("select").select_option("2")
    row.scroll_into_view_if_needed()
    shot(alice, "vacation-settings-shorten")
    row.locator("[data-act='save']").click()
    alice.get_by_text("3 days given back.").wait_for()
    assert re.search(r"\(2 days\)", row.inner_text()), row.inner_text()
    bob.wait_for_function("([sel, old]) => { const e = document.querySelector(sel); return e && e.innerText !== old; }",
                          arg=[f"#clock [data-vacation-seat='{a_seat}']", before], timeout=10000)
    after = api(bob, server, "GET", f"/games/{claim}")["clock"]["seats"][a_seat]["vacation"]
    assert after["end"] == (start + timedelta(days=2)).isoformat().replace("+00:00", "Z")
    shot(alice, "vacation-settings-after-shorten")

    # A future period: Cancel gives every day back, and its line goes from bob's table.
    api(alice, server, "PATCH", f"/vacation/periods/{period}", {"days": 1})
    later = api(alice, server, "POST", "/vacation/periods",
                {"start": (start + timedelta(days=10)).isoformat(), "days": 2})
    future = next(p["id"] for p in later["periods"] if p["id"] != period)
    alice.reload()
    frow = alice.locator(f"#vac-periods li[data-period='{future}']")
    frow.locator("[data-act='cancel']").click()
    alice.get_by_text("2 days given back.").wait_for()
    assert alice.locator(f"#vac-periods li[data-period='{future}']").count() == 0
    assert not (alice.errors or bob.errors or bob_heirs.errors), (alice.errors, bob.errors, bob_heirs.errors)
