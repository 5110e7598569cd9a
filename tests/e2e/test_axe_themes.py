"""Issue 33 item 12: axe-core on every screen, in the light and the dark theme, at 360x740.

The app's theme follows the system's (``prefers-color-scheme`` in frontend/src/style.css; there is no setting), so
each screen is checked twice with Chromium's emulated colour scheme: the landing page and the log-in tab, the
inbox, the notifications, a new game, the settings, a profile, the rules (Claim and Inheritors), a Claim table,
an Inheritors table, a finished 3-seat game's end screen and its replay. No serious or critical violation may be
left; every one found is written to test-artifacts/axe/results.json (screen, theme, rule, element, and the
contrast axe measured), beside a screenshot of each screen in each theme.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from .conftest import ARTIFACTS, ROOT
from .test_phone_round3 import MIX5, PLAY_UNTIL, api
from .test_pwa import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
THEMES = ("light", "dark")
# The serious and critical violations, with what axe measured for a contrast failure.
AXE_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).flatMap(v => v.nodes.map(n => {
    const d = (n.any[0] || {}).data || {};
    const contrast = d.contrastRatio
      ? `${d.contrastRatio}:1 (${d.fgColor} on ${d.bgColor}, needs ${d.expectedContrastRatio})` : null;
    return {rule: v.id, impact: v.impact, target: n.target.join(' '), html: n.html.slice(0, 160), contrast};
  }));
}"""
# The page's background (style.css sets it on :root), to check that the emulated theme took.
BACKGROUND = "() => getComputedStyle(document.documentElement).backgroundColor"


def axe(page) -> list[dict]:
    """axe-core's serious and critical violations on the page (axe.min.js from the app's node_modules, evaluated
    in the page: the app's CSP refuses inline script tags)."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate("() => {\n" + Path(AXE).read_text() + "\n}")
    return page.evaluate(AXE_RUN)


def check(page, name: str, results: dict) -> None:
    """Run axe on the screen shown, in each theme; screenshots under test-artifacts/axe/."""
    (ARTIFACTS / "axe").mkdir(parents=True, exist_ok=True)
    backgrounds = set()
    for theme in THEMES:
        page.emulate_media(color_scheme=theme, reduced_motion="reduce")
        page.wait_for_timeout(150)  # transitions are off with reduced motion; one frame for the new colours
        backgrounds.add(page.evaluate(BACKGROUND))
        results[f"{name}/{theme}"] = axe(page)
        page.screenshot(path=str(ARTIFACTS / "axe" / f"{name}-{theme}.png"), full_page=True)
    if len(backgrounds) != 2:
        results[f"{name}/dark"].append({"rule": "theme", "target": ":root", "html": "", "impact": "critical",
                                        "contrast": f"the dark theme did not apply ({backgrounds})"})


def test_every_screen_in_both_themes_has_no_serious_axe_violation(server, new_page):
    assert AXE.exists(), "npm ci in frontend/ (axe-core is a dev dependency)"
    results: dict[str, list[dict]] = {}
    page = new_page()
    page.goto(server + "/")
    page.wait_for_selector("#landing")
    check(page, "landing", results)
    page.get_by_role("tab", name="Log in").click()
    page.wait_for_selector("form[aria-label='Log in']")
    check(page, "login", results)

    username = "axe" + uuid.uuid4().hex[:8]
    sign_up(page, server, username)
    status, claim = api(page, server, "POST", "/games", {"kind": "claim", "opponents": [{"type": "ai", "level": 1}]})
    assert status == 201, claim
    status, heirs = api(page, server, "POST", "/games", {"kind": "inheritors",
                                                         "opponents": [{"type": "ai", "level": 1}]})
    assert status == 201, heirs
    status, mix = api(page, server, "POST", "/games", {
        "kind": "claim-mix", "seats": 3, "options": MIX5,
        "opponents": [{"type": "ai", "level": 1}, {"type": "ai", "level": 2}]})
    assert status == 201, mix
    finished = page.evaluate(PLAY_UNTIL, {"id": mix["id"], "stop": "false"})
    assert finished and finished["status"] == "finished", finished

    screens = [
        ("inbox", "#/", f"a.game-row[data-game='{claim['id']}']"),
        ("notifications", "#/notes", "main"),
        ("new-game", "#/new", "#start-game"),
        ("settings", "#/settings", "main"),
        ("profile", f"#/profile/{username}", "main h1"),
        ("rules-claim", "#/rules/claim", "main h1"),
        ("rules-inheritors", "#/rules/inheritors", "main h1"),
        ("claim-table", f"#/game/{claim['id']}", "main.table[data-kind='claim'] #hand button.card"),
        ("inheritors-table", f"#/game/{heirs['id']}", "main.table[data-kind='inheritors'] #ih-hand button.ih-card"),
        ("end-screen", f"#/game/{mix['id']}", "#end .votes li"),
        ("replay", f"#/replay/{mix['id']}", "main[data-steps]"),
    ]
    for name, route, ready in screens:
        page.goto(f"{server}/{route}")
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)  # the socket's first view and the clock strip settle
        check(page, name, results)
    page.click("#replay-next")
    page.wait_for_selector("main[data-step='1']")
    check(page, "replay-step", results)

    (ARTIFACTS / "axe" / "results.json").write_text(json.dumps(results, indent=1, ensure_ascii=False))
    found = {where: v for where, v in results.items() if v}
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    assert not page.errors
