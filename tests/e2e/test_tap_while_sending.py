"""A card tapped while the player's previous move is still in flight (360x740, against the AI; Claim and Inheritors).

A move's new version (and the AI's answer) can reach the table over the socket before the move's own HTTP
answer. Until then the table kept the hand busy and dropped every tap, so a player who was to play again
at once (he won the trick, or the AI answered fast) tapped a card and nothing happened. Now a tap on the newer
table chooses the card (it is selected and the Play button offers it); the choice survives the late answer,
and Play commits it."""

from __future__ import annotations

import re
import uuid

import pytest

from .conftest import shot
from .test_pwa import sign_up, start_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MOVES = re.compile(r".*/api/v1/games/\d+/moves$")


def _hold_moves(page) -> list:
    """Hold back the answers of the page's moves (the server has each move; the page has not its answer yet):
    ``(route, answer)`` pairs, for the test to let through with ``route.fulfill(response=answer)``."""
    held: list = []

    def hold(route) -> None:
        if route.request.method == "POST":
            held.append((route, route.fetch()))
        else:
            route.continue_()

    page.route(MOVES, hold)
    return held


def test_a_card_tapped_while_the_last_move_is_in_flight_is_chosen_and_played(server, new_page):
    page = new_page()
    sign_up(page, server, f"quick{uuid.uuid4().hex[:8]}")
    start_game(page, kind="claim", opponent="ai")
    held = _hold_moves(page)
    page.wait_for_selector("main.table[data-myturn='1'] #hand button.card.legal")
    version = page.get_attribute("main.table", "data-version")
    plain = page.locator("#hand button.card.legal:not([data-name^='Seer'])")  # a Seer could win a Seer choice
    (plain if plain.count() else page.locator("#hand button.card.legal")).first.click()
    page.locator("#confirm-play").click()
    page.wait_for_selector("#hand[aria-busy='true']")
    # the socket brings the move and the AI's answer: the player's turn again, the move's answer still held
    page.wait_for_function(
        "v => { const t = document.querySelector('main.table'); return t && t.dataset.version !== v"
        " && t.dataset.myturn === '1'; }", arg=version)
    assert page.get_attribute("#hand", "aria-busy") == "true" and len(held) == 1
    if page.locator("#seer-prize").is_visible():  # only when every legal card was a Seer, and it won
        _seer_choice_while_sending(page, held)
        return
    newer = page.get_attribute("main.table", "data-version")
    card = page.locator("#hand button.card.legal").first
    name = card.get_attribute("data-name")
    copies = page.locator(f"#hand button.card[data-name='{name}']").count()
    card.click()
    assert page.locator(f"#hand button.card.sel[data-name='{name}']").count() == 1  # chosen, not dropped
    assert name and name in page.locator("#confirm-play").inner_text()
    shot(page, "tap-while-sending")
    route, answer = held.pop()
    route.fulfill(response=answer)  # the late answer of the first move
    page.wait_for_function("() => document.querySelector('#hand')?.getAttribute('aria-busy') !== 'true'")
    assert page.locator(f"#hand button.card.sel[data-name='{name}']").count() == 1  # the choice survived it
    page.unroute(MOVES)
    page.locator("#confirm-play").click()
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=newer)
    assert page.locator(f"#hand button.card[data-name='{name}']").count() == copies - 1  # that card was played
    assert page.locator("#hand button.card.sel").count() == 0
    assert not page.errors


def _seer_choice_while_sending(page, held: list) -> None:
    """The same for a Seer choice (T3.5b) that the socket showed before the move's answer."""
    newer = page.get_attribute("main.table", "data-version")
    page.click("#seer-prize")
    assert page.get_attribute("#seer-prize", "aria-pressed") == "true"
    route, answer = held.pop()
    route.fulfill(response=answer)
    page.wait_for_function("() => document.querySelector('#hand')?.getAttribute('aria-busy') !== 'true'")
    assert page.get_attribute("#seer-prize", "aria-pressed") == "true"
    page.unroute(MOVES)
    page.click("#seer-commit")
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=newer)
    assert not page.errors


def test_inheritors_a_hand_card_tapped_while_the_turns_end_is_in_flight_is_chosen(server, new_page):
    """Inheritors against the AI: my action, then my end of turn held back; the AI's whole turn reaches the table
    over the socket and it is my turn again: a hand card tapped then is chosen, stays chosen after the late
    answer, and Confirm sends its move."""
    page = new_page()
    sign_up(page, server, f"heir{uuid.uuid4().hex[:8]}")
    start_game(page, kind="inheritors", opponent="ai")
    table = "main.table[data-kind='inheritors']"
    page.wait_for_selector(f"{table}[data-myturn='1'] #ih-hand button.ih-card.legal")
    # the action: a card's discard-and-draw (never a pending decision), sent and answered normally
    page.locator("#ih-hand button.ih-card.legal").first.click()
    kinds = page.locator("#ih-kinds button[data-kind='discard_draw']")
    if kinds.count():
        kinds.click()
    version = page.get_attribute("main.table", "data-version")
    page.locator("#ih-commit").click()
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=version)
    page.wait_for_function("() => document.querySelector('#ih-moves')?.getAttribute('aria-busy') !== 'true'")
    held = _hold_moves(page)
    # the post-action window: Confirm ends the turn (sent by itself when it is the only move)
    ended = page.get_attribute("main.table", "data-version")
    if page.get_attribute("#ih-moves", "data-forced") != "1":
        page.locator("#ih-commit").click()
    page.wait_for_selector("#ih-moves[aria-busy='true']")
    page.wait_for_function(
        "v => { const t = document.querySelector('main.table'); return t && t.dataset.version !== v"
        " && t.dataset.myturn === '1' && document.querySelector('#ih-hand button.ih-card.legal'); }", arg=ended)
    assert page.get_attribute("#ih-moves", "aria-busy") == "true" and len(held) == 1
    newer = page.get_attribute("main.table", "data-version")
    card = page.locator("#ih-hand button.ih-card.legal").first
    chosen = card.get_attribute("data-card")
    card.click()
    picked = f"#ih-hand button.ih-card[data-card='{chosen}'][aria-pressed='true']"
    assert page.locator(picked).count() == 1  # chosen, not dropped
    shot(page, "tap-while-sending-inheritors")
    route, answer = held.pop()
    route.fulfill(response=answer)
    page.wait_for_function("() => document.querySelector('#ih-moves')?.getAttribute('aria-busy') !== 'true'")
    assert page.locator(picked).count() == 1  # the choice survived the late answer
    page.unroute(MOVES)
    page.locator("#ih-commit").click()
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=newer)
    assert not page.errors
