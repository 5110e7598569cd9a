"""A deactivated or deleted account loses its open sockets and NDJSON streams within seconds, like a revoked
token (issue 32, finding 3: a token was refused at once on REST while its event stream kept sending 40 s later).

Deactivation has three shapes: a saved user (the Django admin's form: ``post_save``, accounts.services), a
deletion (``post_delete``), and a bulk ``QuerySet.update`` or SQL, which sends no signal at all: each server
process sweeps the accounts of its open sockets and streams (games.realtime.watch). In process first, then
against real servers in both start modes, the deactivation coming from another process (the operator's shell).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from accounts.models import User
from games.realtime.watch import watch

from .conftest import adb, receive
from .servers import ROOT, UNLIMITED, free_port, shared_env, start_server, wait_ready
from .test_streams import Stream
from .test_token_revocation import _expect_ended, _open_events, expect_closed

pytestmark = pytest.mark.django_db(transaction=True)

#: The socket closes and the stream ends within this bound (the sweep runs every 3 s).
WITHIN = 15


async def _pong(comm) -> None:
    await comm.send_json_to({"type": "ping"})
    assert await receive(comm) == {"type": "pong"}


def _deactivate_by_admin(user) -> None:
    """What the Django admin's change form does: load the row, set the flag, save it."""
    row = User.objects.get(pk=user.pk)
    row.is_active = False
    row.save()


def _deactivate_in_bulk(user) -> None:
    assert User.objects.filter(pk=user.pk).update(is_active=False) == 1


@pytest.mark.parametrize("deactivate", [_deactivate_by_admin, _deactivate_in_bulk], ids=["admin", "bulk"])
async def test_deactivation_closes_the_token_and_session_sockets_and_ends_the_stream(
        asgi_app, connect, make_user, make_token, session_cookie, deactivate):
    user, other = await adb(make_user)(), await adb(make_user)()
    plain = await adb(make_token)(user, scopes=["games:read"])
    _, _, by_token = await connect(token=plain)
    _, _, by_session = await connect(headers=[await adb(session_cookie)(user)])
    _, _, bystander = await connect(token=await adb(make_token)(other, scopes=["games:read"]))
    for comm in (by_token, by_session, bystander):
        await _pong(comm)
    stream = await _open_events(asgi_app, plain)
    await adb(deactivate)(user)
    await expect_closed(by_token, timeout=WITHIN)
    await expect_closed(by_session, timeout=WITHIN)
    await _expect_ended_within(stream)
    await _pong(bystander)  # another account's socket goes on


async def _expect_ended_within(stream: Stream) -> None:
    line = await stream.line(timeout=WITHIN)
    assert line is not None and line["type"] == "error" and line["code"] == "unauthenticated", line
    assert await stream.line(timeout=5) is None


async def test_deleting_the_user_row_closes_its_sockets_and_streams(asgi_app, connect, make_user, make_token):
    user = await adb(make_user)()
    plain = await adb(make_token)(user, scopes=["games:read"])
    _, _, comm = await connect(token=plain)
    await _pong(comm)
    stream = await _open_events(asgi_app, plain)
    await adb(lambda: User.objects.filter(pk=user.pk).delete())()
    await expect_closed(comm)
    await _expect_ended(stream)


async def test_the_sweep_rechecks_only_the_channels_of_inactive_accounts(connect, make_user, make_token):
    """One query finds the inactive ones; the active user's socket hears nothing."""
    active, inactive = await adb(make_user)(), await adb(make_user)()
    _, _, kept = await connect(token=await adb(make_token)(active, scopes=["games:read"]))
    _, _, dropped = await connect(token=await adb(make_token)(inactive, scopes=["games:read"]))
    await _pong(kept)
    await _pong(dropped)
    await adb(lambda: User.objects.filter(pk=inactive.pk).update(is_active=False))()
    assert await watch().sweep() == 1
    await expect_closed(dropped)
    assert await kept.receive_nothing(timeout=0.5)


# --- real servers, both start modes ---------------------------------------------------------------------

SETUP = """
import json
from accounts.models import ApiToken, User
u = User.objects.create_user(username="dora", password="Correct-horse-42")
User.objects.create_user(username="emil", password="Correct-horse-42")
print(json.dumps({"dora": ApiToken.issue(u, "t", ["games:read"])[1],
                  "emil": ApiToken.issue(User.objects.get(username="emil"), "t", ["games:read"])[1]}))
"""
DEACTIVATE = "from accounts.models import User; print(User.objects.filter(username='dora').update(is_active=False))"


def _manage(env: dict[str, str], code: str) -> str:
    proc = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


@pytest.fixture(params=["embedded", "served"])
def started(request, tmp_path: Path):
    """``(server, env)``: ``make run``'s embedded server (SQLite, in-memory layer), or the sockets server of the
    production shape (PostgreSQL, Redis layer). The operator's shell is another process in both."""
    if request.param == "embedded":
        drop = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CLAIM_TESTING", "DEBUG",
                "CLAIM_TASK_MODE", "SECRET_KEY"}
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}
        env.update(CLAIM_EMBEDDED="1", CLAIM_VAR_DIR=str(tmp_path / "var"), DJANGO_SETTINGS_MODULE="claim.settings",
                   THROTTLE_ANON=UNLIMITED, THROTTLE_USER=UNLIMITED)
        proc = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
    else:
        env = shared_env("the served shape's sockets server")
    server = start_server(env, port=free_port())
    try:
        wait_ready(server)
        yield server, env
    finally:
        server.stop()


def test_a_real_server_closes_a_deactivated_accounts_socket_and_stream(started):
    server, env = started
    tokens = json.loads(_manage(env, SETUP))
    bearer = {"Authorization": f"Bearer {tokens['dora']}"}

    async def scenario() -> tuple[float, float, list[dict]]:
        async with httpx.AsyncClient(timeout=30) as http, \
                http.stream("GET", f"{server.http}/api/v1/stream/events", headers=bearer) as stream, \
                connect(f"{server.ws}?token={tokens['dora']}") as ws, \
                connect(f"{server.ws}?token={tokens['emil']}") as bystander:
            assert stream.status_code == 200
            for sock in (ws, bystander):
                await sock.send(json.dumps({"type": "ping"}))
                assert json.loads(await asyncio.wait_for(sock.recv(), 10)) == {"type": "pong"}
            lines = stream.aiter_lines()
            assert await asyncio.to_thread(_manage, env, DEACTIVATE) == "1"
            started_at = time.monotonic()
            assert json.loads(await asyncio.wait_for(ws.recv(), WITHIN))["code"] == "unauthenticated"
            with pytest.raises(Exception) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4401
            socket_seconds = time.monotonic() - started_at
            seen = []
            async for line in lines:  # ends when the server ends the body
                if line.strip():
                    seen.append(json.loads(line))
            stream_seconds = time.monotonic() - started_at
            await bystander.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(bystander.recv(), 10)) == {"type": "pong"}
            return socket_seconds, stream_seconds, seen

    socket_seconds, stream_seconds, seen = asyncio.run(asyncio.wait_for(scenario(), 60))
    print(f"socket closed {socket_seconds:.2f}s, stream ended {stream_seconds:.2f}s after the deactivation")
    assert [line["code"] for line in seen] == ["unauthenticated"]
    assert httpx.get(f"{server.http}/api/v1/games", headers=bearer).status_code == 401
