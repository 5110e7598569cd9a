"""Issue #32 finding 2 on real servers of both modes (as ``test_bad_input_servers.py`` starts them): embedded
(uvicorn, Django's ASGI handler, SQLite) and production (gunicorn's WSGI behind Caddy, PostgreSQL, Redis).

The export streams (no ``Content-Length``, chunked; under ASGI by an async iterator, so Django never reads a
synchronous one whole first: its warning would be in the log), every stored record is there, ``If-None-Match``
answers 304 on the export and on a record, and the anonymous export rate (``THROTTLE_EXPORT_ANON``) answers
429 with its ``RateLimit`` fields, the server's log clean.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.hardening.test_bad_input_servers import THROTTLES, _manage, mode_env
from tests.realtime.servers import start_served, start_server, wait_ready

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GAMES = 110  # more than one piece (games.api.export.CHUNK = 100)
ANON_EXPORTS = 4  # THROTTLE_EXPORT_ANON per minute
SETUP = f"""
from accounts.models import User
from games.service import create_game, resign
a = User.objects.create_user(username="alice", password="Correct-horse-42")
ids = []
for _ in range({GAMES}):
    g = create_game(a, "claim", opponents=[{{"type": "ai", "level": 1}}])
    resign(a, g.pk)
    ids.append(g.pk)
print(json.dumps(ids))
"""


@pytest.fixture(params=["embedded", "production"])
def served(request, tmp_path: Path) -> Iterator[dict[str, Any]]:
    env = mode_env(request.param, tmp_path, **THROTTLES, THROTTLE_EXPORT_ANON=f"{ANON_EXPORTS}/min")
    ids = json.loads(_manage(env, "shell", "-c", "import json\n" + SETUP).strip().splitlines()[-1])
    server = start_served(env) if request.param == "production" else start_server(env)
    try:
        wait_ready(server)
        yield {"name": request.param, "server": server, "ids": ids}
    finally:
        server.stop()


def test_the_export_streams_answers_304_and_has_its_anonymous_rate_in_both_modes(served):
    server, name = served["server"], served["name"]
    path = "/api/v1/users/alice/games/export?limit=1000"
    with httpx.Client(base_url=server.http, timeout=60) as client:
        with client.stream("GET", path) as r:
            assert r.status_code == 200, (name, r.status_code)
            assert "content-length" not in r.headers and r.headers.get("transfer-encoding") == "chunked", r.headers
            assert r.headers["content-type"] == "application/x-ndjson"
            body = b"".join(r.iter_raw())
            etag = r.headers["etag"]
        records = [json.loads(line) for line in body.decode().splitlines()]
        assert [rec["id"] for rec in records] == served["ids"][::-1], name
        assert all(rec["ended_reason"] == "resigned" and rec["seats"][0]["username"] == "alice" for rec in records)
        r = client.get(path, headers={"If-None-Match": etag})
        assert r.status_code == 304 and r.content == b"" and r.headers["etag"] == etag, (name, r.status_code)
        for _ in range(ANON_EXPORTS - 2):  # the third and fourth anonymous exports this minute
            assert client.get(path).status_code == 200
        r = client.get(path, headers={"If-None-Match": etag})  # a 304 counts too: the fifth is refused
        assert r.status_code == 429 and r.json()["error"]["code"] == "throttled", (name, r.status_code, r.text)
        assert f'"export_anon";q={ANON_EXPORTS};w=60' in r.headers["ratelimit-policy"], r.headers
        assert '"export_anon";r=0' in r.headers["ratelimit"]
        gid = served["ids"][0]
        record = client.get(f"/api/v1/games/{gid}/record")
        assert record.status_code == 200 and record.json()["id"] == gid
        again = client.get(f"/api/v1/games/{gid}/record", headers={"If-None-Match": record.headers["etag"]})
        assert again.status_code == 304 and again.content == b"", (name, again.status_code)
    log = server.output()
    assert "Traceback" not in log and " ERROR " not in log and "must consume" not in log, log[-3000:]
