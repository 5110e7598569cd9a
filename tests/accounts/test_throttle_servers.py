"""Security issue #32, finding 1, against real servers in both ways the app is started (as
tests/hardening/test_bad_input_servers.py starts them): embedded (``make run``: SQLite, the in-memory cache)
and production (PostgreSQL, throttles in Redis, gunicorn behind Caddy). Many spellings of one account share
its limits, and both databases resolve a name as the limits do: the long-s/dotless-i name of the issue signs in
to no one (PostgreSQL's UPPER signed it in to ``sisircp``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.hardening.test_bad_input_servers import _csrf, _manage, mode_env
from tests.realtime.servers import UNLIMITED, start_served, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PASSWORD = "Correct-horse-42"
LONG_S, DOTLESS_I = "\N{LATIN SMALL LETTER LONG S}", "\N{LATIN SMALL LETTER DOTLESS I}"
ISSUE_NAME = f"{LONG_S}{DOTLESS_I}{LONG_S}{DOTLESS_I}rcp"
FULLWIDTH = "".join(chr(ord(c) + 0xFEE0) for c in "SISIRCP")
RATES = {"THROTTLE_LOGIN": "3/min", "THROTTLE_LOGIN_ACCOUNT": "2/15min", "THROTTLE_ANON": UNLIMITED}
SETUP = f'from accounts.models import User\nUser.objects.create_user(username="sisircp", password="{PASSWORD}")'


@pytest.fixture(params=["embedded", "production"])
def mode(request, tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = mode_env(request.param, tmp_path, **RATES)
    if request.param == "production":
        # The throttle counters of an earlier run live on in Redis: start this deployment's from zero.
        _manage(env, "shell", "-c", "from django.core.cache import cache; cache.clear()")
    _manage(env, "shell", "-c", SETUP)
    server = start_served(env) if request.param == "production" else start_server(env)
    try:
        wait_ready(server)
        yield {"name": request.param, "server": server, "headers": {}, "origin": f"http://127.0.0.1:{server.port}"}
    finally:
        server.stop()


def _remaining(response: httpx.Response, policy: str) -> int:
    match = re.search(rf'"{policy}";r=(\d+)', response.headers.get("RateLimit", ""))
    assert match, (policy, dict(response.headers))
    return int(match.group(1))


def test_the_issue_32_spellings_share_one_accounts_limits_in_both_modes(mode):
    with httpx.Client(base_url=mode["server"].http, timeout=20) as client:
        csrf = _csrf(client, mode)

        def login(username: str, password: str) -> httpx.Response:
            return client.post("/api/v1/accounts/login", json={"username": username, "password": password},
                               headers=csrf)

        issue = login(ISSUE_NAME, PASSWORD)  # the right password, under the issue's spelling
        assert issue.status_code == 400, (mode["name"], issue.text)
        first = login("SISIRCP", "guess-1")
        assert first.status_code == 400
        assert (_remaining(first, "login"), _remaining(first, "login_account")) == (2, 1)
        second = login(f"{LONG_S}isircp", "guess-2")
        assert second.status_code == 400
        assert (_remaining(second, "login"), _remaining(second, "login_account")) == (1, 0)
        for typed in (FULLWIDTH, "sisircp", f"{LONG_S}I{LONG_S}IRCP"):  # the right password waits, any spelling
            refused = login(typed, PASSWORD)
            assert refused.status_code == 429, (mode["name"], typed, refused.text)
            assert int(refused.headers["Retry-After"]) > 0
            assert refused.json()["error"]["code"] == "throttled"
            assert _remaining(refused, "login_account") == 0
    assert "Traceback" not in mode["server"].output()
