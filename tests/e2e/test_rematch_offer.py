"""Rematch offers in the PWA (issue 33 item 3), two users in two browser contexts at 360x740: the game ends, Ada
taps Rematch, Bob's end screen shows the offer live (no reload), Bob accepts and both are at the new table; a
decline that Ada sees live; three seats through the API (the invitees' end screens and inboxes). A bot's NDJSON
event stream carries the typed ``rematch_offer``. Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from accounts.models import ApiToken, User

from .conftest import shot
from .test_challenges import POST_JSON
from .test_pwa import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]



def post(page, path: str, body: dict | None = None) -> dict:
    status, data = page.evaluate(POST_JSON, [path, body or {}])
    assert status < 300, (path, status, data)
    return data


def finished_game(players: list, names: list[str], kind: str = "claim") -> int:
    """A game of ``players`` (the first creates it, the others join), ended by the second's resignation."""
    body = {"kind": kind, "seats": len(players), "days_per_move": 3,
            "opponents": [{"type": "user", "username": n} for n in names[1:]]}
    gid = post(players[0], "/games", body)["id"]
    for page in players[1:]:
        post(page, f"/games/{gid}/join")
    post(players[1], f"/games/{gid}/resign")
    return gid


def open_end_screen(page, base: str, gid: int) -> None:
    page.goto(f"{base}/#/game/{gid}")
    page.wait_for_selector("#rematch-offer")


def two(server, new_page):
    ada_name, bob_name = "ada" + uuid.uuid4().hex[:6], "bob" + uuid.uuid4().hex[:6]
    ada, bob = new_page(), new_page()
    sign_up(ada, server, ada_name)
    sign_up(bob, server, bob_name)
    return ada, bob, ada_name, bob_name


def wait_socket(page) -> None:
    """The page's socket is subscribed (its first resync asked for the lists): pushes reach it from now on."""
    page.wait_for_timeout(600)


def test_rematch_offer_is_shown_live_and_accepted_into_the_new_game(server, new_page):
    ada, bob, ada_name, bob_name = two(server, new_page)
    gid = finished_game([ada, bob], [ada_name, bob_name])
    open_end_screen(ada, server, gid)
    open_end_screen(bob, server, gid)
    wait_socket(bob)
    assert bob.locator("#rematch-offer").get_attribute("data-status") == "none"
    ada.click("#rematch")
    ada.wait_for_selector("#rematch-offer[data-status=pending] #rematch-cancel")
    assert bob_name in ada.inner_text("#rematch-text")
    shot(ada, "rematch-offer-sent")
    # Bob's end screen, untouched: the offer arrives over the socket.
    bob.wait_for_selector("#rematch-offer[data-status=pending] #rematch-accept")
    assert ada_name in bob.inner_text("#rematch-text")
    box = bob.locator("#rematch-accept").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    shot(bob, "rematch-offer-received")
    bob.click("#rematch-accept")
    bob.wait_for_url(re.compile(rf"#/game/(?!{gid}$)\d+$"))
    new_id = int(bob.url.rsplit("/", 1)[1])
    bob.wait_for_selector("main.table")
    # Ada, still on the end screen, is taken to the new table too.
    ada.wait_for_url(re.compile(rf"#/game/{new_id}$"))
    ada.wait_for_selector("main.table")
    shot(ada, "rematch-accepted-table")
    assert not ada.errors and not bob.errors


def test_rematch_offer_declined_is_seen_by_the_offerer_live(server, new_page):
    ada, bob, ada_name, bob_name = two(server, new_page)
    gid = finished_game([ada, bob], [ada_name, bob_name])
    open_end_screen(ada, server, gid)
    wait_socket(ada)
    ada.click("#rematch")
    ada.wait_for_selector("#rematch-offer[data-status=pending]")
    # Bob finds it in his inbox (labelled a rematch), and declines it on the end screen.
    bob.goto(f"{server}/#/")
    bob.wait_for_selector(f"li[data-dir=in] [data-rematch-of='{gid}']")
    shot(bob, "rematch-offer-inbox")
    open_end_screen(bob, server, gid)
    bob.click("#rematch-decline")
    bob.wait_for_selector("#rematch-offer[data-status=declined]")
    ada.wait_for_selector("#rematch-offer[data-status=declined]")
    assert bob_name in ada.inner_text("#rematch-text") and "declined" in ada.inner_text("#rematch-text")
    assert ada.locator("#rematch").count() == 0  # declined: no new offer from Ada
    shot(ada, "rematch-declined-offerer")
    assert bob.locator("#rematch").count() == 1  # Bob may offer one himself
    assert not ada.errors and not bob.errors


def _token(username: str) -> str:
    """A personal API token for ``username`` (in a thread: Playwright's event loop runs in this one)."""
    def run() -> str:
        return ApiToken.issue(User.objects.get(username=username), "e2e", ["games:read", "games:play"])[1]

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def test_three_seats_invite_the_same_players_and_a_bot_stream_hears_it(server, new_page):
    names = ["ada" + uuid.uuid4().hex[:6], "bob" + uuid.uuid4().hex[:6], "cy" + uuid.uuid4().hex[:6]]
    pages = [new_page() for _ in names]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, server, name)
    ada, bob, cy = pages
    gid = finished_game(pages, names, kind="inheritors")
    open_end_screen(cy, server, gid)
    wait_socket(cy)
    # Bob's NDJSON event stream (a bot would read this): the offer comes as a typed line.
    request = urllib.request.Request(f"{server}/api/v1/stream/events",
                                     headers={"Authorization": f"Bearer {_token(names[1])}"})
    stream = urllib.request.urlopen(request, timeout=15)
    new = post(ada, f"/games/{gid}/rematch")
    assert new["status"] == "open" and new["rematch_of"] == gid
    for _ in range(20):
        line = stream.readline().decode().strip()
        if line and json.loads(line)["type"] == "rematch_offer":
            frame = json.loads(line)
            break
    else:
        raise AssertionError("no rematch_offer line")
    stream.close()
    assert frame["game_id"] == gid and frame["rematch_offer"]["kind"] == "game"
    assert frame["rematch_offer"]["status"] == "pending" and frame["rematch_offer"]["game_id"] == new["id"]
    cy.wait_for_selector("#rematch-offer[data-status=pending][data-kind=game] #rematch-accept")
    shot(cy, "rematch-three-seats-offer")
    bob.goto(f"{server}/#/")
    bob.wait_for_selector(f"[data-rematch-of='{gid}']")
    bob.click(f"[data-accept='{new['id']}']")  # accepted from the inbox
    bob.wait_for_url(re.compile(rf"#/game/{new['id']}$"))
    cy.wait_for_selector("#rematch-text")
    cy.wait_for_function(f"() => document.querySelector('#rematch-text').textContent.includes('{names[0]}')")
    cy.click("#rematch-decline")
    cy.wait_for_selector("#rematch-offer[data-status=declined]")
    open_end_screen(ada, server, gid)
    ada.wait_for_selector("#rematch-offer[data-status=declined]")
    assert names[2] in ada.inner_text("#rematch-text")
    shot(ada, "rematch-three-seats-declined")
    assert not ada.errors and not bob.errors and not cy.errors
