"""The parts of claim/http_procs.py and claim/http_worker.py that need no server (the servers:
tests/realtime/test_http_processes.py)."""

from __future__ import annotations

import asyncio

import pytest
from django.core.exceptions import ImproperlyConfigured

from claim.http import check_shared_state
from claim.http_procs import WsgiProcesses, pack, unpack
from claim.http_worker import respond

SCOPE = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http", "path": "/x/é",
         "raw_path": b"/x/%C3%A9", "query_string": b"a=1", "root_path": "", "client": ["10.0.0.1", 5555],
         "server": ["127.0.0.1", 8000], "headers": [[b"content-type", b"text/plain"], [b"x-two", b"a"],
                                                    [b"x-two", b"b"]]}


def test_respond_builds_the_environ_and_collects_the_answer():
    seen = {}
    closed = []

    class Body(list):
        def close(self):
            closed.append(True)

    def app(environ, start_response):
        seen.update(environ)
        seen["body"] = environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")])
        return Body([b"he", b"", b"llo"])

    status, headers, body = respond(app, unpack(pack(SCOPE)[4:]), b"the body")  # as it arrives
    assert (status, body) == (201, b"hello")
    assert headers == [(b"content-type", b"text/plain"), (b"set-cookie", b"a=1"), (b"set-cookie", b"b=2")]
    assert closed == [True]
    assert seen["body"] == b"the body"
    assert (seen["REQUEST_METHOD"], seen["PATH_INFO"], seen["QUERY_STRING"]) == ("POST", "/x/é".encode().decode(
        "latin-1"), "a=1")
    assert (seen["REMOTE_ADDR"], seen["SERVER_PORT"], seen["HTTP_X_TWO"]) == ("10.0.0.1", "8000", "a,b")


def test_respond_raises_an_error_that_comes_after_the_answer_started():
    def app(environ, start_response):
        start_response("200 OK", [])
        try:
            raise ValueError("late")
        except ValueError:
            import sys

            start_response("500 Error", [], sys.exc_info())
        return []

    with pytest.raises(ValueError, match="late"):
        respond(app, dict(SCOPE), b"")


def test_the_body_is_cut_one_byte_past_the_limit():
    """Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE by its Content-Length: the request process needs
    no more than one byte past it, and the server stops reading there."""
    procs = WsgiProcesses.__new__(WsgiProcesses)
    procs.body_limit = 10 + 1
    messages = [{"type": "http.request", "body": b"12345", "more_body": True},
                {"type": "http.request", "body": b"67890", "more_body": True},
                {"type": "http.request", "body": b"abcde", "more_body": True}]
    received = []

    async def receive():
        received.append(messages[len(received)])
        return received[-1]

    assert asyncio.run(procs._read_body(receive)) == b"1234567890a"
    assert len(received) == 3

    procs.body_limit = None
    received.clear()
    messages[-1]["more_body"] = False
    assert asyncio.run(procs._read_body(receive)) == b"1234567890abcde"

    received.clear()
    messages[-1] = {"type": "http.disconnect"}
    assert asyncio.run(procs._read_body(receive)) is None, "a request cut off by the client is not forwarded"


def test_request_processes_refuse_state_that_is_not_shared(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with pytest.raises(ImproperlyConfigured, match="HTTP_PROCESSES"):
        check_shared_state(settings)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"}}
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with pytest.raises(ImproperlyConfigured, match="HTTP_PROCESSES"):
        check_shared_state(settings)
    settings.CACHES = {"default": {"BACKEND": "claim.cache.RedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}}
    check_shared_state(settings)


def test_the_celery_worker_runs_nicer_than_the_server(settings, monkeypatch):
    from claim import celery

    calls = []
    monkeypatch.setattr(celery.os, "nice", calls.append)
    settings.WORKER_NICE = 10
    celery._lower_priority()
    settings.WORKER_NICE = 0
    celery._lower_priority()
    assert calls == [10]


def test_a_request_process_gone_mid_request_gets_a_502_in_the_api_error_shape():
    """The connection's peer closes before answering: 502 with a message, the connection is not reused."""
    from claim.http_procs import _Child, _Connection

    async def scenario():
        procs = WsgiProcesses.__new__(WsgiProcesses)
        procs._loop, procs._idle, procs._tasks = asyncio.get_running_loop(), asyncio.Queue(), set()
        child = _Child(0, None)  # type: ignore[arg-type]
        reader = asyncio.StreamReader()
        reader.feed_eof()  # the process died: end-of-file before any answer

        class Writer:
            closed = False

            def write(self, data):
                pass

            def is_closing(self):
                return self.closed

            def close(self):
                self.closed = True

        writer = Writer()
        procs._idle.put_nowait(_Connection(child, child.generation, reader, writer))
        answer = await procs._answer(dict(SCOPE), b"")
        return answer, writer, procs._idle.qsize()

    (status, headers, body), writer, idle = asyncio.run(scenario())
    import json

    assert status == 502
    assert json.loads(body)["error"]["code"] == "worker_stopped"
    assert "try again" in json.loads(body)["error"]["message"]
    assert (b"retry-after", b"2") in headers
    assert writer.closed and idle == 0
