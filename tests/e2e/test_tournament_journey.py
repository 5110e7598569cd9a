"""A round robin of three in Chromium at 360x740 (issue 36), against the real server.

Dave finds Tournaments in the app's navigation, creates a round robin for 3 players of 2-seat Claim from the
"Round robin of 6" preset and "More options" (the client refuses 21 players on the field first), and keeps its page
open. Alice, Bob and Carol join from the PWA; the third entry fills it and it starts. They play the round from the
"My games" links: a few moves each game, then one side resigns at the table (Alice beats Bob and Carol, Bob beats
Carol). The standings on the tournament page update without a reload and are right (Alice 2, Bob 1, Carol 0), the
crosstable says who beat whom, and nothing is cut off at 360 px.

Live: Bob keeps a second tab on the tournament page; it re-reads on the socket's events of his own games
(``game_started`` / ``game_finished``) and on the ``tournament`` events of the tournament (``watch_tournament``).
Dave plays no game: his page hears only the ``tournament`` events of the tournament it watches, and must update
without a reload or a focus re-read. Screenshots: test-artifacts/tournament-*.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from .conftest import shot
from .test_axe_themes import AXE
from .test_axe_themes import check as axe_check
from .test_pwa import act_once, sign_up
from .test_tap_targets import MEASURE
from .test_user_text import OVERFLOW, _api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

def _fits(page, label: str) -> None:
    scroll, width, wide = page.evaluate(OVERFLOW)
    assert scroll <= width and not wide, (label, scroll, width, wide)


def _wait(predicate, what: str, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _a11y(page, name: str, axe_results: dict, small: list[str]) -> None:
    """axe-core in the light and the dark theme (no serious or critical violation) and every tap target 44x44."""
    axe_check(page, f"tournament-{name}", axe_results)
    page.emulate_media(color_scheme="light")
    small += [f"{name}: {p}" for p in page.evaluate(MEASURE)]


def _standings(page) -> list[tuple[str, str, str]]:
    """(rank, username, score) of each row of the page's standings table, top down."""
    rows = page.locator("#tour-standings tbody tr")
    return [(rows.nth(i).get_attribute("data-rank"), rows.nth(i).get_attribute("data-player"),
             rows.nth(i).get_attribute("data-score")) for i in range(rows.count())]


def _live(page, predicate, what: str, *, label: str, timeout: float = 20.0) -> None:
    """Wait, without a reload or a focus event, until ``label``'s page shows ``predicate``."""
    _wait(predicate, f"{what} ({label})", timeout)


def _to_page(page, tid: int) -> None:
    """To the tournament page by the hash (a same-document navigation: no reload)."""
    page.evaluate(f"location.hash = '#/tournaments/{tid}'")
    page.wait_for_selector(f"main[data-tournament='{tid}'][data-status]")


def _play(pages: dict, game_id: int, loser: str, tid: int, moves: int = 3) -> None:
    """Both players open the table from their "My games", play a few moves, the loser resigns at the table."""
    for p in pages.values():
        _to_page(p, tid)
        p.wait_for_selector(f"#tour-my-games a[data-tour-game='{game_id}']")
        p.click(f"#tour-my-games a[data-tour-game='{game_id}']")
        p.wait_for_url(f"**/#/game/{game_id}")
        p.wait_for_selector("main.table")
    made = 0
    end = time.monotonic() + 30
    while made < moves and time.monotonic() < end:
        if not any(act_once(p) for p in pages.values()):
            time.sleep(0.1)
        else:
            made += 1
    assert made >= 1, "no move was made"
    pages[loser].click("#resign")  # the confirmation is accepted (the page's dialog handler)
    for p in pages.values():
        p.wait_for_selector("#end")


def test_round_robin_of_three(server, new_page):
    assert AXE.exists(), "npm ci in frontend/ (axe-core is a dev dependency)"
    dave, alice, bob, carol = new_page(), new_page(), new_page(), new_page()
    tag = uuid.uuid4().hex[:6]
    names = {p: f"{who}{tag}" for p, who in ((dave, "dave"), (alice, "alice"), (bob, "bob"), (carol, "carol"))}
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    for page in (alice, bob, carol, dave):
        sign_up(page, server, names[page])
        page.on("dialog", accept)
    user = {p: names[p] for p in (alice, bob, carol)}
    axe_results: dict[str, list[dict]] = {}
    small: list[str] = []

    # Dave: Tournaments from the home screen's navigation; then the create form.
    _fits(dave, "home")
    shot(dave, "tournament-0-home-nav")
    dave.click("#nav-tournaments")
    dave.wait_for_selector("main[data-tab=open] #tour-create")
    shot(dave, "tournament-1-list")
    dave.click("#tour-create")
    dave.wait_for_selector("#tour-form")
    dave.locator("input[name=preset][value=rr6]").check()
    dave.fill("#tf-name", f"Three of us {tag}")
    dave.click("#tour-more-options")
    assert dave.get_attribute("#tour-more-options", "aria-expanded") == "true"
    dave.fill("#tf-max_players", "21")  # a round robin takes at most 20: said on the field, nothing sent
    dave.click("#tour-submit")
    dave.wait_for_selector("#tf-max_players-err")
    assert "Between 2 and 20 players." in dave.inner_text("#tf-max_players-err")
    assert dave.url.endswith("#/tournaments/new")
    _fits(dave, "create")
    shot(dave, "tournament-2-create-refused")
    _a11y(dave, "create", axe_results, small)
    dave.fill("#tf-max_players", "3")
    assert dave.locator("#tf-max_players-err").count() == 0
    dave.click("#tour-submit")
    dave.wait_for_url(re.compile(r"#/tournaments/\d+$"))
    tid = int(dave.url.rsplit("/", 1)[1])
    dave.wait_for_selector(f"main[data-tournament='{tid}'][data-status=open]")
    assert dave.inner_text("#tour-terms").startswith("Round robin · Claim · 3 days per move")
    assert dave.locator("#tour-cancel").is_visible()  # the creator may cancel; he has not entered
    shot(dave, "tournament-3-created")

    # Alice, Bob and Carol: the list (Open) shows it; each joins from its page. The third entry fills it.
    for i, p in enumerate((alice, bob, carol)):
        p.click("#nav-tournaments")
        p.wait_for_selector(f"#tour-list a[data-tournament='{tid}']")
        assert f"Players: {i}/3" in p.inner_text(f"#tour-list a[data-tournament='{tid}']")
        if i == 0:
            shot(p, "tournament-4-list-open")
            _a11y(p, "list", axe_results, small)
        p.click(f"#tour-list a[data-tournament='{tid}']")
        p.wait_for_selector("#tour-join")
        p.click("#tour-join")
        p.wait_for_selector("#tour-mine")
        if i == 1:
            _fits(p, "joined")
            shot(p, "tournament-5-joined")
            _a11y(p, "joined", axe_results, small)
    # It starts in the background: the players' pages (game_started) and Dave's (tournament event or focus) say so.
    for p in (alice, bob, carol):
        _live(p, lambda p=p: p.get_attribute("main[data-tournament]", "data-status") == "running",
              "running", label=user[p])
    _live(dave, lambda: dave.get_attribute("main[data-tournament]", "data-status") == "running", "running",
          label="dave")
    assert dave.locator("#tour-cancel").count() == 0 and dave.locator("#tour-join").count() == 0
    status, games = _api(dave, "GET", f"/tournaments/{tid}/games")
    assert status == 200 and len(games["results"]) == 3, games
    game_of = {frozenset(p["username"] for p in g["players"]): g["game_id"] for g in games["results"]}
    alice.wait_for_selector("#tour-my-games a[data-tour-game]")
    assert alice.locator("#tour-my-games a[data-tour-game]").count() == 2
    _fits(alice, "running")
    shot(alice, "tournament-6-running-my-games")
    _a11y(alice, "running", axe_results, small)

    # Bob keeps a second tab on the tournament page (no reload from here on).
    bob_tab = bob.context.new_page()
    bob_tab.errors = []
    bob_tab.on("pageerror", lambda e: bob_tab.errors.append(str(e)))
    bob_tab.goto(server + f"/#/tournaments/{tid}")
    bob_tab.wait_for_selector(f"main[data-tournament='{tid}'][data-status=running]")

    def scores(page) -> dict[str, str]:
        return {u: s for _, u, s in _standings(page)}

    # Alice beats Bob (Bob resigns after a few moves).
    _play({"alice": alice, "bob": bob}, game_of[frozenset((user[alice], user[bob]))], "bob", tid)
    shot(bob, "tournament-7-table-resigned")
    _live(bob_tab, lambda: scores(bob_tab).get(user[alice]) == "1", "Alice's first point on Bob's tab",
          label="bob-tab")
    _live(dave, lambda: scores(dave).get(user[alice]) == "1", "Alice's first point on Dave's page",
          label="dave")
    shot(dave, "tournament-8-after-game-1")

    # Alice beats Carol, Bob beats Carol.
    _play({"alice": alice, "carol": carol}, game_of[frozenset((user[alice], user[carol]))], "carol", tid)
    _play({"bob": bob, "carol": carol}, game_of[frozenset((user[bob], user[carol]))], "carol", tid)

    final = [("1", user[alice], "2"), ("2", user[bob], "1"), ("3", user[carol], "0")]
    _live(bob_tab, lambda: _standings(bob_tab) == final, "the final standings on Bob's tab", label="bob-tab")
    _live(dave, lambda: _standings(dave) == final, "the final standings on Dave's page", label="dave")
    _live(dave, lambda: dave.get_attribute("main[data-tournament]", "data-status") == "finished", "finished",
          label="dave")
    for page in (dave, bob_tab):
        assert page.inner_text("#tour-status") == "Finished"
        assert "Head-to-head" in page.inner_text("#tour-tb-legend")
        # the crosstable: Alice's row has 1 against Bob and Carol; Carol's row 0 against both
        a_row = page.locator(f"#tour-cross tr[data-player='{user[alice]}']")
        assert a_row.locator(f"td[data-vs='{user[bob]}']").inner_text() == "1"
        assert a_row.locator(f"td[data-vs='{user[carol]}']").inner_text() == "1"
        c_row = page.locator(f"#tour-cross tr[data-player='{user[carol]}']")
        assert c_row.locator(f"td[data-vs='{user[alice]}']").inner_text() == "0"
        assert c_row.locator(f"td[data-vs='{user[bob]}']").inner_text() == "0"
        _fits(page, "finished")
    shot(dave, "tournament-9-final-standings")
    _a11y(bob_tab, "finished", axe_results, small)
    dave.locator("#tour-cross-scroll").scroll_into_view_if_needed()
    shot(dave, "tournament-10-crosstable")
    # Bob's tab: his own games with their results
    results = sorted(bob_tab.locator("#tour-my-games a").evaluate_all("els => els.map(e => e.dataset.result)"))
    assert results == ["loss", "win"], results

    # The server agrees with the page.
    status, detail = _api(dave, "GET", f"/tournaments/{tid}")
    assert status == 200 and detail["status"] == "finished"
    assert [(str(s["rank"]), s["player"]["username"], str(int(s["score"]))) for s in detail["standings"]] == final

    violations = {k: v for k, v in axe_results.items() if v}
    assert not violations, violations
    assert not small, small
    assert all("resign" in d.lower() for d in dialogs), dialogs
    for page in (dave, alice, bob, carol, bob_tab):
        assert not page.errors, page.errors
