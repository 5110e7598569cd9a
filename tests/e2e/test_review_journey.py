"""A finished game's move-by-move review in Chromium at 360x740 (issue 37), against the real server.

Ada plays a 2-seat Claim game against the AI (her moves random, through the API, to the end of the first phase),
then resigns at the table. Her end screen offers "Review": it asks for the review (POST) and opens the review screen
``#/game/ID/review``, which shows the progress while the server computes it (the socket's ``review`` events, polling
as the fallback) and then the result. She taps the first entry of the list of mistakes and inaccuracies: the replay
steps to that move, whose decision shows its mark, the chance bar (played vs best) and every move with its chance;
"Next mistake" / "Previous mistake" jump between the marked moves. The shareable link opens the same review in a
fresh page. Nothing is cut off at 360 px, the review's controls are 44 px tap targets, and axe-core finds no
serious violation in either theme. Screenshots: test-artifacts/review-*.

Needs the server side of issue 37 (games/review). While that route does not exist at all (``GET
/api/v1/games/1/review`` answers 404 with a body that is not the API's JSON: Django's own "no such URL"), the test
skips saying so; any other answer runs it.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
import uuid

import pytest

from .conftest import shot
from .test_axe_themes import AXE
from .test_axe_themes import check as axe_check
from .test_pwa import sign_up
from .test_tap_targets import MEASURE
from .test_user_text import OVERFLOW

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The review screen's own controls as MEASURE names them (the replay's, shared with the replay screen, are not
#: this issue's): its buttons and links (ids review-*), the marks list's rows, the moves' <summary>.
REVIEW_TARGETS = ("#review-", ".mark-row", "<summary")


def _route_missing(base: str) -> bool:
    """True only when the review route does not exist: a 404 whose body is not JSON (the API answers JSON)."""
    try:
        urllib.request.urlopen(base + "/api/v1/games/1/review", timeout=10)
    except urllib.error.HTTPError as e:
        if e.code != 404:
            return False
        try:
            json.loads(e.read() or b"")
        except ValueError:
            return True
    return False


def _api(page, base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    r = page.request.fetch(base + "/api/v1" + path, method=method, data=json.dumps(body) if body is not None else None,
                           headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
    return r.status, (r.json() if r.body() else {})


def _play_first_phase(page, base: str, gid: int, rng: random.Random, limit: float = 90.0) -> int:
    """Ada's random legal moves until the second phase begins (the AI answers on the server): her moves made."""
    made = 0
    end = time.monotonic() + limit
    while time.monotonic() < end:
        status, g = _api(page, base, "GET", f"/games/{gid}")
        assert status == 200, g
        if g["status"] != "active" or (g["view"] or {}).get("phase", 1) >= 2:
            return made
        if not g["my_turn"]:
            time.sleep(0.15)
            continue
        move = rng.choice(g["legal_moves"])
        status, answer = _api(page, base, "POST", f"/games/{gid}/moves",
                              {"version": g["version"], "move": move, "client_id": uuid.uuid4().hex})
        assert status in (200, 201, 409), answer  # 409: the AI moved in between (a stale version): read again
        made += status < 300
    raise AssertionError(f"the first phase did not end in {limit} s ({made} moves)")


def _fits(page, label: str) -> None:
    scroll, width, wide = page.evaluate(OVERFLOW)
    assert scroll <= width and not wide, (label, scroll, width, wide)


def _small_review_targets(page) -> list[str]:
    return [b for b in page.evaluate(MEASURE) if any(sel in b for sel in REVIEW_TARGETS)]


def test_review_of_a_finished_game(server, new_page):
    if _route_missing(server):
        pytest.skip("the review API (issue 37, games/review) is not on this branch: /api/v1/games/1/review is no route")
    assert AXE.exists(), "npm ci in frontend/ (axe-core is a dev dependency)"
    page = new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    name = "ada" + uuid.uuid4().hex[:6]
    sign_up(page, server, name)
    status, game = _api(page, server, "POST", "/games",
                        {"kind": "claim", "seats": 2, "opponents": [{"type": "ai", "level": 1}]})
    assert status == 201, game
    gid = game["id"]

    # No review while the game runs (fair play): 409 with the server's message.
    status, body = _api(page, server, "POST", f"/games/{gid}/review")
    assert status == 409 and body["error"]["code"] == "game_not_over", body

    made = _play_first_phase(page, server, gid, random.Random(gid))
    assert made >= 5, made
    # Ada resigns at the table.
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("main.table")
    page.click("#resign")  # the confirmation is accepted (the dialog handler)
    page.wait_for_selector("#end")
    assert dialogs, "resigning asks first"
    page.locator("#review-open").scroll_into_view_if_needed()
    shot(page, "review-end-screen")
    assert not _small_review_targets(page), _small_review_targets(page)

    # Review: asked for, and its screen opens at the shareable link.
    page.click("#review-open")
    page.wait_for_url(f"**/#/game/{gid}/review")
    page.wait_for_selector("main.review:not([data-status=loading])")
    first = page.get_attribute("main.review", "data-status")
    assert first in ("queued", "running", "done"), first
    if first != "done":
        page.wait_for_selector("#review-progress [role=status]")
        shot(page, "review-progress")
        _fits(page, "progress")
    page.wait_for_selector("main.review[data-status=done]", timeout=240_000)
    assert not page.locator("#review-progress").count()
    assert page.errors == [], page.errors

    # The marked moves: a list; a tap steps the replay there.
    page.wait_for_selector("#review-marks")
    rows = page.locator("#review-marks .mark-row")
    assert rows.count() >= 1, page.inner_text("#review-marks")  # random play: several inaccuracies at least
    shot(page, "review-done")
    _fits(page, "done")
    kinds = [rows.nth(i).get_attribute("data-mark") for i in range(rows.count())]
    pick = kinds.index("mistake") if "mistake" in kinds else 0
    target = rows.nth(pick)
    step = target.get_attribute("data-step")
    label = target.inner_text()
    target.click()
    page.wait_for_selector(f"main.review[data-step='{step}']")
    decision = page.locator("#review-decision")
    assert decision.get_attribute("data-mark") == kinds[pick]
    mark_text = page.inner_text("#review-mark")
    assert mark_text in ("Mistake", "Inaccuracy") and mark_text in label, (mark_text, label)
    assert page.locator(f"#review-marks .mark-row[data-step='{step}'][aria-current=step]").count() == 1
    # the chance bar: the played move against the best, each with its chance; every move with its chance
    bars = page.locator("#review-chance .chance-row")
    assert bars.count() == 2, page.inner_text("#review-decision")
    assert "Played:" in bars.nth(0).inner_text() and "Best:" in bars.nth(1).inner_text()
    assert all("%" in bars.nth(i).inner_text() for i in range(2))
    options = page.locator("#review-options li")
    assert options.count() >= 2
    assert page.locator("#review-options li[data-played='1']").count() == 1
    assert "%" in options.nth(0).locator(".opt-chance").inner_text()
    # the replay's position says the same move
    assert page.inner_text("#replay-pos") == f"Move {step} of {page.get_attribute('main.review', 'data-steps')}"
    decision.scroll_into_view_if_needed()
    shot(page, "review-mark")
    _fits(page, "mark")

    # Previous / next mistake jump between the marked moves.
    steps = [int(rows.nth(i).get_attribute("data-step")) for i in range(rows.count())]
    here = int(step)
    after = [s for s in steps if s > here]
    before = [s for s in steps if s < here]
    if after:
        page.click("#review-next-mark")
        page.wait_for_selector(f"main.review[data-step='{after[0]}']")
        page.click("#review-prev-mark")
        page.wait_for_selector(f"main.review[data-step='{here}']")
    elif before:
        page.click("#review-prev-mark")
        page.wait_for_selector(f"main.review[data-step='{before[-1]}']")
        page.click("#review-next-mark")
        page.wait_for_selector(f"main.review[data-step='{here}']")
    else:
        assert page.locator("#review-next-mark").is_disabled() and page.locator("#review-prev-mark").is_disabled()

    small = _small_review_targets(page)
    assert not small, small
    results: dict[str, list[dict]] = {}
    axe_check(page, "review", results)
    page.emulate_media(color_scheme="light")
    bad = {k: v for k, v in results.items() if v}
    assert not bad, bad

    # The shareable link, in a fresh page of the same account: the same review, done.
    other = page.context.new_page()
    other.goto(f"{server}/#/game/{gid}/review")
    other.wait_for_selector("main.review[data-status=done] #review-marks")
    assert other.locator("#review-marks .mark-row").count() == rows.count()
    assert page.errors == [], page.errors
