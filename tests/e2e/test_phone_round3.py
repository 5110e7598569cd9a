"""Issue 33 (the phone player, third round), items 11, 7 and 5, in Chromium at 360x740 against the real server:

* item 11: who won each trick is said in a live line (also when the winner leads the next trick at once), the
  start of phase 2 too; a 3-seat last trick names who played each card;
* item 7: "Play now" counts down to the AI game and says when it has started, the paired seek leaves the list
  without a refresh, inbox rows say their time control and start; a rated end screen shows "+12 → 1512";
* item 5: a 3-seat invitation shows who has joined and who is awaited, only its creator gets the link, Cancel and
  "fill the empty seats with the AI", and filling starts the game on both phones.

Screenshots go to test-artifacts/phone/; axe-core finds no serious or critical violation on the new screens.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, ROOT, shot
from .test_pwa import PASSWORD, act_once, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MIX5 = {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]}
AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id + ': '
    + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""
# "Play now" waits this long for a person before the AI takes the seat; the pairing run comes this often.
FALLBACK_SECONDS, BEAT_SECONDS = 6, 2


@pytest.fixture(scope="module")
def _quick_fallback():
    """The server of this module runs the beat in-process (as `make run`) with a short AI fallback (set before it
    starts, restored after)."""
    saved = {k: os.environ.get(k) for k in ("SEEK_AI_FALLBACK_SECONDS", "SEEK_BEAT_SECONDS", "CLAIM_EMBEDDED_BEAT")}
    os.environ["SEEK_AI_FALLBACK_SECONDS"] = str(FALLBACK_SECONDS)
    os.environ["SEEK_BEAT_SECONDS"] = str(BEAT_SECONDS)
    os.environ["CLAIM_EMBEDDED_BEAT"] = "1"  # the beat in the server process, as `make run` has it
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="module")
def server(_quick_fallback, server):  # the conftest's server, started after the settings above
    return server


def sign_up_de(page, base: str, username: str) -> None:
    page.goto(base + "/")  # in German: the sign-up tab is "Registrieren" (and the profile's language de)
    page.get_by_role("tab", name="Registrieren").click()
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.locator("form button[type=submit]").click()
    page.wait_for_selector("a.btn.primary[href='#/new']")


def phone_shot(page, name: str) -> None:
    (ARTIFACTS / "phone").mkdir(parents=True, exist_ok=True)
    shot(page, f"phone/{name}")


def axe(page) -> list[str]:
    """axe-core's serious and critical violations (loaded through the debugger protocol: the app's CSP refuses
    inline scripts)."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate("() => {\n" + Path(AXE).read_text() + "\n}")
    return page.evaluate(AXE_RUN)


def api(page, base: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    r = page.request.fetch(base + "/api/v1" + path, method=method, data=json.dumps(body or {}),
                           headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
    return r.status, (r.json() if r.text() else {})


# Plays my moves through the API from the page (its session) until ``stop`` (a JS predicate of the view) holds.
PLAY_UNTIL = """async ({id, stop}) => {
  const csrf = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  const done = new Function("g", "return " + stop);
  for (let i = 0; i < 3000; i++) {
    const g = await (await fetch(`/api/v1/games/${id}`, {credentials: "same-origin"})).json();
    if (done(g) || g.status !== "active") return g;
    if (g.my_turn && g.legal_moves && g.legal_moves.length) {
      await fetch(`/api/v1/games/${id}/moves`, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
        body: JSON.stringify({version: g.version, move: g.legal_moves[0]})});
    } else {
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
  return null;
}"""


def test_trick_winner_and_phase_two_are_said_against_the_ai(server, new_page):
    page = new_page()
    sign_up(page, server, "tr" + uuid.uuid4().hex[:8])
    status, game = api(page, server, "POST", "/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 1}]})
    assert status == 201, game
    page.goto(f"{server}/#/game/{game['id']}")
    page.wait_for_selector("main.table")
    news = page.locator("#trick-news")
    assert news.get_attribute("role") == "status" and news.inner_text() == "", "silent before any trick"
    # one trick through the table's own taps (choose, confirm); the AI answers and, when it wins, leads the next
    # trick at once, so the table never shows the completed trick: only the live line says who won it
    for _ in range(6):
        page.wait_for_selector("main.table[data-myturn='1']", timeout=20000)
        if "won the trick" in news.inner_text():
            break
        assert act_once(page)
    page.wait_for_function("() => /won the trick/.test(document.querySelector('#trick-news').textContent)")
    text = news.inner_text()
    assert re.fullmatch(r"(You|\w+ \(AI\)) won the trick\.\s?", text), text
    phone_shot(page, "round3-trick-news")
    # play on from the page's session to phase 2: the table (held open, fed by the socket) says it began
    page.evaluate(PLAY_UNTIL, {"id": game["id"], "stop": "g.view && g.view.phase === 2"})
    page.wait_for_function("() => /Phase 2 begins/.test(document.querySelector('#trick-news').textContent)")
    assert page.get_attribute("main.table", "data-phase") == "2"
    phone_shot(page, "round3-phase2-news")
    assert axe(page) == []
    assert not page.errors


def test_three_seat_last_trick_names_who_played_each_card(server, new_page):
    page = new_page()
    sign_up(page, server, "lt" + uuid.uuid4().hex[:8])
    status, game = api(page, server, "POST", "/games", {
        "kind": "claim-mix", "seats": 3, "options": MIX5,
        "opponents": [{"type": "ai", "level": 1}, {"type": "ai", "level": 2}]})
    assert status == 201, game
    page.evaluate(PLAY_UNTIL, {"id": game["id"], "stop": "g.view && g.view.last_trick && g.view.trick >= 3"})
    page.goto(f"{server}/#/game/{game['id']}")
    page.wait_for_selector("main.table[data-seats='3']")
    page.locator(".t-actions button", has_text="Replay").click()
    dialog = page.locator("dialog#replay-dlg")
    dialog.wait_for()
    labels = [e.get_attribute("aria-label") for e in dialog.locator("[data-card]").all()]
    assert len(labels) == 3, labels
    _, view = api(page, server, "GET", f"/games/{game['id']}")
    ai_names = {s["name"] for s in view["seats"] if s["type"] == "ai"}
    assert {lbl.split(": ")[0] for lbl in labels} == {"You", *ai_names}, labels
    mini = page.locator("#trick .last-mini")
    if mini.count():  # between tricks the table's own last-trick button names the players too
        assert mini.locator(".tc-last").count() == 3
    page.wait_for_function("() => /won the trick/.test(document.querySelector('dialog#replay-dlg [role=status]')"
                           ".textContent)")
    phone_shot(page, "round3-last-trick-3p")
    assert not page.errors


def test_play_now_counts_down_then_says_the_ai_game_started(server, new_page):
    page = new_page()
    sign_up(page, server, "pn" + uuid.uuid4().hex[:8])
    page.goto(server + "/#/new")
    page.locator("input[name=opp][value=seek]").check()
    page.locator("input[name=kind][value=claim]").check()
    page.click("#play-now")
    row = page.locator("#seeks li[data-seek]")
    row.wait_for()
    countdown = row.locator(".seek-ai")
    assert re.search(r"AI game in 0:0\d if nobody comes", countdown.inner_text()), countdown.inner_text()
    first = int(countdown.get_attribute("data-left"))
    page.wait_for_function("n => +document.querySelector('#seeks .seek-ai')?.dataset.left < n", arg=first)
    phone_shot(page, "round3-play-now-countdown")
    # the AI game starts on the server's pairing run: the inbox says so and the seek leaves the list, no refresh
    notice = page.locator("#game-started")
    page.wait_for_function("() => /Your game has started/.test(document.querySelector('#game-started').textContent)",
                           timeout=30000)
    assert " (AI)" in notice.inner_text()
    row.wait_for(state="detached")
    phone_shot(page, "round3-play-now-started")
    game_row = page.locator("a.game-row[data-game]").first
    sub = game_row.inner_text()
    assert re.search(r"days? per move|No time limit", sub) and "started" in sub, sub
    assert axe(page) == []
    notice.locator("a[data-open]").click()
    page.wait_for_selector("main.table")
    assert not page.errors


def test_rated_end_screen_shows_the_rating_change(server, new_page):
    ann, bob = new_page(), new_page()
    ann_name, bob_name = "ra" + uuid.uuid4().hex[:7], "rb" + uuid.uuid4().hex[:7]
    sign_up(ann, server, ann_name)
    sign_up(bob, server, bob_name)
    status, game = api(ann, server, "POST", "/games", {
        "kind": "claim2", "rated": True, "days_per_move": 3, "opponents": [{"type": "user", "username": bob_name}]})
    assert status == 201, game
    assert api(bob, server, "POST", f"/games/{game['id']}/join")[0] == 201
    bob.goto(f"{server}/#/game/{game['id']}")
    bob.wait_for_selector("main.table")
    assert api(ann, server, "POST", f"/games/{game['id']}/resign")[0] == 200
    bob.wait_for_selector("#end")  # pushed; the rating comes from the background a moment later
    bob.wait_for_selector("#end-rating[data-change]")
    line = bob.locator("#end-rating").inner_text()
    change, after = int(bob.get_attribute("#end-rating", "data-change")), int(bob.get_attribute("#end-rating",
                                                                                               "data-after"))
    assert change > 0 and line == f"Rating: +{change} → {after}", line
    phone_shot(bob, "round3-rated-end")
    ann.goto(f"{server}/#/game/{game['id']}")
    ann.wait_for_selector("#end-rating[data-change]")
    assert re.fullmatch(r"Rating: \u2212\d+ → \d+", ann.locator("#end-rating").inner_text())  # a minus sign
    assert axe(bob) == []
    assert not ann.errors and not bob.errors


def test_three_seat_invitation_shows_the_seats_and_the_creator_fills_with_the_ai(server, new_page):
    ann, bob = new_page(), new_page("de-DE")
    ann_name, bob_name = "ia" + uuid.uuid4().hex[:7], "ib" + uuid.uuid4().hex[:7]
    sign_up(ann, server, ann_name)
    sign_up_de(bob, server, bob_name)
    status, game = api(ann, server, "POST", "/games", {
        "kind": "claim-mix", "seats": 3, "options": MIX5,
        "opponents": [{"type": "user", "username": bob_name}, {"type": "open"}]})
    assert status == 201, game
    gid = game["id"]
    ann.goto(f"{server}/#/game/{gid}")
    ann.wait_for_selector(f"main[data-invitation='{gid}']")
    assert ann.locator("#invite-waiting").inner_text() == "Waiting for 2 more players to join."
    assert ann.locator("#invite-seats li[data-state=invited]").count() == 1
    bob.goto(f"{server}/#/game/{gid}")
    bob.wait_for_selector("#accept")
    assert bob.locator("#invite-cancel, #invite-link, #fill-ai").count() == 0, "an invitee gets none of them"
    bob.click("#accept")
    # ann's page updates live: bob has joined, one seat is awaited
    ann.wait_for_selector("#invite-seats li[data-seat='1'][data-state=joined]")
    assert ann.locator("#invite-waiting").inner_text() == "Waiting for 1 more player to join."
    bob.wait_for_selector("#invite-joined")
    assert bob.locator("#invite-cancel, #invite-link, #fill-ai, #accept").count() == 0, "the friend waits"
    assert "1 weiteren Mitspieler" in bob.locator("#invite-waiting").inner_text()
    assert "{" not in bob.locator("main").inner_text() and "{" not in ann.locator("main").inner_text()
    phone_shot(ann, "round3-invite-creator")
    phone_shot(bob, "round3-invite-friend-de")
    assert axe(ann) == [] and axe(bob) == []
    ann.select_option("#fill-2", "2")
    ann.click("#fill-submit")
    ann.wait_for_selector("main.table[data-seats='3']")
    bob.wait_for_selector("main.table[data-seats='3']")  # live, no reload
    assert "Cleo · AI, Knight level" in ann.locator("#seats").inner_text()  # seat 2's own name and its level
    phone_shot(bob, "round3-invite-filled-friend")
    assert not ann.errors and not bob.errors
