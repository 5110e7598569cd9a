"""HTTP inside the ASGI server (Django's ASGI handler, claim/asgi.py) and the loop sync code hands socket pushes
to (claim/loops.py)."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest
from asgiref.sync import sync_to_async
from celery.signals import worker_process_init
from channels.layers import InMemoryChannelLayer

from claim import loops
from claim.asgi import http_app
from games.realtime import publish

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _forget_recorded_loop(monkeypatch):
    monkeypatch.setattr(loops, "_loop", None)
    monkeypatch.setattr(loops, "_loop_pid", None)


async def _requests(app) -> list[tuple[int, str, bytes]]:
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 4711))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        answers = [
            await http.get("/api/v1/accounts/csrf"),
            await http.get("/api/v1/no-such-thing"),
            await http.post("/api/v1/games", content=b"{not json", headers={"Content-Type": "application/json"}),
            await http.post("/api/v1/accounts/register", content=b"x" * 3_000_000,
                            headers={"Content-Type": "application/json"}),
        ]
    # the first 9 bytes: the JSON key of each answer ({"error" / {"csrf_token"), not its random value
    return [(r.status_code, r.headers.get("content-type", ""), r.content[:9]) for r in answers]


async def test_djangos_asgi_handler_answers_json(settings):
    (csrf, _, token), (missing, missing_type, not_found), (bad_json, _, body), (huge, _, _) = await _requests(http_app)
    assert csrf == 200 and token == b'{"csrf_to'
    assert missing == 404 and missing_type.startswith("application/json") and not_found == b'{"error":'  # handler404
    assert bad_json in (400, 401, 403) and b"error" in body
    assert huge in (400, 413)


async def test_a_view_thread_hands_sends_to_the_server_loop():
    """A synchronous view runs in a thread asgiref started from the server's loop: that is its process loop."""
    assert loops.recorded_loop() is None
    running = asyncio.get_running_loop()
    assert await sync_to_async(loops.process_loop)() is running


def test_a_stopped_or_foreign_loop_is_not_used(monkeypatch):
    loop = asyncio.new_event_loop()
    loops.use_loop(loop)
    assert loops.recorded_loop() is None  # not running
    loop.close()
    running = loops.start_background_loop()
    assert loops.process_loop() is running and loops.start_background_loop() is running
    monkeypatch.setattr(loops.os, "getpid", lambda: -1)  # e.g. a forked child: the parent's thread is gone
    assert loops.recorded_loop() is None and loops.process_loop() is None
    running.call_soon_threadsafe(running.stop)


def test_sends_are_handed_to_the_process_loop_without_waiting(monkeypatch):
    layer = InMemoryChannelLayer()
    monkeypatch.setattr(publish, "get_channel_layer", lambda: layer)
    loop = loops.start_background_loop()

    def on_loop(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(5)

    inbox = on_loop(layer.new_channel())
    on_loop(layer.group_add("user.7", inbox))
    release = threading.Event()
    real_send = publish._send_all

    async def held_send(layer_, messages, **kwargs):
        await loop.run_in_executor(None, release.wait, 5)
        await real_send(layer_, messages, **kwargs)

    monkeypatch.setattr(publish, "_send_all", held_send)
    publish.send_to_groups([("user.7", {"type": "game.update", "version": 3})], "test")  # returns at once
    release.set()
    assert on_loop(asyncio.wait_for(layer.receive(inbox), 5)) == {"type": "game.update", "version": 3}
    loop.call_soon_threadsafe(loop.stop)


def test_a_celery_worker_process_gets_a_background_loop():
    import claim.celery  # noqa: F401, PLC0415 - connects the receiver: only for this test, not at collection

    assert loops.recorded_loop() is None
    worker_process_init.send(sender="test")
    loop = loops.recorded_loop()
    assert loop is not None and loop.is_running()
    loop.call_soon_threadsafe(loop.stop)
