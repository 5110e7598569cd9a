"""Playing together in Chromium at 360x740 (issue 35), against the real server.

Alice challenges Bob to a watchable game; both open the table's chat, Alice sends a quick phrase and Bob free
text, and each sees the other's line live. Bob's text is markup and a script URL: it shows as the text it is, runs
nothing and injects nothing; a bidi override is refused with a message naming it. Carol finds the game in "Now
playing", watches it, and the
players' table shows one spectator; a move reaches her screen live. Alice blocks Carol from Carol's profile: Carol's
watch ends at once ("watch_ended", blocked), and the game is gone from her "Now playing". Screenshots:
test-artifacts/social-*.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from .conftest import shot
from .test_pwa import act_once, sign_up
from .test_user_text import INJECTED, OVERFLOW, _api, _watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

XSS = "<script>alert(1)</script> <img src=x onerror=alert(3)> javascript:alert(2)"
BIDI = "\u202eevil txt.exe"  # a direction override: refused by the chat's text rules (docs/security.md)


def _wait(predicate, what: str, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _open_chat(page) -> None:
    if not page.locator("#chat").is_visible():
        page.click("#chat-toggle")
    page.wait_for_selector("#chat #chat-phrases")


def _fits(page, label: str) -> None:
    scroll, width, wide = page.evaluate(OVERFLOW)
    assert scroll <= width and not wide, (label, scroll, width, wide)


def test_two_chat_a_third_watches_then_is_blocked(server, new_page):
    alice, bob, carol = new_page(), new_page(), new_page()
    tag = uuid.uuid4().hex[:6]
    a_name, b_name, c_name = f"alice{tag}", f"bob{tag}", f"carol{tag}"
    for page, name in ((bob, b_name), (carol, c_name), (alice, a_name)):
        sign_up(page, server, name)
    dialogs = {p: _watch(p) for p in (bob, carol)}
    asked: list[str] = []  # Alice's dialogs: only the block's confirmation is accepted

    def on_alice_dialog(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if c_name in dialog.message else dialog.dismiss()

    alice.on("dialog", on_alice_dialog)

    # Alice challenges Bob (a private invitation: she ticks "others may watch"); Bob accepts; both at the table.
    alice.goto(server + "/#/new")
    alice.locator("input[name=opp][value=user]").check()
    alice.fill("#opp-username", b_name)
    alice.locator("#watchable").check()
    alice.click("#start-game")
    alice.wait_for_url(re.compile(r"#/challenge/[^/]+$"))
    bob.click("text=Refresh")
    bob.wait_for_selector("button[data-accept-challenge]")
    bob.click("button[data-accept-challenge]")
    bob.wait_for_url(re.compile(r"#/game/\d+$"))
    game_id = int(bob.url.rsplit("/", 1)[1])
    alice.wait_for_url(f"**/#/game/{game_id}")
    for page in (alice, bob):
        page.wait_for_selector("main.table")
        _open_chat(page)

    # A quick phrase (no typing), then free text; each side sees the other's line live.
    alice.click("#chat-phrases button[data-phrase=good_luck]")
    bob.wait_for_selector("#chat-lines .c-text[data-phrase=good_luck]")
    assert bob.locator("#chat-lines .c-text[data-phrase=good_luck]").inner_text() == "Good luck!"
    bob.fill("#chat-input", BIDI)
    bob.click("#chat-send")
    bob.wait_for_selector("#chat-refused")
    assert "U+202E" in bob.locator("#chat-refused").inner_text()
    bob.fill("#chat-input", XSS)
    assert bob.locator("#chat-count").get_attribute("data-count") == str(len(XSS))
    bob.click("#chat-send")
    alice.wait_for_selector("#chat-lines .c-text:not([data-phrase])")
    for page in (alice, bob):
        texts = page.locator("#chat-lines .c-text").all_inner_texts()
        assert XSS in texts, texts
        assert page.evaluate(INJECTED) == []
        _fits(page, "chat")
    shot(alice, "social-1-chat-alice")
    shot(bob, "social-2-chat-bob")

    # Carol: "Now playing" lists the game; she watches it.
    carol.goto(server + "/#/watch")
    carol.wait_for_selector(f"#now-playing a[data-watch-game='{game_id}']")
    shot(carol, "social-3-now-playing")
    carol.click(f"#now-playing a[data-watch-game='{game_id}']")
    carol.wait_for_selector(f"main[data-watch='{game_id}'][data-version]")
    _fits(carol, "watch")
    assert carol.evaluate(INJECTED) == []
    # the players see one spectator
    alice.wait_for_selector("#table-spectators")
    shot(alice, "social-4-table-one-spectator")
    # a move reaches Carol live
    before = int(carol.get_attribute("main[data-watch]", "data-version"))
    _wait(lambda: act_once(alice) or act_once(bob), "a move by either player")
    _wait(lambda: int(carol.get_attribute("main[data-watch]", "data-version") or 0) > before,
          "the move on Carol's screen")
    shot(carol, "social-5-watching")

    # Alice blocks Carol from her profile (asked first): Carol's watch ends at once.
    alice.goto(server + f"/#/profile/{c_name}")
    alice.wait_for_selector("#rel-block")
    alice.click("#rel-block")
    alice.wait_for_selector("#rel-blocked")
    shot(alice, "social-6-blocked")
    carol.wait_for_selector("main[data-ended=blocked] #watch-ended")
    shot(carol, "social-7-watch-ended")
    status, page = _api(carol, "GET", "/watch")
    assert status == 200 and game_id not in [g["id"] for g in page["results"]]
    status, _ = _api(carol, "GET", f"/games/{game_id}/watch")
    assert status == 404
    # Carol can no longer chat with or challenge Alice
    status, body = _api(carol, "POST", "/challenges", {"to": a_name, "kind": "claim"})
    assert status == 403 and body["error"]["code"] == "blocked", (status, body)

    assert not any(dialogs[p] for p in (bob, carol)), dialogs
    assert len(asked) == 1 and c_name in asked[0], asked
    for page in (alice, bob, carol):
        assert not page.errors, page.errors
