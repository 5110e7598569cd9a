"""Tap targets on every main screen of the PWA at 360x740 (issue 33, item 6: a 47x19 px "(Rules)" link inside
each game row of New game; a tap on "Claim 2" left the form), in en, de and cs.

On each screen (logged out: sign up, log in, forgot password, the reset page; logged in: games, new game with
each kind chosen, a Claim table and its last-trick dialog, an Inheritors table, an end screen, a replay,
settings, notifications, profile, leaderboards, rules) every visible ``a[href]``, ``button``, ``input``,
``select``, ``textarea``, ``summary``, ``[role=button]`` and ``label`` of a control is measured, and the test
fails on

* one smaller than 44x44 CSS px. A control is measured by its label when it has one (a radio's target is its
  label), and a text field's ``<label for>`` above a field of 44x44 or more does the same as the field, so that
  label is not a target of its own (WCAG 2.5.8's "equivalent" exception);
* one nested inside another interactive element (a link inside a label), its own control inside its label
  excepted.

The same walk also checks that no screen shows a raw ``{placeholder}`` and keeps phone screenshots:
test-artifacts/phone/<lang>-<screen>.png."""

from __future__ import annotations

import json
import uuid

import pytest
from django.contrib.auth import get_user_model

from games import service
from games.models import Game
from games.service import game_view_payload, make_move

from .conftest import ARTIFACTS, CHROME_ARGS, CHROMIUM
from .test_table_layout import _log_in, _setup_game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LANGS = ("en", "de", "cs")
SHOTS = ARTIFACTS / "phone"

# Every visible tap target that is too small or nested in another one, as text a person can act on.
MEASURE = """() => {
  const SEL = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], label';
  const isTarget = (el) => el.matches(SEL) && (el.localName !== 'label' || !!el.control);
  const shown = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return (r.width > 0 || r.height > 0) && s.visibility !== 'hidden' && !el.closest('dialog:not([open]), [hidden]');
  };
  const big = (el) => { const r = el.getBoundingClientRect(); return r.width >= 43.5 && r.height >= 43.5; };
  const name = (el) => {
    const r = el.getBoundingClientRect();
    const text = (el.getAttribute('aria-label') || el.innerText || el.value || el.id || '')
      .replace(/\\s+/g, ' ').trim().slice(0, 40);
    return `<${el.localName}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.'
      + el.className.trim().split(/\\s+/).join('.') : ''}> "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`;
  };
  const bad = [];
  for (const el of document.querySelectorAll(SEL)) {
    if (!isTarget(el) || !shown(el)) continue;
    const parent = el.parentElement && el.parentElement.closest(SEL);
    if (parent && isTarget(parent) && !(parent.localName === 'label' && parent.control === el)) {
      bad.push(`${name(el)} is nested inside ${name(parent)}`);
    }
    if (big(el)) continue;
    const control = ['input', 'select', 'textarea'].includes(el.localName);
    if (control && [...(el.labels || [])].some((l) => shown(l) && big(l))) continue;  // its label is the target
    if (el.localName === 'label' && el.control && el.control !== el.querySelector('input, select, textarea')
        && !['radio', 'checkbox'].includes(el.control.type) && shown(el.control) && big(el.control)) continue;
    bad.push(`${name(el)} is smaller than 44x44`);
  }
  return bad;
}"""

RAW_PLACEHOLDER = r"""() => {
  const text = document.body.innerText + ' ' + [...document.querySelectorAll('[aria-label], [title], [data-name]')]
    .map((e) => [e.getAttribute('aria-label'), e.getAttribute('title')].join(' ')).join(' ');
  const m = text.match(/\{\w+\}/);
  return m ? text.slice(Math.max(0, m.index - 60), m.index + 40) : null;
}"""


def _set_language(page, base: str, lang: str) -> None:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    r = page.request.patch(base + "/api/v1/accounts/me", data=json.dumps({"language": lang}),
                           headers={"Content-Type": "application/json", "X-CSRFToken": csrf})
    assert r.ok, r.text()


def _check(page, lang: str, screen: str, problems: list[str]) -> None:
    page.wait_for_timeout(200)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{lang}-{screen}.png"), full_page=True)
    problems += [f"{lang} {screen}: {p}" for p in page.evaluate(MEASURE)]
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    if overflow > 0:
        problems.append(f"{lang} {screen}: {overflow} px of horizontal overflow")
    raw = page.evaluate(RAW_PLACEHOLDER)
    if raw:
        problems.append(f"{lang} {screen}: a raw placeholder in …{raw}…")


def _logged_out(browser, base: str, lang: str, problems: list[str]) -> None:
    ctx = browser.new_context(viewport=PHONE, locale=lang, has_touch=True, device_scale_factor=1)
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#username")
    _check(page, lang, "signup", problems)
    page.locator(".tabs button").nth(1).tap()
    page.wait_for_selector("#forgot")
    _check(page, lang, "login", problems)
    page.locator("#forgot").tap()
    page.wait_for_selector("#forgot-form")
    _check(page, lang, "forgot", problems)
    page.goto(base + "/reset-password?uid=x&token=y")
    page.wait_for_selector("#new-password")
    _check(page, lang, "reset", problems)
    ctx.close()


def _logged_in(browser, base: str, lang: str, username: str, games: dict[str, int], problems: list[str]) -> None:
    ctx = browser.new_context(viewport=PHONE, locale=lang, has_touch=True, device_scale_factor=1)
    ctx.set_default_timeout(15000)
    _log_in(ctx, base, username)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    _set_language(page, base, lang)
    page.reload()
    page.wait_for_selector(f"html[lang='{lang}'] main#main")
    page.wait_for_selector("a[href^='#/game/']")
    _check(page, lang, "games", problems)

    page.goto(base + "/#/new")
    page.wait_for_selector("input[name=kind]")
    for i in range(page.locator("input[name=kind]").count()):
        kind = page.locator("input[name=kind]").nth(i)
        kind.check()
        _check(page, lang, f"new-{kind.get_attribute('value')}", problems)
    # a tap on a game's name chooses it and stays on the form (it used to open the rules)
    row = page.locator("label:has(input[name=kind][value=claim2])")
    row.tap()
    assert page.url.endswith("#/new"), f"{lang}: a tap on the Claim 2 row left the form: {page.url}"
    assert page.locator("input[name=kind][value=claim2]").is_checked()

    page.goto(f"{base}/#/game/{games['claim']}")
    page.wait_for_selector("main.table[data-myturn='1']")
    _check(page, lang, "table-claim", problems)
    page.locator(".t-actions button").first.tap()  # "Replay last trick"
    page.wait_for_selector("#replay-dlg[open]")
    _check(page, lang, "table-claim-last-trick", problems)
    page.keyboard.press("Escape")

    page.goto(f"{base}/#/game/{games['inheritors']}")
    page.wait_for_selector("main.table[data-myturn='1']")
    _check(page, lang, "table-inheritors", problems)

    page.goto(f"{base}/#/game/{games['finished']}")
    page.wait_for_selector("main.table[data-over='1'] #end-tally")
    _check(page, lang, "end", problems)

    page.goto(f"{base}/#/replay/{games['finished']}")
    page.wait_for_selector("#replay-pos")
    page.locator("#replay-pos").wait_for()
    _check(page, lang, "replay", problems)

    for screen, route, ready in [("settings", "/#/settings", "#language"), ("notes", "/#/notes", "main#main h1"),
                                 ("profile", f"/#/profile/{username}", "main#main h1"),
                                 ("leaders", "/#/leaders", "main#main h1"), ("rules", "/#/rules/claim", "main#main h1"),
                                 ("rules-inheritors", "/#/rules/inheritors", "main#main h1")]:
        page.goto(base + route)
        page.wait_for_selector(ready)
        _check(page, lang, screen, problems)
    assert errors == [], errors
    ctx.close()


@pytest.fixture
def eager(settings):
    settings.TASK_MODE = "eager"


def test_every_tap_target_is_44px_and_none_is_nested(server, eager):
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional: these tests skip without it

    username = f"tap{uuid.uuid4().hex[:8]}"
    games = {"claim": _setup_game(username, "claim", 2, {}, False)}

    user = get_user_model().objects.get(username=username)
    _play(user, games["claim"], until=lambda v: v["my_turn"] and v["view"].get("last_trick"))
    games["finished"] = _new_game(user, "claim")
    _play(user, games["finished"], until=lambda v: v["status"] != "active")
    games["inheritors"] = _new_game(user, "inheritors")
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        try:
            for lang in LANGS:
                _logged_out(browser, server, lang, problems)
                _logged_in(browser, server, lang, username, games, problems)
        finally:
            browser.close()
    assert not problems, "\n".join(problems)


def _new_game(user, kind: str) -> int:
    return service.create_game(user, kind, {}, 2, [{"type": "ai", "level": 1}]).pk


def _play(user, gid: int, until) -> None:
    """Play the first legal move (the AI answering inline) until ``until(view)``: a trick done, the end."""
    for i in range(200):
        view = game_view_payload(Game.objects.get(pk=gid), user)
        if until(view):
            return
        if view["my_turn"]:
            make_move(user, gid, view["version"], view["legal_moves"][0], client_id=f"tap{gid}-{i}")
    raise AssertionError(f"game {gid} did not get there in 200 moves")
