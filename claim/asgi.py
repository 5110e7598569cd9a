"""ASGI entry point: HTTP (the NDJSON streams too) by Django's ASGI handler, WebSockets at /ws/ by Channels.

Every HTTP request goes through Django's stack (middleware, DRF, the views); the NDJSON streams are Django
views whose body is an async iterator, sent on the event loop (games/streams.py). Their paths are routed (by
Channels' URLRouter) to a second instance of Django's handler, ``StreamsHandler`` (claim/private_api.py),
which differs in one thing only: no per-request thread. Run by uvicorn: for everything under ``make run``; in
production for the sockets and streams only, which the proxy sends here while Django's other HTTP runs on
gunicorn (claim/wsgi.py; docs/architecture.md, "Process model").
"""

from __future__ import annotations

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "claim.settings")
django.setup(set_prefix=False)

from django.core.asgi import get_asgi_application  # noqa: E402

from claim.private_api import StreamsHandler  # noqa: E402

http_app = get_asgi_application()
streams_app = StreamsHandler()
# Objects made at start-up (modules, settings, URL patterns) are left out of the garbage collector's passes.
gc.freeze()

if os.environ.get("CLAIM_EMBEDDED_BEAT") == "1":  # set by `make run`: no Celery beat there
    from claim.tasks import start_embedded_beat

    start_embedded_beat()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from accounts.ws_auth import SocketAuthStack  # noqa: E402
from claim.logfilters import redact_tokens_in_server_logs  # noqa: E402
from claim.ws_routing import websocket_urlpatterns  # noqa: E402
from games.streams import EVENTS_PATH, GAME_PATH, WATCH_PATH  # noqa: E402

redact_tokens_in_server_logs()

# The stream paths to StreamsHandler, every other HTTP request to Django's own handler (ASGI applications
# as routes, as Channels' URLRouter takes them; django-stubs types re_path for views).
http_routes: list = [
    re_path("^" + EVENTS_PATH.removeprefix("/") + "$", streams_app),  # type: ignore[arg-type]
    re_path(GAME_PATH.pattern.replace("^/", "^", 1), streams_app),  # type: ignore[arg-type]
    re_path(WATCH_PATH.pattern.replace("^/", "^", 1), streams_app),  # type: ignore[arg-type]
    re_path("", http_app),  # type: ignore[arg-type]
]

# The socket's credential and Origin check are decided in one place (accounts/ws_auth.py).
application = ProtocolTypeRouter(
    {
        "http": URLRouter(http_routes),
        "websocket": SocketAuthStack(URLRouter(websocket_urlpatterns)),
    }
)
