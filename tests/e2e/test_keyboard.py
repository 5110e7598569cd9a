"""Keyboard only, at 360x740: sign up, look at the one-tap setting (left off), start a Claim game against
the AI and play it to the end with Tab / Shift+Tab / arrow keys / Enter / Space / Escape, never the mouse.

After every key press the focused element must show a focus ring that is on screen and not covered
(by the sticky header or a neighbouring card). Moves are chosen, then committed (issue 25): Enter on a
card selects it and the table says what playing it does; Enter again (or the Play button) plays it.
The Seer choice is a modal dialog: focus moves into it, Tab and Shift+Tab stay inside, a choice is
confirmed, and focus comes back when it closes. Cards have screen-reader names such as "Knight 7"."""

from __future__ import annotations

import random
import re
import time
import uuid

import pytest

from .conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery 9"
SINGULAR = {"goblin": "Goblin", "knight": "Knight", "undead": "Undead", "dwarf": "Dwarf",
            "doppelganger": "Doppelganger", "gnome": "Gnome", "giant": "Giant", "dragon": "Dragon", "troll": "Troll",
            "seer": "Seer"}

# Where focus is and whether a sighted keyboard user can see it: the element (or, for a visually hidden
# radio inside a pill, the label around it) has an outline of 2px or more, its visible part is not
# empty, and the point in the middle of that part belongs to it (nothing painted over it).
FOCUS_STATE = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return {ok: false, why: "focus on body"};
  const desc = (n) => n.outerHTML.slice(0, 160);
  let ring = null;
  for (let n = el, i = 0; n && i < 3; n = n.parentElement, i++) {
    const cs = getComputedStyle(n);
    if (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2) { ring = n; break; }
  }
  if (!ring) return {ok: false, why: "no focus ring", el: desc(el)};
  const r = ring.getBoundingClientRect();
  const left = Math.max(r.left, 0), right = Math.min(r.right, innerWidth);
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
  if (right - left < 4 || bottom - top < 4) return {ok: false, why: "focus ring off screen", el: desc(el)};
  const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
  if (!hit || !(ring.contains(hit) || hit.contains(ring))) {
    return {ok: false, why: "focused element covered", el: desc(el), by: hit ? desc(hit) : null};
  }
  return {ok: true, el: desc(el), dialog: el.closest("dialog[open]")?.id || null};
}"""


def focus_state(page) -> dict:
    return page.evaluate(FOCUS_STATE)


def press(page, key: str) -> dict:
    page.keyboard.press(key)
    state = focus_state(page)
    assert state["ok"], f"after {key}: {state}"
    return state


def focused_matches(page, selector: str) -> bool:
    return page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector)


def tab_to(page, selector: str, key: str = "Tab", limit: int = 80) -> None:
    """Press Tab (or Shift+Tab) until the focused element matches ``selector``, checking focus every time."""
    for _ in range(limit):
        if focused_matches(page, selector):
            return
        press(page, key)
    raise AssertionError(f"{selector} not reached with {limit} x {key}")


def check_dialog_traps_focus(page, dialog: str) -> None:
    """Tab and Shift+Tab well past the dialog's few controls: focus never leaves it."""
    for key in ["Tab"] * 5 + ["Shift+Tab"] * 5:
        state = press(page, key)
        assert state["dialog"] == dialog, f"{key} left the dialog: {state}"


def wait_for_new_version(page, version: str) -> None:
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=version)


def check_card_names(page) -> None:
    """Every card in the hand is a button named like "Knight 7" (from its data-card id)."""
    cards = page.locator("#hand button.card")
    for i in range(cards.count()):
        faction, value = cards.nth(i).get_attribute("data-card").rsplit("-", 1)
        name = f"{SINGULAR[faction]} {value}"
        assert cards.nth(i).get_attribute("data-name") == name
    some = cards.first.get_attribute("data-name")
    assert page.get_by_role("button", name=some, exact=True).count() >= 1  # the accessible name, as AT sees it


def play_card(page, first: bool) -> None:
    version = page.get_attribute("main.table", "data-version")
    if not page.evaluate("() => !!document.activeElement?.closest('#hand')"):
        tab_to(page, "#hand button.card")
    cards = page.locator("#hand button.card")
    ids = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    legal = [i for i in range(cards.count()) if "legal" in (cards.nth(i).get_attribute("class") or "")]
    # The Seer choice (T3.5) needs a trick won with a Seer: play the highest legal Seer when there is one,
    # so that a game without the choice is rare (it depends on the deal); any legal card otherwise.
    seers = [i for i in legal if ids[i].startswith("seer-")]
    target = max(seers, key=lambda i: int(ids[i].rsplit("-", 1)[1])) if seers else random.choice(legal)
    here = page.evaluate("() => [...document.querySelectorAll('#hand button.card')].indexOf(document.activeElement)")
    for _ in range(abs(target - here)):
        press(page, "ArrowRight" if target > here else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == ids[target]
    card_name = page.evaluate("() => document.activeElement.dataset.name")
    press(page, "Enter" if first or random.random() < 0.5 else "Space")
    # The first press selects: the card is pressed, the table says what it does, nothing was sent.
    page.wait_for_selector(f"#hand button.card[data-card='{ids[target]}'][aria-pressed='true']")
    assert card_name in page.locator("#commit-text").inner_text()
    assert page.get_attribute("main.table", "data-version") == version
    assert page.evaluate("() => document.activeElement.dataset.card") == ids[target]
    assert page.locator("#confirm-play").inner_text() == f"Play {card_name}"
    if first:
        shot(page, "40-keyboard-confirm")
        # the Play button (just above the hand) commits too
        tab_to(page, "#confirm-play", key="Shift+Tab")
        page.keyboard.press("Enter")
    else:
        # the second press on the card plays it: the card leaves the hand, so focus is checked once it settles
        page.keyboard.press("Enter" if random.random() < 0.5 else "Space")
    wait_for_new_version(page, version)
    # Focus stays in the hand (after the last card it moves to the result; a Seer choice takes it).
    page.wait_for_function("() => !!document.activeElement?.closest('#hand, #end, #seer-dlg')")
    state = focus_state(page)
    assert state["ok"], state


def choose_seer(page, first: bool) -> None:
    version = page.get_attribute("main.table", "data-version")
    state = focus_state(page)
    assert state["ok"] and state["dialog"] == "seer-dlg", f"focus did not move into the Seer dialog: {state}"
    if first:
        shot(page, "41-keyboard-seer")
        check_dialog_traps_focus(page, "seer-dlg")
    tab_to(page, random.choice(["#seer-prize", "#seer-top"]))
    page.keyboard.press("Enter")  # chooses
    page.wait_for_selector("#seer-dlg [aria-pressed='true']")
    assert page.get_attribute("main.table", "data-version") == version
    if random.random() < 0.5:
        page.keyboard.press("Enter")  # the same option again confirms it
    else:
        tab_to(page, "#seer-commit")
        page.keyboard.press("Enter")
    wait_for_new_version(page, version)
    page.wait_for_selector("#seer-dlg", state="detached")
    page.wait_for_function("() => !!document.activeElement && document.activeElement !== document.body")
    state = focus_state(page)
    assert state["ok"] and state["dialog"] is None, f"focus after the Seer dialog: {state}"


def play_game(page, moves: int, seer: int) -> tuple[int, int]:
    """Play the open game to its end from the keyboard; returns the running (cards played, Seer choices)."""
    start = moves
    deadline = time.monotonic() + 240
    while not page.locator("#end").count():
        assert time.monotonic() < deadline, f"the game did not end ({moves - start} moves)"
        if page.locator("#seer-dlg[open]").count():
            choose_seer(page, first=seer == 0)
            seer += 1
        elif page.locator("main.table[data-myturn='1'] #hand button.card.legal").count():
            play_card(page, first=moves == 0)
            moves += 1
            if moves == 1:
                check_card_names(page)
        else:
            time.sleep(0.1)
    assert moves - start >= 13
    print(f"keyboard game: {moves - start} cards played, {seer} Seer choices so far")
    return moves, seer


def test_sign_up_and_play_a_whole_game_with_the_keyboard(server, new_page):
    page = new_page()
    page.goto(server + "/")
    page.wait_for_selector("#username")
    # Sign up: the first Tab shows the skip link; then the form.
    state = press(page, "Tab")
    assert "skip" in state["el"]
    tab_to(page, "#username")
    page.keyboard.type(f"keys{uuid.uuid4().hex[:8]}")
    press(page, "Tab")
    assert focused_matches(page, "#password")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("a.btn.primary[href='#/new']")
    # Focus was on the removed form: it lands on the new screen's <main>, not on <body>.
    page.wait_for_function("() => document.activeElement?.id === 'main'")

    # Settings: one-tap play is a setting, off by default (Space toggles it; toggled back here).
    tab_to(page, "#nav-settings", key="Shift+Tab")
    press(page, "Enter")
    page.wait_for_selector("#one-tap")
    tab_to(page, "#one-tap")
    assert not page.locator("#one-tap").is_checked()
    press(page, "Space")
    assert page.locator("#one-tap").is_checked()
    press(page, "Space")
    assert not page.locator("#one-tap").is_checked()

    # New game against the AI: arrow keys move within the radio groups.
    tab_to(page, "header nav a[href='#/new']", key="Shift+Tab")
    press(page, "Enter")
    page.wait_for_selector("#start-game")
    tab_to(page, "input[name=opp]")
    assert focused_matches(page, "input[name=opp][value=ai]")
    press(page, "ArrowDown")
    assert page.locator("input[name=opp][value=seek]").is_checked()
    press(page, "ArrowUp")
    assert page.locator("input[name=opp][value=ai]").is_checked()
    tab_to(page, "input[name=level]")
    press(page, "ArrowRight")
    assert page.locator("input[name=level]").nth(1).is_checked()
    press(page, "ArrowLeft")
    assert page.locator("input[name=level]").nth(0).is_checked()
    # Claim 2: it has the Seer, whose choice is a dialog.
    tab_to(page, "input[name=kind]")
    assert focused_matches(page, "input[name=kind][value=claim]")
    press(page, "ArrowDown")
    assert page.locator("input[name=kind][value=claim2]").is_checked()
    tab_to(page, "#start-game")
    shot(page, "39-keyboard-new-game")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r".*#/game/\d+$"))
    page.wait_for_selector("#hand button.card")
    page.wait_for_function("() => document.activeElement?.id === 'main'")  # not lost with the form
    check_card_names(page)

    moves, seer = play_game(page, 0, 0)
    # The Seer choice depends on the deal: about 30 % of games against the Squire have none with this play
    # (measured over 200 deals), so rematch (keyboard too) until one came up, at most five more: all six
    # without one is a 0.07 % chance.
    for _ in range(5):
        if seer:
            break
        page.wait_for_function("() => !!document.activeElement?.closest('#end')")
        tab_to(page, "#rematch")
        finished = page.url
        page.keyboard.press("Enter")
        page.wait_for_function("u => location.href !== u", arg=finished)
        page.wait_for_selector("#hand button.card")
        moves, seer = play_game(page, moves, seer)
    assert seer >= 1, "no Seer choice in six games"
    page.wait_for_selector("#end-h")
    assert re.search("You won|You lost|Draw", page.locator("#end-h").inner_text())
    # After the last card, focus is on the result, and the end screen's links are reachable.
    page.wait_for_function("() => !!document.activeElement?.closest('#end')")
    tab_to(page, "#end a[href='#/']")
    shot(page, "42-keyboard-end")
    page.keyboard.press("Enter")
    page.wait_for_selector("#h-fin")
    page.wait_for_function("() => document.activeElement?.id === 'main'")
    assert not page.errors
