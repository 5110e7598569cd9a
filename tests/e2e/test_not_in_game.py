"""Issue 33 item 4, "A game you are not in", in Chromium at 360x740 against the real server:

* a running game of others says it is private (no "Loading…" forever), with a way back; a logged-out visitor
  gets the same words above the log-in form;
* a finished game of others (and for a logged-out visitor) opens as its replay at the last move, with the
  players' names and who won: never "You lost", never Rematch or Resign;
* a player whose seat the AI took when their time ran out (3-4 seats) watches the running game without move
  controls.
"""

from __future__ import annotations

import re
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection

from games.clock.service import expire_deadline
from games.models import Game

from .conftest import shot
from .test_pwa import sign_up
from .test_table_open import api, new_ai_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _name(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def _no_self_words(page) -> None:
    body = page.locator("main").inner_text()
    for word in ("You lost", "You won", "Your team", "Rematch", "Resign", "Loading"):
        assert word not in body, (word, body[:600])
    assert page.locator("#resign, #hand, #end-actions button").count() == 0


def test_running_game_of_others_says_it_is_private(server, new_page):
    alice = new_page()
    sign_up(alice, server, _name("own"))
    gid = new_ai_game(alice, server, "claim")

    bob = new_page()
    sign_up(bob, server, _name("oth"))
    bob.goto(f"{server}/#/game/{gid}")
    bob.wait_for_selector("#game-private", timeout=10000)
    text = bob.locator("#game-private").inner_text()
    assert "private while it is played" in text and "only its players can see it" in text
    assert bob.locator("[aria-busy=true]").count() == 0
    shot(bob, "gate-private-running")
    back = bob.locator("#gate-back")
    box = back.bounding_box()
    assert box and box["height"] >= 44
    back.click()
    bob.wait_for_selector("a.btn.primary[href='#/new']")  # the inbox

    anon = new_page()
    anon.goto(f"{server}/#/game/{gid}")
    anon.wait_for_selector("#game-private", timeout=10000)
    assert "log in" in anon.locator("#game-private").inner_text()
    assert anon.locator("#username").is_visible()
    shot(anon, "gate-private-anonymous")
    anon.emulate_media(color_scheme="dark")
    shot(anon, "gate-private-anonymous-dark")
    # the owner still opens the table
    alice.goto(f"{server}/#/game/{gid}")
    alice.wait_for_selector("main.table")
    assert alice.errors == [] and bob.errors == [] and anon.errors == []


def _play(page, base: str, gid: int, moves: int) -> None:
    """Plays (the first legal move) until the game has ``moves`` moves; the AI answers by itself."""
    for _ in range(300):
        view = api(page, base, "GET", f"/games/{gid}")
        if view["move_count"] >= moves:
            return
        if view["my_turn"]:
            api(page, base, "POST", f"/games/{gid}/moves", {"version": view["version"], "move": view["legal_moves"][0]})
        else:
            time.sleep(0.1)
    raise AssertionError("the game did not get its moves")


def test_finished_game_of_others_opens_as_its_replay(server, new_page):
    owner = _name("fin")
    alice = new_page()
    sign_up(alice, server, owner)
    gid = new_ai_game(alice, server, "claim")
    _play(alice, server, gid, moves=4)
    api(alice, server, "POST", f"/games/{gid}/resign", {})

    bob = new_page()
    sign_up(bob, server, _name("vw"))
    anon = new_page()
    for page, name in ((bob, "gate-finished-other"), (anon, "gate-finished-anonymous")):
        page.goto(f"{server}/#/game/{gid}")
        page.wait_for_selector("#spectator", timeout=10000)
        page.wait_for_selector("#replay-pos")
        players = page.locator("#spectator-players").inner_text()
        assert owner in players and "AI" in players, players
        assert page.locator("#spectator-result").inner_text() == "Boris (AI) won."
        main = page.locator("main")
        assert main.get_attribute("data-step") == main.get_attribute("data-steps")  # opened at the end
        _no_self_words(page)
        shot(page, name)
        steps = int(main.get_attribute("data-steps"))
        page.locator("#replay-prev").click()
        page.wait_for_selector(f"main[data-step='{steps - 1}']")
        assert page.locator("#replay-back").get_attribute("href") == "#/"
        assert page.errors == []
    # the player herself still gets her end screen
    alice.goto(f"{server}/#/game/{gid}")
    alice.wait_for_selector("#end-h")
    assert "You lost" in alice.locator("#end-h").inner_text()


MIX4 = {"factions": ["gnome", "giant", "undead", "dwarf", "dragon", "troll", "seer"]}


def _expire(gid: int) -> str | None:
    """The deadline passes (the clock's own code, as its periodic task runs it): the late seat goes to the AI.
    In a thread of its own: Playwright's event loop runs in the test's thread, where Django refuses the ORM."""
    def run() -> str | None:
        try:
            game = Game.objects.get(pk=gid)
            return expire_deadline(gid, game.version, now=game.deadline + timedelta(minutes=1))
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def test_a_player_replaced_by_the_ai_watches_without_controls(server, new_page):
    dan_name, eve_name = _name("dan"), _name("eve")
    dan, eve = new_page(), new_page()
    sign_up(dan, server, dan_name)
    sign_up(eve, server, eve_name)
    api(dan, server, "PATCH", "/vacation", {"auto_use": False})  # no vacation day to save him
    gid = api(dan, server, "POST", "/games", {
        "kind": "claim-mix", "seats": 4, "days_per_move": 1, "options": MIX4,
        "opponents": [{"type": "user", "username": eve_name}, {"type": "ai", "level": 1}, {"type": "ai", "level": 1}],
    })["id"]
    api(eve, server, "POST", f"/games/{gid}/join", {})
    for _ in range(200):  # until dan must play (eve plays when it is her turn; the AI plays itself)
        view = api(dan, server, "GET", f"/games/{gid}")
        if view["my_turn"]:
            break
        eview = api(eve, server, "GET", f"/games/{gid}")
        if eview["my_turn"]:
            api(eve, server, "POST", f"/games/{gid}/moves",
                {"version": eview["version"], "move": eview["legal_moves"][0]})
        else:
            time.sleep(0.1)
    else:
        raise AssertionError("dan never got the turn")
    assert _expire(gid) == "replaced"

    dan.goto(f"{server}/#/game/{gid}")
    dan.wait_for_selector("main[data-spectator]", timeout=10000)
    assert "The AI took your seat" in dan.locator("#spectator").inner_text()
    players = dan.locator("#spectator-players").inner_text()
    assert eve_name in players and dan_name not in players  # his seat is the AI's now
    assert dan.locator("#trick").count() == 1 and dan.locator("section.pile").count() == 4
    _no_self_words(dan)
    assert dan.locator("main button.card, #confirm-play").count() == 0
    assert re.search(r"Waiting for", dan.locator("main").inner_text())
    shot(dan, "gate-departed-spectator")
    dan.emulate_media(color_scheme="dark")
    shot(dan, "gate-departed-spectator-dark")
    assert dan.errors == []
