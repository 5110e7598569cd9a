"""The PWA end to end at 360x740: sign up, play a whole game against the AI and against a friend,
and switch the interface to German and Czech. Screenshots go to test-artifacts/."""

from __future__ import annotations

import random
import re
import time
import uuid

import pytest

from games.notify.models import EVENTS

from .conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery 9"


def sign_up(page, base: str, username: str) -> None:
    page.goto(base + "/")
    page.get_by_role("tab", name="Sign up").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()
    page.wait_for_selector("a.btn.primary[href='#/new']")


def start_game(page, *, kind: str = "claim", opponent: str = "ai", username: str = "", rated: bool = False) -> None:
    page.goto(page.url.split("#")[0] + "#/new")
    page.locator(f"input[name=opp][value={opponent}]").check()
    if opponent == "user":
        page.fill("#opp-username", username)
    if rated:
        page.locator("#rated").check()
    page.locator(f"input[name=kind][value={kind}]").check()
    page.click("#start-game")
    # the AI: the table; a friend or anyone with the link (two seats): the challenge's page (issue 26)
    page.wait_for_url(re.compile(r"#/(game|challenge)/[^/]+$"))


def act_once(page) -> bool:
    """Make one legal move if it is this page's turn; True if a move was sent."""
    if page.locator("#seer-prize").is_visible():
        version = page.get_attribute("main.table", "data-version")
        choice = random.choice(["#seer-prize", "#seer-top"])
        page.click(choice)  # choose, then the same again commits (issue 25)
        page.click(choice)
    elif page.locator("main.table[data-myturn='1'] #hand button.card.legal").count():
        version = page.get_attribute("main.table", "data-version")
        cards = page.locator("#hand button.card.legal")
        card = cards.nth(random.randrange(cards.count()))
        card.click()  # the first tap selects the card and says what will happen
        page.locator("#confirm-play").click()
    else:
        return False
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=version)
    # the socket's new version can arrive before the move's own response; until it is in, a tap only chooses
    # and Play waits (test_tap_while_sending.py), so the next move waits for the hand to be free
    page.wait_for_function("() => document.querySelector('#hand')?.getAttribute('aria-busy') !== 'true'")
    return True


def play_to_end(pages, limit: float = 100.0) -> int:
    moves = 0
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(p.locator("#end").count() for p in pages):
            return moves
        acted = False
        for p in pages:
            if not p.locator("#end").count() and act_once(p):
                moves += 1
                acted = True
        if not acted:
            time.sleep(0.1)
    raise AssertionError(f"the game did not end in {limit} s ({moves} moves)")


def result_of(page) -> str:
    return page.locator("#end-h").inner_text()


def test_sign_up_and_beat_the_ai(server, new_page):
    page = new_page()
    page.goto(server + "/")
    shot(page, "01-login")
    sign_up(page, server, f"solo{uuid.uuid4().hex[:8]}")
    shot(page, "02-inbox-empty")
    page.click("a.btn.primary[href='#/new']")
    page.wait_for_selector("#start-game")
    shot(page, "03-new-game")
    start_game(page, kind="claim", opponent="ai")
    page.wait_for_selector("#hand button.card")
    # Screen-reader names of cards: "Knight 7".
    label = page.locator("#hand button.card").first.get_attribute("data-name")
    assert label and label.split()[-1].isdigit()
    page.wait_for_selector("#clock >> text=3 days per move")  # the clock strip: control + my time left
    assert page.locator("#clock button#pause").count() == 1
    shot(page, "04-table")
    # A move attempted offline is refused with a message, never queued.
    page.wait_for_selector("main.table[data-myturn='1'] #hand button.card.legal")
    version = page.get_attribute("main.table", "data-version")
    page.context.set_offline(True)
    page.locator("#hand button.card.legal").first.click()
    page.locator("#hand button.card.legal").first.click()  # the second tap plays
    page.wait_for_selector(".toast.show >> text=Your move was not sent")
    shot(page, "04b-offline-move")
    page.context.set_offline(False)
    assert page.get_attribute("main.table", "data-version") == version
    moves = play_to_end([page])
    assert moves >= 13  # 26 tricks, each needs one of my cards
    shot(page, "05-end")
    assert any(w in result_of(page) for w in ("You won", "You lost", "Draw"))
    assert page.locator("#end .votes li").count() == 5  # a line per faction: counts, vote, why
    # Replay of the finished game: step forward from the deal.
    page.click("#replay-link")
    page.wait_for_selector("main[data-steps]")
    assert page.locator("#replay-pos").inner_text().startswith("Move 0 of")
    page.click("#replay-next")
    page.wait_for_selector("main[data-step='1']")
    shot(page, "05b-replay")
    page.go_back()
    page.wait_for_selector("#end")
    # Rematch: a new game against the same AI.
    finished = page.url
    page.click("#rematch")
    page.wait_for_function("u => location.href !== u", arg=finished)
    page.wait_for_selector("main.table #hand button.card")
    shot(page, "05c-rematch")
    page.goto(server + "/#/")
    page.wait_for_selector("#h-fin")
    assert page.locator(".games a[data-game]").count() >= 1
    shot(page, "06-inbox-finished")
    assert not page.errors


def test_two_friends_play_a_whole_game(server, new_page):
    alice, bob = new_page(), new_page()
    a_name, b_name = f"alice{uuid.uuid4().hex[:6]}", f"bob{uuid.uuid4().hex[:6]}"
    sign_up(bob, server, b_name)
    sign_up(alice, server, a_name)
    start_game(alice, kind="claim2", opponent="user", username=b_name, rated=True)
    # Bob sees the challenge arrive live (WebSocket) or after a refresh, and accepts it.
    bob.click("text=Refresh")
    bob.wait_for_selector("button[data-accept-challenge]")
    shot(bob, "10-invitation")
    bob.click("button[data-accept-challenge]")
    # accepting opens the table (issue 21), for both: Alice waited on the challenge's page
    bob.wait_for_url(re.compile(r"#/game/\d+$"))
    game_id = bob.url.rsplit("/", 1)[1]
    alice.wait_for_url(f"**/#/game/{game_id}")
    bob.wait_for_selector("main.table")
    alice.wait_for_selector("main.table #hand button.card")
    play_to_end([alice, bob])
    shot(alice, "11-end-alice")
    shot(bob, "12-end-bob")
    ra, rb = result_of(alice), result_of(bob)
    if "Draw" in ra:
        assert "Draw" in rb
    else:
        assert ("You won" in ra) != ("You won" in rb), (ra, rb)
    # Both see the same per-faction counts, mirrored (me | opponent).
    rows_a = [r.split(",") for r in alice.locator("#end .votes li").evaluate_all("ls => ls.map(l => l.dataset.counts)")]
    rows_b = [r.split(",") for r in bob.locator("#end .votes li").evaluate_all("ls => ls.map(l => l.dataset.counts)")]
    assert len(rows_a) == 5 and [(r[0], r[1]) for r in rows_a] == [(r[1], r[0]) for r in rows_b]
    # The game was rated: Bob's profile (seen by Alice) has a Claim 2 rating and its history chart.
    alice.goto(server + f"/#/profile/{b_name}")
    for _ in range(20):
        if alice.locator("figure.chart svg").count():
            break
        time.sleep(0.5)
        alice.reload()
    alice.wait_for_selector("figure.chart svg[role=img]")
    assert alice.locator("#ratings tr[data-pool=claim2]").count() == 1
    shot(alice, "13-profile-rated")
    assert not alice.errors and not bob.errors


def test_switch_language_to_german_and_czech(server, new_page):
    page = new_page()
    sign_up(page, server, f"poly{uuid.uuid4().hex[:8]}")
    page.click("#nav-settings")
    page.select_option("#language", "de")
    page.click("#save-profile")
    page.wait_for_selector("text=Gespeichert")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.locator("header nav").inner_text().split() == ["Partien", "Neue", "Partie", "Regeln", "Einstellungen"]
    shot(page, "20-settings-de")
    page.goto(server + "/#/rules/claim2")
    page.wait_for_selector("text=Fähigkeiten der Fraktionen")
    shot(page, "21-rules-de")
    page.goto(server + "/#/settings")
    page.select_option("#language", "cs")
    page.click("#save-profile")
    page.wait_for_selector("text=Uloženo")
    page.reload()  # the choice is stored in the profile
    page.wait_for_selector("header >> text=Nastavení")
    assert page.locator("html").get_attribute("lang") == "cs"
    page.goto(server + "/#/")
    page.wait_for_selector("text=Hry")
    shot(page, "22-inbox-cs")
    assert not page.errors


def test_correspondence_screens(server, new_page):
    """Seek + play now, leaderboards, profile with ratings, notifications with preferences, vacation."""
    page = new_page()
    name = f"corr{uuid.uuid4().hex[:8]}"
    sign_up(page, server, name)
    page.goto(server + "/#/new")
    page.locator("input[name=opp][value=seek]").check()
    assert page.locator("#rated").is_checked()
    shot(page, "30-new-seek")
    page.click("#start-game")  # post a rated seek; nobody else seeks, so it waits in the inbox
    page.wait_for_selector("#seeks li[data-seek]")
    shot(page, "31-inbox-seek")
    page.locator("#seeks li[data-seek] button").first.click()
    page.wait_for_selector("#seeks", state="detached")
    page.goto(server + "/#/leaders/claim")
    page.wait_for_selector("#leaderboard")
    assert page.locator("text=AI levels").count() == 1
    # the pool picker comes from GET /api/v1/ratings/pools (every kind x seat count, e.g. Inheritors 3p)
    page.wait_for_selector("nav a.seg-b[data-pool='inheritors-3p']")
    shot(page, "32-leaderboard")
    page.goto(server + f"/#/profile/{name}")
    page.wait_for_selector("text=Reliability: 100/100")
    shot(page, "33-profile")
    page.goto(server + "/#/notes")
    page.wait_for_selector("#prefs")
    assert page.locator("#prefs tbody tr").count() == len(EVENTS)  # every event the server has a preference for
    box = page.locator("#prefs tbody tr").first.locator("input").nth(2)  # your_turn by e-mail
    was = box.is_checked()
    box.click()
    page.wait_for_selector(".toast.show >> text=Saved")
    page.reload()
    page.wait_for_selector("#prefs")
    assert page.locator("#prefs tbody tr").first.locator("input").nth(2).is_checked() != was
    assert page.locator("#push-msg, #push-enable").count() == 1
    assert page.get_attribute("#bell", "aria-label")
    shot(page, "34-notifications")
    page.goto(server + "/#/settings")
    page.wait_for_selector("text=Reliability: 100/100")
    page.wait_for_selector("#vacation")
    page.locator("#vacation").scroll_into_view_if_needed()
    shot(page, "35-settings-vacation")
    assert not page.errors
