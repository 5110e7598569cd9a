"""The phone tables (issue 25) in Chromium at 360x640, 390x844, 430x932 and 844x390, light and dark:
every table kind (Claim, Claim 2, the mix with 2, 3 and 4 seats, Inheritors with 2 and 4) and the end
screens. Each case asserts: no horizontal overflow; the hand, the trick (market) and the controls do not
overlap; every hand card shows an unobstructed tap area of at least 44x44 CSS px (sampled with
``elementFromPoint``) and none is cut off; a first tap on a legal card never sends a move (it selects and
says what will happen; the second tap plays); axe-core finds no serious or critical violation in either
theme. Screenshots: test-artifacts/layout-*.png.

One server (module scope) and one browser per case; the games are set up in this process through the
service with the AI answering inline, then shown by the browser, so a case costs a few seconds."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import service
from games.models import Game
from games.service import game_view_payload, make_move

from .conftest import ARTIFACTS, CHROME_ARGS, CHROMIUM, ROOT
from .test_pwa import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [(360, 640), (390, 844), (430, 932), (844, 390)]
THEMES = ["light", "dark"]
AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
MIX2 = ["knight", "goblin", "undead", "dragon", "seer"]
MIX5 = ["gnome", "giant", "undead", "dwarf", "doppelganger", "troll", "seer"]

# kind, seats, options, played to the end?
CASES = {
    "claim-2": ("claim", 2, {}, False),
    "claim2-2": ("claim2", 2, {}, False),
    "mix-2": ("claim-mix", 2, {"factions": MIX2}, False),
    "mix-3": ("claim-mix", 3, {"factions": MIX5}, False),
    "mix-4": ("claim-mix", 4, {"factions": MIX5}, False),
    "inheritors-2": ("inheritors", 2, {}, False),
    "inheritors-4": ("inheritors", 4, {}, False),
    "end-claim-2": ("claim", 2, {}, True),
    "end-mix-3": ("claim-mix", 3, {"factions": MIX5}, True),
    "end-mix-4": ("claim-mix", 4, {"factions": MIX5}, True),
    "end-inheritors-2": ("inheritors", 2, {}, True),
}

# Per hand card: is the 44x44 square around its centre (clamped into the card) its own, at 5x5 points?
MEASURE = """(sel) => {
  const out = {overflow: document.documentElement.scrollWidth - window.innerWidth, cards: [], boxes: {}};
  for (const [name, q] of Object.entries(sel.boxes)) {
    const el = document.querySelector(q);
    if (!el) continue;
    const r = el.getBoundingClientRect();
    out.boxes[name] = [r.left, r.top + scrollY, r.right, r.bottom + scrollY];
  }
  for (const card of document.querySelectorAll(sel.cards)) {
    card.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = card.getBoundingClientRect();
    const cx = Math.min(Math.max(r.left + r.width / 2, r.left + 22), r.right - 22);
    const cy = Math.min(Math.max(r.top + r.height / 2, r.top + 22), r.bottom - 22);
    let hit = 0;
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
      const x = cx - 21 + i * 10.5, y = cy - 21 + j * 10.5;
      const el = document.elementFromPoint(x, y);
      if (el && (el === card || card.contains(el))) hit++;
    }
    out.cards.push({id: card.dataset.card, w: r.width, h: r.height, left: r.left, right: r.right,
                    vw: window.innerWidth, hit});
  }
  window.scrollTo(0, 0);
  return out;
}"""


# Words never broken in the end screen (en/de/cs): no element allows a mid-word break, none overflows its box.
BROKEN_WORDS = """() => [...document.querySelectorAll('#end *, #ih-end *')].filter(e => {
  const s = getComputedStyle(e);
  if (s.overflowWrap === 'anywhere' || s.wordBreak === 'break-all' || s.wordBreak === 'break-word') return true;
  return e.scrollWidth > e.clientWidth + 1 && s.overflowX === 'visible' && e.clientWidth > 0
    && !['svg', 'path'].includes(e.localName);
}).map(e => e.outerHTML.slice(0, 80))"""

AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id + ': '
    + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160)).join(' | '));
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _setup_game(username: str, kind: str, seats: int, options: dict, to_end: bool) -> int:
    """A game against AI seats (levels 1..3 so they get distinct names), the AI answering inline; played
    to the end with the first legal move when ``to_end``."""
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    opponents = [{"type": "ai", "level": 1 + i % 3} for i in range(seats - 1)]
    game = service.create_game(user, kind, options, seats, opponents)
    for i in range(2000 if to_end else 0):
        view = game_view_payload(Game.objects.get(pk=game.pk), user)
        if view["status"] != "active":
            break
        if view["my_turn"]:
            make_move(user, game.pk, view["version"], view["legal_moves"][0], client_id=f"lay{i}")
    return game.pk


@pytest.fixture
def eager(settings):
    settings.TASK_MODE = "eager"


def _browser():
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional: these tests skip without it

    pw = sync_playwright().start()
    return pw, pw.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)


def _log_in(ctx, base: str, username: str) -> None:
    page = ctx.new_page()
    page.goto(base + "/")
    page.request.get(base + "/api/v1/accounts/csrf")  # sets the csrftoken cookie
    csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "csrftoken")
    body = json.dumps({"username": username, "password": PASSWORD})
    r = page.request.post(base + "/api/v1/accounts/login", data=body,
                          headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
    assert r.ok, r.text()
    page.close()


@pytest.mark.parametrize("case", list(CASES))
def test_table_layout_tap_targets_commit_and_axe(server, eager, case):
    kind, seats, options, to_end = CASES[case]
    inh = kind == "inheritors"
    ARTIFACTS.mkdir(exist_ok=True)
    axe_src = Path(AXE).read_text()
    username = f"lay{uuid.uuid4().hex[:8]}"
    gid = _setup_game(username, kind, seats, options, to_end)  # before Playwright's event loop starts
    pw, browser = _browser()
    try:
        # bypass_csp: axe-core is injected as an inline script, which the app's CSP (script-src 'self') refuses
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, device_scale_factor=1,
                                  bypass_csp=True)
        ctx.set_default_timeout(15000)
        _log_in(ctx, server, username)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        moves: list[str] = []
        page.on("request", lambda r: moves.append(r.url) if r.method == "POST" and "/moves" in r.url else None)
        page.goto(f"{server}/#/game/{gid}")
        if to_end:
            page.wait_for_selector("main.table[data-over='1'] #end-tally" if not inh else "#ih-end")
        else:
            page.wait_for_selector("main.table[data-myturn='1']")
        cards = "#ih-hand button.ih-card" if inh else "#hand button.card"
        boxes = ({"hand": "#ih-hand", "market": "#ih-market", "moves": "#ih-moves", "actions": ".t-actions"} if inh else
                 {"hand": "#hand", "trick": ".t-mid", "commit": "#commit", "seats": "#seats", "actions": ".t-actions"})
        if to_end:
            boxes = {"end": "#end, #ih-end"}
        for w, h in VIEWPORTS:
            page.set_viewport_size({"width": w, "height": h})
            for theme in THEMES:
                page.emulate_media(color_scheme=theme, reduced_motion="reduce")
                page.wait_for_timeout(150)
                m = page.evaluate(MEASURE, {"cards": cards, "boxes": boxes})
                where = f"{case} at {w}x{h} {theme}"
                assert m["overflow"] <= 0, f"{where}: {m['overflow']} px of horizontal overflow"
                names = list(m["boxes"])
                for i, a in enumerate(names):
                    for b in names[i + 1:]:
                        assert not _overlap(m["boxes"][a], m["boxes"][b]), f"{where}: {a} overlaps {b}: {m['boxes']}"
                if not to_end:
                    assert m["cards"], f"{where}: no hand cards"
                for c in m["cards"]:
                    assert c["w"] >= 44 and c["h"] >= 44, f"{where}: card {c}"
                    assert c["left"] >= 0 and c["right"] <= c["vw"], f"{where}: card cut off {c}"
                    assert c["hit"] == 25, f"{where}: card {c['id']} obstructed ({c['hit']}/25 points its own)"
                if to_end:
                    # no word broken inside the end screen: words never wrap mid-word and nothing overflows its box
                    bad = page.evaluate(BROKEN_WORDS)
                    assert not bad, f"{where}: {bad}"
                page.screenshot(path=str(ARTIFACTS / f"layout-{case}-{w}x{h}-{theme}.png"),
                                full_page=(w, h) == (390, 844))
                if (w, h) == (390, 844):
                    if not page.evaluate("() => !!window.axe"):
                        page.add_script_tag(content=axe_src)
                    found = page.evaluate(AXE_RUN)
                    assert not found, f"{where}: axe: {found}"
        if to_end:
            _no_broken_words_in(page, server, case, ("de", "cs"))
        else:
            page.set_viewport_size({"width": 360, "height": 640})
            _first_tap_never_sends(page, inh, moves)
        assert errors == [], errors
    finally:
        browser.close()
        pw.stop()


def _no_broken_words_in(page, base: str, case: str, langs: tuple[str, ...]) -> None:
    """The end screen in German and Czech (longer words) at 360x640: no word broken, no overflow."""
    page.set_viewport_size({"width": 360, "height": 640})
    page.emulate_media(color_scheme="light")
    for lang in langs:
        csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        r = page.request.patch(base + "/api/v1/accounts/me", data=json.dumps({"language": lang}),
                               headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
        assert r.ok, r.text()
        page.reload()
        page.wait_for_selector(f"html[lang='{lang}'] #end-tally, html[lang='{lang}'] #ih-end")
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0, f"{case} {lang}: overflow"
        assert not page.evaluate(BROKEN_WORDS), f"{case} {lang}: {page.evaluate(BROKEN_WORDS)}"
        page.screenshot(path=str(ARTIFACTS / f"layout-{case}-360x640-{lang}.png"), full_page=True)


def _first_tap_never_sends(page, inh: bool, moves: list[str]) -> None:
    version = page.get_attribute("main.table", "data-version")
    if inh:
        card = page.locator("#ih-hand button.ih-card.legal").first
        if not card.count():
            card = page.locator("#ih-moves button[data-move]").first
        card.tap()
        page.wait_for_timeout(400)
        assert moves == [], "a first tap sent a move"
        sheet = page.locator("dialog[open] button[data-move]")
        if sheet.count():
            sheet.first.tap()
            page.wait_for_timeout(400)
            assert moves == [], "choosing a move in the card's sheet sent it"
        page.locator("#ih-commit").tap()
    else:
        card = page.locator("#hand button.card.legal").first
        label = card.get_attribute("data-name")
        card.tap()
        page.wait_for_timeout(400)
        assert moves == [], "a first tap sent a move"
        assert card.get_attribute("aria-pressed") == "true"
        assert label in page.locator("#commit-text").inner_text()
        page.locator("#confirm-play").tap()
    page.wait_for_function("v => document.querySelector('main.table')?.dataset.version !== v", arg=version)
    assert len(moves) == 1
    # let the AI seats answer before the database is flushed (a flush under their transaction deadlocks)
    page.wait_for_selector("main.table[data-myturn='1'], main.table[data-over='1']", timeout=20000)
    page.wait_for_timeout(500)


# Every name shown for a seat on the table, with what it must read (data-full: the seat's whole name).
SEAT_LABELS = """() => {
  const cut = (e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1
    || getComputedStyle(e).textOverflow === 'ellipsis' && getComputedStyle(e).overflow !== 'visible';
  const pick = (q) => [...document.querySelectorAll(q)].map(e => ({text: e.innerText.trim(), cut: cut(e),
    right: e.getBoundingClientRect().right, vw: innerWidth}));
  return {seats: [...document.querySelectorAll('#seats .t-seat')].map(e => ({
            seat: +e.dataset.seat, text: e.querySelector('.t-seat-name').innerText.trim(),
            cut: cut(e.querySelector('.t-seat-name'))})),
          trick: pick('#trick .tc-who'), head: pick('.lead-head span'), piles: pick('.piles .pile:not(#followers) h3'),
          overflow: document.documentElement.scrollWidth - innerWidth};
}"""

LONG_NAMES = ["Maximilian von Habsburg-Lothringen", "Zdeňka Nováková-Svobodová"]


def _setup_long_names(username: str, seats: int) -> tuple[int, dict[int, str]]:
    """A 3-4 seat mix with people of long names and an AI seat, played (first legal moves, the AI inline)
    until it is my turn with at least two cards of others in the trick; the game and each seat's name."""
    users = get_user_model().objects
    me = users.create_user(username=username, password=PASSWORD, display_name="Bartholomew Featherstonehaugh")
    friends = [users.create_user(username=f"{username}f{i}", password=PASSWORD, display_name=LONG_NAMES[i])
               for i in range(seats - 2)]
    opponents = [{"type": "user", "username": f.username} for f in friends] + [{"type": "ai", "level": 1}]
    game = service.create_game(me, "claim-mix", {"factions": MIX5}, seats, opponents)
    for f in friends:
        service.join_game(f, game.pk)
    players = [me, *friends]
    for i in range(400):
        view = game_view_payload(Game.objects.get(pk=game.pk), me)
        if view["my_turn"] and len(view["view"]["current_trick"]) >= 2:
            break
        for p in players:
            v = game_view_payload(Game.objects.get(pk=game.pk), p)
            if v["my_turn"] and not (p is me and len(v["view"]["current_trick"]) >= 2):
                make_move(p, game.pk, v["version"], v["legal_moves"][0], client_id=f"ln{i}{p.pk}")
                break
    view = game_view_payload(Game.objects.get(pk=game.pk), me)
    assert view["my_turn"] and len(view["view"]["current_trick"]) >= 2, "never my turn with a trick on the table"
    return game.pk, {s["index"]: s["name"] for s in view["seats"]}


@pytest.mark.parametrize("seats", [3, 4])
def test_every_seat_name_is_readable_at_360(server, eager, seats):
    """Issue 25's follow-up: at 360x740 no seat's name is cut ("AI (Squ…"): the seat rows show each full name,
    the trick and the score columns short names (AI level, first name) that wrap rather than being cut."""
    username = f"lng{uuid.uuid4().hex[:8]}"
    gid, names = _setup_long_names(username, seats)
    pw, browser = _browser()
    try:
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, device_scale_factor=1)
        ctx.set_default_timeout(15000)
        _log_in(ctx, server, username)
        page = ctx.new_page()
        page.goto(f"{server}/#/game/{gid}")
        page.wait_for_selector("main.table[data-myturn='1'] #trick .tc-who")
        page.emulate_media(reduced_motion="reduce")
        m = page.evaluate(SEAT_LABELS)
        page.screenshot(path=str(ARTIFACTS / f"layout-names-{seats}-360x740.png"), full_page=True)
        assert m["overflow"] <= 0, m
        me = next(i for i, n in names.items() if n == "Bartholomew Featherstonehaugh")
        # An AI seat's row names its level too ("Dario · AI, Squire level": the seat's own name, level 1).
        shown = {i: (n.replace(" (AI)", " · AI, Squire level") if n.endswith(" (AI)") else n) for i, n in names.items()}
        assert sorted((s["seat"], s["text"]) for s in m["seats"]) == sorted(
            (i, n) for i, n in shown.items() if i != me), m["seats"]
        labels = m["seats"] + m["trick"] + m["head"] + m["piles"]
        assert all(not x["cut"] for x in labels), [x for x in labels if x["cut"]]
        assert all(x.get("right", 0) <= x.get("vw", 360) for x in labels), labels
        short = {n: (n[4:].replace(")", "") if n.startswith("AI (") else n.split()[0]) for n in names.values()}
        trick = [x["text"] for x in m["trick"]]
        assert len(trick) >= 2 and all(t == "You" or t in short.values() for t in trick), (trick, short)
        if seats == 3:  # the score columns: you and each other seat
            assert [x["text"] for x in m["head"] if x["text"]][1:] == [short[names[s["seat"]]] for s in m["seats"]]
        piles = [x["text"].split(" · ")[0] for x in m["piles"]]
        assert set(piles) == {"You"} | {n for i, n in names.items() if i != me}, piles
    finally:
        browser.close()
        pw.stop()
