"""Issue 21's two table bugs, in Chromium against the real server:

* an Inheritors table opened by link, by reload or offline stayed on "Loading…" (the inbox summary that the
  socket's list refresh stored replaced the table's view, and the table only knew a Claim view);
* the end screen of a resigned game (Claim or Inheritors) threw in the browser and left a blank page (a
  resignation's result has winners and ranks, no per-faction count).
"""

from __future__ import annotations

import json
import uuid

import pytest

from .conftest import shot
from .test_pwa import sign_up

# Plays a game out through the API from the page (the PWA's session), random legal moves, seeded.
PLAY_OUT = """async ({id, seed}) => {
  let x = seed;
  const rnd = (n) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const csrf = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  for (let i = 0; i < 4000; i++) {
    const g = await (await fetch(`/api/v1/games/${id}`, {credentials: "same-origin"})).json();
    if (g.status !== "active") return g.status;
    if (g.my_turn && g.legal_moves && g.legal_moves.length) {
      await fetch(`/api/v1/games/${id}/moves`, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
        body: JSON.stringify({version: g.version, move: g.legal_moves[rnd(g.legal_moves.length)]})});
    } else {
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
  return "still active";
}"""

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def api(page, base: str, method: str, path: str, body: dict | None = None) -> dict:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    r = page.request.fetch(base + "/api/v1" + path, method=method, data=json.dumps(body or {}),
                           headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
    assert r.ok, (r.status, r.text())
    return r.json()


def new_ai_game(page, base: str, kind: str, seats: int = 2, options: dict | None = None) -> int:
    body = {"kind": kind, "seats": seats, "opponents": [{"type": "ai", "level": 1}] * (seats - 1)}
    if options:
        body["options"] = options
    return api(page, base, "POST", "/games", body)["id"]


def wait_table(page, kind: str) -> None:
    sel = "main.table[data-kind='inheritors']" if kind == "inheritors" else "main.table"
    try:
        page.wait_for_selector(sel, timeout=10000)
    except Exception:
        shot(page, "table-open-failed")
        raise AssertionError(page.locator("body").inner_text()[:500]) from None


def _settled(page, kind: str, action) -> None:
    """Run ``action`` (a load of the table), wait until the socket's list refresh has answered, then the table
    must still show (the refresh used to replace the view with the inbox summary, for good on my turn)."""
    with page.expect_response(lambda r: "/api/v1/games?status=finished" in r.url, timeout=15000):
        action()
    page.wait_for_timeout(800)
    sel = "main.table[data-kind='inheritors']" if kind == "inheritors" else "main.table"
    if page.locator(sel).count() != 1:
        shot(page, "table-open-failed")
        raise AssertionError(page.locator("body").inner_text()[:300])


def test_inheritors_table_opens_by_link_reload_and_offline(server, new_page):
    page = new_page()
    sign_up(page, server, f"lnk{uuid.uuid4().hex[:8]}")
    gid = new_ai_game(page, server, "inheritors")
    page.goto(f"{server}/#/game/{gid}")
    wait_table(page, "inheritors")
    page.wait_for_selector("main.table[data-myturn='1']")  # the AI has moved: nothing else will come to heal it
    # by link: a fresh load of #/game/<id> in a new tab (a notification's link opens the same URL)
    other = page.context.new_page()
    other.errors = []
    other.on("pageerror", lambda e: other.errors.append(str(e)))
    _settled(other, "inheritors", lambda: other.goto(f"{server}/#/game/{gid}"))
    # reload
    _settled(page, "inheritors", page.reload)
    shot(page, "table-inheritors-reloaded")
    # offline: the service worker's shell and the stored view
    page.context.set_offline(True)
    page.reload()
    wait_table(page, "inheritors")
    page.wait_for_timeout(800)
    wait_table(page, "inheritors")
    shot(page, "table-inheritors-offline")
    page.context.set_offline(False)
    assert page.errors == [] and other.errors == []


MIX5 = {"factions": ["knight", "goblin", "undead", "dwarf", "doppelganger", "dragon", "troll"]}


@pytest.mark.parametrize(("kind", "seats"), [("claim", 2), ("claim-mix", 3), ("inheritors", 2), ("inheritors", 4)])
def test_resigned_game_shows_its_end_screen(server, new_page, kind, seats):
    page = new_page()
    sign_up(page, server, f"rsg{uuid.uuid4().hex[:8]}")
    gid = new_ai_game(page, server, kind, seats, MIX5 if kind == "claim-mix" else None)
    page.goto(f"{server}/#/game/{gid}")
    wait_table(page, kind)
    api(page, server, "POST", f"/games/{gid}/resign", {})
    for _ in range(2):  # the pushed end, then a reload of it
        page.wait_for_selector("#end-reason", timeout=10000)
        text = page.locator("#end-reason").inner_text()
        assert "You resigned." in text, text
        assert "You lost" in page.locator("#end-h").inner_text()
        assert page.locator("main.table").get_attribute("data-over") == "1"
        page.reload()
    assert page.errors == []
    shot(page, f"table-resigned-{kind}-{seats}")


# Records, from the first paint of every load, whether a "Loading…" placeholder (aria-busy) was ever shown.
WATCH_LOADING = """(() => {
  window.__loading = [];
  const look = () => {
    const busy = document.querySelector('#main[aria-busy="true"], #main [aria-busy="true"]:not(#hand)');
    if (busy) window.__loading.push(busy.textContent.trim().slice(0, 40) + ' | '
      + busy.closest('main').innerHTML.slice(0, 90) + ' | cached: '
      + Object.keys(localStorage).filter(k => k.startsWith('claim.cache:')).join(','));
  };
  new MutationObserver(look).observe(document, {childList: true, subtree: true, characterData: true});
})();"""


@pytest.mark.parametrize("how", ["played", "resigned"])
def test_finished_claim_table_reloads_straight_to_its_end_screen(server, new_page, how):
    """Issue 25's follow-up: a finished Claim table reloaded (or opened again by its link) shows the end screen
    at once, from the view stored on the device, never "Loading…" first; the server's answer then confirms it."""
    page = new_page()
    sign_up(page, server, f"fin{uuid.uuid4().hex[:8]}")
    gid = new_ai_game(page, server, "claim")
    page.goto(f"{server}/#/game/{gid}")
    wait_table(page, "claim")
    if how == "resigned":
        api(page, server, "POST", f"/games/{gid}/resign", {})
    else:
        assert page.evaluate(PLAY_OUT, {"id": gid, "seed": gid}) == "finished"
    page.wait_for_selector("#end-h", timeout=15000)
    page.context.add_init_script(WATCH_LOADING)
    other = page.context.new_page()  # opened again by its link in a new tab (same device: same storage)
    other.errors = []
    other.on("pageerror", lambda e: other.errors.append(str(e)))
    for p, load in ((page, page.reload), (other, lambda: other.goto(f"{server}/#/game/{gid}"))):
        with p.expect_response(lambda r: r.url.endswith(f"/api/v1/games/{gid}")):
            load()
        p.wait_for_selector("#end-h")
        p.wait_for_load_state("networkidle")
        seen = p.evaluate("window.__loading")
        assert seen == [], f"'Loading…' shown before the end screen: {seen}"
        assert p.locator("main.table").get_attribute("data-over") == "1"
    shot(page, f"table-finished-reloaded-{how}")
    assert page.errors == [] and other.errors == []
