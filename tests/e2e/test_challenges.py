"""Challenges in the PWA (issue 26): a challenge arrives in the invitee's inbox over the socket, is accepted
into a started game; the challenger sees and cancels their own. Screenshots go to test-artifacts/."""

from __future__ import annotations

import uuid

import pytest

from .conftest import shot
from .test_pwa import sign_up

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
