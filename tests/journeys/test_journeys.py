"""A player's paths through the app, in both shapes of the server (conftest.py), on phone-sized Chromiums.

One journey per shape, as a newcomer lives it on two phones (390x844 light; 360x740 dark, in German, one-tap
play): sign up; a game of every kind against the AI to the end; a friend challenged (a second browser context)
with live updates both ways, a resignation and a rematch offered and accepted live; "Play now" falling back to the
AI; a game lost on time by a real deadline expiry; the notification of that loss tapped in the inbox;
every screen reloaded and opened by link, with axe-core on each (both themes). The AI games not about the
table are played through the public API from the player's own page (the PWA's session and CSRF token, as the
PWA sends moves); the invited game is played by tapping cards.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

from tests.axe import axe

from .conftest import ARTIFACTS, Server

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

PASSWORD = "journey-pass-8421"

# Plays the game to its end from the page, as the PWA moves: GET the view, POST one of its legal moves
# against its version (session cookie, X-CSRFToken). Returns the final status.
PLAY_OUT = """
async ({id, seed}) => {
  let x = seed;
  const rnd = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const csrf = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  for (let i = 0; i < 4000; i++) {
    const r = await fetch(`/api/v1/games/${id}`, {credentials: "same-origin"});
    if (r.status !== 200) throw new Error(`GET game ${id}: ${r.status}`);
    const g = await r.json();
    if (g.status !== "active") return g.status;
    if (g.my_turn && g.legal_moves && g.legal_moves.length) {
      const move = g.legal_moves[rnd(g.legal_moves.length)];
      const m = await fetch(`/api/v1/games/${id}/moves`, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
        body: JSON.stringify({version: g.version, move})});
      if (m.status >= 400 && m.status !== 409) throw new Error(`move: ${m.status} ${await m.text()}`);
    } else {
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
  return "still active";
}
"""

API = """
async ({method, path, body}) => {
  const csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  const r = await fetch("/api/v1" + path, {method, credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}, body: body ? JSON.stringify(body) : undefined});
  return {status: r.status, body: await r.json().catch(() => null)};
}
"""


class Player:
    """One person on a phone: a browser context of its own (own cookies), one page."""

    def __init__(self, browser, app: Server, name: str, *, locale: str = "en-US", size: tuple[int, int] = (360, 740),
                 theme: str = "light") -> None:
        self.app, self.name, self.theme = app, name, theme
        self.ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale,
                                       color_scheme=theme, device_scale_factor=1, has_touch=True)
        self.ctx.set_default_timeout(20000)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.taps: dict[str, list[int]] = {}  # what was done -> taps it took, each time
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: d.accept())  # "Resign this game?"

    def go(self, route: str) -> None:
        self.page.goto(f"{self.app.base}/#{route}")

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        return self.page.evaluate(API, {"method": method, "path": path, "body": body})

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{self.app.name}-{name}.png"))

    def accessible(self, where: str, page=None) -> None:
        """axe-core finds no serious or critical violation on what the page shows, in this player's theme."""
        found = axe(page or self.page)
        assert not found, f"{self.name} ({self.theme}) on {where}: {found}"

    def sign_up(self) -> None:
        self.page.goto(self.app.base + "/")
        self.page.locator("[role=tab]").first.click()  # "Sign up", in the browser's language
        self.page.fill("#username", self.name)
        self.page.fill("#password", PASSWORD)
        self.page.locator("form button[type=submit]").click()
        self.page.wait_for_selector("a.btn.primary[href='#/new']")

    def new_game(self, *, kind: str = "claim", seats: int = 2, tc: str = "unlimited") -> int:
        """A game against the AI from the New game form; its id."""
        self.go("/new")
        self.pick("input[name=opp][value=ai]")
        self.pick(f"input[name=kind][value={kind}]")
        if seats != 2:
            self.pick(f"#seats-{seats}")
        self.pick(f"#tc-{tc}")
        self.page.click("#start-game")
        self.page.wait_for_url(re.compile(r"#/game/\d+$"))
        return int(self.page.url.rsplit("/", 1)[1])

    def new_challenge(self, friend: str, *, kind: str = "claim", tc: str = "unlimited") -> str:
        """Challenge ``friend`` from the New game form; the id of the challenge whose page opens."""
        self.go("/new")
        self.pick("input[name=opp][value=user]")
        self.pick(f"input[name=kind][value={kind}]")
        self.pick(f"#tc-{tc}")
        self.page.fill("#opp-username", friend)
        self.page.click("#start-game")
        self.page.wait_for_url(re.compile(r"#/challenge/[\w-]+$"))
        return self.page.url.rsplit("/", 1)[1]

    def pick(self, radio: str) -> None:
        """Tap the label of a radio button (the PWA's segmented choices hide the input itself): a game's label
        near its corner (not on its "Rules" link), the others (rounded pills) in their middle."""
        label = self.page.locator(f"label:has({radio})")
        if "name=kind" in radio:
            label.click(position={"x": 6, "y": 8})
        else:
            label.click()
        assert self.page.locator(radio).is_checked()

    def play_out(self, game_id: int) -> str:
        return self.page.evaluate(PLAY_OUT, {"id": game_id, "seed": game_id * 7919 + 1})

    def sees_end_screen(self, game_id: int) -> None:
        self.go(f"/game/{game_id}")
        self.page.reload(wait_until="networkidle")
        self.page.wait_for_selector("#end-h")
        self.page.wait_for_load_state("networkidle")
        if self.page.get_by_text("Loading…").is_visible() or not self.page.locator("#end-h").is_visible():
            self.shot(f"loading-{game_id}")
            raise AssertionError(f"game {game_id}: 'Loading…' on the end screen: {self.page.inner_text('#main')}")

    def close(self) -> None:
        assert not self.errors, f"{self.name}: JavaScript errors: {self.errors}"
        self.ctx.close()


def _legal_card(page):
    return page.locator("#hand button.card.legal").first


def _tap_card(player: Player, game_id: int) -> None:
    """Play one card by tapping it, and the confirmation when the table asks; returns once it is played. The
    taps it took go to ``player.taps["claim card"]``."""
    version = player.api("GET", f"/games/{game_id}")["body"]["version"]
    _legal_card(player.page).click(position={"x": 8, "y": 24})
    taps = 1
    confirm = player.page.locator("#confirm-play")
    try:
        confirm.wait_for(timeout=2000)
        confirm.click()
        taps += 1
    except Exception:  # played at once (no confirmation asked)
        pass
    _until(lambda: player.api("GET", f"/games/{game_id}")["body"]["version"] > version, "the card was not played")
    # while the move is still in flight a tap only chooses and Play waits: the next one waits for the hand
    player.page.wait_for_function("() => document.querySelector('#hand')?.getAttribute('aria-busy') !== 'true'")
    player.taps.setdefault("claim card", []).append(taps)


def _until(check, what: str, timeout: float = 20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(what)


def journey(app: Server, browser) -> dict[str, float]:
    """The whole journey; returns how long each part took (seconds)."""
    took: dict[str, float] = {}
    mark = time.monotonic()

    def done(part: str) -> None:
        nonlocal mark
        took[part] = round(time.monotonic() - mark, 1)
        mark = time.monotonic()

    tag = uuid.uuid4().hex[:6]
    # The two phones of the newcomers' test (issue 33): a 390x844 one in the light theme, a 360x740 one in dark.
    alice = Player(browser, app, f"alice{tag}", size=(390, 844))
    bob = Player(browser, app, f"bob{tag}", locale="de-DE", theme="dark")
    try:
        _parts(app, alice, bob, done)
    except BaseException:
        for who in (alice, bob):
            who.shot(f"failed-{who.name[:5]}")
        raise
    for who in (alice, bob):
        for what, taps in who.taps.items():
            print(f"\n{app.name} taps per move, {who.name[:5]} ({'one-tap' if who is bob else 'choose, confirm'}), "
                  f"{what}: {max(taps)} (over {len(taps)} moves)")
    assert max(alice.taps["claim card"]) == 2 and max(bob.taps["claim card"]) == 1, (alice.taps, bob.taps)
    alice.close()
    bob.close()
    return took


def _parts(app: Server, alice: Player, bob: Player, done) -> None:
    alice.sign_up()
    done("sign up")

    # A game of every kind against the AI, to the end (3-4 seats: the AI seats have names of their own).
    finished = {}
    for kind, seats in (("claim", 2), ("claim2", 2), ("claim-mix", 3), ("inheritors", 2), ("inheritors", 4)):
        gid = alice.new_game(kind=kind, seats=seats)
        if seats > 2:
            names = alice.api("GET", f"/games/{gid}")["body"]["seats"]
            ai_names = [s["name"] for s in names if s["type"] == "ai"]
            assert len(set(ai_names)) == seats - 1, ai_names
        assert alice.play_out(gid) == "finished"
        alice.sees_end_screen(gid)
        finished[(kind, seats)] = gid
    alice.shot("ai-games-end")
    done("every kind against the AI")

    # A friend: challenged by name, sees the challenge live, accepts; both land on the table; each sees the
    # other's move live.
    bob.sign_up()
    bob.go("/settings")
    bob.page.locator("label:has(#one-tap)").click()  # play a card with one tap
    assert bob.page.locator("#one-tap").is_checked()
    bob.accessible("settings")
    bob.go("/")
    challenge = alice.new_challenge(bob.name)
    bob.page.wait_for_selector(f"button[data-accept-challenge='{challenge}']")  # live: no reload
    bob.page.click(f"button[data-accept-challenge='{challenge}']")
    bob.page.wait_for_url(re.compile(r"#/game/\d+$"))
    gid = int(bob.page.url.rsplit("/", 1)[1])
    alice.page.wait_for_url(re.compile(rf"#/game/{gid}$"))  # from the challenge's page, live
    alice.page.wait_for_selector("#hand button.card")
    handovers = 0
    previous = None
    for _ in range(5):  # taps on cards; whoever must play next sees it without a reload (pushed live)
        mover = _until(lambda: next((p for p in (alice, bob) if p.api("GET", f"/games/{gid}")["body"]["my_turn"]),
                                    None), "nobody's turn")
        mover.page.wait_for_selector("#hand button.card.legal")
        handovers += previous is not None and mover is not previous
        _tap_card(mover, gid)
        previous = mover
    assert handovers >= 1
    alice.page.get_by_role("button", name="Resign").click()  # confirmed in the dialog
    alice.page.wait_for_selector("#end-h")
    bob.page.wait_for_selector("#end-h")  # live
    bob.accessible("end screen")
    resigned = gid
    bob.shot("friend-resigned")
    done("friend, live, resign")

    # A rematch is an offer: Alice asks on her end screen, Bob sees it on his without a reload and accepts; both
    # land on the new table.
    alice.page.click("#rematch")
    alice.page.wait_for_selector("#rematch-offer[data-status=pending]")
    bob.page.wait_for_selector("#rematch-offer[data-status=pending] #rematch-accept")  # live
    bob.accessible("rematch offer")
    bob.shot("rematch-offer")
    bob.page.click("#rematch-accept")
    bob.page.wait_for_url(re.compile(rf"#/game/(?!{gid}$)\d+$"))
    rematch = int(bob.page.url.rsplit("/", 1)[1])
    alice.page.wait_for_url(re.compile(rf"#/game/{rematch}$"))  # taken there from her end screen
    alice.page.wait_for_selector("#hand button.card")
    assert alice.api("GET", f"/games/{rematch}")["body"]["rematch_of"] == gid
    done("rematch offered and accepted")

    # Play now: nobody else seeks, so the AI takes the seat after the (shortened) wait.
    before = {g["id"] for g in alice.api("GET", "/games?status=active")["body"]["results"]}
    alice.go("/new")
    alice.pick("input[name=opp][value=seek]")
    alice.pick("#tc-unlimited")
    alice.page.click("#play-now")
    alice.page.wait_for_selector("#seeks li[data-seek]")
    row = alice.page.locator(".games a[data-game]").filter(has_text="AI")
    new = _until(lambda: {g["id"] for g in alice.api("GET", "/games?status=active")["body"]["results"]} - before,
                 "Play now never fell back to the AI", 30)
    (quick,) = new
    alice.page.wait_for_selector(f".games a[data-game='{quick}']")  # the inbox shows it without a reload
    assert row.count() >= 1
    alice.page.click(f".games a[data-game='{quick}']")
    alice.page.wait_for_url(re.compile(rf"#/game/{quick}$"))
    alice.page.wait_for_selector("#turn")
    alice.shot("play-now")
    done("play now falls back to the AI")

    # Lost on time: no vacation to save the day, a 1-day clock (8 s here), and nobody moves.
    r = alice.api("PATCH", "/vacation", {"auto_use": False})
    assert r["status"] == 200, r
    late = alice.new_game(kind="claim", tc="d1")
    alice.go("/")  # away from the table: the loss is notified
    deadline = time.monotonic() + 60
    status = "active"
    while time.monotonic() < deadline and status == "active":
        status = alice.api("GET", f"/games/{late}")["body"]["status"]
        time.sleep(0.5)
    assert status == "finished", "the deadline never expired"
    view = alice.api("GET", f"/games/{late}")["body"]
    assert view["ended_reason"] == "timeout", view.get("ended_reason")
    done("lost on time")

    # The notification of that loss, tapped in the inbox, opens the game.
    alice.go("/notes")
    note = alice.page.locator(f"#notes button[data-game='{late}']").first
    note.wait_for()
    note.click()
    alice.page.wait_for_url(re.compile(rf"#/game/{late}$"))
    alice.page.wait_for_selector("#end-h")
    alice.shot("notification-opens-game")
    done("notification tapped")

    # Every screen, reloaded and opened by link (a fresh page each time: nothing in memory).
    screens = ["/", "/new", "/notes", "/settings", "/rules", "/rules/claim", "/rules/inheritors", "/leaders/claim",
               f"/profile/{alice.name}", f"/game/{finished[('claim', 2)]}", f"/game/{finished[('inheritors', 2)]}",
               f"/game/{finished[('inheritors', 4)]}", f"/game/{resigned}", f"/game/{quick}",
               f"/replay/{finished[('claim', 2)]}"]
    for route in screens:
        page = alice.ctx.new_page()
        page.on("pageerror", lambda e, route=route: alice.errors.append(f"{route}: {e}"))
        try:
            page.goto(f"{app.base}/#{route}")
            page.wait_for_selector("#main")
            page.reload()
            page.wait_for_selector("#main h1, #main h2, #main #seats, #main #ih-info", timeout=15000)
            page.wait_for_function("() => !document.querySelector('#main [aria-busy=true]') && "
                                   "!document.querySelector('#main').innerText.includes('Loading…')", timeout=15000)
            alice.accessible(route, page)
        except Exception as exc:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{app.name}-failed-screen.png"))
            raise AssertionError(f"{route}: {exc}") from exc
        page.close()
    for route in ["/", "/new", "/notes", "/rules/inheritors", f"/game/{resigned}"]:  # the dark phone, in German
        bob.go(route)
        bob.page.reload()
        bob.page.wait_for_selector("#main h1, #main h2, #main #end-h")
        bob.page.wait_for_function("() => !document.querySelector('#main [aria-busy=true]')")
        bob.accessible(route)
    alice.go(f"/game/{resigned}")
    alice.page.wait_for_selector("#end-h")
    alice.shot("last-screen")
    done("every screen by link")


def test_journey(app: Server, browser, record_property):
    """The journey in one shape of the server; then its logs must hold no ERROR line and no traceback."""
    start = time.monotonic()
    took = journey(app, browser)
    record_property("took", took)
    print(f"\n{app.name} journey: {round(time.monotonic() - start, 1)} s; {took}")
    app.check_logs()
