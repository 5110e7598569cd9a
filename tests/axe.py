"""axe-core in a Playwright page: the serious and critical accessibility violations of what it shows.

The script is the npm package's build (``frontend/node_modules/axe-core``, a dev dependency of the PWA), loaded
through ``page.evaluate`` (the debugger protocol) because the app's CSP refuses inline and foreign scripts.
"""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[1] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"

_RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id + ': '
    + v.nodes.slice(0, 3).map(n => n.target.join(' ') + (n.any[0] ? ' (' + n.any[0].message + ')' : '')).join(' | '));
}"""


def axe(page) -> list[str]:
    """Each serious or critical violation as "rule: selector (why) | ..."; [] when there is none."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate("() => {\n" + AXE.read_text() + "\n}")
    return page.evaluate(_RUN)
