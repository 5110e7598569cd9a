"""User-written text in Chromium (issue 32): names that are markup, a script URL or very long, on every screen
that shows a name, at 360 px.

Four players take display names that would run as code if a screen put them into HTML instead of text
(``<script>…``, ``<img onerror>``, ``"><svg onload>``, ``javascript:…``), one takes 40 letters without a
space, and a token is named like markup. They sign up, set their names (one through the Settings form), play a
rated game to the end, challenge each other; each screen is then read: the inbox, the challenge page, the table,
the end screen, the leaderboard, a profile, the notifications, the settings. On every one: no dialog opened,
no element or handler injected (no ``<img src=x>``, no ``on…`` attribute, no ``javascript:`` link or script),
each name shown as the text it is, and nothing wider than the 360 px screen. A bidi override (U+202E) is
refused by the name rules (docs/security.md), in the form as by the API. Screenshots: test-artifacts/user-text-*.
"""

from __future__ import annotations

import re
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.ratings.models import Rating

from .conftest import shot
from .test_pwa import act_once, play_to_end, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
SVG = '"><svg onload=alert(3)>'
JS_URL = "javascript:alert(4)"
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 letters, no place to break
TOKEN_NAME = "<img src=x onerror=alert(5)> token"

API = """async ([method, path, body]) => {
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1];
  const r = await fetch('/api/v1' + path, {method, credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf}, body: body ? JSON.stringify(body) : undefined});
  return [r.status, await r.json().catch(() => null)];
}"""

# What a screen must never hold if it rendered a name as text: an element the names would create, an inline
# handler, a script URL, a script containing the payload. Returns a description of each offender.
INJECTED = r"""() => [...document.querySelectorAll('*')].filter(e =>
    (e.tagName === 'IMG' && e.getAttribute('src') === 'x') || e.tagName === 'svg' && e.hasAttribute('onload')
    || [...e.attributes].some(a => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value))
    || (e.tagName === 'SCRIPT' && /alert\(/.test(e.textContent))
  ).map(e => e.outerHTML.slice(0, 160))"""

OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('main *')].filter(e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.right > width + 1 || r.left < -1) && getComputedStyle(e).position !== 'fixed'
      && !e.closest('[data-scrolls], .scroll-x, table, .hand, #hand, svg');
  }).map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 40));
  return [document.documentElement.scrollWidth, width, wide.slice(0, 5)];
}"""


def _api(page, method: str, path: str, body: dict | None = None):
    return page.evaluate(API, [method, path, body])


def _watch(page) -> list[str]:
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def check_screen(page, dialogs: list[str], label: str, shown: list[str], problems: list[str]) -> None:
    """The screen shows each of ``shown`` as text, ran nothing, injected nothing and fits 360 px; what is wrong
    goes to ``problems`` (the test fails at its end, after every screen was seen and photographed)."""
    page.wait_for_timeout(300)  # let an injected <img onerror> fire if there were one (not a timed assertion)
    shot(page, f"user-text-{label}")
    text = page.inner_text("body")
    problems.extend(f"{label}: {name!r} not shown as text" for name in shown if name not in text)
    problems.extend(f"{label}: injected {html}" for html in page.evaluate(INJECTED))
    scroll_width, width, wide = page.evaluate(OVERFLOW)
    if scroll_width > width or wide:
        problems.append(f"{label}: {scroll_width} px wide on a {width} px screen: {wide}")
    problems.extend(f"{label}: dialog {message!r}" for message in dialogs)
    problems.extend(f"{label}: page error {error}" for error in page.errors)
    dialogs.clear()
    page.errors.clear()


def _establish(usernames: list[str]) -> int | None:
    """Make these players' Claim 2 ratings established (as after many games), so the leaderboard lists them;
    only where the server shares the test database (PostgreSQL; None elsewhere: the embedded server has its own
    SQLite file). Returns how many ratings it changed. In a thread: Playwright's loop runs in this one."""
    if connection.vendor != "postgresql":
        return None

    def run() -> int:
        return Rating.objects.filter(user__username__in=usernames, pool="claim2").update(deviation=50.0)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def _named_player(new_page, server: str, display_name: str):
    page = new_page()
    dialogs = _watch(page)
    username = "u" + uuid.uuid4().hex[:10]
    sign_up(page, server, username)
    status, body = _api(page, "PATCH", "/accounts/me", {"display_name": display_name})
    assert status == 200 and body["display_name"] == display_name, body
    return page, dialogs, username


def test_names_and_user_text_render_as_text_on_every_screen(server, new_page):
    problems: list[str] = []
    a, a_dialogs, a_user = _named_player(new_page, server, SCRIPT)
    b, b_dialogs, b_user = _named_player(new_page, server, IMG)
    c, c_dialogs, c_user = _named_player(new_page, server, JS_URL)
    d = new_page()
    d_dialogs = _watch(d)
    d_user = "u" + uuid.uuid4().hex[:10]
    sign_up(d, server, d_user)

    # Settings: the long name through the form; a bidi override is refused there, and by the API.
    d.goto(server + "/#/settings")
    d.fill("#display_name", "evil\u202etxt.exe")
    d.click("#save-profile")
    d.wait_for_selector("text=U+202E")
    status, body = _api(d, "PATCH", "/accounts/me", {"display_name": "\u202eAI (King)"})
    assert status == 400 and "U+202E" in body["error"]["message"], body
    d.fill("#display_name", LONG)
    d.click("#save-profile")
    d.wait_for_selector(".toast.show")
    d.reload()
    d.wait_for_selector("#display_name")
    assert d.input_value("#display_name") == LONG
    status, _ = _api(d, "POST", "/accounts/tokens", {"name": TOKEN_NAME, "scopes": ["games:read"]})
    assert status == 201
    status, body = _api(c, "PATCH", "/accounts/me", {"display_name": SVG})
    assert status == 200, body
    status, body = _api(c, "PATCH", "/accounts/me", {"display_name": JS_URL})
    assert status == 200, body
    d.reload()
    d.wait_for_selector(f"text={TOKEN_NAME}")
    check_screen(d, d_dialogs, "settings", [TOKEN_NAME], problems)

    # A challenge from the long name to the script URL: the challenge page and the invitee's inbox.
    status, challenge = _api(d, "POST", "/challenges", {"to": c_user, "kind": "claim2"})
    assert status == 201, challenge
    d.goto(server + f"/#/challenge/{challenge['id']}")
    d.wait_for_selector("main[data-challenge]")
    check_screen(d, d_dialogs, "challenge-page", [], problems)
    c.goto(server + "/#/")
    c.locator(f"li[data-challenge='{challenge['id']}']").wait_for()
    check_screen(c, c_dialogs, "inbox-challenge", [LONG], problems)
    status, svg_challenge = _api(c, "POST", "/challenges", {"to": a_user, "kind": "claim"})
    assert status == 201

    # A rated game between the two markup names, played to the end in the browser.
    status, rated = _api(a, "POST", "/challenges", {"to": b_user, "kind": "claim2", "rated": True})
    assert status == 201, rated
    b.goto(server + "/#/")
    b.click(f"[data-accept-challenge='{rated['id']}']")
    b.wait_for_url(re.compile(r"#/game/\d+$"))
    game_id = b.url.rsplit("/", 1)[1]
    a.goto(server + f"/#/game/{game_id}")
    a.wait_for_selector("main.table #hand button.card")
    b.wait_for_selector("main.table")
    check_screen(a, a_dialogs, "table", [IMG], problems)
    check_screen(b, b_dialogs, "table-b", [SCRIPT], problems)
    play_to_end([a, b])
    check_screen(a, a_dialogs, "end", [IMG], problems)
    check_screen(b, b_dialogs, "end-b", [SCRIPT], problems)

    # The long name's game against the script URL (accepting opens the table): names side by side at 360 px.
    c.goto(server + "/#/")
    c.click(f"[data-accept-challenge='{challenge['id']}']")
    c.wait_for_url(re.compile(r"#/game/\d+$"))
    c.wait_for_selector("main.table")
    check_screen(c, c_dialogs, "table-long-name", [LONG], problems)
    d.goto(server + "/#/")
    d.wait_for_selector("main")
    d.wait_for_selector(f"text={JS_URL}")
    check_screen(d, d_dialogs, "inbox", [JS_URL], problems)

    # The inbox of the markup names: the finished game and the pending challenge from the svg name's player.
    a.goto(server + "/#/")
    a.locator(f"li[data-challenge='{svg_challenge['id']}']").wait_for()
    check_screen(a, a_dialogs, "inbox-markup", [JS_URL, IMG], problems)

    # Profile, then the leaderboard: the rating arrives from a background task after the end.
    for _ in range(40):
        a.goto(server + f"/#/profile/{b_user}")
        a.wait_for_selector("text=Reliability")
        if a.locator("#ratings tr[data-pool=claim2]").count():
            break
        time.sleep(0.5)
    established = _establish([a_user, b_user])
    assert established in (None, 2), established
    listed = [SCRIPT, IMG] if established else []
    a.goto(server + "/#/leaders/claim2")
    a.wait_for_selector("#leaderboard")
    check_screen(a, a_dialogs, "leaderboard", listed, problems)
    a.goto(server + f"/#/profile/{b_user}")
    a.wait_for_selector("text=Reliability")
    check_screen(a, a_dialogs, "profile", [IMG], problems)
    d.goto(server + f"/#/profile/{d_user}")
    d.wait_for_selector("text=Reliability")
    check_screen(d, d_dialogs, "profile-long-name", [LONG], problems)

    # Notifications name the opponent (in quotes). Nothing is sent for a game its player is looking at, so the
    # long name's player, who is not at the second game's table, reads them: your turn, or the opponent moved.
    act_once(c)
    for _ in range(40):
        d.goto(server + "/#/notes")
        d.wait_for_selector("#prefs")
        if JS_URL in d.inner_text("#notes"):
            break
        time.sleep(0.5)
    check_screen(d, d_dialogs, "notifications", [JS_URL], problems)
    a.goto(server + "/#/notes")
    a.wait_for_selector("#prefs")
    check_screen(a, a_dialogs, "notifications-a", [], problems)
    assert not problems, "\n".join(problems)
