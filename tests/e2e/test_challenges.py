"""Challenges in the PWA (issue 26): a challenge arrives in the invitee's inbox over the socket, is accepted
into a started game; the challenger sees and cancels their own. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.utils import timezone

from games.challenges.models import Challenge

from .conftest import shot
from .test_pwa import PASSWORD, sign_up, start_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POST_JSON = """async ([path, body]) => {
  const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
  const r = await fetch('/api/v1' + path, {method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf}, body: JSON.stringify(body)});
  return [r.status, await r.json()];
}"""


def test_a_challenge_is_received_live_accepted_and_cancelled(server, new_page):
    ada_name, bob_name = "ada" + uuid.uuid4().hex[:6], "bob" + uuid.uuid4().hex[:6]
    ada, bob = new_page(), new_page()
    sign_up(ada, server, ada_name)
    sign_up(bob, server, bob_name)
    bob.wait_for_function("() => !!window.navigator")  # bob sits on the inbox with the socket open
    status, first = ada.evaluate(POST_JSON, ["/challenges", {"to": bob_name, "kind": "claim2", "rated": True}])
    assert status == 201, first
    row = bob.locator(f"li[data-challenge='{first['id']}'][data-dir=in]")
    row.wait_for()  # arrived by the socket's challenge_received, no reload
    assert ada_name in row.inner_text() and "rated" in row.inner_text()
    shot(bob, "challenge-received")

    ada.reload()
    mine = ada.locator(f"li[data-challenge='{first['id']}'][data-dir=out]")
    mine.wait_for()
    shot(ada, "challenge-outgoing")

    bob.click(f"[data-accept-challenge='{first['id']}']")
    bob.wait_for_url("**/#/game/*")
    bob.wait_for_selector("main.table")
    mine.wait_for(state="detached")  # the challenger's list updated by challenge_accepted

    status, second = ada.evaluate(POST_JSON, ["/challenges", {"kind": "claim"}])  # open
    assert status == 201
    ada.reload()
    ada.click(f"[data-cancel-challenge='{second['id']}']")
    ada.locator(f"li[data-challenge='{second['id']}']").wait_for(state="detached")
    assert not ada.errors and not bob.errors


def _challenge_id(page) -> str:
    page.wait_for_url(re.compile(r"#/challenge/[\w-]+$"))
    page.wait_for_selector("main[data-challenge]")
    return page.url.rsplit("/", 1)[1]


def _expire(challenge_id: str) -> None:
    """Make a pending challenge due (in a thread: Playwright's event loop runs in this one)."""
    def run() -> int:
        return Challenge.objects.filter(pk=challenge_id).update(expires_at=timezone.now() - timedelta(seconds=1))

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(run).result() == 1


def test_new_game_invites_by_challenge_at_phone_size(server, new_page):
    """From New game: Alice challenges Bob, who sees it live and declines with a reason that Alice reads; again,
    Bob accepts and both are at the table; an open challenge's link is accepted by Carol (German), and both are
    at the table; a cancelled and an expired challenge say so."""
    alice_name, bob_name, carol_name = ("alice" + uuid.uuid4().hex[:6], "bob" + uuid.uuid4().hex[:6],
                                        "carol" + uuid.uuid4().hex[:6])
    alice, bob, carol = new_page(), new_page(), new_page(locale="de-DE")
    sign_up(alice, server, alice_name)
    sign_up(bob, server, bob_name)
    carol.goto(server + "/")  # in German: the sign-up tab is "Registrieren" (and the profile's language de)
    carol.get_by_role("tab", name="Registrieren").click()
    carol.fill("#username", carol_name)
    carol.fill("#password", PASSWORD)
    carol.locator("form button[type=submit]").click()
    carol.wait_for_selector("a.btn.primary[href='#/new']")

    # 0. a name nobody has: the field says so, nothing is sent
    alice.goto(server + "/#/new")
    alice.locator("input[name=opp][value=user]").check()
    alice.fill("#opp-username", "nobody" + uuid.uuid4().hex[:6])
    alice.click("#start-game")
    alice.wait_for_selector("#opp-username-err >> text=No player is called")
    assert "#/new" in alice.url

    # 1. a challenge by username, declined with a reason
    start_game(alice, kind="claim2", opponent="user", username=bob_name, rated=True)
    first = _challenge_id(alice)
    assert alice.get_attribute("main[data-challenge]", "data-status") == "pending"
    assert f"Waiting for {bob_name} to answer" in alice.inner_text("#challenge-state")
    assert "rated" in alice.inner_text("#challenge-terms")
    assert alice.locator("#invite-copy").is_visible() and alice.locator("#invite-cancel").is_visible()
    shot(alice, "challenge-01-waiting")
    row = bob.locator(f"li[data-challenge='{first}'][data-dir=in]")
    row.wait_for()  # live: bob has not reloaded since signing up
    assert f"{alice_name} challenges you" in row.inner_text()
    shot(bob, "challenge-02-received")
    bob.click(f"[data-decline-challenge='{first}']")
    bob.select_option(f"#reason-{first}", "later")
    shot(bob, "challenge-03-decline-reason")
    bob.click(f"[data-decline-send='{first}']")
    row.wait_for(state="detached")
    alice.wait_for_selector("main[data-challenge][data-status=declined]")  # live, on her waiting page
    assert (f"{bob_name} declined: This is not the right time for me, please ask again later."
            in alice.inner_text("#challenge-state"))
    assert alice.locator("#invite-cancel").count() == 0
    shot(alice, "challenge-04-declined")

    # 2. again, and Bob accepts on the challenge's own page (opened from the row): both go to the table
    start_game(alice, kind="claim", opponent="user", username=bob_name)
    second = _challenge_id(alice)
    bob.locator(f"li[data-challenge='{second}'] a.game-row").click()
    bob.wait_for_selector(f"main[data-challenge='{second}'][data-role=to_me]")
    assert f"{alice_name} challenges you" in bob.inner_text("#invited-by")
    shot(bob, "challenge-05-page-invitee")
    bob.click(f"[data-accept-challenge='{second}']")
    bob.wait_for_url(re.compile(r"#/game/\d+$"))
    game = bob.url.rsplit("/", 1)[1]
    alice.wait_for_url(f"**/#/game/{game}")  # live, from her waiting page
    for p in (alice, bob):
        p.wait_for_selector("main.table #hand button.card")
    shot(alice, "challenge-06-table-alice")

    # 3. an open challenge: the link goes to Carol, who accepts; both go to the table
    start_game(alice, kind="claim", opponent="open")
    third = _challenge_id(alice)
    assert "Anyone with this link can accept" in alice.inner_text("#challenge-state")
    link = alice.inner_text("#invite-link")
    assert link == f"{server}/#/challenge/{third}"
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    alice.click("#invite-copy")
    alice.wait_for_selector("#invite-copy >> text=Link copied")
    assert alice.evaluate("navigator.clipboard.readText()") == link
    shot(alice, "challenge-07-open-link")
    carol.goto(link)
    carol.wait_for_selector(f"main[data-challenge='{third}'][data-role=link]")
    assert f"{alice_name} lädt alle mit diesem Link zu einer Partie ein." in carol.inner_text("#invited-by")
    assert carol.locator(f"[data-decline-challenge='{third}']").count() == 0  # open: accepted or left
    shot(carol, "challenge-08-open-de")
    carol.click(f"[data-accept-challenge='{third}']")
    carol.wait_for_url(re.compile(r"#/game/\d+$"))
    game = carol.url.rsplit("/", 1)[1]
    alice.wait_for_url(f"**/#/game/{game}")
    for p in (alice, carol):
        p.wait_for_selector("main.table #hand button.card")
    bob.goto(link)  # too late for anyone else
    bob.wait_for_selector(f"main[data-challenge='{third}'][data-status=accepted]")
    assert "Someone else accepted this challenge first." in bob.inner_text("#challenge-state")

    # 4. cancelled by Alice on her waiting page; expired
    start_game(alice, kind="claim", opponent="open")
    fourth = _challenge_id(alice)
    alice.click("#invite-cancel")
    alice.wait_for_selector(f"main[data-challenge='{fourth}'][data-status=cancelled]")
    assert "You cancelled this challenge." in alice.inner_text("#challenge-state")
    shot(alice, "challenge-09-cancelled")
    start_game(alice, kind="claim", opponent="user", username=bob_name)
    fifth = _challenge_id(alice)
    _expire(fifth)
    bob.goto(f"{server}/#/challenge/{fifth}")
    bob.wait_for_selector(f"main[data-challenge='{fifth}'][data-status=expired]")
    assert "This challenge expired without an answer." in bob.inner_text("#challenge-state")
    assert bob.locator(f"[data-accept-challenge='{fifth}']").count() == 0
    shot(bob, "challenge-10-expired")
    assert not alice.errors and not bob.errors and not carol.errors
