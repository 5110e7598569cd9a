"""A seasonal league in Chromium at 360x740 (issue 36), against the real server.

Olga finds Leagues beside the tournaments (the section's "Tournaments | Leagues" switch), creates a league from the
"Monthly ladder" preset with "More options" (divisions of 4; the client refuses 3 movers on the field first: at
most half a division), its first season a minute or two ahead, and joins it. Two members join before the others
(accounts made in the database), then Ann, Ben and Cat join from the PWA (Cat leaves while waiting and joins again).
A second league of Olga's takes ratings from 1600 only: Ann's Join is refused there with the server's words.

The first season starts at the beat (its start moved into the past and ``league.tick()`` run, as
tests/tournaments/test_league.py drives seasons): six members make two divisions (4 and 2). The league page shows
them, the top first, each player's own division marked in words, and links to each division's tournament page where
the standings are. The season then ends (its end moved into the past, the beat adjudicates the unplayed games), the
second season starts, and the page shows the first season's moves in words beside the arrows. Nothing is cut off or
overlaps at 360 px; axe finds no serious violation in either theme. Screenshots: test-artifacts/league-*.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.tournaments import league as leagues
from games.tournaments.models import League, LeagueSeason

from .conftest import ARTIFACTS, shot
from .test_axe_themes import AXE
from .test_axe_themes import check as axe_check
from .test_giant_choice import in_thread
from .test_pwa import sign_up
from .test_tap_targets import MEASURE
from .test_tournament_journey import _fits, _standings, _wait
from .test_user_text import _api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The browser's local time a little ahead, as a datetime-local input takes it ("2026-12-06T05:12").
SOON = """(seconds) => { const d = new Date(Date.now() + seconds * 1000); const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`; }"""


def _a11y(page, name: str, axe_results: dict, small: list[str]) -> None:
    """axe-core in the light and the dark theme and every tap target 44x44 (test_tournament_journey's checks)."""
    axe_check(page, f"league-{name}", axe_results)
    page.emulate_media(color_scheme="light")
    small += [f"{name}: {p}" for p in page.evaluate(MEASURE)]


def _whole(page, name: str) -> None:
    """The whole page (the league page is longer than a phone's screen) as test-artifacts/<name>.png, from its top
    (the sticky header in its place) once the toast is gone."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_selector(".toast:not(.show)", state="attached")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _reread(page, lid: int, selector: str) -> None:
    """The league page's Refresh until ``selector`` is there (the beat ran in this process, whose socket events do
    not reach the server's sockets: the page reads again as a player's would on coming back to it)."""
    def there() -> bool:
        if page.locator(selector).count():
            return True
        page.click("#league-refresh")
        page.wait_for_timeout(300)
        return page.locator(selector).count() > 0
    _wait(there, f"{selector} on league {lid}")


def _to_league(page, lid: int) -> None:
    page.evaluate(f"location.hash = '#/leagues/{lid}'")
    page.wait_for_selector(f"main[data-league='{lid}'][data-status]")


def test_a_league_season(server, new_page):
    assert AXE.exists(), "npm ci in frontend/ (axe-core is a dev dependency)"
    olga, ann, ben, cat = new_page(), new_page(), new_page(), new_page()
    tag = uuid.uuid4().hex[:6]
    names = {p: f"{who}{tag}" for p, who in ((olga, "olga"), (ann, "ann"), (ben, "ben"), (cat, "cat"))}
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    for page in (olga, ann, ben, cat):
        sign_up(page, server, names[page])
        page.on("dialog", accept)
    axe_results: dict[str, list[dict]] = {}
    small: list[str] = []

    # Olga: Tournaments from the home screen, then Leagues beside them; the create form.
    olga.click("#nav-tournaments")
    olga.wait_for_selector("main[data-section=tournaments] #section-leagues")
    olga.click("#section-leagues")
    olga.wait_for_selector("main[data-section=leagues][data-tab=open] #league-create")
    assert olga.get_attribute("#section-leagues", "aria-current") == "page"
    _fits(olga, "list")
    shot(olga, "league-1-list")
    olga.click("#league-create")
    olga.wait_for_selector("#league-form")
    assert olga.locator("input[name=preset][value=monthly]").is_checked()
    olga.fill("#lf-name", f"Ladder {tag}")
    olga.fill("#lf-starts_at", olga.evaluate(SOON, 120))
    olga.click("#league-more-options")
    assert olga.get_attribute("#league-more-options", "aria-expanded") == "true"
    assert olga.input_value("#lf-division_size") == "8" and olga.input_value("#lf-movers") == "2"
    olga.fill("#lf-division_size", "4")
    olga.fill("#lf-movers", "3")  # at most half a division: said on the field, nothing sent
    olga.click("#league-submit")
    olga.wait_for_selector("#lf-movers-err")
    assert olga.inner_text("#lf-movers-err") == "Between 1 and 2 (half a division of 4)."
    assert olga.url.endswith("#/leagues/new")
    _fits(olga, "create")
    shot(olga, "league-2-create-refused")
    _a11y(olga, "create", axe_results, small)
    olga.fill("#lf-movers", "1")
    olga.click("#league-submit")
    olga.wait_for_url(re.compile(r"#/leagues/\d+$"))
    lid = int(olga.url.rsplit("/", 1)[1])
    olga.wait_for_selector(f"main[data-league='{lid}'][data-status=open]")
    assert olga.inner_text("#league-terms") == "Claim · 3 days per move · rated"
    assert olga.inner_text("#league-status").startswith("First season: ")
    rules = olga.inner_text("#league-rules")
    for words in ("4 players", "28 days", "1 up, 1 down", "Anyone"):
        assert words in rules, (words, rules)
    assert olga.locator("#league-no-season").is_visible()

    # Two members join first (accounts made here): they come before the others on the first season's ladder.
    def early(i: int) -> None:
        leagues.join(get_user_model().objects.create_user(username=f"early{i}{tag}", password=uuid.uuid4().hex), lid)

    for i in range(2):
        in_thread(lambda i=i: early(i))

    # Olga joins her own league; Ann, Ben and Cat find it in the list (Waiting) and join from its page.
    olga.click("#league-join")
    olga.wait_for_selector("#league-mine[data-state=waiting]")
    assert "you play from the first season" in olga.inner_text("#league-mine")
    for i, p in enumerate((ann, ben, cat)):
        p.click("#nav-tournaments")
        p.click("#section-leagues")
        p.wait_for_selector(f"#league-list a[data-league='{lid}']")
        assert f"Members: {3 + i}/200" in p.inner_text(f"#league-list a[data-league='{lid}']")
        if i == 0:
            shot(p, "league-3-list-waiting")
            _a11y(p, "list", axe_results, small)
        p.click(f"#league-list a[data-league='{lid}']")
        p.wait_for_selector("#league-join")
        p.click("#league-join")
        p.wait_for_selector("#league-mine[data-state=waiting]")
    # Cat leaves while waiting (no question: nothing is lost) and joins again.
    cat.click("#league-leave")
    cat.wait_for_selector("#league-join")
    assert cat.locator("#league-mine").count() == 0
    cat.click("#league-join")
    cat.wait_for_selector("#league-mine[data-state=waiting]")
    assert cat.inner_text("#league-count") == "Members: 6/200"
    assert cat.locator(f"#league-waiting li[data-player='{names[cat]}']").count() == 1
    _fits(cat, "joined")
    _whole(cat, "league-4-joined")
    _a11y(cat, "joined", axe_results, small)

    # A league that takes ratings from 1600: Ann (1500) is refused, in the server's words.
    status, strict = _api(olga, "POST", "/leagues", {
        "name": f"Strong {tag}", "kind": "claim", "time_control": {"type": "days", "days_per_move": 3},
        "rating_min": 1600, "division_size": 4, "movers": 1,
        "starts_at": (timezone.now() + timedelta(days=3)).isoformat()})
    assert status == 201, strict
    _to_league(ann, strict["id"])
    assert "Ratings 1600 to ∞" in ann.inner_text("#league-entry")
    ann.click("#league-join")
    ann.wait_for_selector("#league-action-error:not(:empty)")
    status, refusal = _api(ann, "POST", f"/leagues/{strict['id']}/join")
    assert status == 403 and refusal["error"]["code"] == "rating_out_of_range", refusal
    assert ann.inner_text("#league-action-error") == refusal["error"]["message"]
    assert ann.get_attribute("#league-action-error", "role") == "alert"
    _fits(ann, "refused")
    shot(ann, "league-5-join-refused")

    # The first season starts at the beat: six members, divisions of 4 and 2.
    in_thread(lambda: League.objects.filter(pk=lid).update(starts_at=timezone.now() - timedelta(seconds=1)))
    assert in_thread(leagues.tick) >= 1
    status, detail = _api(olga, "GET", f"/leagues/{lid}")
    assert status == 200 and detail["status"] == "running", detail
    divisions = detail["season"]["divisions"]
    assert [len(d["players"]) for d in divisions] == [4, 2], divisions
    division_of = {p["username"]: d["division"] for d in divisions for p in d["players"]}
    tournament_of = {d["division"]: d["tournament_id"] for d in divisions}
    assert division_of[f"early0{tag}"] == 1 and division_of[names[cat]] == 2  # the early ones are higher up
    for p in (olga, ann, ben, cat):
        _to_league(p, lid)
        _reread(p, lid, f"main[data-league='{lid}'][data-status=running] #league-season")
        assert [int(x) for x in p.locator("#league-season section[data-division]").evaluate_all(
            "els => els.map(e => e.dataset.division)")] == [1, 2]
        mine = division_of[names[p]]
        assert p.get_attribute(f"section[data-division='{mine}']", "data-mine") == "1"
        assert "your division" in p.inner_text(f"section[data-division='{mine}'] h3")
        assert p.locator("section[data-division][data-mine='1']").count() == 1
        assert p.inner_text("#league-mine") == f"You play in division {mine} this season."
        _fits(p, f"season {names[p]}")
    assert ben.locator(f"section[data-division='{division_of[names[ben]]}'] li[data-player='{names[ben]}']").count()
    assert "top" in olga.inner_text("section[data-division='1'] h3")
    assert "Season 1" in olga.inner_text("#h-league-season")
    _whole(cat, "league-6-season")
    shot(cat, "league-6-season-top")
    _a11y(cat, "season", axe_results, small)

    # Cat follows her division's link: its tournament page, with the standings of the two of them.
    cat_div = division_of[names[cat]]
    cat.locator(f"section[data-division='{cat_div}'] a[data-division-link]").scroll_into_view_if_needed()
    shot(cat, "league-7-division-link")
    cat.click(f"section[data-division='{cat_div}'] a[data-division-link]")
    tid = tournament_of[cat_div]
    cat.wait_for_url(f"**/#/tournaments/{tid}")
    cat.wait_for_selector(f"main[data-tournament='{tid}'][data-status=running]")
    _wait(lambda: len(_standings(cat)) == 2, "the division's standings")
    assert {u for _, u, _ in _standings(cat)} == {p["username"] for p in divisions[cat_div - 1]["players"]}
    assert cat.locator("#tour-my-games a[data-tour-game]").count() >= 1
    _fits(cat, "division")
    shot(cat, "league-8-division-standings")
    _a11y(cat, "division", axe_results, small)

    # The season ends (its end moved into the past): the beat adjudicates, records the moves, starts season 2.
    running = LeagueSeason.objects.filter(league_id=lid, finished_at__isnull=True)
    in_thread(lambda: running.update(ends_at=timezone.now()))
    assert in_thread(leagues.tick) >= 1
    status, detail = _api(olga, "GET", f"/leagues/{lid}")
    assert status == 200 and detail["previous_season"]["number"] == 1 and detail["season"]["number"] == 2, detail
    moves = {m["player"]["username"]: m["movement"] for m in detail["previous_season"]["moves"]}
    words = {"promoted": "promoted to division", "relegated": "relegated to division", "stayed": "stays in division",
             "entered": "enters division", "dropped": "dropped"}
    arrows = {"promoted": "↑", "relegated": "↓", "stayed": "→", "entered": "+", "dropped": "\u00d7"}
    for p in (olga, cat):
        _to_league(p, lid)
        _reread(p, lid, "#league-moves")
        for user, movement in moves.items():
            row = p.locator(f"#league-moves li[data-player='{user}']")
            assert row.get_attribute("data-movement") == movement
            assert words[movement] in row.inner_text() and arrows[movement] in row.inner_text()
            assert row.locator(".l-arrow").get_attribute("aria-hidden") == "true"  # the words carry it
        _fits(p, "moves")
    assert "promoted" in moves.values() and "relegated" in moves.values(), moves
    cat.locator("#league-moves").scroll_into_view_if_needed()
    shot(cat, "league-9-moves")
    _whole(cat, "league-9-moves-page")
    _a11y(cat, "moves", axe_results, small)

    violations = {k: v for k, v in axe_results.items() if v}
    assert not violations, violations
    assert not small, small
    assert not dialogs, dialogs  # nobody left a running season: no question asked
    for page in (olga, ann, ben, cat):
        assert not page.errors, page.errors
