"""M6.5 in Chromium against the real server: a 3-player Claim table offers the Giant choice (whose
Gnome the winner's Giant smashes) as a small prompt, like the Seer choice; the rules page shows the
five powers the 3-4 player versions change, and the Inheritors page its deviations (issue 23)."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games.models import Game
from games.rules.registry import get_rules
from tests.rules_multi.helpers import giant_choice_seed, steer_to_giant_choice

from .conftest import shot
from .test_pwa import sign_up
from .test_table_open import api

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FACTIONS = ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]


def in_thread(fn):
    """The ORM outside Playwright's event loop (Django refuses sync queries under a running loop)."""
    def run():
        try:
            return fn()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as ex:
        return ex.submit(run).result()


def stored_state(gid: int):
    return get_rules("claim-mix").from_json(in_thread(lambda: Game.objects.get(pk=gid).state))


def get(page, base: str, path: str) -> dict:
    r = page.request.get(base + "/api/v1" + path)
    assert r.ok, (r.status, r.text())
    return r.json()


def test_M6_5_the_table_offers_the_giant_choice_and_the_rules_pages_show_the_rulings(server, new_page):
    tag = uuid.uuid4().hex[:6]
    names = [f"gc{i}{tag}" for i in range(3)]
    pages = []
    for n in names:
        p = new_page()
        sign_up(p, server, n)
        pages.append(p)
    gid = api(pages[0], server, "POST", "/games", {
        "kind": "claim-mix", "seats": 3, "options": {"factions": FACTIONS},
        "opponents": [{"type": "user", "username": n} for n in names[1:]]})["id"]
    seed = giant_choice_seed({"factions": FACTIONS})
    in_thread(lambda: Game.objects.filter(pk=gid).update(seed=seed))  # a deal that reaches a Giant choice
    for p in pages[1:]:
        api(p, server, "POST", f"/games/{gid}/join")
    by_seat = {get(p, server, f"/games/{gid}")["my_seat"]: p for p in pages}
    moves = steer_to_giant_choice(stored_state(gid), tries=20)
    for i, (seat, move) in enumerate(moves):
        p = by_seat[seat]
        version = get(p, server, f"/games/{gid}")["version"]
        api(p, server, "POST", f"/games/{gid}/moves", {"version": version, "move": move, "client_id": f"m{i}-{tag}"})
    state = stored_state(gid)
    winner = state.smash_seat
    cands = [m["smash"] for m in get_rules("claim-mix").legal_moves(state, winner)]
    assert winner >= 0 and len(cands) >= 2
    page = by_seat[winner]
    page.goto(f"{server}/#/game/{gid}")
    dlg = page.wait_for_selector("#smash-dlg", timeout=15000)
    shot(page, "60-giant-choice")
    text = dlg.inner_text()
    assert "Your Giant smashes a Gnome" in text and "Choose whose" in text
    assert page.locator("#smash-dlg button[data-seat]").count() == len(cands)
    target = cands[-1]
    page.click(f"#smash-{target}")  # the first tap chooses (issue 25): nothing is sent yet
    page.wait_for_selector(f"#smash-{target}[aria-pressed='true']")
    assert page.locator("#smash-dlg").count() == 1
    page.click("#smash-commit")
    page.wait_for_selector("#smash-dlg", state="detached", timeout=15000)
    after = get(page, server, f"/games/{gid}")
    view = after["view"]
    assert view["smash_pending"] is None or view["smash_pending"]["candidates"] != cands
    last = view["last_trick"]
    assert target in last["smashed_from"], last
    count, last_move = in_thread(lambda: (Game.objects.get(pk=gid).move_count,
                                          Game.objects.get(pk=gid).moves.order_by("-number").first().move))
    assert count == len(moves) + 1 and last_move == {"smash": target}
    shot(page, "61-giant-choice-made")
    # the rules pages: the five powers (3-4 players) and the Inheritors deviations, plainly
    page.goto(f"{server}/#/rules/claim-mix")
    five = page.wait_for_selector("#five-powers")
    assert page.locator("#five-powers dt").count() == 5
    for word in ("Knights", "Doppelgangers", "Seers", "Dwarves", "Giants"):
        assert word in five.inner_text()
    assert "never the winner's partner" in five.inner_text()
    page.locator("#five-powers").scroll_into_view_if_needed()
    shot(page, "62-rules-five-powers")
    page.goto(f"{server}/#/rules/inheritors")
    dev = page.wait_for_selector("#deviations")
    assert "top 3 cards" in dev.inner_text() and "Wolf" in dev.inner_text() and "examples" in dev.inner_text()
    page.locator("#deviations").scroll_into_view_if_needed()
    shot(page, "63-inheritors-deviations")
    assert not page.errors, page.errors
