"""Issue 22 item 7 in Chromium: under the Content-Security-Policy the PWA and the API docs (Swagger UI from
our own static files) still work, and the browser reports no violation."""

from __future__ import annotations

import pytest

from .conftest import shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _violations(page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def test_pwa_and_api_docs_work_under_the_csp(server, new_page):
    page = new_page()
    violations = _violations(page)
    response = page.goto(server + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector("#app button")
    shot(page, "issue22-csp-pwa")
    docs = new_page()
    docs_violations = _violations(docs)
    requests: list[str] = []
    docs.on("request", lambda r: requests.append(r.url))
    docs.goto(server + "/api/v1/docs/")
    docs.wait_for_selector(".swagger-ui .opblock", timeout=20000)
    shot(docs, "issue22-csp-api-docs")
    assert all(u.startswith(server) for u in requests), [u for u in requests if not u.startswith(server)]
    assert violations == [] and docs_violations == [], (violations, docs_violations)
    assert page.errors == [] and docs.errors == []
