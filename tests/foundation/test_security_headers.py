"""Issue 22 item 7: a Content-Security-Policy on every answer, the API docs without a CDN, and no token in
the server's logs (claim/middleware.py, claim/logfilters.py)."""

from __future__ import annotations

import logging
import re

import pytest

from claim.logfilters import RedactSecrets, redact
from claim.middleware import CSP

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/api/v1/health", "/api/v1/docs/", "/admin/login/", "/api/v1/nothing"])
def test_every_answer_carries_the_content_security_policy(client, path):
    r = client.get(path)
    assert r["Content-Security-Policy"] == CSP
    assert "script-src 'self';" in CSP and "frame-ancestors 'none'" in CSP


def test_the_api_docs_page_loads_nothing_from_another_origin(client):
    r = client.get("/api/v1/docs/")
    html = r.content.decode()
    assert r.status_code == 200 and "swagger-ui" in html
    urls = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls  # this origin only
    assert "<script>" not in html  # the set-up script is a file of its own (CSP: no inline script)


def test_tokens_and_reset_links_are_redacted_from_server_log_lines():
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/ws/?token=clm_abcd1234_secretsecret&x=1", "1.1", 101), None)
    RedactSecrets().filter(record)
    line = record.getMessage()
    assert "secretsecret" not in line and "token=[redacted]&x=1" in line
    assert "uid=[redacted]" in redact("/reset-password?uid=MQ&token=abc-123")
    assert "abc-123" not in redact("/reset-password?uid=MQ&token=abc-123")


def test_the_filter_is_on_the_servers_loggers():
    import claim.asgi  # noqa: F401, PLC0415 - installs the filters; reads ALLOWED_HOSTS at import (test set-up)

    for name in ("uvicorn.access", "uvicorn.error"):
        assert any(isinstance(f, RedactSecrets) for f in logging.getLogger(name).filters), name
