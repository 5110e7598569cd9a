"""docker/Caddyfile sends exactly the long-lived connections to uvicorn and every other request to gunicorn.

The served shape runs Django's HTTP on gunicorn (claim/wsgi.py) and the WebSockets and NDJSON streams on
uvicorn (claim/asgi.py); a path the proxy sends to the wrong one is a 404 there. The paths come from the
code that serves them, so a moved route fails here, not in production.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claim.ws_routing import websocket_urlpatterns
from games.streams import EVENTS_PATH, GAME_PATH_TEMPLATE, WATCH_PATH, WATCH_PATH_TEMPLATE

CADDYFILE = Path(__file__).resolve().parents[2] / "docker" / "Caddyfile"


def socket_route() -> re.Pattern[str]:
    found = re.findall(r"^\s*@sockets path_regexp sockets (\S+)\s*$", CADDYFILE.read_text(), flags=re.M)
    assert len(found) == 1, "docker/Caddyfile: one '@sockets path_regexp sockets REGEXP' matcher"
    return re.compile(found[0])  # Caddy's RE2 syntax here is also Python's


@pytest.mark.parametrize("path", [
    EVENTS_PATH,
    GAME_PATH_TEMPLATE.format(game_id=1),
    GAME_PATH_TEMPLATE.format(game_id=123456789012345678),
    WATCH_PATH_TEMPLATE.format(game_id=1),
    WATCH_PATH_TEMPLATE.format(game_id=123456789012345678),
    "/ws/", "/ws",
])
def test_sockets_and_streams_go_to_uvicorn(path):
    assert socket_route().search(path), path


@pytest.mark.parametrize("path", [
    "/", "/api/v1/health", "/api/v1/games", "/api/v1/games/1", "/api/v1/games/1/moves", "/api/v1/games/1/streamx",
    "/api/v1/games/x/stream", "/api/v1/stream/events/more", "/api/v1/docs/", "/static/app.js", "/wsx", "/ws/x",
    "/admin/", "/api/v1/games/1/watch", "/api/v1/games/x/watch/stream", "/api/v1/games/1/watch/streamx",
    "/api/v1/watch", "/api/v1/games/1/watch/stream/x",
])
def test_everything_else_goes_to_gunicorn(path):
    assert not socket_route().search(path), path


def test_the_socket_paths_are_channels_routes():
    assert [str(p.pattern) for p in websocket_urlpatterns] == [r"^ws/?$"]


def test_both_upstreams_are_configured():
    text = CADDYFILE.read_text()
    assert "reverse_proxy @sockets {$SOCKETS_UPSTREAM}" in text
    assert re.search(r"^\s*reverse_proxy \{\$HTTP_UPSTREAM\}( \{)?\s*$", text, flags=re.M)


def test_the_watch_stream_is_an_asgi_stream_route():
    """The watch stream's path is the one claim/asgi.py hands to the streams handler (not Django's own)."""
    from claim.asgi import http_routes  # noqa: PLC0415 - claim.asgi reads ALLOWED_HOSTS when imported

    assert any(route.pattern.regex.pattern == WATCH_PATH.pattern.replace("^/", "^", 1) for route in http_routes)
    assert WATCH_PATH.match(WATCH_PATH_TEMPLATE.format(game_id=42))
